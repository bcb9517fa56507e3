package load

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"sync/atomic"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// DefaultMaxInputBytes bounds the bytes one run reads, from files and standard
// input together or from a cluster's list responses, unless the caller sets
// another limit (--max-input-bytes). 1 GiB is about eight times the largest
// benchmark configuration (300,000 routes, about 120 MB of YAML) and well under
// what a CI runner has: an input past it is a mistake (a log, a device, an
// endless pipe) far more often than a configuration.
const DefaultMaxInputBytes = 1 << 30

// MaxDocumentBytes bounds one object: a YAML document, or one item of a List.
// An object the API server stores is at most 1.5 MiB (etcd's request limit).
// A List document (kubectl get -o yaml, a support bundle) holds a cluster's
// objects, easily hundreds of megabytes: it is bounded by the run's input
// budget only, and each of its items by MaxDocumentBytes.
const MaxDocumentBytes = 16 << 20

// inputBudget counts the bytes a run reads against its limit. A cluster's kinds
// are listed concurrently, so the count is atomic.
type inputBudget struct {
	limit int64
	used  atomic.Int64
}

func newInputBudget(limit int64) *inputBudget {
	if limit <= 0 {
		limit = DefaultMaxInputBytes
	}
	return &inputBudget{limit: limit}
}

// ErrInputTooLarge is the cause of every error that refuses input past a limit.
var ErrInputTooLarge = errors.New("input too large")

// take counts n more bytes read from what (a file name, "<stdin>", a list
// request); it fails once the run has read more than its limit.
func (b *inputBudget) take(what string, n int) error {
	if b.used.Add(int64(n)) <= b.limit {
		return nil
	}
	return b.exceeded(what)
}

// spent reports whether more than the limit was read.
func (b *inputBudget) spent() bool { return b.used.Load() > b.limit }

// left is what may still be read.
func (b *inputBudget) left() int64 { return max(0, b.limit-b.used.Load()) }

func (b *inputBudget) exceeded(what string) error {
	return fmt.Errorf("%s: %w: the input is larger than %s (--max-input-bytes), the most one run reads: raise --max-input-bytes if it is meant to be this large",
		what, ErrInputTooLarge, sizeText(b.limit))
}

// readFile reads a file given to -f, or standard input when name is "-".
func readFile(name string, stdin io.Reader, budget *inputBudget) (input, error) {
	var in input
	err := streamFile(name, stdin, budget, func(name string, reread bool, chunk []byte) {
		in.name, in.reread = name, reread
		in.chunks = append(in.chunks, chunk)
	})
	if err != nil {
		return input{}, err
	}
	return in, nil
}

// streamFile reads a file given to -f, or standard input when name is "-",
// and hands emit each chunk of it as soon as it is read, with the name it is
// reported under and whether its text may be dropped once decoded
// (input.reread). A regular file is read in several chunks (readChunks),
// anything else in one. emit is called at least once unless reading fails
// before the first chunk.
func streamFile(name string, stdin io.Reader, budget *inputBudget, emit func(name string, reread bool, chunk []byte)) error {
	if name == stdinName {
		if stdin == nil {
			return errors.New("-f - given but there is no standard input")
		}
		data, err := readInput("<stdin>", stdin, 0, budget)
		if err != nil {
			return err
		}
		emit("<stdin>", false, data)
		return nil
	}
	f, err := os.Open(name)
	if err != nil {
		return fmt.Errorf("%s: %w", name, pathError(err))
	}
	defer f.Close()
	var size int64
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
		if size > budget.left() {
			return budget.exceeded(name)
		}
	}
	if size > 0 {
		return readChunks(name, f, size, budget, func(chunk []byte) { emit(name, true, chunk) })
	}
	data, err := readInput(name, f, size, budget)
	if err != nil {
		return err
	}
	emit(name, false, data)
	return nil
}

// fileChunk is about how much of a regular file is read into one buffer. A
// file is read in buffers of its own rather than into one, so that the
// buffers of the documents already decoded are garbage while the rest are
// decoded: at 100k routes the file is 40 MB that would otherwise stay live
// until the load ends, while the model grows beside it.
var fileChunk = 4 << 20

