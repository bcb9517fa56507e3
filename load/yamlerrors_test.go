package load

import (
	"strings"
	"testing"
)

// TestSyntaxErrorLines: a YAML syntax error is at the line a person must look
// at. The parser reports its parser errors a line early, none at all for some
// errors, and an unclosed quote at the end of the stream.
func TestSyntaxErrorLines(t *testing.T) {
	const before = goodDoc + "---\n" // the broken document starts on line 6
	tests := []struct {
		name string
		doc  string
		line int // in the broken document
		want string
	}{
		{"a key indented less than its siblings", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  labels:\n    a: b\n   c: d\n", 7, "did not find expected key"},
		{"a list item among keys", "apiVersion: v1\nkind: ConfigMap\n- x\n", 3, "did not find expected key"},
		{"a key after list items", "a:\n  - b\n  c: d\n", 3, "did not find expected '-' indicator"},
		{"a key on the document's first line after a list", "- a\nb: c\n", 2, "did not find expected '-' indicator"},
		{"a value that is a mapping on one line", "a: 1\nb: c: d\n", 2, "mapping values are not allowed"},
		{"a tab for indentation", "a:\n\tb: c\n", 2, "found character that cannot start any token"},
		{"a quote never closed", "a: 1\nb: \"abc\nc: 3\n", 2, "a quote or bracket opened on this line is not closed"},
		{"a bracket never closed", "a: 1\nb: [1, 2\n", 2, "a quote or bracket opened on this line is not closed"},
		{"a bracket closed too late", "a: 1\nb: [1, 2\nc: 3\n", 3, "(in the flow collection opened on line 7)"},
		{"invalid UTF-8", "a: 1\nb: 2\nc: caf\xe9\n", 3, "invalid UTF-8 (byte 0xe9): save the file as UTF-8"},
		{"a control character", "a: 1\nb: \x01\n", 2, "the control character U+0001 is not allowed"},
		{"an alias without an anchor", "a: 1\nb: *nowhere\n", 2, "the alias *nowhere names no anchor"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			le, p := mustFail(t, before+tt.doc)
			want := 5 + tt.line
			if le.Source.File != p || le.Source.Line != want {
				t.Errorf("error at %v, want line %d", le.Source, want)
			}
			if !strings.Contains(le.Error(), tt.want) || !strings.Contains(le.Error(), "malformed YAML") {
				t.Errorf("error %q does not contain %q", le, tt.want)
			}
		})
	}
}
