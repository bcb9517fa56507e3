package load

import (
	"hash/maphash"
	"os"
	"path/filepath"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// TestRereadChecksTheText: a document whose text was dropped is read again
// from its file only if the file still holds that text where it was; a file
// changed since it was decoded leaves the finding at the document's line
// rather than at a line of other text.
func TestRereadChecksTheText(t *testing.T) {
	file := filepath.Join(t.TempDir(), "in.yaml")
	first := "kind: A\n---\nkind: HTTPRoute\nspec: {}\n"
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(first)
	docs := splitDocuments([]byte(first))
	d := docs[1]
	src := sourceDocument{src: model.Source{File: file, Line: d.line}, bodyLine: d.bodyLine, reread: true,
		sum: maphash.Bytes(bodySeed, d.body)}

	if got := (rereadFiles{}).body(src); string(got) != string(d.body) {
		t.Errorf("read again %q, want %q", got, d.body)
	}
	write("kind: A\n---\nkind: HTTPRoute\nspec: {parentRefs: [{name: other}]}\n")
	if got := (rereadFiles{}).body(src); got != nil {
		t.Errorf("a changed file gave %q, want nothing", got)
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if got := (rereadFiles{}).body(src); got != nil {
		t.Errorf("a removed file gave %q, want nothing", got)
	}
}
