package typedjson

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"unsafe"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/typeplan"
)

// plan is how a value of one Go type is decoded. Each kind mirrors what
// encoding/json's decodeState does with a value of that type, for the JSON
// values it stores without error.
type plan struct {
	kind planKind
	typ  reflect.Type
	// rtype is typ's runtime type, to allocate values of it.
	rtype unsafe.Pointer
	// size is the size of a scalar.
	size uintptr
	// elem is the plan of a pointer's, slice's or map's element.
	elem *plan
	// bytes: a slice whose elements are bytes, which encoding/json also
	// reads from a base64 string.
	bytes bool
	// shared: a pointer to a scalar, whose pointee may be shared (share.go).
	shared bool
	// stringKey: a map's key type is string itself, not a named string type.
	stringKey bool
	// fields are a struct's fields by their JSON name; folded holds their
	// names upper-cased (ASCII), to tell a key that encoding/json would
	// match case-insensitively.
	fields map[string]*field
	folded map[string]bool
}

type planKind uint8

const (
	// unsupported: encoding/json decodes a value of this type otherwise than
	// a plan does, or the plan cannot tell that it does not.
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
	// interfaceKind is interface{}: encoding/json's generic values.
	interfaceKind
	// unmarshalerKind is a type whose pointer is a json.Unmarshaler: it is
	// given the value's JSON.
	unmarshalerKind
)

// field is one field of a struct as encoding/json decodes it: at offset (in
// the outer struct, through embedded structs), the index-th of the struct's
// fields (to tell a key given twice).
type field struct {
	offset uintptr
	index  int
	plan   *plan
}

// maxFields is the most fields a struct plan has: a decode tells a key given
// twice with a bit per field.
const maxFields = 64

// plans holds the plan of each type met, made once.
var plans typeplan.Cache[plan]

// planOf returns the plan of t.
func planOf(t reflect.Type) *plan { return plans.Of(t, makePlan) }

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	numberType          = reflect.TypeFor[json.Number]()
	stringMapType       = reflect.TypeFor[map[string]string]()
	stringType          = reflect.TypeFor[string]()
)

// rtypeOf is t's runtime type: the data word of the reflect.Type interface,
// whose dynamic type is *reflect.rtype.
func rtypeOf(t reflect.Type) unsafe.Pointer {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&t))[1]
}

// makePlan makes the plan of t, and of the types it holds that have none
// yet, into made.
func makePlan(t reflect.Type, made map[reflect.Type]*plan) *plan {
	if p, ok := plans.Stored(t); ok {
		return p
	}
	if p, ok := made[t]; ok {
		return p // a type that holds itself
	}
	p := &plan{typ: t, rtype: rtypeOf(t), size: t.Size()}
	made[t] = p
	// encoding/json's indirect: a value whose address is a json.Unmarshaler
	// is given its JSON, before anything else; an encoding.TextUnmarshaler
	// is given strings.
	switch {
	case t.Kind() == reflect.Pointer:
		// A pointer's methods are its element's: the element's plan
		// says.
	case reflect.PointerTo(t).Implements(unmarshalerType):
		// Only a method of the pointer, of a named type: encoding/json
		// takes the address of a named value only, and a method of the
		// value could not store into it.
		if !t.Implements(unmarshalerType) && t.Name() != "" {
			p.kind = unmarshalerKind
		}
		return p
	case reflect.PointerTo(t).Implements(textUnmarshalerType), t == numberType:
		return p // unsupported
	}
	switch t.Kind() {
	case reflect.Bool:
		p.kind = boolKind
	case reflect.String:
		p.kind = stringKind
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		p.kind = intKind
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		p.kind = uintKind
	case reflect.Float32, reflect.Float64:
		p.kind = floatKind
	case reflect.Pointer:
		if t.Name() != "" {
			return p // a named pointer type: encoding/json may see its methods
		}
		p.kind, p.elem = pointerKind, makePlan(t.Elem(), made)
		switch p.elem.kind {
		case boolKind, stringKind, intKind, uintKind:
			p.shared = true
		}
	case reflect.Slice:
		p.kind, p.elem = sliceKind, makePlan(t.Elem(), made)
		p.bytes = t.Elem().Kind() == reflect.Uint8
	case reflect.Map:
		k := t.Key()
		if k.Kind() != reflect.String || reflect.PointerTo(k).Implements(textUnmarshalerType) {
			return p
		}
		if t == stringMapType {
			p.kind = stringMapKind
			return p
		}
		p.kind, p.elem, p.stringKey = mapKind, makePlan(t.Elem(), made), k == stringType
	case reflect.Interface:
		if t.NumMethod() == 0 {
			p.kind = interfaceKind
		}
	case reflect.Struct:
		structPlan(p, made)
	}
	return p
}

