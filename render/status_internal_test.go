package render

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
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

// TestPlainJSONWord: the 8-byte test the parser skips plain string bytes with
// says a word is plain exactly when jsonPlainByte says so of each of its
// bytes, for every byte value at every position among plain neighbours (the
// borrows of the word test cross bytes) and for random words.
func TestPlainJSONWord(t *testing.T) {
	check := func(w [8]byte) {
		t.Helper()
		want := true
		for _, c := range w {
			want = want && jsonPlainByte[c]
		}
		if got := plainJSONWord(binary.LittleEndian.Uint64(w[:])); got != want {
			t.Fatalf("plainJSONWord(%q) = %v, want %v", w[:], got, want)
		}
	}
	for _, fill := range []byte{' ', '!', 'a', '~', '#', '[', ']'} {
		for pos := range 8 {
			for c := range 256 {
				var w [8]byte
				for i := range w {
					w[i] = fill
				}
				w[pos] = byte(c)
				check(w)
				// and a second odd byte below or above it
				for _, d := range []byte{0, 0x1f, '"', '\\', 0x7f, 0x80, 0xff} {
					v := w
					v[(pos+3)%8] = d
					check(v)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], r.Uint64())
		for i := range w { // mostly printable, so both answers occur
			if r.IntN(8) > 0 {
				w[i] = byte(0x20 + r.IntN(0x60))
			}
		}
		check(w)
	}
}

// TestStatusChunksBoundOutput: chunks hold at most statusChunk objects and,
// past their first, statusChunkBytes of estimated output, cover every object
// once in order, and a Gateway's listeners count: 32 Gateways of 20 listeners
// (about 2 MB of JSON) are not one chunk.
func TestStatusChunksBoundOutput(t *testing.T) {
	var objs []statusObject
	gw := &analyze.GatewayResult{Listeners: make([]*analyze.ListenerResult, 20)}
	for i := range 500 {
		o := statusObject{meta: &model.Meta{Raw: make([]byte, 100+i*37%5000)}}
		if i < 40 {
			o.result = gw
		}
		objs = append(objs, o)
	}
	for _, n := range []int{0, 1, 31, 32, 33, 40, 500} {
		b := statusChunks(objs[:n])
		if b[0] != 0 && n > 0 || b[len(b)-1] != n {
			t.Fatalf("%d objects: bounds %v do not run from 0 to %d", n, b, n)
		}
		for c := 0; c+1 < len(b); c++ {
			lo, hi := b[c], b[c+1]
			if hi <= lo || hi-lo > statusChunk {
				t.Fatalf("%d objects: chunk %d is [%d, %d)", n, c, lo, hi)
			}
			size := 0
			for _, o := range objs[lo+1 : hi] {
				size += o.estimate()
			}
			if size > statusChunkBytes {
				t.Fatalf("%d objects: chunk %d [%d, %d) estimates %d bytes past its first object", n, c, lo, hi, size)
			}
		}
	}
	if b := statusChunks(objs[:32]); len(b) < 8 {
		t.Errorf("32 Gateways of 20 listeners: %d chunks, want them split", len(b)-1)
	}
}
