// Package typedjson decodes a JSON object straight into a Go value exactly as
// encoding/json's Unmarshal does, without encoding/json's validity pre-scan,
// its reflection on every value, and its garbage.
//
// It exists because the loader decodes every object of the input (the JSON
// that internal/fastyaml writes for each YAML document) into its Go type from
// sigs.k8s.io/gateway-api and k8s.io/api, and at 100k routes encoding/json was
// half of the load's CPU, and its pointer fields and growing slices about 90 MB
// of the heap (docs/performance.md, "Where the peak is, and what was cut"). As
// internal/fastunstructured does for unstructured objects, a plan is computed
// once per Go type (plan.go): for a struct its fields by JSON name as
// encoding/json resolves them (embedded structs, tags, conflicts), their
// offsets and plans; for a pointer, slice or map the plan of its element. A
// decode then follows the plan over the JSON bytes (decode.go).
//
// What a decode allocates is shaped for a model that lives as long as the
// run (share.go):
//
//   - each slice is made once, at its length (the elements are counted
//     first), where encoding/json grows it from a capacity of 4;
//   - strings are cut from chunks of a few KB shared by the objects one
//     decoder decodes, and short strings seen recently are shared;
//   - a pointer to a scalar (*gwv1.Group, *gwv1.Kind, *gwv1.Namespace,
//     *gwv1.SectionName, *gwv1.PortNumber, *int32, *bool...) with a value seen
//     recently points at the same value as the last one: nothing may write
//     through such a pointer (WatchShared checks, for tests).
//
// It answers only what it can show encoding/json answers: a type it does not
// plan for (an encoding.TextUnmarshaler, json.Number, a ",string" field, an
// interface with methods, an embedded pointer, field names in conflict), and
// anything that makes encoding/json fail or answer from more than the JSON in
// order (a syntax error, a value of the wrong type, a number out of range, a
// key that matches a field only case-insensitively, a key given twice in an
// object decoded into a struct, an invalid UTF-8 string or an escaped
// surrogate) makes it give up: the value is zeroed and encoding/json decodes
// it and gives the answer, error included. A json.Unmarshaler (metav1.Time,
// resource.Quantity, intstr.IntOrString) is given the value's bytes, as
// encoding/json gives them. TestAgreesWithEncodingJSON, the table of edge
// cases and FuzzAgreesWithEncodingJSON hold it to encoding/json, and load's
// TestTypedDecodeAgreesWithEncodingJSON does for every object of the
// repository's inputs.
package typedjson

import (
	"encoding/json"
	"reflect"
	"sync"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/typeplan"
)

// Unmarshal decodes js into the value v points at, which must be its type's
// zero value for the fast path to be taken, as json.Unmarshal(js, v) does: the
// same value (reflect.DeepEqual) or the same error.
func Unmarshal(js []byte, v any) error {
	if decode(js, v) {
		return nil
	}
	return json.Unmarshal(js, v)
}

// Decodes reports whether the plan alone decodes js into the zero value v
// points at, without handing it to encoding/json: what a test holding inputs
// to the fast path asks.
func Decodes(js []byte, v any) bool {
	return decode(js, v)
}

// decode decodes js into the value v points at and reports true, or leaves
// that value zero and reports false when encoding/json must answer.
func decode(js []byte, v any) bool {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return false
	}
	t := rv.Type().Elem()
	dst := rv.UnsafePointer()
	if !typeplan.ZeroMemory(dst, t.Size()) {
		// encoding/json merges into what the value holds.
		return false
	}
	d := decoders.Get().(*decoder)
	d.forget()
	d.data, d.pos, d.depth = js, 0, 0
	ok := d.top(planOf(t), dst)
	d.data = nil
	decoders.Put(d)
	if !ok {
		rv.Elem().SetZero() // what the plan wrote before it gave up
	}
	return ok
}

// decoders are reused between decodes, with their chunk of string bytes and
// their memos of shared values.
var decoders = sync.Pool{New: func() any { return new(decoder) }}