// readChunks reads a regular file (its size is within the budget) into
// buffers that each end where a line that starts a document ("---") begins,
// so that splitting each buffer finds the documents splitting the whole file
// would (splitDocuments). A buffer with no such line grows until it holds
// one, or the file ends: a List of any size is one buffer.
//
// size is the file's size when it was opened: a buffer that must grow grows
// to hold the rest of the file and one byte more (to see its end), not to
// twice its size, so a 40 MB List is read into one buffer of 40 MB. A file
// that grows while it is read is read to its end all the same.
//
// Each buffer is handed to emit as soon as it is cut, so that its documents
// are decoded while the rest of the file is read; the last one may be empty
// only if it is the only one (an empty file).
func readChunks(name string, r io.Reader, size int64, budget *inputBudget, emit func([]byte)) error {
	emitted := false
	var carry []byte // the start of the next buffer's first document
	var read int64   // bytes read so far
	for {
		room := max(len(carry)+fileChunk, 2*len(carry))
		if rest := size - read; rest >= 0 && int64(room-len(carry)) > rest+1 {
			room = len(carry) + int(rest) + 1
		}
		buf := make([]byte, len(carry), room)
		copy(buf, carry)
		n, err := io.ReadFull(r, buf[len(carry):cap(buf)])
		buf = buf[:len(carry)+n]
		read += int64(n)
		if n > 0 {
			if err := budget.take(name, n); err != nil {
				return err
			}
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			if len(buf) > 0 || !emitted {
				emit(buf)
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading %s: %w", name, err)
		}
		cut := lastSeparatorLine(buf)
		if cut <= 0 {
			carry = buf
			continue
		}
		emit(buf[:cut:cut])
		emitted = true
		carry = buf[cut:]
	}
}

// lastSeparatorLine is where the last complete line of buf that is a
// document separator starts, other than buf's first line; 0 when there is
// none.
func lastSeparatorLine(buf []byte) int {
	end := len(buf)
	for {
		i := bytes.LastIndex(buf[:end], []byte("\n---"))
		if i < 0 {
			return 0
		}
		start := i + 1
		if eol := bytes.IndexByte(buf[start:], '\n'); eol >= 0 && isSeparator(buf[start:start+eol+1]) {
			return start
		}
		end = i
	}
}

// readChunk is how much is read at once from a stream of unknown size.
const readChunk = 64 << 10

// readInput reads r to its end. It stops as soon as the run's budget is spent
// or, in a stream, one document (the text between "---" lines) other than a
// List grows past MaxDocumentBytes, so that an endless stream (yes | ..., /dev/zero) is refused
// after a bounded read instead of after memory runs out. size is r's size when
// known (a regular file), else 0; a file of known size is within the budget,
// and its documents are measured when they are decoded.
func readInput(name string, r io.Reader, size int64, budget *inputBudget) ([]byte, error) {
	buf := make([]byte, 0, max(size+1, readChunk))
	var doc documentBounds
	for {
		if len(buf) == cap(buf) {
			// Doubling keeps what growing allocates under twice the input;
			// no more is allocated than the budget lets be read, and a chunk
			// to find out that it is spent.
			grown := min(2*cap(buf), len(buf)+int(min(budget.left(), math.MaxInt32))+readChunk)
			buf = append(make([]byte, 0, grown), buf...)
		}
		end := cap(buf)
		if size == 0 {
			// A stream is read a chunk at a time, so that it is read no
			// further than a chunk past a limit.
			end = min(end, len(buf)+readChunk)
		}
		n, err := r.Read(buf[len(buf):end])
		buf = buf[:len(buf)+n]
		if n > 0 {
			if err := budget.take(name, n); err != nil {
				return nil, err
			}
			if size == 0 && doc.advance(buf) > MaxDocumentBytes && !doc.isList(buf) {
				return nil, &Error{Source: model.Source{File: name, Line: doc.line}, Err: documentTooLarge("a document", 0)}
			}
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			if name == "<stdin>" {
				name = "standard input"
			}
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
	}
}

// documentBounds follows where the current document of a stream being read
// starts, looking only at lines it has not seen.
type documentBounds struct {
	start   int // offset of the current document
	line    int // its first line
	scanned int // offset of the first line not yet looked at
	lines   int // lines before scanned
	// list: the current document is a List (isListHead), once decided.
	list, decided bool
}

// isList reports whether the current document of buf is a List, deciding
// once per document.
func (d *documentBounds) isList(buf []byte) bool {
	if !d.decided {
		d.list, d.decided = isListHead(buf[d.start:]), true
	}
	return d.list
}

// advance looks at the complete lines of buf it has not seen and returns the
// length of the current document so far.
func (d *documentBounds) advance(buf []byte) int {
	if d.line == 0 {
		d.line = 1
	}
	for {
		eol := bytes.IndexByte(buf[d.scanned:], '\n')
		if eol < 0 {
			break
		}
		l := buf[d.scanned : d.scanned+eol+1]
		d.scanned += eol + 1
		d.lines++
		if isSeparator(l) || isDocumentEnd(l) {
			d.start, d.line = d.scanned, d.lines+1
			d.list, d.decided = false, false
		}
	}
	return len(buf) - d.start
}

// documentTooLarge is the error for what (a document other than a List, or an
// item of one) longer than MaxDocumentBytes; n is its length when known.
func documentTooLarge(what string, n int64) error {
	of := ""
	if n > 0 {
		of = " of " + sizeText(n) + ","
	}
	return fmt.Errorf("%w: %s%s longer than %s, the most one object may hold: split it into several documents (or the items of a List, which may be as large as --max-input-bytes)",
		ErrInputTooLarge, what, of, sizeText(MaxDocumentBytes))
}

// sizeText writes a byte count as a person reads it: 16 MiB, 1 GiB, 1500 bytes.
func sizeText(n int64) string {
	for _, u := range []struct {
		shift uint
		name  string
	}{{30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return strconv.FormatInt(n>>u.shift, 10) + " " + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
