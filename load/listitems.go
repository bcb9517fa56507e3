package load

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	yaml3 "go.yaml.in/yaml/v3"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// listChunk is how many of a List's items one worker decodes at a time. A
// List may hold the whole input (kubectl get -o yaml dumps a cluster as one),
// and the loader's workers share out documents: its items are shared out
// among them in chunks, so such a List is decoded on every core.
const listChunk = 64

// decodeItems decodes the items of a List document (kind is its kind) into
// out, as decoding them one by one in order does: each object, refusal and
// warning tagged with its item's index, in item order, and on the first item
// in order that fails, that item's error alone, its place in the List named.
// Chunks of items are decoded on every core, each into a decoded of its own.
func decodeItems(src model.Source, kind string, items []json.RawMessage, defaultNamespace string, adm *admission, out *decoded) {
	chunks := (len(items) + listChunk - 1) / listChunk
	workers := min(runtime.GOMAXPROCS(0), chunks)
	if workers < 2 {
		decodeItemRange(src, kind, items, 0, defaultNamespace, adm, out)
		return
	}
	parts := make([]decoded, chunks)
	var next atomic.Int64
	// failed is the first chunk known to fail: a chunk after it cannot
	// change the outcome, and is skipped.
	var failed atomic.Int64
	failed.Store(int64(len(parts)))
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				c := int(next.Add(1) - 1)
				if c >= len(parts) {
					return
				}
				if int64(c) > failed.Load() {
					continue
				}
				lo := c * listChunk
				part := &parts[c]
				part.list = true // an item that is a List is not the document's
				decodeItemRange(src, kind, items[lo:min(lo+listChunk, len(items))], lo, defaultNamespace, adm, part)
				if part.err != nil {
					for f := failed.Load(); int64(c) < f && !failed.CompareAndSwap(f, int64(c)); f = failed.Load() {
					}
				}
			}
		}()
	}
	wg.Wait()
	for i := range parts {
		p := &parts[i]
		out.objects = append(out.objects, p.objects...)
		out.skipped = append(out.skipped, p.skipped...)
		out.refused = append(out.refused, p.refused...)
		out.experimentalOnly = append(out.experimentalOnly, p.experimentalOnly...)
		if p.err != nil {
			out.err = p.err
			return
		}
	}
}

// decodeItemRange decodes items, the List's items from index first on, in
// order into out, and stops at the first that fails.
func decodeItemRange(src model.Source, kind string, items []json.RawMessage, first int, defaultNamespace string, adm *admission, out *decoded) {
	for k, item := range items {
		i := first + k
		firstObject, firstRefused, firstWarned := len(out.objects), len(out.refused), len(out.experimentalOnly)
		if len(item) > MaxDocumentBytes {
			out.err = &Error{Source: src, Err: documentTooLarge("an object", int64(len(item)))}
		} else {
			decodeJSON(src, item, defaultNamespace, adm, out)
		}
		if out.err != nil {
			// The error's line is the item's, or its field's.
			out.err.field = out.err.field.under(key("items"), index(i))
			out.err.Err = fmt.Errorf("%s %s: %w", kind, fieldPath{key("items"), index(i)}, out.err.Err)
			return
		}
		for j := firstObject; j < len(out.objects); j++ {
			out.objects[j].item = i
		}
		for j := firstRefused; j < len(out.refused); j++ {
			out.refused[j].item = i
		}
		for j := firstWarned; j < len(out.experimentalOnly); j++ {
			out.experimentalOnly[j].item = i
		}
	}
}

// blockItems are the items of a List document written in block style, as
// kubectl get -o yaml writes it, found line by line.
type blockItems struct {
	// lines[i] is the line of body (1 for its first) of item i's first key,
	// as a document's line is its first key's.
	lines []int
	// texts[i] is item i's text, from its "-" line, which is body's line
	// textLines[i]: parsed alone, as a sequence of one item, it gives the
	// item's nodes without parsing a dump of many megabytes whole.
	texts     [][]byte
	textLines []int
}

