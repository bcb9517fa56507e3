package fastyaml

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	yaml3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"
)

// check converts body both ways. Where ToJSON takes a document, YAMLToJSON must
// succeed on it too and give the same JSON, byte for byte (so the loader's typed
// pass sees exactly what YAMLToJSON would give it). It reports whether ToJSON
// took the document.
func check(t *testing.T, name string, body []byte) bool {
	t.Helper()
	got, h, ok := ToJSON(body)
	if !ok {
		return false
	}
	want, err := yaml.YAMLToJSON(body)
	if err != nil {
		t.Fatalf("%s: fast reader accepted a document YAMLToJSON rejects (%v):\n%s\nfast JSON: %s", name, err, body, got)
	}
	if !bytes.Equal(got, want) {
		var g, w any
		gerr, werr := json.Unmarshal(got, &g), json.Unmarshal(want, &w)
		semantic := gerr == nil && werr == nil && reflect.DeepEqual(g, w)
		t.Fatalf("%s: JSON differs (semantically equal: %v):\n%s\nfast:       %s\nYAMLToJSON: %s", name, semantic, body, got, want)
	}
	// A known header is the one encoding/json reads from the JSON.
	if h.Known {
		var jh struct {
			APIVersion string          `json:"apiVersion"`
			Kind       string          `json:"kind"`
			Items      json.RawMessage `json:"items"`
		}
		if err := json.Unmarshal(want, &jh); err != nil || jh.APIVersion != h.APIVersion || jh.Kind != h.Kind || jh.Items != nil {
			t.Fatalf("%s: header %+v, the JSON gives %+v (%v):\n%s", name, h, jh, err, body)
		}
	}
	// Placed listeners are where go.yaml.in/yaml/v3 places the items.
	if h.ListenersKnown {
		if want := yaml3ListenerLines(t, body); !slices.Equal(h.Listeners, want) {
			t.Fatalf("%s: listeners on lines %v, yaml.v3 places them on %v:\n%s", name, h.Listeners, want, body)
		}
	}
	return true
}

// yaml3ListenerLines is the line go.yaml.in/yaml/v3 gives each item of the
// top-level spec.listeners sequence of body; nil when there is none or it is
// empty.
func yaml3ListenerLines(t *testing.T, body []byte) []int {
	var doc yaml3.Node
	if err := yaml3.Unmarshal(body, &doc); err != nil {
		t.Fatalf("yaml.v3 refuses a document the fast reader took: %v\n%s", err, body)
	}
	value := func(n *yaml3.Node, key string) *yaml3.Node {
		if n == nil || n.Kind != yaml3.MappingNode {
			return nil
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				return n.Content[i+1]
			}
		}
		return nil
	}
	if len(doc.Content) == 0 {
		return nil
	}
	items := value(value(doc.Content[0], "spec"), "listeners")
	if items == nil || items.Kind != yaml3.SequenceNode {
		return nil
	}
	var lines []int
	for _, item := range items.Content {
		lines = append(lines, item.Line)
	}
	return lines
}

// equivalenceFiles are the repository's test inputs and, where they are beside
// it, the conformance inputs.
func equivalenceFiles() []string {
	var files []string
	for _, pattern := range []string{"/work/shared/conformance/*/input.yaml", "../../../shared/conformance/*/input.yaml"} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	for _, dir := range []string{"../../testdata", "../../load/testdata"} {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".json")) {
				files = append(files, p)
			}
			return nil
		})
	}
	return files
}

// documents cuts a YAML stream at its "---" lines. The loader's own splitter
// also handles content after a marker; inputs are all this needs.
func documents(data []byte) [][]byte {
	var docs [][]byte
	start := 0
	for i := 0; i < len(data); {
		next := len(data)
		if eol := bytes.IndexByte(data[i:], '\n'); eol >= 0 {
			next = i + eol + 1
		}
		if bytes.HasPrefix(data[i:next], []byte("---")) {
			docs = append(docs, data[start:i])
			start = next
		}
		i = next
	}
	return append(docs, data[start:])
}

