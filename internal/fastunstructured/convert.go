package fastunstructured

import (
	"encoding/json"
	"math"
	"reflect"
	"time"
	"unicode/utf8"
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// convert writes the value of src, which is not nil, into the zero value of
// the plan's type at dst, as fromUnstructured does; false when it cannot say
// FromUnstructured's answer. Where it writes nothing (a missing key, null),
// dst keeps the zero FromUnstructured sets there.
func (p *plan) convert(src any, dst unsafe.Pointer) bool {
	switch p.kind {
	case boolKind:
		b, ok := src.(bool)
		if ok {
			*(*bool)(dst) = b
		}
		return ok
	case stringKind:
		s, ok := src.(string)
		if ok {
			*(*string)(dst) = s
		}
		return ok
	case intKind, uintKind, floatKind:
		return p.convertNumber(src, dst)
	case pointerKind:
		// pointerFromUnstructured: a new value, even for an empty map.
		elem := reflect.New(p.elem.typ).UnsafePointer()
		if !p.elem.convert(src, elem) {
			return false
		}
		*(*unsafe.Pointer)(dst) = elem
		return true
	case sliceKind:
		return p.convertSlice(src, dst)
	case mapKind:
		return p.convertMap(src, dst)
	case stringMapKind:
		return convertStringMap(src, dst)
	case structKind:
		// structFromUnstructured: any field whose key is missing or null is
		// zero; an inline field reads the same map.
		m, ok := src.(map[string]any)
		if !ok {
			return false
		}
		for i := range p.fields {
			f := &p.fields[i]
			v := src
			if !f.inline {
				if v = m[f.name]; v == nil {
					continue
				}
			}
			if !f.plan.convert(v, unsafe.Add(dst, f.offset)) {
				return false
			}
		}
		return true
	case interfaceKind:
		// interfaceFromUnstructured: the source value itself, shared.
		*(*any)(dst) = src
		return true
	case timeKind:
		return convertTime(src, (*metav1.Time)(dst))
	case unmarshalerKind:
		return p.unmarshal(src, dst)
	}
	return false
}

// convertNumber sets an integer or a float from an int64 or a float64, as
// fromUnstructured does with reflect.Value.Convert: an integer truncated to
// the size of its kind, a float64 into an integer only when it has no
// fraction (then converted as Go converts it, whatever its size).
func (p *plan) convertNumber(src any, dst unsafe.Pointer) bool {
	var i int64
	var u uint64
	var f float64
	switch v := src.(type) {
	case int64:
		i, u, f = v, uint64(v), float64(v)
	case float64:
		if p.kind != floatKind && v != math.Trunc(v) {
			return false // "cannot convert float64 to ..."
		}
		i, u, f = int64(v), uint64(v), v
	default:
		return false
	}
	switch p.kind {
	case intKind:
		setUint(dst, p.size, uint64(i))
	case uintKind:
		setUint(dst, p.size, u)
	case floatKind:
		if p.size == 4 {
			*(*float32)(dst) = float32(f)
		} else {
			*(*float64)(dst) = f
		}
	}
	return true
}

// setUint writes the low size bytes of x, as reflect's makeInt does.
func setUint(dst unsafe.Pointer, size uintptr, x uint64) {
	switch size {
	case 1:
		*(*uint8)(dst) = uint8(x)
	case 2:
		*(*uint16)(dst) = uint16(x)
	case 4:
		*(*uint32)(dst) = uint32(x)
	case 8:
		*(*uint64)(dst) = x
	}
}

// sliceHeader is the layout of every slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// convertSlice is sliceFromUnstructured: a new slice of the source list's
// length (a nil list stays nil, an empty one is empty and not nil), or bytes
// from a base64 string. sliceFromUnstructured makes it at the list's
// capacity too; an admitted list is grown from a capacity of 2, and the model
// keeps these slices, so a list of one would hold room for two all the way
// through the run (at 100k routes, 20 MB of rules and backendRefs alone).
func (p *plan) convertSlice(src any, dst unsafe.Pointer) bool {
	l, ok := src.([]any)
	if !ok {
		s, ok := src.(string)
		if !ok || !p.bytes {
			return false
		}
		return convertBytes(s, (*[]byte)(dst))
	}
	if l == nil {
		return true
	}
	var data unsafe.Pointer
	if len(l) == 1 {
		// The one element's own allocation, as MakeSlice makes it, without
		// the slice header MakeSlice allocates.
		data = reflect.New(p.elem.typ).UnsafePointer()
	} else {
		data = reflect.MakeSlice(p.typ, len(l), len(l)).UnsafePointer()
	}
	for i, v := range l {
		if v == nil {
			continue
		}
		if !p.elem.convert(v, unsafe.Add(data, uintptr(i)*p.elemSize)) {
			return false
		}
	}
	*(*sliceHeader)(dst) = sliceHeader{data: data, len: len(l), cap: len(l)}
	return true
}

// convertBytes reads a []byte (of any byte type: the header is the same) from
// its base64 string as sliceFromUnstructured does, through JSON.
func convertBytes(s string, dst *[]byte) bool {
	if s == "" {
		*dst = []byte{}
		return true
	}
	js, err := json.Marshal(s)
	if err != nil {
		return false
	}
	var data []byte
	if err := utiljson.Unmarshal(js, &data); err != nil {
		return false
	}
	*dst = data
	return true
}

// convertMap is mapFromUnstructured: a new map, each key converted to the
// key type and each value to a new element (null to the zero element).
func (p *plan) convertMap(src any, dst unsafe.Pointer) bool {
	m, ok := src.(map[string]any)
	if !ok {
		return false
	}
	if m == nil {
		return true
	}
	out := reflect.MakeMapWithSize(p.typ, len(m))
	keyType := p.typ.Key()
	for k, v := range m {
		elem := reflect.New(p.elem.typ)
		if v != nil && !p.elem.convert(v, elem.UnsafePointer()) {
			return false
		}
		key := reflect.ValueOf(k)
		if p.keyConverts {
			key = key.Convert(keyType)
		}
		out.SetMapIndex(key, elem.Elem())
	}
	reflect.NewAt(p.typ, dst).Elem().Set(out)
	return true
}

// convertStringMap is convertMap for map[string]string.
func convertStringMap(src any, dst unsafe.Pointer) bool {
	m, ok := src.(map[string]any)
	if !ok {
		return false
	}
	if m == nil {
		return true
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		switch v := v.(type) {
		case string:
			out[k] = v
		case nil:
			out[k] = ""
		default:
			return false
		}
	}
	*(*map[string]string)(dst) = out
	return true
}

// unmarshal is TypeReflectCacheEntry.FromUnstructured
// (sigs.k8s.io/structured-merge-diff/v6/value): the source value as JSON,
// given to the type's UnmarshalJSON.
func (p *plan) unmarshal(src any, dst unsafe.Pointer) bool {
	js, err := json.Marshal(src)
	if err != nil {
		return false
	}
	u := reflect.NewAt(p.typ, dst).Interface().(json.Unmarshaler)
	return u.UnmarshalJSON(js) == nil
}

// convertTime is metav1.Time's UnmarshalJSON of the source value as JSON,
// without the JSON: a string that is valid UTF-8 is the string its JSON
// decodes to (encoding/json escapes, never changes, its characters), and
// only a string decodes into a Time.
func convertTime(src any, dst *metav1.Time) bool {
	s, ok := src.(string)
	if !ok || !utf8.ValidString(s) {
		return false
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return false
	}
	dst.Time = t.Local()
	return true
}
