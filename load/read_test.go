package load

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
)

// endless serves pattern forever, as `yes` or /dev/zero do, counting what it
// served.
type endless struct {
	pattern string
	served  int64
}

func (e *endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		n += copy(p[n:], e.pattern[int(e.served+int64(n))%len(e.pattern):])
	}
	e.served += int64(n)
	return n, nil
}

// allocatedDuring returns the bytes f allocated: an upper bound of the memory
// it held at its peak.
func allocatedDuring(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestEndlessInputIsRefusedWhileReading: the caps apply while reading, so an
// endless stream is refused after a bounded read and bounded memory, with a
// message that names the limit and what to do.
func TestEndlessInputIsRefusedWhileReading(t *testing.T) {
	tests := []struct {
		name     string
		pattern  string
		maxInput int64
		// The error names the place and says what to do; the stream is read no
		// further than the limit that applies, and a chunk.
		wantLine int
		want     []string
		limit    int64
	}{
		{
			name:     "one endless document (yes 'a: b')",
			pattern:  "a: b\n",
			wantLine: 1,
			want:     []string{"<stdin>:1: ", "a document longer than 16 MiB", "split it"},
			limit:    MaxDocumentBytes,
		},
		{
			name:     "one endless line (/dev/zero)",
			pattern:  "\x00",
			wantLine: 1,
			want:     []string{"a document longer than 16 MiB"},
			limit:    MaxDocumentBytes,
		},
		{
			name:     "endless small documents stop at the input cap",
			pattern:  "a: b\n---\n",
			maxInput: 4 << 20,
			want:     []string{"<stdin>: ", "larger than 4 MiB (--max-input-bytes)", "raise --max-input-bytes"},
			limit:    4 << 20,
		},
		{
			name:     "endless documents after a few good ones: the document that grows names its line",
			pattern:  "",
			wantLine: 6,
			want:     []string{"<stdin>:6: ", "a document longer than 16 MiB"},
			limit:    MaxDocumentBytes + 64,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r interface{ Read([]byte) (int, error) }
			src := &endless{pattern: tt.pattern}
			r = src
			if tt.pattern == "" {
				src.pattern = "a: b\n"
				r = multiReader(strings.NewReader(cm("a")+"---\n"), src)
			}
			var err error
			alloc := allocatedDuring(func() {
				_, err = Files(FileOptions{Filenames: []string{"-"}, Stdin: r, MaxInputBytes: tt.maxInput})
			})
			if err == nil {
				t.Fatal("an endless input was read to its end")
			}
			if !errors.Is(err, ErrInputTooLarge) {
				t.Errorf("error %v does not wrap ErrInputTooLarge", err)
			}
			var le *Error
			if tt.wantLine > 0 && (!errors.As(err, &le) || le.Source.Line != tt.wantLine) {
				t.Errorf("error %v, want a *load.Error at line %d", err, tt.wantLine)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if src.served > tt.limit+2*readChunk {
				t.Errorf("read %d bytes of an input refused at %d", src.served, tt.limit)
			}
			// Doubling a buffer past the limit allocates four times the
			// limit at most.
			if alloc > uint64(4*tt.limit+8<<20) {
				t.Errorf("allocated %d MiB to refuse an input at %d MiB", alloc>>20, tt.limit>>20)
			}
		})
	}
}

func multiReader(first *strings.Reader, then *endless) *chain { return &chain{first, then} }

type chain struct {
	first *strings.Reader
	then  *endless
}

func (c *chain) Read(p []byte) (int, error) {
	if c.first.Len() > 0 {
		return c.first.Read(p)
	}
	return c.then.Read(p)
}

// TestDevZero: a device given with -f is read as a stream and refused at the
// document cap.
func TestDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	_, err := Files(FileOptions{Filenames: []string{"/dev/zero"}})
	if !errors.Is(err, ErrInputTooLarge) || !strings.HasPrefix(err.Error(), "/dev/zero:1: ") {
		t.Errorf("err = %v, want /dev/zero:1: ... too large", err)
	}
}

// TestInputCapCountsEveryFile: the cap is for the run, every file together;
// a regular file past what is left is refused before it is read.
func TestInputCapCountsEveryFile(t *testing.T) {
	dir := tree(t, map[string]string{"a.yaml": cm("a"), "b.yaml": cm("b")})
	a, b := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml")
	size := int64(len(cm("a")))
	if _, err := Files(FileOptions{Filenames: []string{a, b}, MaxInputBytes: 2 * size}); err != nil {
		t.Errorf("two files within the cap: %v", err)
	}
	_, err := Files(FileOptions{Filenames: []string{a, b}, MaxInputBytes: 2*size - 1})
	if !errors.Is(err, ErrInputTooLarge) || !strings.HasPrefix(err.Error(), b+": ") {
		t.Errorf("err = %v, want the second file refused", err)
	}
}

// TestDocumentBoundsAcrossReads: the reader sees separators however the
// stream is cut, and names the line the oversized document starts on.
func TestDocumentBoundsAcrossReads(t *testing.T) {
	line := "k: " + strings.Repeat("x", 1000) + "\n"
	big := strings.Repeat(line, MaxDocumentBytes/1000)
	half := strings.Repeat(line, MaxDocumentBytes/len(line)/2)
	in := cm("a") + "--- # second\n" + cm("b") + "...\n" + big
	_, err := readInput("in", iotest.HalfReader(strings.NewReader(in)), 0, newInputBudget(0))
	var le *Error
	if !errors.As(err, &le) || le.Source.Line != 11 {
		t.Fatalf("err = %v, want a document too large at in:11", err)
	}
	ok := cm("a") + "---\n" + half + "---\n" + half
	if _, err := readInput("in", iotest.OneByteReader(strings.NewReader(ok[:4096]+"---\n")), 0, newInputBudget(0)); err != nil {
		t.Errorf("one byte at a time: %v", err)
	}
	if _, err := readInput("in", iotest.HalfReader(strings.NewReader(ok)), 0, newInputBudget(0)); err != nil {
		t.Errorf("two documents under the cap: %v", err)
	}
}

func TestSizeText(t *testing.T) {
	for n, want := range map[int64]string{1 << 30: "1 GiB", 16 << 20: "16 MiB", 3 << 10: "3 KiB", 1500: "1500 bytes", 5<<30 + 1: "5368709121 bytes"} {
		if got := sizeText(n); got != want {
			t.Errorf("sizeText(%d) = %q, want %q", n, got, want)
		}
	}
}
