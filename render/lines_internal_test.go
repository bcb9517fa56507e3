package render

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// TestWriteLinesOnEveryCore: a line array large enough to be encoded on
// every core is written byte for byte as one encoder writes it item after
// item, at every size around the batches' bounds; and an item that fails
// stops the array where it does, with what came before it written.
func TestWriteLinesOnEveryCore(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one core: nothing is encoded in parallel")
	}
	type item struct {
		N    int               `json:"n"`
		Name string            `json:"name"`
		Tags map[string]string `json:"tags,omitempty"`
	}
	items := func(i int) any {
		it := item{N: i, Name: strings.Repeat("<x>&", i%7)}
		if i%3 == 0 {
			it.Tags = map[string]string{"b": "2", "a": fmt.Sprint(i)}
		}
		return it
	}
	serial := func(n int, item func(int) any) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n    ")
			var line bytes.Buffer
			enc := json.NewEncoder(&line)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(item(i)); err != nil {
				return b.String()
			}
			b.Write(bytes.TrimSuffix(line.Bytes(), []byte("\n")))
		}
		return b.String()
	}
	if cores(2*coreShare) < 2 {
		t.Fatalf("cores(%d) = 1: the test would not encode in parallel", 2*coreShare)
	}
	for _, n := range []int{0, 1, 2*coreShare - 1, 2 * coreShare, 2*coreShare + 2*lineBatchItems, 3*coreShare + lineBatchItems + 1} {
		var out bytes.Buffer
		bw := bufio.NewWriter(&out)
		if err := writeLines(bw, n, readOnly(items)); err != nil {
			t.Fatal(err)
		}
		bw.Flush()
		if want := serial(n, items); out.String() != want {
			t.Errorf("%d items: written on every core, %d bytes differ from one encoder's %d", n, out.Len(), len(want))
		}
	}
	n, bad := 3*coreShare, 2*coreShare+lineBatchItems+5
	failing := func(i int) any {
		if i == bad {
			return func() {} // encoding/json cannot encode a func
		}
		return items(i)
	}
	var out bytes.Buffer
	bw := bufio.NewWriter(&out)
	err := writeLines(bw, n, readOnly(failing))
	var unsupported *json.UnsupportedTypeError
	if !errors.As(err, &unsupported) {
		t.Fatalf("error %v, want the failing item's", err)
	}
	bw.Flush()
	if want := serial(bad, items) + ",\n    "; out.String() != want {
		t.Errorf("written before the failing item: %d bytes, want %d", out.Len(), len(want))
	}
}

// TestWriteLinesItemsOfTheirOwn: an item built in room its function reuses
// from call to call, as the report's listeners are (Listeners.each), is
// written as one encoder writes it item after item, although batches are
// encoded on every core at once: each goroutine has a function of its own.
// With one function shared by every goroutine, the items overwrite each
// other while they are encoded.
func TestWriteLinesItemsOfTheirOwn(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one core: nothing is encoded in parallel")
	}
	type item struct {
		N     int   `json:"n"`
		Parts []int `json:"parts"`
	}
	fill := func(it *item, i int) {
		it.N = i
		if it.Parts == nil {
			it.Parts = []int{}
		}
		it.Parts = it.Parts[:0]
		for j := range i % 50 {
			it.Parts = append(it.Parts, i+j)
		}
	}
	items := func() func(i int) any {
		var it item
		return func(i int) any {
			fill(&it, i)
			return &it
		}
	}
	n := 4*coreShare + 3
	var want strings.Builder
	for i := range n {
		if i > 0 {
			want.WriteString(",")
		}
		var it item
		fill(&it, i)
		b, _ := json.Marshal(it)
		want.WriteString("\n    ")
		want.Write(b)
	}
	var out bytes.Buffer
	bw := bufio.NewWriter(&out)
	if err := writeLines(bw, n, items); err != nil {
		t.Fatal(err)
	}
	bw.Flush()
	if out.String() != want.String() {
		t.Errorf("items built in reused room: %d bytes written differ from one encoder's %d", out.Len(), want.Len())
	}
}

// TestIndentedListIsMarshalIndent: IndentedList writes a list byte for byte
// as json.MarshalIndent(list, "", "  ") and a newline do, HTML escaped as it
// escapes it, at sizes written on one core and on every core.
func TestIndentedListIsMarshalIndent(t *testing.T) {
	type item struct {
		N    int               `json:"n"`
		Name string            `json:"name"`
		Tags map[string]string `json:"tags,omitempty"`
		List []string          `json:"list"`
	}
	for _, n := range []int{0, 1, 2, 2*coreShare - 1, 2*coreShare + 3*lineBatchItems + 5} {
		list := make([]item, n)
		for i := range list {
			list[i] = item{N: i, Name: strings.Repeat("<x>&", i%5), List: []string{}}
			if i%3 == 0 {
				list[i].Tags = map[string]string{"b": "2", "a": fmt.Sprint(i)}
				list[i].List = []string{"p", "q"}
			}
		}
		want, err := json.MarshalIndent(list, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := IndentedList(&out, n, readOnly(func(i int) any { return &list[i] })); err != nil {
			t.Fatal(err)
		}
		if got := out.String(); got != string(want)+"\n" {
			t.Errorf("%d items: %d bytes written differ from MarshalIndent's %d", n, len(got), len(want)+1)
		}
	}
}
