package load

import (
	"os"
	"path/filepath"
	"slices"
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
