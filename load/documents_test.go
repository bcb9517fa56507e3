package load

import (
	"bytes"
	"fmt"
	"testing"
	"unsafe"
)

func TestSplitDocuments(t *testing.T) {
	type doc struct {
		line int
		body string
	}
	tests := []struct {
		name string
		in   string
		want []doc
	}{
		{"empty", "", nil},
		{"only separator", "---\n", nil},
		{"single doc", "a: 1\nb: 2\n", []doc{{1, "a: 1\nb: 2\n"}}},
		{"two docs", "a: 1\n---\nb: 2\n", []doc{{1, "a: 1\n"}, {3, "b: 2\n"}}},
		{"leading separator", "---\na: 1\n", []doc{{2, "a: 1\n"}}},
		{"separator with comment", "--- # first\na: 1\n--- # second\nb: 2\n", []doc{{2, "a: 1\n"}, {4, "b: 2\n"}}},
		{"separator with trailing space and tab", "--- \na: 1\n---\t\nb: 2\n", []doc{{2, "a: 1\n"}, {4, "b: 2\n"}}},
		{"document end marker", "a: 1\n...\nb: 2\n", []doc{{1, "a: 1\n"}, {3, "b: 2\n"}}},
		{"document end then separator", "a: 1\n...\n---\nb: 2\n...\n", []doc{{1, "a: 1\n"}, {4, "b: 2\n"}}},
		{"leading comments and blanks", "# header\n\n# more\na: 1\n", []doc{{4, "# header\n\n# more\na: 1\n"}}},
		{"comments after separator", "a: 1\n---\n# about b\n\n  \nb: 2\n", []doc{{1, "a: 1\n"}, {6, "# about b\n\n  \nb: 2\n"}}},
		{"blank and comment-only docs dropped", "---\n---\n\n---\n# only a comment\n---\n   \n---\na: 1\n---\n", []doc{{9, "a: 1\n"}}},
		{"directive document dropped", "%YAML 1.2\n---\na: 1\n", []doc{{3, "a: 1\n"}}},
		{"CRLF", "a: 1\r\n---\r\nb: 2\r\n--- # c\r\n\r\nc: 3\r\n", []doc{{1, "a: 1\r\n"}, {3, "b: 2\r\n"}, {6, "\r\nc: 3\r\n"}}},
		{"CRLF document end", "a: 1\r\n...\r\nb: 2\r\n", []doc{{1, "a: 1\r\n"}, {3, "b: 2\r\n"}}},
		{"no trailing newline", "a: 1\n---\nb: 2", []doc{{1, "a: 1\n"}, {3, "b: 2"}}},
		{"no trailing newline after separator", "a: 1\n---", []doc{{1, "a: 1\n"}}},
		{"indented --- is content", "a: |\n  ---\n  x\n", []doc{{1, "a: |\n  ---\n  x\n"}}},
		{"---foo is not a separator", "---foo: 1\n", []doc{{1, "---foo: 1\n"}}},
		{"....is not a document end", "a: 1\n....\n", []doc{{1, "a: 1\n....\n"}}},
		{"many docs", "a: 1\n---\n---\nb: 2\n---\n\n\nc: 3\n", []doc{{1, "a: 1\n"}, {4, "b: 2\n"}, {8, "\n\nc: 3\n"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := splitDocuments([]byte(tt.in))
			if len(got) != len(tt.want) {
				t.Fatalf("splitDocuments(%q) = %d documents %v, want %d %v", tt.in, len(got), describe(got), len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				if got[i].line != w.line || string(got[i].body) != w.body {
					t.Errorf("document %d = {line %d, %q}, want {line %d, %q}", i, got[i].line, got[i].body, w.line, w.body)
				}
			}
		})
	}
}

// TestSplitDocumentsContentAfterSeparator: YAML allows a document to begin on its
// "---" line ("--- {a: 1}", "--- !!map", "--- |"). kubectl's YAML reader refuses such a
// line with an error; the loader must not silently drop what follows the marker.
func TestSplitDocumentsContentAfterSeparator(t *testing.T) {
	in := "--- {apiVersion: v1, kind: ConfigMap, metadata: {name: inline}}\n"
	docs := splitDocuments([]byte(in))
	covered := false
	for _, d := range docs {
		if bytes.Contains(d.body, []byte("inline")) {
			covered = true
		}
	}
	if !covered {
		t.Errorf("content on a '--- ' line was dropped: %s", describe(docs))
	}
}

func describe(docs []document) []string {
	var s []string
	for _, d := range docs {
		s = append(s, fmt.Sprintf("%d:%q", d.line, d.body))
	}
	return s
}

func offsetIn(data, sub []byte) int {
	if len(sub) == 0 || len(data) == 0 {
		return -1
	}
	off := int(uintptr(unsafe.Pointer(unsafe.SliceData(sub))) - uintptr(unsafe.Pointer(unsafe.SliceData(data))))
	if off < 0 || off+len(sub) > len(data) {
		return -1
	}
	return off
}

func FuzzSplitDocuments(f *testing.F) {
	for _, s := range []string{
		"", "---", "---\n", "a: 1\n---\nb: 2\n", "--- # c\r\na: 1\r\n...\r\n", "# c\n\n%YAML 1.2\n---\nx\n",
		"a: |\n  ---\n  x\n", "...\n...\n", "\n\n\n---\n\n", "a: 1\n---\nb: 2",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		docs := splitDocuments(data)
		prevLine, prevEnd := 0, 0
		for i, d := range docs {
			if d.line <= prevLine {
				t.Fatalf("document %d line %d does not increase (previous %d)", i, d.line, prevLine)
			}
			prevLine = d.line
			off := offsetIn(data, d.body)
			if off < 0 {
				t.Fatalf("document %d body %q is not a sub-slice of the input", i, d.body)
			}
			if off < prevEnd {
				t.Fatalf("document %d overlaps the previous one", i)
			}
			prevEnd = off + len(d.body)
			start := lineOf(data, off)
			if d.line < start || d.line > start+bytes.Count(d.body, []byte("\n")) {
				t.Fatalf("document %d line %d is outside its body (lines %d..)", i, d.line, start)
			}
			// The recorded line holds content: not blank, not a comment.
			lines := bytes.Split(data, []byte("\n"))
			if l := bytes.TrimSpace(lines[d.line-1]); len(l) == 0 || l[0] == '#' {
				t.Fatalf("document %d line %d is %q, not its first content line", i, d.line, lines[d.line-1])
			}
		}
		// Every content line (not blank, not a comment, not a marker, not a directive)
		// is inside some document.
		covered := make([]bool, len(data)+1)
		for _, d := range docs {
			off := offsetIn(data, d.body)
			for j := off; j < off+len(d.body); j++ {
				covered[j] = true
			}
		}
		pos := 0
		for n, l := range bytes.SplitAfter(data, []byte("\n")) {
			t0 := bytes.TrimSpace(l)
			content := len(t0) > 0 && t0[0] != '#' && t0[0] != '%' && !isSeparator(l) && !isDocumentEnd(l)
			if content && !covered[pos] {
				t.Fatalf("line %d %q is in no document", n+1, l)
			}
			pos += len(l)
		}
	})
}