// candidate is a field encoding/json may decode a key into.
type candidate struct {
	name   string
	depth  int
	offset uintptr
	typ    reflect.Type
	// quoted: the ",string" option, which the plan does not read.
	quoted bool
}

// structPlan fills the plan of a struct with its fields as encoding/json's
// typeFields resolves them, or leaves it unsupported where the resolution
// is one the plan does not repeat: an embedded pointer to a struct (which
// encoding/json allocates, or refuses when unexported), a struct embedded
// twice, two fields of one name at the same depth, a tag name encoding/json
// would not take.
func structPlan(p *plan, made map[reflect.Type]*plan) {
	type level struct {
		typ    reflect.Type
		offset uintptr
	}
	var cands []candidate
	seen := map[reflect.Type]bool{}
	current := []level{{p.typ, 0}}
	for depth := 0; len(current) > 0; depth++ {
		var next []level
		for _, l := range current {
			if seen[l.typ] {
				return
			}
			seen[l.typ] = true
			for i := range l.typ.NumField() {
				sf := l.typ.Field(i)
				if sf.Anonymous {
					t := sf.Type
					if t.Kind() == reflect.Pointer {
						t = t.Elem()
					}
					if !sf.IsExported() && t.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !plainName(name) {
					return
				}
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					if name == "" {
						name = sf.Name
					}
					cands = append(cands, candidate{name: name, depth: depth, offset: l.offset + sf.Offset, typ: sf.Type, quoted: hasOption(opts, "string")})
					continue
				}
				if sf.Type.Kind() == reflect.Pointer {
					return // an embedded pointer
				}
				next = append(next, level{ft, l.offset + sf.Offset})
			}
		}
		current = next
	}
	// The field of a name is the shallowest; two at that depth would be
	// resolved by their tags, or dropped.
	byName := map[string]candidate{}
	ties := map[string]bool{}
	for _, c := range cands {
		prev, ok := byName[c.name]
		switch {
		case !ok || c.depth < prev.depth:
			byName[c.name] = c
			delete(ties, c.name)
		case c.depth == prev.depth:
			ties[c.name] = true
		}
	}
	if len(ties) > 0 || len(byName) > maxFields {
		return
	}
	p.fields = make(map[string]*field, len(byName))
	p.folded = make(map[string]bool, len(byName))
	for _, c := range cands {
		if byName[c.name] != c || p.fields[c.name] != nil {
			continue
		}
		f := &field{offset: c.offset, index: len(p.fields), plan: makePlan(c.typ, made)}
		if c.quoted {
			f.plan = &plan{typ: c.typ} // unsupported
		}
		p.fields[c.name] = f
		folded, ok := foldASCII(c.name)
		if !ok {
			p.fields = nil
			return // a name that folds otherwise than ASCII
		}
		p.folded[folded] = true
	}
	p.kind = structKind
}

// plainName reports whether a tag's name is made of characters encoding/json
// takes in a name (isValidTag), or is empty.
func plainName(s string) bool {
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.ContainsRune("-_./", c):
		default:
			return false
		}
	}
	return true
}

func hasOption(opts, name string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == name {
			return true
		}
	}
	return false
}

// foldASCII upper-cases the ASCII letters of s; false when s has a byte that
// is not ASCII, which encoding/json folds with Unicode's rules.
func foldASCII(s string) (string, bool) {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 0x80:
			return "", false
		case c >= 'a' && c <= 'z':
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b), true
}
