package typedjson

import (
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// decoder reads one JSON text, data, from pos. Every method reports false
// when encoding/json must answer: the text is not valid JSON, or a value is
// not one the plan decodes as encoding/json does.
type decoder struct {
	data  []byte
	pos   int
	depth int
	// buf holds a string with escapes, unquoted.
	buf []byte
	sharing
}

// maxDepth is how deep objects and arrays nest before the decoder gives up
// (encoding/json refuses 10,000).
const maxDepth = 1000

//go:linkname unsafe_New reflect.unsafe_New
func unsafe_New(rtype unsafe.Pointer) unsafe.Pointer

//go:linkname unsafe_NewArray reflect.unsafe_NewArray
func unsafe_NewArray(rtype unsafe.Pointer, n int) unsafe.Pointer

// sliceHeader is the layout of every slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// top decodes the whole text, one value and white space around it.
func (d *decoder) top(p *plan, dst unsafe.Pointer) bool {
	if !d.value(p, dst) {
		return false
	}
	d.ws()
	return d.pos == len(d.data)
}

func (d *decoder) ws() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// next is the byte at pos after white space, 0 at the end.
func (d *decoder) next() byte {
	d.ws()
	if d.pos < len(d.data) {
		return d.data[d.pos]
	}
	return 0
}

// value decodes the value at pos into the zero value of p's type at dst.
func (d *decoder) value(p *plan, dst unsafe.Pointer) bool {
	c := d.next()
	if p.kind == unmarshalerKind {
		// encoding/json gives a json.Unmarshaler the value's bytes, null
		// included (a pointer to one is left nil by null, below).
		start := d.pos
		if !d.skip() {
			return false
		}
		u := reflect.NewAt(p.typ, dst).Interface().(json.Unmarshaler)
		return u.UnmarshalJSON(d.data[start:d.pos:d.pos]) == nil
	}
	if c == 'n' {
		// null leaves a value as it is, and sets a pointer, slice, map or
		// interface to nil: into zero memory, both write nothing.
		return d.literal("null") && p.kind != unsupported
	}
	switch p.kind {
	case boolKind, stringKind, intKind, uintKind, floatKind:
		s, n, ok := d.scalar(p)
		if !ok {
			return false
		}
		store(p, dst, s, n)
		return true
	case pointerKind:
		if p.shared {
			return d.sharedPointer(p, dst)
		}
		elem := unsafe_New(p.elem.rtype)
		if !d.value(p.elem, elem) {
			return false
		}
		*(*unsafe.Pointer)(dst) = elem
		return true
	case sliceKind:
		if c == '"' && p.bytes {
			return d.base64(dst)
		}
		return c == '[' && d.slice(p, dst)
	case stringMapKind:
		return c == '{' && d.stringMap(dst)
	case mapKind:
		return c == '{' && d.anyMap(p, dst)
	case structKind:
		return c == '{' && d.object(p, dst)
	case interfaceKind:
		v, ok := d.any()
		if ok {
			*(*any)(dst) = v
		}
		return ok
	}
	return false
}

// scalar reads a bool, string or number for p: the string, or the bits of
// the bool or number (as n's first p.size bytes).
func (d *decoder) scalar(p *plan) (s string, n uint64, ok bool) {
	c := d.next()
	switch p.kind {
	case boolKind:
		switch {
		case c == 't' && d.literal("true"):
			return "", 1, true
		case c == 'f' && d.literal("false"):
			return "", 0, true
		}
		return "", 0, false
	case stringKind:
		if c != '"' {
			return "", 0, false
		}
		s, ok = d.str()
		return s, 0, ok
	}
	start := d.pos
	if (c != '-' && (c < '0' || c > '9')) || !d.number() {
		return "", 0, false
	}
	lit := unsafe.String(&d.data[start], d.pos-start)
	bits := int(p.size * 8)
	switch p.kind {
	case intKind:
		i, err := strconv.ParseInt(lit, 10, 64)
		if err != nil || (bits < 64 && i != i<<(64-bits)>>(64-bits)) {
			return "", 0, false
		}
		n = uint64(i)
	case uintKind:
		u, err := strconv.ParseUint(lit, 10, 64)
		if err != nil || (bits < 64 && u>>bits != 0) {
			return "", 0, false
		}
		n = u
	case floatKind:
		f, err := strconv.ParseFloat(lit, bits)
		if err != nil {
			return "", 0, false
		}
		if bits == 32 {
			n = uint64(*(*uint32)(unsafe.Pointer(&[1]float32{float32(f)})))
		} else {
			n = *(*uint64)(unsafe.Pointer(&f))
		}
	default:
		return "", 0, false
	}
	return "", n, true
}

// store writes a scalar that scalar read into the zero value at dst.
func store(p *plan, dst unsafe.Pointer, s string, n uint64) {
	switch {
	case p.kind == stringKind:
		*(*string)(dst) = s
	case p.size == 1:
		*(*uint8)(dst) = uint8(n)
	case p.size == 2:
		*(*uint16)(dst) = uint16(n)
	case p.size == 4:
		*(*uint32)(dst) = uint32(n)
	case p.size == 8:
		*(*uint64)(dst) = n
	}
}

// slice decodes an array into a new slice of its length: an empty array is
// an empty slice, not nil, as encoding/json makes it.
func (d *decoder) slice(p *plan, dst unsafe.Pointer) bool {
	n, ok := d.count()
	if !ok {
		return false
	}
	d.pos++ // [
	if d.depth++; d.depth > maxDepth {
		return false
	}
	data := unsafe_NewArray(p.elem.rtype, n)
	size := p.elem.size
	for i := range n {
		if i > 0 {
			d.ws()
			d.pos++ // , (count read it)
		}
		if !d.value(p.elem, unsafe.Add(data, uintptr(i)*size)) {
			return false
		}
	}
	d.ws()
	d.pos++ // ]
	d.depth--
	*(*sliceHeader)(dst) = sliceHeader{data: data, len: n, cap: n}
	return true
}

// count is how many values the array at pos holds, pos unchanged; false when
// the array is not valid JSON.
func (d *decoder) count() (int, bool) {
	start := d.pos
	defer func() { d.pos = start }()
	d.pos++ // [
	if d.next() == ']' {
		return 0, true
	}
	for n := 1; ; n++ {
		if !d.skip() {
			return 0, false
		}
		switch d.next() {
		case ',':
			d.pos++
		case ']':
			return n, true
		default:
			return 0, false
		}
	}
}

// base64 decodes a string into a []byte as encoding/json does.
func (d *decoder) base64(dst unsafe.Pointer) bool {
	b, ok := d.stringBytes()
	if !ok {
		return false
	}
	out := make([]byte, base64.StdEncoding.DecodedLen(len(b)))
	n, err := base64.StdEncoding.Decode(out, b)
	if err != nil {
		return false
	}
	*(*[]byte)(dst) = out[:n]
	return true
}

// object decodes an object into a struct, each key into the field of its
// exact name; false for a key given twice or that matches a field only
// case-insensitively.
func (d *decoder) object(p *plan, dst unsafe.Pointer) bool {
	d.pos++ // {
	if d.depth++; d.depth > maxDepth {
		return false
	}
	if d.next() == '}' {
		d.pos++
		d.depth--
		return true
	}
	var seen uint64
	for {
		if d.next() != '"' {
			return false
		}
		key, ok := d.stringBytes()
		if !ok || d.next() != ':' {
			return false
		}
		d.pos++
		if f := p.fields[string(key)]; f != nil {
			bit := uint64(1) << f.index
			if seen&bit != 0 || !d.value(f.plan, unsafe.Add(dst, f.offset)) {
				return false
			}
			seen |= bit
		} else if folds(p, key) || !d.skip() {
			return false
		}
		switch d.next() {
		case ',':
			d.pos++
		case '}':
			d.pos++
			d.depth--
			return true
		default:
			return false
		}
	}
}

// folds reports whether encoding/json might match key, which matches no
// field exactly, to a field case-insensitively: it does, or key is not ASCII.
func folds(p *plan, key []byte) bool {
	var array [64]byte
	buf := array[:]
	if len(key) > len(buf) {
		buf = make([]byte, len(key))
	}
	for i, c := range key {
		switch {
		case c >= 0x80:
			return true
		case c >= 'a' && c <= 'z':
			c -= 'a' - 'A'
		}
		buf[i] = c
	}
	return p.folded[string(buf[:len(key)])]
}

// stringMap decodes an object into a map[string]string; null is "", as
// encoding/json stores it into the map's zeroed element. A short object's map
// is shared with the last one of the same text (sharing).
func (d *decoder) stringMap(dst unsafe.Pointer) bool {
	start := d.pos
	if !d.skip() || d.pos-start > maxSharedMap {
		d.pos = start
		return d.newStringMap(dst)
	}
	text := d.data[start:d.pos]
	slot := &d.maps[hash(text)%mapSlots]
	if slot.m != nil && slot.text == string(text) {
		*(*map[string]string)(dst) = slot.m
		return true
	}
	d.pos = start
	if !d.newStringMap(dst) {
		return false
	}
	*slot = sharedMap{text: string(text), m: *(*map[string]string)(dst)}
	if watching.Load() {
		watchMap(*slot)
	}
	return true
}

// newStringMap decodes an object into a new map[string]string.
func (d *decoder) newStringMap(dst unsafe.Pointer) bool {
	d.pos++ // {
	m := map[string]string{}
	if d.next() == '}' {
		d.pos++
		*(*map[string]string)(dst) = m
		return true
	}
	for {
		if d.next() != '"' {
			return false
		}
		k, ok := d.str()
		if !ok || d.next() != ':' {
			return false
		}
		d.pos++
		var v string
		switch d.next() {
		case '"':
			if v, ok = d.str(); !ok {
				return false
			}
		case 'n':
			if !d.literal("null") {
				return false
			}
		default:
			return false
		}
		m[k] = v
		switch d.next() {
		case ',':
			d.pos++
		case '}':
			d.pos++
			*(*map[string]string)(dst) = m
			return true
		default:
			return false
		}
	}
}

// anyMap decodes an object into a map whose key is a string kind: each value
// into a zeroed element, a key given twice replacing the first.
func (d *decoder) anyMap(p *plan, dst unsafe.Pointer) bool {
	d.pos++ // {
	if d.depth++; d.depth > maxDepth {
		return false
	}
	m := reflect.MakeMap(p.typ)
	elem := reflect.New(p.elem.typ).Elem()
	keyType := p.typ.Key()
	if d.next() != '}' {
		for {
			if d.next() != '"' {
				return false
			}
			k, ok := d.str()
			if !ok || d.next() != ':' {
				return false
			}
			d.pos++
			elem.SetZero()
			if !d.value(p.elem, elem.Addr().UnsafePointer()) {
				return false
			}
			key := reflect.ValueOf(k)
			if !p.stringKey {
				key = key.Convert(keyType)
			}
			m.SetMapIndex(key, elem)
			if c := d.next(); c == '}' {
				break
			} else if c != ',' {
				return false
			}
			d.pos++
		}
	}
	d.pos++ // }
	d.depth--
	reflect.NewAt(p.typ, dst).Elem().Set(m)
	return true
}

// any decodes a value into interface{} as encoding/json does: objects into
// map[string]any, arrays into []any, numbers into float64.
func (d *decoder) any() (any, bool) {
	switch c := d.next(); {
	case c == '"':
		return d.str()
	case c == 't' && d.literal("true"):
		return true, true
	case c == 'f' && d.literal("false"):
		return false, true
	case c == 'n' && d.literal("null"):
		return nil, true
	case c == '-' || (c >= '0' && c <= '9'):
		start := d.pos
		if !d.number() {
			return nil, false
		}
		f, err := strconv.ParseFloat(string(d.data[start:d.pos]), 64)
		return f, err == nil
	case c == '[':
		n, ok := d.count()
		if !ok {
			return nil, false
		}
		d.pos++
		if d.depth++; d.depth > maxDepth {
			return nil, false
		}
		l := make([]any, n)
		for i := range l {
			if i > 0 {
				d.ws()
				d.pos++ // ,
			}
			if l[i], ok = d.any(); !ok {
				return nil, false
			}
		}
		d.ws()
		d.pos++ // ]
		d.depth--
		return l, true
	case c == '{':
		d.pos++
		if d.depth++; d.depth > maxDepth {
			return nil, false
		}
		m := map[string]any{}
		if d.next() != '}' {
			for {
				if d.next() != '"' {
					return nil, false
				}
				k, ok := d.str()
				if !ok || d.next() != ':' {
					return nil, false
				}
				d.pos++
				if m[k], ok = d.any(); !ok {
					return nil, false
				}
				if c := d.next(); c == '}' {
					break
				} else if c != ',' {
					return nil, false
				}
				d.pos++
			}
		}
		d.pos++
		d.depth--
		return m, true
	}
	return nil, false
}

func (d *decoder) literal(lit string) bool {
	if len(d.data)-d.pos < len(lit) || string(d.data[d.pos:d.pos+len(lit)]) != lit {
		return false
	}
	d.pos += len(lit)
	return true
}

// number reads a number as JSON's grammar has it.
func (d *decoder) number() bool {
	b, i := d.data, d.pos
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i+1)
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return false
		}
		i = j
	}
	d.pos = i
	return true
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// skip reads past one value, checking only that it is valid JSON.
func (d *decoder) skip() bool {
	switch c := d.next(); c {
	case '"':
		return d.skipString()
	case 't':
		return d.literal("true")
	case 'f':
		return d.literal("false")
	case 'n':
		return d.literal("null")
	case '[', '{':
		d.pos++
		if d.depth++; d.depth > maxDepth {
			return false
		}
		end := byte(']')
		if c == '{' {
			end = '}'
		}
		if d.next() != end {
			for {
				if c == '{' {
					if d.next() != '"' || !d.skipString() || d.next() != ':' {
						return false
					}
					d.pos++
				}
				if !d.skip() {
					return false
				}
				if n := d.next(); n == end {
					break
				} else if n != ',' {
					return false
				}
				d.pos++
			}
		}
		d.pos++
		d.depth--
		return true
	default:
		return (c == '-' || (c >= '0' && c <= '9')) && d.number()
	}
}

