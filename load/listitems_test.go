package load

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestListItemLines checks the line-by-line reading of a List's items against
// the YAML parser's, on the shapes kubectl writes and on those it does not.
func TestListItemLines(t *testing.T) {
	for _, tc := range []struct {
		name string
		body string
		want []int
		// scanned: the lines are read without parsing.
		scanned bool
	}{
		{"kubectl get -o yaml", "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: A\n- apiVersion: v1\n  kind: B\nkind: List\nmetadata:\n  resourceVersion: \"\"\n", []int{3, 5}, true},
		{"indented sequence", "kind: List\nitems:\n  - kind: A\n    x: 1\n  - kind: B\napiVersion: v1\n", []int{3, 5}, true},
		{"dash alone: the first key's line", "kind: List\nitems:\n-\n  kind: A\n- # b\n\n  kind: B\n", []int{4, 7}, true},
		{"comments and blank lines", "# dump\nitems:\n# first\n- kind: A\n\n# second\n- kind: B\n  # inside\n", []int{4, 7}, true},
		{"block scalar holding dashes", "items:\n- kind: A\n  data: |\n    - not an item\n    -\n- kind: B\nkind: List\n", []int{2, 6}, true},
		{"nested sequences", "items:\n- kind: A\n  list:\n  - a\n  - b\n- kind: B\n", []int{2, 6}, true},
		{"items under another key are not the List's", "metadata:\n  items:\n  - x\nitems:\n- kind: A\n", []int{5}, true},
		{"flow sequence", "kind: List\nitems: [{kind: A}, {kind: B}]\n", []int{2, 2}, false},
		{"flow items", "kind: List\nitems:\n- {kind: A}\n- {kind: B}\n", []int{3, 4}, false},
		{"JSON", "{\"kind\": \"List\", \"items\": [\n  {\"kind\": \"A\"},\n  {\"kind\": \"B\"}\n]}\n", []int{2, 3}, false},
		{"anchored item", "items:\n- &a\n  kind: A\n- *a\n", []int{2, 4}, false},
		{"count differs: a broken count is not trusted", "items:\n- kind: A\n", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.want)
			if tc.want == nil {
				n = 2
			}
			items := findBlockItems([]byte(tc.body), n)
			if scanned := items != nil; scanned != tc.scanned {
				t.Errorf("read line by line: %v, want %v", scanned, tc.scanned)
			}
			doc := &parsedDocument{body: []byte(tc.body), items: items}
			got := listItemLines(n, doc)
			if !slices.Equal(got, tc.want) {
				t.Errorf("listItemLines = %v, want %v", got, tc.want)
			}
			// Each item parsed alone is at the line the whole document's
			// parse gives it.
			whole := &parsedDocument{body: []byte(tc.body)}
			for i := range got {
				if a, b := doc.object(i), whole.object(i); a == nil || b == nil || a.Line != b.Line {
					t.Errorf("item %d parsed alone: %v, in the document: %v", i, a, b)
				}
			}
		})
	}
}

// TestListItemsPointAtTheirLines: an object of a List, its listeners and the
// fields the API server refuses are at their own lines, as in documents.
func TestListItemsPointAtTheirLines(t *testing.T) {
	p := filepath.Join(t.TempDir(), "dump.yaml")
	if err := os.WriteFile(p, []byte(`apiVersion: v1
items:
- apiVersion: gateway.networking.k8s.io/v1
  kind: Gateway
  metadata: {name: a, namespace: infra}
  spec:
    gatewayClassName: gwtls
    listeners:
    - {name: http, port: 80, protocol: HTTP}
- apiVersion: gateway.networking.k8s.io/v1
  kind: Gateway
  metadata:
    name: b
    namespace: infra
  spec:
    gatewayClassName: gwtls
    listeners:
    - name: http
      port: 80
      protocol: HTTP
    - name: other
      port: 81
      protocol: HTTP
- apiVersion: gateway.networking.k8s.io/v1
  kind: HTTPRoute
  metadata:
    name: r
    namespace: apps
  spec:
    parentRefs:
    - name: b
      port: 99999
kind: List
metadata:
  resourceVersion: ""
`), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Files(FileOptions{Filenames: []string{p}})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Gateways) != 2 {
		t.Fatalf("%d gateways, want 2", len(m.Gateways))
	}
	b := m.Gateways[1]
	if b.Source.Line != 10 || !slices.Equal(b.ListenerLines, []int{18, 21}) {
		t.Errorf("Gateway b at line %d, listeners at %v; want 10 and [18 21]", b.Source.Line, b.ListenerLines)
	}
	if len(m.Admission.Refused) != 1 {
		t.Fatalf("refused %v, want the HTTPRoute", m.Admission.Refused)
	}
	r := m.Admission.Refused[0]
	if r.Source.Line != 24 || len(r.Errors) != 1 || r.Errors[0].Source.Line != 32 {
		t.Errorf("refused HTTPRoute at line %d, errors %+v; want 24 and its port at 32", r.Source.Line, r.Errors)
	}
}

