package load

import (
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
			got := listItemLines([]byte(tc.body), n, &parsedDocument{body: []byte(tc.body)})
			if !slices.Equal(got, tc.want) {
				t.Errorf("listItemLines = %v, want %v", got, tc.want)
			}
			if scanned := blockItemLines([]byte(tc.body), n) != nil; scanned != tc.scanned {
				t.Errorf("read line by line: %v, want %v", scanned, tc.scanned)
			}
		})
	}
}
