package render

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
)

// member is one member of an object as a map holds it: its key unquoted and
// its value's node. The key is text[start:end] of its tree, or keys[start:end]
// if it was escaped. A member holds no pointer: sorting members and appending
// them stores none, so costs no write barrier while the collector marks.
type member struct {
	start, end int32
	value      int32
	unquoted   bool
}

// key is m's key. The bytes are valid until the tree parses again.
func (t *jsonTree) key(m member) []byte {
	if m.unquoted {
		return t.keys[m.start:m.end]
	}
	return t.text[m.start:m.end]
}

// members appends the members of object node n to dst as decoding into a map
// keeps them: in key order (bytes, as encoding/json sorts a map's keys), a
// key given twice keeping its last value. An escaped key is unquoted into
// the tree's keys; the others are in the text.
func (t *jsonTree) members(dst []member, n jsonNode) []member {
	lo := len(dst)
	for i := 0; i < int(n.n); i++ {
		k := t.nodes[t.kid(n, 2*i)]
		m := member{start: k.start, end: k.end, value: t.kid(n, 2*i+1)}
		if k.escaped {
			m.start = int32(len(t.keys))
			t.keys = unquoteJSON(t.keys, t.raw(k))
			m.end, m.unquoted = int32(len(t.keys)), true
		}
		dst = append(dst, m)
	}
	return t.sortMembers(dst, lo)
}

// sortMembers sorts dst[lo:] by key and drops all but the last of a key given
// more than once.
func (t *jsonTree) sortMembers(dst []member, lo int) []member {
	ms := dst[lo:]
	slices.SortStableFunc(ms, func(a, b member) int { return bytes.Compare(t.key(a), t.key(b)) })
	w := 0
	for i := range ms {
		if i+1 < len(ms) && bytes.Equal(t.key(ms[i]), t.key(ms[i+1])) {
			continue // the later value wins
		}
		ms[w] = ms[i]
		w++
	}
	return dst[:lo+w]
}

// statusTree holds one object as written and the status computed for it,
// parsed into one tree, and writes the object with its status replaced.
type statusTree struct {
	jsonTree
	buf     []byte
	members []member
	// status is a route's status as JSON.
	status []byte
	// styles remembers the YAML style of strings that stringStyle cannot
	// tell from their first character or length.
	styles map[string]yamlStyle
}

// parse reads the object raw and the status (JSON, nil to keep the object's
// own), and returns the object's members in key order; ok is false when
// either is not a JSON object this parser reads.
func (s *statusTree) parse(raw, status []byte) (members []member, ok bool) {
	s.buf = append(append(append(s.buf[:0], raw...), "status"...), status...)
	root, ok := s.jsonTree.parse(s.buf[:len(raw)])
	if !ok || s.nodes[root].kind != jsonObject {
		return nil, false
	}
	s.text = s.buf
	members = s.jsonTree.members(s.members[:0], s.nodes[root])
	if status != nil {
		p := &jsonParser{t: &s.jsonTree, s: s.buf, i: len(raw) + len("status")}
		st, ok := p.value(0)
		if p.space(); !ok || p.i != len(s.buf) || s.nodes[st].kind != jsonObject {
			return nil, false
		}
		members = slices.DeleteFunc(members, func(m member) bool { return string(s.key(m)) == "status" })
		members = append(members, member{start: int32(len(raw)), end: int32(len(raw) + len("status")), value: st})
		members = s.sortMembers(members, 0)
	}
	s.members = members
	return members, true
}

// appendJSON appends the object whose members ms are as json.MarshalIndent(v,
// prefix, indent) writes v, the value encoding/json decodes the object to
// (numbers as float64), at depth; ok is false for a number encoding/json
// cannot hold in a float64.
func (s *statusTree) appendJSON(b []byte, ms []member, prefix, indent string, depth int) (_ []byte, ok bool) {
	if len(ms) == 0 {
		return append(b, "{}"...), true
	}
	b = append(b, '{')
	for i, m := range ms {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonNewline(b, prefix, indent, depth+1)
		if k := s.key(m); plainJSONString(k) {
			b = append(b, '"')
			b = append(b, k...)
			b = append(b, `": `...)
		} else {
			b = appendJSONString(b, string(k))
			b = append(b, ": "...)
		}
		if b, ok = s.appendValueJSON(b, m.value, prefix, indent, depth+1); !ok {
			return b, false
		}
	}
	b = jsonNewline(b, prefix, indent, depth)
	return append(b, '}'), true
}

func (s *statusTree) appendValueJSON(b []byte, v int32, prefix, indent string, depth int) (_ []byte, ok bool) {
	n := s.nodes[v]
	switch n.kind {
	case jsonNull:
		return append(b, "null"...), true
	case jsonTrue:
		return append(b, "true"...), true
	case jsonFalse:
		return append(b, "false"...), true
	case jsonNumber:
		return appendJSONNumber(b, s.raw(n))
	case jsonString:
		if str := s.raw(n); !n.escaped && plainJSONString(str) {
			b = append(b, '"')
			b = append(b, str...)
			return append(b, '"'), true
		}
		return appendJSONString(b, string(s.str(n))), true
	case jsonArray:
		if n.n == 0 {
			return append(b, "[]"...), true
		}
		b = append(b, '[')
		for i := 0; i < int(n.n); i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonNewline(b, prefix, indent, depth+1)
			if b, ok = s.appendValueJSON(b, s.kid(n, i), prefix, indent, depth+1); !ok {
				return b, false
			}
		}
		b = jsonNewline(b, prefix, indent, depth)
		return append(b, ']'), true
	}
	lo := len(s.members)
	s.members = s.jsonTree.members(s.members, n)
	b, ok = s.appendJSON(b, s.members[lo:], prefix, indent, depth)
	s.members = s.members[:lo]
	return b, ok
}

func jsonNewline(b []byte, prefix, indent string, depth int) []byte {
	if n := 1 + len(prefix) + depth*len(indent); prefix == itemIndent && indent == "    " && n <= len(itemNewlines) {
		return append(b, itemNewlines[:n]...)
	}
	b = append(b, '\n')
	b = append(b, prefix...)
	for range depth {
		b = append(b, indent...)
	}
	return b
}

// itemNewlines starts every line of an item of render status -o json: a
// newline and the indentation of up to 30 levels.
var itemNewlines = "\n" + strings.Repeat(" ", len(itemIndent)+30*4)

// plainJSONString reports whether encoding/json writes the string s as it is:
// printable ASCII without quotes, backslashes or HTML characters.
func plainJSONString(s []byte) bool {
	for _, c := range s {
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// appendJSONNumber appends the number literal num as encoding/json writes the
// float64 it decodes num to; ok is false when num does not fit one.
func appendJSONNumber(b, num []byte) ([]byte, bool) {
	if exactJSONInteger(num) {
		return append(b, num...), true
	}
	f, err := strconv.ParseFloat(string(num), 64)
	if err != nil {
		return b, false
	}
	return appendJSONFloat(b, f)
}

// exactJSONInteger reports whether num is an integer of at most 15 digits:
// a float64 holds it exactly, and encoding/json writes it back unchanged.
func exactJSONInteger(num []byte) bool {
	digits := num
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 15 || (digits[0] == '0' && len(digits) > 1) {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
