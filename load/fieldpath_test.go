package load

import (
	"strings"
	"testing"
)

// TestFieldErrorsAtTheirLine: a field of the wrong type is named by the path
// a user wrote, list indexes included and no Go struct names, at its line.
func TestFieldErrorsAtTheirLine(t *testing.T) {
	const route = "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: r\nspec:\n  parentRefs:\n  - name: a\n  - name: b\n    port: eighty\n"
	tests := []struct {
		name    string
		content string
		line    int
		want    string
	}{
		{"an embedded struct's field in the second list item", route, 9, `HTTPRoute "r": field spec.parentRefs[1].port: got a string, want a whole number`},
		{
			name:    "a field of an item of a List",
			content: "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n- " + strings.ReplaceAll(strings.TrimSuffix(route, "\n"), "\n", "\n  ") + "\n",
			line:    16,
			want:    "field spec.parentRefs[1].port",
		},
		{"a JSON document", `{"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},` + "\n" + `"spec":{"ports":[{"port":80},` + "\n" + `{"port":"http"}]}}` + "\n", 3, "field spec.ports[1].port"},
		{"a fractional number", "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports:\n  - port: 80.5\n", 7, "got a fractional number, want a whole number"},
		{"a boolean for a list", "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: g\nspec:\n  listeners: yes\n", 6, "field spec.listeners: got a boolean, want a list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			le, p := mustFail(t, tt.content)
			if le.Source.File != p || le.Source.Line != tt.line {
				t.Errorf("error at %v, want line %d", le.Source, tt.line)
			}
			if !strings.Contains(le.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", le, tt.want)
			}
			if strings.Contains(le.Error(), "CommonRouteSpec") {
				t.Errorf("error %q names a Go struct", le)
			}
		})
	}
}

// TestJSONPathAt: the path of the innermost value holding an offset.
func TestJSONPathAt(t *testing.T) {
	js := []byte(`{"a": [1, {"b": "x\"]"}, [true]], "c": {}}`)
	for _, tt := range []struct {
		at   string // the value's first bytes; the offset is its last byte
		want string
	}{
		{`1`, "a[0]"},
		{`"x\"]"`, "a[1].b"},
		{`{"b"`, "a[1]"},
		{`true`, "a[2][0]"},
		{`{}`, "c"},
	} {
		i := strings.Index(string(js), tt.at)
		if got := jsonPathAt(js, i).String(); got != tt.want {
			t.Errorf("path at %d (%s) = %q, want %q", i, tt.at, got, tt.want)
		}
	}
	for _, bad := range []string{`{"a":}`, `[,,]`, `{"a" 1}`, `]`} {
		_ = jsonPathAt([]byte(bad), 2) // never loops or panics
	}
}
