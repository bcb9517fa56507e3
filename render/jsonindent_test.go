package render

import (
	"encoding/json"
	"math"
	"testing"
)

func checkIndentedJSON(t *testing.T, v any) {
	t.Helper()
	want, err := json.MarshalIndent(v, "        ", "    ")
	if err != nil {
		t.Skip(err)
	}
	got, ok := appendIndentedJSON(nil, v, "        ", "    ", 0)
	if !ok || string(got) != string(want) {
		t.Errorf("appendIndentedJSON (ok %v):\n%s\njson.MarshalIndent:\n%s", ok, got, want)
	}
}

func TestIndentedJSON(t *testing.T) {
	for _, v := range []any{
		nil, true, false, 0.0, math.Copysign(0, -1), 1.0, -12.5, 1e20, 1e21, 1e-6, 1e-7, 123456789012345678.0, 0.1, math.MaxFloat64, math.SmallestNonzeroFloat64,
		"", "plain", "quote \" backslash \\ slash /", "<html> & stuff", "\b\f\n\r\t\x00\x1f\x7f", "é漢字 \u2028 \u2029", "bad \xff utf-8 \xc3",
		[]any{}, map[string]any{}, []any{1.0, "a", nil, []any{}, map[string]any{}},
		map[string]any{"b": 1.0, "a": map[string]any{"z": []any{true, false}, "<k>": "v"}, "": nil},
	} {
		checkIndentedJSON(t, v)
	}
	if _, ok := appendIndentedJSON(nil, math.NaN(), "", " ", 0); ok {
		t.Error("NaN is not JSON")
	}
	if _, ok := appendIndentedJSON(nil, struct{}{}, "", " ", 0); ok {
		t.Error("a struct is not a decoded value")
	}
}

// FuzzIndentedJSON: for any JSON document, decoded as render status decodes
// objects, appendIndentedJSON writes what json.MarshalIndent writes.
func FuzzIndentedJSON(f *testing.F) {
	f.Add([]byte(`{"apiVersion":"v1","kind":"List","items":[{"a":1,"b":[true,null,"x<y"]}]}`))
	f.Add([]byte(`[1e-7, 1e21, 0.000001, -0, 12345678901234567890, "\u2028\ud800"]`))
	f.Fuzz(func(t *testing.T, js []byte) {
		var v any
		if json.Unmarshal(js, &v) != nil {
			return
		}
		checkIndentedJSON(t, v)
	})
}