// listItemLines returns the line of body (1 for its first line) where each of
// the n items of a List document starts: the line of the item's first key, as
// a document's line is its first key's. doc reads them from its items when
// they are written in block style, and otherwise (flow style, JSON, anchors)
// parses the document. nil when the lines are not known.
func listItemLines(n int, doc *parsedDocument) []int {
	if doc.items != nil {
		return doc.items.lines
	}
	items := mappingValue(doc.object(-1), "items")
	if !sequenceOf(items, n) {
		return nil
	}
	lines := make([]int, n)
	for i, item := range items.Content {
		lines[i] = item.Line
	}
	return lines
}

// findBlockItems finds the items of a top-level block sequence "items:" by
// their "- " lines: inside an item every line is indented further than its
// dash, so a line at the dash's indentation starting with "- " is the next
// item, and one at less ends the sequence. nil when body is not written so
// or the count differs from n (the caller then parses).
func findBlockItems(body []byte, n int) *blockItems {
	items := &blockItems{lines: make([]int, 0, n), texts: make([][]byte, 0, n), textLines: make([]int, 0, n)}
	inItems := false // after the top-level "items:" line
	dash := -1       // the items' indentation, once seen
	pending := false // a "-" line whose item starts on a later line
	start := -1      // offset of the current item's "-" line
	end := func(at int) {
		if start >= 0 {
			items.texts = append(items.texts, body[start:at])
			start = -1
		}
	}
	for line, off := 1, 0; off < len(body); line++ {
		lineStart := off
		l := body[off:]
		if eol := bytes.IndexByte(l, '\n'); eol >= 0 {
			l, off = l[:eol], off+eol+1
		} else {
			off = len(body)
		}
		l = bytes.TrimRight(l, " \r")
		ind := 0
		for ind < len(l) && l[ind] == ' ' {
			ind++
		}
		if ind == len(l) || l[ind] == '#' {
			continue // blank or a comment
		}
		if l[ind] == '\t' {
			return nil
		}
		if ind == 0 && !(inItems && dash <= 0 && isDashLine(l)) {
			if isSeparator(l) || isDocumentEnd(l) || l[0] == '{' || l[0] == '[' {
				return nil
			}
			end(lineStart)
			inItems = false
			if bytes.HasPrefix(l, []byte("items:")) {
				rest := bytes.TrimSpace(l[len("items:"):])
				if len(rest) > 0 && rest[0] != '#' {
					return nil // "items: [...]" or an anchor: parse
				}
				if len(items.lines) > 0 {
					return nil // "items" twice
				}
				inItems = true
			}
			continue
		}
		if !inItems {
			continue
		}
		if pending {
			items.lines, pending = append(items.lines, line), false
			continue
		}
		if dash < 0 {
			if !isDashLine(l[ind:]) {
				return nil
			}
			dash = ind
		}
		if ind < dash {
			return nil // a top-level key indented: not what kubectl writes
		}
		if ind > dash || !isDashLine(l[ind:]) {
			continue // inside an item
		}
		end(lineStart)
		start = lineStart
		items.textLines = append(items.textLines, line)
		rest := bytes.TrimLeft(l[ind+1:], " ")
		switch {
		case len(rest) == 0 || rest[0] == '#':
			pending = true
		case rest[0] == '&' || rest[0] == '*' || rest[0] == '!' || rest[0] == '{':
			return nil
		default:
			items.lines = append(items.lines, line)
		}
	}
	end(len(body))
	if pending || len(items.lines) != n || len(items.texts) != n {
		return nil
	}
	return items
}

// isDashLine reports whether l, from its first non-space byte, is a block
// sequence entry: "-" alone or followed by a space.
func isDashLine(l []byte) bool {
	return len(l) > 0 && l[0] == '-' && (len(l) == 1 || l[1] == ' ')
}

// parseItem parses item i alone and numbers its nodes' lines as body's; nil
// when it does not parse as one item.
func (b *blockItems) parseItem(i int) *yaml3.Node {
	var doc yaml3.Node
	if yaml3.Unmarshal(b.texts[i], &doc) != nil || doc.Kind != yaml3.DocumentNode || len(doc.Content) == 0 {
		return nil
	}
	seq := doc.Content[0]
	if seq.Kind != yaml3.SequenceNode || len(seq.Content) != 1 {
		return nil
	}
	shiftLines(seq.Content[0], b.textLines[i]-1)
	return seq.Content[0]
}

func shiftLines(n *yaml3.Node, by int) {
	n.Line += by
	for _, c := range n.Content {
		shiftLines(c, by)
	}
}
