package load

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bigList is a List of namespaces as kubectl get -o yaml writes it, of at
// least size bytes.
func bigList(size int) (string, int) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nitems:\n")
	n := 0
	for b.Len() < size {
		fmt.Fprintf(&b, "- apiVersion: v1\n  kind: Namespace\n  metadata:\n    labels:\n      team: t%d\n    name: ns-%d\n", n, n)
		n++
	}
	b.WriteString("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
	return b.String(), n
}

// TestListLargerThanADocument: a List dump may be larger than
// MaxDocumentBytes, from a file or a stream, each item at its own line; a
// document of another kind that large is still refused; and the run's input
// budget still stops a List.
func TestListLargerThanADocument(t *testing.T) {
	list, n := bigList(MaxDocumentBytes + 1<<20)
	p := filepath.Join(t.TempDir(), "dump.yaml")
	if err := os.WriteFile(p, []byte(list), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, opts := range map[string]FileOptions{
		"file":   {Filenames: []string{p}},
		"stream": {Filenames: []string{"-"}, Stdin: strings.NewReader(list)},
	} {
		t.Run(name, func(t *testing.T) {
			opts.Admission = Admission{Off: true}
			m, err := Files(opts)
			if err != nil {
				t.Fatalf("a List of %d MiB: %v", len(list)>>20, err)
			}
			if len(m.Namespaces) != n {
				t.Fatalf("%d namespaces, want %d", len(m.Namespaces), n)
			}
			if last := m.Namespaces[n-1]; last.Source.Line != 3+6*(n-1) {
				t.Errorf("item %d at line %d, want %d", n-1, last.Source.Line, 3+6*(n-1))
			}
			opts.MaxInputBytes = MaxDocumentBytes
			if opts.Stdin != nil {
				opts.Stdin = strings.NewReader(list)
			}
			_, err = Files(opts)
			if !errors.Is(err, ErrInputTooLarge) || !strings.Contains(err.Error(), "(--max-input-bytes)") {
				t.Errorf("a List past the input budget: %v, want the budget's error", err)
			}
		})
	}

	// The same bytes as one ConfigMap are refused, from a file or a stream.
	cmDoc := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n" + manyKeys("  ", MaxDocumentBytes+1<<20)
	if err := os.WriteFile(p, []byte(cmDoc), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, opts := range map[string]FileOptions{
		"file":   {Filenames: []string{p}},
		"stream": {Filenames: []string{"-"}, Stdin: strings.NewReader(cmDoc)},
	} {
		_, err := Files(opts)
		if !errors.Is(err, ErrInputTooLarge) || !strings.Contains(err.Error(), "longer than 16 MiB, the most one object may hold") {
			t.Errorf("%s: a ConfigMap of %d MiB: %v, want it refused", name, len(cmDoc)>>20, err)
		}
	}
}

// TestListItemLargerThanAnObject: the per-object bound holds for each item
// of a List, named with its line.
func TestListItemLargerThanAnObject(t *testing.T) {
	list := "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Namespace\n  metadata:\n    name: a\n" +
		"- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: big\n  data:\n" +
		manyKeys("    ", MaxDocumentBytes+2<<20) + "kind: List\n"
	le, p := mustFail(t, list)
	if le.Source.Line != 7 || !errors.Is(le, ErrInputTooLarge) || !strings.Contains(le.Error(), "List items[1]: ") {
		t.Errorf("err = %v, want %s:7 naming List items[1], too large", le, p)
	}
}

// manyKeys is a mapping's distinct keys, indented, of at least size bytes.
func manyKeys(indent string, size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "%sk%d-%s: v\n", indent, i, strings.Repeat("x", 90))
	}
	return b.String()
}

func TestIsListHead(t *testing.T) {
	for _, tc := range []struct {
		name string
		head string
		want bool
	}{
		{"kubectl get -o yaml", "apiVersion: v1\nitems:\n- apiVersion: v1\n", true},
		{"kubectl get -o json", "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n        {\n", true},
		{"compact JSON", `{"kind":"List","metadata":{"items":1},"items":[{"kind":"A"`, true},
		{"metadata before items", "# dump\n---\nkind: List\nmetadata:\n  resourceVersion: \"\"\n  items: x\nitems:\n", true},
		{"quoted key", "\"items\":\n- a\n", true},
		{"an object", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  items: a\n", false},
		{"items after another field", "apiVersion: v1\nkind: X\nspec: {}\nitems:\n", false},
		{"items nested in JSON", `{"kind":"X","spec":{"items":[`, false},
		{"yes 'a: b'", strings.Repeat("a: b\n", 100), false},
		{"/dev/zero", strings.Repeat("\x00", 100), false},
		{"a sequence", "- items: []\n", false},
		{"items past the head", "kind: List\nmetadata:\n" + strings.Repeat("  x: y\n", listHeadBytes/7+1) + "items:\n", false},
	} {
		if got := isListHead([]byte(tc.head)); got != tc.want {
			t.Errorf("%s: isListHead = %v, want %v", tc.name, got, tc.want)
		}
	}
}