// TestEquivalence runs every YAML file of the repository's testdata and of
// the conformance inputs through both converters.
func TestEquivalence(t *testing.T) {
	files := equivalenceFiles()
	if len(files) == 0 {
		t.Fatal("no test files found")
	}
	seen := map[string]bool{}
	fast, total := 0, 0
	for _, f := range files {
		if seen[f] {
			continue
		}
		seen[f] = true
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range documents(data) {
			total++
			if check(t, f, d) {
				fast++
			}
		}
	}
	t.Logf("%d files, %d documents, %d through the fast reader", len(seen), total, fast)
	if fast < total/2 {
		t.Errorf("only %d of %d documents took the fast reader", fast, total)
	}
}

// TestCorners pins corners of YAML 1.1 resolution and of the subset.
func TestCorners(t *testing.T) {
	for _, s := range converterSeeds {
		check(t, "corner", []byte(s))
	}
	// These must take the fast path (the common shapes).
	for _, s := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  labels:\n    b: \"1\"\n    a: yes\n",
		"a:\n- x: 1\n  z: [a, 'b', \"c\"]\n- |\n  text\n  more\n\n",
		"a: |-\n  x\n\n  y\nb: {}\nc: []\n",
	} {
		if !check(t, "common", []byte(s)) {
			t.Errorf("fast reader refused %q", s)
		}
	}
}

var converterSeeds = []string{
	"a: yes\nb: no\nc: on\nd: off\ne: y\nf: N\ng: True\nh: ~\ni: null\nj:\nk: Null\n",
	"a: 1\nb: -1\nc: +1\nd: 0x1F\ne: 017\nf: 0o17\ng: 0b101\nh: -0b101\ni: 1_000\nj: 1.5\nk: 1e3\nl: .5\nm: 1e400\nn: 18446744073709551615\no: 18446744073709551616\np: -9223372036854775808\nq: 1.0\nr: 0.0000001\ns: 1e21\nt: 1.\nu: 6.02e+23\n",
	"a: .inf\nb: -.Inf\nc: .nan\n",
	"a: 2001-12-14\nb: 2001-12-14t21:59:43.10-05:00\nc: 2001-12\nd: 1234-x\n",
	"1: a\n",
	"yes: a\n",
	"~: a\n",
	"<<: {a: 1}\nb: 2\n",
	"a: &x 1\nb: *x\n",
	"a: !!str 1\n",
	"a: 1\na: 2\n",
	"a: 1\n\"a\": 2\n",
	"Kind: X\napiVersion: v1\n",
	"kind: [X]\n",
	"kind: 1\napiVersion: v1\n",
	"items: 5\nkind: X\n",
	"a: \"<&>\"\nb: 'it''s'\nc: \"x # y\" # c\nd: x#y\ne: x # y\n",
	"a: b: c\n",
	"a: b:\n",
	"a: -\n",
	"a:\n  b\n",
	"a: b\n  c\n",
	"a:\n- 1\n- - 2\n",
	"- a\n- b\n",
	"just a string\n",
	"a: |\n  x\n   y\n  z\n",
	"a: |\n  x\n\n\n",
	"a: |-\n  x\n\n\nb: 1\n",
	"a: |+\n  x\n\n",
	"a: >\n  x\n  y\n",
	"a: |\n\n  x\n",
	"a: |\nb: 1\n",
	"- a: |\n   x\n  b: 1\n",
	"a: [a, b, c]\nb: [ ]\nc: [1, yes, \"x\"]\nd: [a,]\ne: [a: b]\nf: [[a]]\n",
	"a: {b: c}\n",
	"  a: 1\n  b: 2\n",
	"  a: 1\nb: 2\n",
	"a:\n  - x\n  - y\nb:\n- z\n",
	"a:   spaced   \n",
	"'a b': 1\n\"c\": 2\n",
	"a: 'x' y\n",
	"a: \"x\"y\n",
	"a: \"x\n  y\"\n",
	"a: x\n\tb: y\n",
	"a: x\r\nb: y\r\n",
	"a: caf\xc3\xa9\n",
	"a: \x7f\n",
	"key with spaces: v\nhttp://x: y\n",
	"a:b: c\n",
	"a :  b\n",
	"-1: x\n",
	"-a: x\n",
	".a: x\n",
	"a: -1x\nb: +x\nc: .x\nd: 0x\ne: 1e\nf: 0b2\n",
	"a:\n  # comment\n  b: 1\n# c\nc: 2 # x\n",
	"a:\n-\n- b\n-   c: 1\n    d: 2\n",
	"a: ~x\nb: nx\nc: .\nd: -\n",
	// Listeners placed on the way (Header.Listeners).
	"kind: Gateway\nspec:\n  listeners:\n  - name: a\n    port: 80\n  # c\n\n  -\n    # c\n\n    name: b\n  - |\n    x\n  - y\n  - []\n  - {}\n  -   name: c\n",
	"spec:\n  x:\n    listeners:\n    - a\n  listeners:\n  - a\nlisteners:\n- b\n",
	"spec:\n  listeners: []\n",
	"spec:\n  listeners: [a, b]\n",
	"spec:\n  listeners:\n  -\n  - a\n",
	"spec:\n  listeners:\n    - a: 1\n      b:\n      - c\n    - d\n",
	"spec:\n  listeners:\n",
	"spec:\n  listeners: x\n",
	"spec:\n  listeners:\n    a: 1\n",
	"spec:\n- listeners:\n  - a\n",
	"a:\n  spec:\n    listeners:\n    - a\n",
	"spec:\n  Listeners:\n  - a\n",
	"'spec':\n  \"listeners\":\n  - a\n",
}

