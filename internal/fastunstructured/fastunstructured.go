// Package fastunstructured converts an unstructured object (a decoded JSON
// document: map[string]any of string, bool, int64, float64, nil, []any and
// map[string]any) into its Go type exactly as apimachinery's
// runtime.DefaultUnstructuredConverter.FromUnstructured does, without
// reflecting on the object's values.
//
// It exists because the loader converts every admitted Gateway API object
// (admit.Admitter.AdmitReadOnly) to its Go type, and FromUnstructured, which
// looks up every field's JSON name, reflect entry and map value through
// reflection and caches keyed by type and field, costs about as much as
// decoding the object's JSON. Here a plan is computed once per Go type (plan.go):
// for a struct the JSON name, offset and plan of each field, for a pointer,
// slice or map the plan of its element; a conversion then follows the plan.
//
// It does only what it can show gives FromUnstructured's value: a value of a
// type it does not plan for, a source value of another type than the JSON
// ones above, or anything FromUnstructured refuses (a string where a number
// belongs, a fraction where an integer does, an unknown time format) makes it
// give up, and FromUnstructured converts the object and gives the answer,
// error included. Because of that the fast path may only ever decline, never
// answer otherwise: TestAgreesWithFromUnstructured and
// FuzzAgreesWithFromUnstructured hold it to FromUnstructured, and load's
// TestConversionAgreesWithFromUnstructured does for every admitted object of
// the repository's inputs.
package fastunstructured

import (
	"reflect"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/typeplan"
)

// FromUnstructured converts u into the value v points at, as
// runtime.DefaultUnstructuredConverter.FromUnstructured(u, v) does: the same
// value (shared with u where FromUnstructured shares it: the values of
// interface{} fields) or the same error. u is only read.
func FromUnstructured(u map[string]any, v any) error {
	if convert(u, v) {
		return nil
	}
	return runtime.DefaultUnstructuredConverter.FromUnstructured(u, v)
}

// Converts reports whether the plan alone converts u into the zero value v
// points at, without handing it to FromUnstructured: what a caller measuring
// the fast path, or a test holding inputs to it, asks.
func Converts(u map[string]any, v any) bool {
	return convert(u, v)
}

// convert converts u into the value v points at and reports true, or leaves
// that value as it was and reports false when FromUnstructured must answer.
//
// It converts only into a zero value: FromUnstructured sets every field it
// reaches, except through a json.Unmarshaler, which may keep what the value
// held (intstr.IntOrString keeps the variant it does not set). Into zero
// memory, each value the plan writes is the whole of what FromUnstructured
// leaves there, and a field it does not write is the zero FromUnstructured
// sets.
func convert(u map[string]any, v any) bool {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return false
	}
	t := rv.Type().Elem()
	dst := rv.UnsafePointer()
	if !typeplan.ZeroMemory(dst, t.Size()) {
		return false
	}
	if planOf(t).convert(u, dst) {
		return true
	}
	rv.Elem().SetZero() // what the plan wrote before it gave up
	return false
}