// TestListItemsOnEveryCore: a List of many items, decoded in chunks on
// several cores, loads exactly as decoding its items one by one in order
// (one core): the same objects at the same lines, the same refusals and
// warnings, and, when items fail, the first failing item's error alone,
// whichever chunk finishes first.
func TestListItemsOnEveryCore(t *testing.T) {
	const items = 20*listChunk + 7
	bad := map[string]map[int]string{
		"clean":             nil,
		"early and late":    {5: "metadata: 3\n", 19*listChunk + 2: "spec: []\n"},
		"in the last chunk": {20*listChunk + 3: "metadata: {name: s}\n  spec: {ports: 7}\n"},
		"a bad item twice":  {3 * listChunk: "metadata: {name: [x]}\n", 3*listChunk + 1: "metadata: 3\n"},
		// the second chunk fails at once, the first at its end
		"across chunks": {listChunk - 1: "metadata: {name: [x]}\n", listChunk: "metadata: 3\n", listChunk + 1: "metadata: 3\n"},
	}
	for name, errs := range bad {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "dump.yaml")
			var b strings.Builder
			b.WriteString("apiVersion: v1\nitems:\n")
			for i := range items {
				switch {
				case errs[i] != "":
					fmt.Fprintf(&b, "- apiVersion: v1\n  kind: Service\n  %s", errs[i])
				case i%50 == 0:
					fmt.Fprintf(&b, "- apiVersion: gateway.networking.k8s.io/v1\n  kind: Gateway\n  metadata: {name: g%d, namespace: infra}\n  spec:\n    gatewayClassName: gwtls\n    listeners:\n    - name: http\n      port: 80\n      protocol: HTTP\n", i)
				case i%7 == 0:
					fmt.Fprintf(&b, "- apiVersion: v1\n  kind: Namespace\n  metadata:\n    name: ns%d\n", i)
				case i%11 == 0: // refused: its port is out of range
					fmt.Fprintf(&b, "- apiVersion: gateway.networking.k8s.io/v1\n  kind: HTTPRoute\n  metadata:\n    name: bad%d\n    namespace: apps\n  spec:\n    parentRefs:\n    - name: g0\n      port: 99999\n", i)
				case i%13 == 0:
					fmt.Fprintf(&b, "- apiVersion: example.com/v1\n  kind: Widget\n  metadata: {name: w%d}\n", i)
				default:
					fmt.Fprintf(&b, "- apiVersion: gateway.networking.k8s.io/v1\n  kind: HTTPRoute\n  metadata:\n    name: r%d\n    namespace: apps\n  spec:\n    parentRefs:\n    - name: g0\n", i)
				}
			}
			b.WriteString("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
			if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			summary := func(procs int) string {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				m, err := Files(FileOptions{Filenames: []string{p}})
				if err != nil {
					return "error: " + err.Error()
				}
				var s strings.Builder
				for _, g := range m.Gateways {
					fmt.Fprintf(&s, "gateway %s %d %v\n", g.Obj.Name, g.Source.Line, g.ListenerLines)
				}
				for _, r := range m.Routes {
					fmt.Fprintf(&s, "route %s %d\n", r.ObjectMeta.Name, r.Source.Line)
				}
				for _, ns := range m.Namespaces {
					fmt.Fprintf(&s, "namespace %s %d\n", ns.Obj.Name, ns.Source.Line)
				}
				fmt.Fprintf(&s, "skipped %v\n", m.Skipped)
				for _, r := range m.Admission.Refused {
					fmt.Fprintf(&s, "refused %s %d %+v\n", r.Object, r.Source.Line, r.Errors)
				}
				return s.String()
			}
			one, every := summary(1), summary(4)
			if one != every {
				t.Fatalf("one core:\n%.2000s\nevery core:\n%.2000s", one, every)
			}
			if errs == nil && strings.HasPrefix(one, "error") || errs != nil && !strings.HasPrefix(one, "error") {
				t.Fatalf("want an error: %v; got %.300s", errs != nil, one)
			}
			if !strings.Contains(one, "refused") && errs == nil {
				t.Fatalf("no refusal: %.300s", one)
			}
			t.Logf("%.200s", one)
		})
	}
}