// FuzzYAMLToJSONEquivalence: for any input the fast reader takes, YAMLToJSON gives
// the same JSON.
func FuzzYAMLToJSONEquivalence(f *testing.F) {
	for _, s := range converterSeeds {
		f.Add([]byte(s))
	}
	for _, p := range equivalenceFiles() {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		for i, d := range documents(data) {
			if i < 3 {
				f.Add(d)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check(t, "fuzz", data)
		for _, d := range documents(data) {
			check(t, "fuzz document", d)
		}
	})
}

// TestListenersPlaced: the fast reader places a Gateway's listeners where
// yaml.v3 does (check compares every document of TestEquivalence and of the
// fuzz target), and says when it cannot.
func TestListenersPlaced(t *testing.T) {
	for _, tc := range []struct {
		name  string
		body  string
		lines []int
		known bool
	}{
		{"items on their dash's line", "kind: Gateway\nspec:\n  listeners:\n  - name: a\n    port: 80\n  - name: b\n", []int{4, 6}, true},
		{"an item below its dash, after a comment", "spec:\n  listeners:\n  -\n    # c\n\n    name: b\n  - |\n    x\n", []int{6, 7}, true},
		{"not indented under its key", "spec:\n  gatewayClassName: x\n  listeners:\n  - a\n  tls: {}\n", []int{4}, true},
		{"no listeners", "spec:\n  x: 1\n", nil, true},
		{"listeners outside spec", "listeners:\n- a\nx:\n  spec:\n    listeners:\n    - b\n", nil, true},
		{"an empty item", "spec:\n  listeners:\n  -\n  - a\n", nil, false},
		{"a flow sequence", "spec:\n  listeners: [a]\n", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !check(t, tc.name, []byte(tc.body)) {
				t.Fatal("outside the subset")
			}
			_, h, _ := ToJSON([]byte(tc.body))
			if h.ListenersKnown != tc.known || !slices.Equal(h.Listeners, tc.lines) {
				t.Errorf("listeners %v (known %v), want %v (known %v)", h.Listeners, h.ListenersKnown, tc.lines, tc.known)
			}
		})
	}
}
