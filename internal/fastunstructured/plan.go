package fastunstructured

import (
	"encoding/json"
	"reflect"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/typeplan"
)

// plan is how a value of one Go type is converted. Each kind mirrors a case of
// apimachinery's fromUnstructured (k8s.io/apimachinery/pkg/runtime/converter.go),
// for the source values that case converts without error.
type plan struct {
	kind planKind
	typ  reflect.Type
	// size is the size of a scalar.
	size uintptr
	// elem is the plan of a pointer's, slice's or map's element.
	elem *plan
	// elemSize is the size of a slice's element.
	elemSize uintptr
	// bytes: a slice whose elements are bytes, which FromUnstructured also
	// reads from a base64 string.
	bytes bool
	// keyConverts: a map's key type is not string, but a string kind that a
	// key converts to.
	keyConverts bool
	fields      []field
}

type planKind uint8

const (
	// unsupported: FromUnstructured converts a value of this type otherwise
	// than a plan does (a struct with unexported fields, an interface with
	// methods, a map whose keys are not strings, a complex number).
	unsupported planKind = iota
	boolKind
	stringKind
	intKind
	uintKind
	floatKind
	pointerKind
	sliceKind
	mapKind
	// stringMapKind is map[string]string (labels, annotations).
	stringMapKind
	structKind
	// interfaceKind is interface{}, which holds the source value itself.
	interfaceKind
	// unmarshalerKind is a type whose pointer is a json.Unmarshaler and not
	// a scalar: FromUnstructured marshals the source value to JSON and
	// calls UnmarshalJSON.
	unmarshalerKind
	// timeKind is metav1.Time, an unmarshalerKind read without the round
	// trip through JSON (convertTime).
	timeKind
)

// field is one field of a struct, as FromUnstructured reads it
// (fieldInfoFromField): by the name of its json tag, or its Go name when the
// tag names none; an embedded field whose tag names none is inline, read from
// the struct's own map.
type field struct {
	name   string
	offset uintptr
	inline bool
	plan   *plan
}

// plans holds the plan of each type met, made once.
var plans typeplan.Cache[plan]

// planOf returns the plan of t.
func planOf(t reflect.Type) *plan { return plans.Of(t, makePlan) }

var (
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	timeType        = reflect.TypeFor[metav1.Time]()
)

// makePlan makes the plan of t, and of the types it holds that have none
// yet, into made.
func makePlan(t reflect.Type, made map[reflect.Type]*plan) *plan {
	if p, ok := plans.Stored(t); ok {
		return p
	}
	if p, ok := made[t]; ok {
		return p // a type that holds itself
	}
	p := &plan{typ: t}
	made[t] = p
	switch k := t.Kind(); k {
	// A scalar is set from a source value it converts from (fromUnstructured's
	// "simple types"), before any json.Unmarshaler it has is considered; a
	// plan converts only from those values.
	case reflect.Bool:
		p.kind = boolKind
	case reflect.String:
		p.kind = stringKind
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		p.kind, p.size = intKind, t.Size()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		p.kind, p.size = uintKind, t.Size()
	case reflect.Float32, reflect.Float64:
		p.kind, p.size = floatKind, t.Size()
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Struct, reflect.Interface:
		// Any other kind is converted by its json.Unmarshaler first.
		switch {
		case t == timeType:
			p.kind = timeKind
		case reflect.PointerTo(t).Implements(unmarshalerType):
			p.kind = unmarshalerKind
		default:
			composite(p, made)
		}
	}
	return p
}

// composite fills the plan of a pointer, slice, map, struct or interface
// type without a json.Unmarshaler.
func composite(p *plan, made map[reflect.Type]*plan) {
	t := p.typ
	switch t.Kind() {
	case reflect.Pointer:
		p.kind, p.elem = pointerKind, makePlan(t.Elem(), made)
	case reflect.Slice:
		p.kind, p.elem, p.elemSize = sliceKind, makePlan(t.Elem(), made), t.Elem().Size()
		p.bytes = t.Elem().Kind() == reflect.Uint8
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return // a string key converts to no other kind of key
		}
		if t == reflect.TypeFor[map[string]string]() {
			p.kind = stringMapKind
			return
		}
		p.kind, p.elem = mapKind, makePlan(t.Elem(), made)
		p.keyConverts = t.Key() != reflect.TypeFor[string]()
	case reflect.Interface:
		if t.NumMethod() == 0 {
			p.kind = interfaceKind
		}
	case reflect.Struct:
		fields := make([]field, 0, t.NumField())
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				// FromUnstructured sets every field, and reflect refuses to
				// set an unexported one.
				return
			}
			name := jsonName(f)
			fields = append(fields, field{name: name, offset: f.Offset, inline: name == "", plan: makePlan(f.Type, made)})
		}
		p.kind, p.fields = structKind, fields
	}
}

// jsonName is the key FromUnstructured reads a struct field from
// (fieldInfoFromField), "" for an inline field. Unlike encoding/json it reads
// a field tagged "-" from the key "-".
func jsonName(f reflect.StructField) string {
	tag := f.Tag.Get("json")
	name, _, _ := strings.Cut(tag, ",")
	if name == "" && !f.Anonymous {
		return f.Name
	}
	return name
}
