package load

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestDuplicateObjects: the API server keeps one object per kind, namespace
// and name; two in the input are an error at the second that names the first,
// not an object analyzed twice.
func TestDuplicateObjects(t *testing.T) {
	route := func(apiVersion, ns string) string {
		s := "apiVersion: " + apiVersion + "\nkind: TLSRoute\nmetadata:\n  name: r\n"
		if ns != "" {
			s += "  namespace: " + ns + "\n"
		}
		return s
	}
	tests := []struct {
		name    string
		content string
		line    int    // of the second object; 0: no error
		first   string // the first object's line, as the message names it
		want    string
	}{
		{
			name:    "two documents with one kind, namespace and name",
			content: cm("a") + "---\n" + cm("b") + "---\n" + cm("a"),
			line:    11,
			first:   ":1,",
			want:    `ConfigMap "default/a" is defined twice`,
		},
		{
			name:    "the same route in two API versions",
			content: route("gateway.networking.k8s.io/v1alpha2", "apps") + "---\n" + route("gateway.networking.k8s.io/v1", "apps"),
			line:    7,
			first:   ":1,",
			want:    `TLSRoute "apps/r" is defined twice`,
		},
		{
			name:    "a namespace written and the same namespace defaulted",
			content: route("gateway.networking.k8s.io/v1", "default") + "---\n" + route("gateway.networking.k8s.io/v1", ""),
			line:    7,
			first:   ":1,",
		},
		{
			name: "a cluster-scoped kind ignores the namespace written",
			content: "apiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\nmetadata:\n  name: c\n  namespace: a\n---\n" +
				"apiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\nmetadata:\n  name: c\n",
			line:  7,
			first: ":1,",
			want:  `GatewayClass "c" is defined twice`,
		},
		{
			name: "items of a List are named at their own lines",
			content: "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n" +
				"- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n",
			line:  8,
			first: ":4,",
		},
		{
			name:    "three of one object are reported once, and counted",
			content: cm("a") + "---\n" + cm("a") + "---\n" + cm("a") + "---\n" + cm("b") + "---\n" + cm("b"),
			line:    6,
			first:   ":1,",
			want:    "(and 2 more objects are defined twice)",
		},
		{name: "one name in two namespaces", content: route("gateway.networking.k8s.io/v1", "a") + "---\n" + route("gateway.networking.k8s.io/v1", "b")},
		{name: "one name for two kinds", content: cm("a") + "---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: a\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.line == 0 {
				mustLoad(t, tt.content)
				return
			}
			le, p := mustFail(t, tt.content)
			if le.Source.File != p || le.Source.Line != tt.line {
				t.Errorf("error at %v, want line %d", le.Source, tt.line)
			}
			for _, w := range []string{"is defined twice: first at " + p + tt.first, "keeps one object per kind, namespace and name", tt.want} {
				if !strings.Contains(le.Error(), w) {
					t.Errorf("error %q does not contain %q", le, w)
				}
			}
		})
	}
}

// TestDuplicateObjectsAcrossFiles: the message names both files.
func TestDuplicateObjectsAcrossFiles(t *testing.T) {
	dir := tree(t, map[string]string{"a.yaml": cm("x"), "b.yaml": "# b\n" + cm("x")})
	_, err := Files(FileOptions{Filenames: []string{dir}})
	a, b := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml")
	if err == nil || !strings.HasPrefix(err.Error(), b+":2: ") || !strings.Contains(err.Error(), "first at "+a+":1") {
		t.Errorf("err = %v, want at %s:2 naming %s:1", err, b, a)
	}
}

// TestDuplicateKeys: a mapping with one key twice is an error at the second,
// naming the first; which value a tool keeps is not something to guess.
func TestDuplicateKeys(t *testing.T) {
	tests := []struct {
		name    string
		content string
		line    int
		want    string
	}{
		{
			name:    "a key of metadata twice",
			content: goodDoc + "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels: {}\n  name: b\n",
			line:    11,
			want:    `the key "name" is given twice in one mapping (first on line 9)`,
		},
		{
			name:    "a top-level key twice in a JSON document",
			content: `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}, "kind": "Secret"}` + "\n",
			line:    1,
			want:    `the key "kind" is given twice`,
		},
		{
			name:    "a key twice in a list item",
			content: "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: r\nspec:\n  parentRefs:\n  - name: a\n    port: 80\n    name: b\n",
			line:    9,
			want:    `the key "name" is given twice in one mapping (first on line 7)`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			le, p := mustFail(t, tt.content)
			if le.Source.File != p || le.Source.Line != tt.line {
				t.Errorf("error at %v, want line %d", le.Source, tt.line)
			}
			if !strings.Contains(le.Error(), tt.want) || !strings.Contains(le.Error(), "remove one") {
				t.Errorf("error %q does not contain %q and what to do", le, tt.want)
			}
		})
	}
}

// TestManyEqualKeysCostLinearWork: a mapping that repeats one key n times is
// reported with work linear in n. Looking for the first occurrence with
// yaml.v3's own check formatted a message for each of the n²/2 equal pairs
// (8,000 keys took two minutes and 5 GB); the allocations tell the two apart
// without timing anything.
func TestManyEqualKeysCostLinearWork(t *testing.T) {
	allocs := func(n int) float64 {
		body := []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n" + strings.Repeat("  a: b\n", n))
		var msg string
		got := testing.AllocsPerRun(3, func() { msg = duplicateKeyMessage(body, 7, `"a"`, func(l int) int { return l }) })
		if !strings.Contains(msg, "(first on line 6)") {
			t.Fatalf("%d keys: message %q does not name line 6", n, msg)
		}
		return got
	}
	small, large := allocs(500), allocs(4000)
	if large > 12*small {
		t.Errorf("8x the keys took %.1fx the allocations (%.0f against %.0f); want linear growth", large/small, large, small)
	}
}