// skipString reads past the string at pos, checking its escapes.
func (d *decoder) skipString() bool {
	b := d.data
	for i := d.pos + 1; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			d.pos = i + 1
			return true
		case c < 0x20:
			return false
		case c == '\\':
			i++
			if i >= len(b) {
				return false
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if _, ok := hex4(b, i+1); !ok {
					return false
				}
				i += 4
			default:
				return false
			}
		}
	}
	return false
}

// stringBytes reads the string at pos: the bytes between its quotes, or
// unquoted into d.buf when it has escapes (valid until the next string).
// False for a string encoding/json would change: invalid UTF-8 or an escaped
// surrogate, which it replaces or pairs.
func (d *decoder) stringBytes() ([]byte, bool) {
	b := d.data
	ascii := true
	for i := d.pos + 1; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			s := b[d.pos+1 : i]
			if !ascii && !utf8.Valid(s) {
				return nil, false
			}
			d.pos = i + 1
			return s, true
		case c == '\\':
			return d.unquote()
		case c < 0x20:
			return nil, false
		case c >= 0x80:
			ascii = false
		}
	}
	return nil, false
}

// unquote reads the string at pos, which has escapes, into d.buf.
func (d *decoder) unquote() ([]byte, bool) {
	b := d.data
	out := d.buf[:0]
	start := d.pos + 1
	ascii := true
	for i := start; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			if !ascii && !utf8.Valid(b[start:i]) {
				return nil, false
			}
			d.pos = i + 1
			d.buf = out
			return out, true
		case c < 0x20:
			return nil, false
		case c >= 0x80:
			ascii = false
			out = append(out, c)
		case c != '\\':
			out = append(out, c)
		default:
			i++
			if i >= len(b) {
				return nil, false
			}
			switch b[i] {
			case '"', '\\', '/':
				out = append(out, b[i])
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := hex4(b, i+1)
				if !ok || (r >= 0xd800 && r < 0xe000) {
					return nil, false
				}
				out = utf8.AppendRune(out, r)
				i += 4
			default:
				return nil, false
			}
		}
	}
	return nil, false
}

func hex4(b []byte, i int) (rune, bool) {
	if len(b)-i < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
