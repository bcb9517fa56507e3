package render

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// TestWriteStatusStopsAtFailingObject: an object the writer cannot read stops
// the output where it stands, as writing the objects one by one would: what
// reaches the writer is a prefix of the objects before it, and the error
// names its source, wherever it falls in a chunk (first, middle, last, alone
// in the last chunk) and whichever slot renders it.
func TestWriteStatusStopsAtFailingObject(t *testing.T) {
	// Objects of about 3 KB: the output passes the 64 KB buffer often, so
	// some of it is written before the failing object is reached.
	objs := make([]statusObject, 400)
	for i := range objs {
		raw := fmt.Sprintf(`{"kind":"Thing","metadata":{"name":"o-%d"},"spec":{"text":%q}}`, i, strings.Repeat("x", 3000))
		objs[i] = statusObject{meta: &model.Meta{Raw: []byte(raw), Source: model.Source{File: "in.yaml", Line: i + 1}}}
	}
	encode := func(t *statusTree, b []byte, o statusObject) ([]byte, error) {
		it, err := o.item(true)
		if err != nil {
			return b, err
		}
		return append(b, it["metadata"].(map[string]any)["name"].(string)+" "+it["spec"].(map[string]any)["text"].(string)...), nil
	}
	for _, bad := range []int{0, 1, statusChunk - 1, statusChunk, 5*statusChunk + 7, 300, len(objs) - 1} {
		var want bytes.Buffer
		if err := writeStatus(&want, objs[:bad], encode, "\n---\n"); err != nil {
			t.Fatal(err)
		}
		failing := append([]statusObject(nil), objs...)
		failing[bad] = statusObject{meta: &model.Meta{Raw: []byte(`{"kind":`), Source: model.Source{File: "in.yaml", Line: 9999}}}
		var got bytes.Buffer
		err := writeStatus(&got, failing, encode, "\n---\n")
		if err == nil || !strings.Contains(err.Error(), "in.yaml:9999") {
			t.Fatalf("object %d fails: error %v, want one naming in.yaml:9999", bad, err)
		}
		if !bytes.HasPrefix(want.Bytes(), got.Bytes()) {
			t.Fatalf("object %d fails: %d bytes written are not a prefix of the %d bytes of the objects before it", bad, got.Len(), want.Len())
		}
		if bad > 100 && got.Len() < want.Len()-(64<<10) {
			t.Errorf("object %d fails: %d bytes written, want all but the buffer's last of %d", bad, got.Len(), want.Len())
		}
	}
}
