package render

import (
	"bytes"
	"encoding/binary"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonTree is a JSON document parsed into nodes that point into its text.
// render status writes every object of the input again, with a new status:
// decoding each into maps and values, as encoding/json does, was most of the
// command's time. A tree is reused from object to object, so writing one
// allocates almost nothing. What the writers make of a tree is what
// encoding/json's decoding into an interface, then json.MarshalIndent or
// go-yaml, makes of the same text (treejson.go, treeyaml.go; the tests in
// statustree_test.go compare them).
type jsonTree struct {
	text  []byte
	nodes []jsonNode
	// kids lists the children of objects (key, value, key, value, ...) and
	// arrays, each node's in one run.
	kids  []int32
	stack []int32
	// scratch holds unquoted strings; keys, the escaped keys of objects
	// (members), unquoted since the tree last parsed.
	scratch, keys []byte
}

type jsonKind byte

const (
	jsonNull jsonKind = iota
	jsonTrue
	jsonFalse
	jsonNumber
	jsonString
	jsonObject
	jsonArray
)

// jsonNode is one value: a literal's text (a string's without its quotes),
// or a run of kids.
type jsonNode struct {
	kind jsonKind
	// escaped: the string has escapes or bytes that unquoting changes.
	escaped    bool
	start, end int32
	// first and n are the node's run in kids: n children (object: 2n).
	first, n int32
}

// parse reads text, a whole JSON document, and returns its root; ok is false
// if text is not JSON this parser reads (the caller falls back to
// encoding/json, which says why).
func (t *jsonTree) parse(text []byte) (root int32, ok bool) {
	if len(text) > 1<<30 {
		return 0, false
	}
	t.text = text
	t.nodes = t.nodes[:0]
	t.kids = t.kids[:0]
	t.stack = t.stack[:0]
	t.keys = t.keys[:0]
	p := &jsonParser{t: t, s: text}
	p.space()
	root, ok = p.value(0)
	if !ok {
		return 0, false
	}
	p.space()
	return root, p.i == len(text)
}

// maxJSONDepth bounds nesting as encoding/json does (10000).
const maxJSONDepth = 10000

type jsonParser struct {
	t *jsonTree
	s []byte
	i int
}

func (p *jsonParser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) node(n jsonNode) int32 {
	p.t.nodes = append(p.t.nodes, n)
	return int32(len(p.t.nodes) - 1)
}

func (p *jsonParser) value(depth int) (int32, bool) {
	if p.i >= len(p.s) || depth > maxJSONDepth {
		return 0, false
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case bytes.HasPrefix(p.s[p.i:], []byte("null")):
		p.i += 4
		return p.node(jsonNode{kind: jsonNull}), true
	case bytes.HasPrefix(p.s[p.i:], []byte("true")):
		p.i += 4
		return p.node(jsonNode{kind: jsonTrue}), true
	case bytes.HasPrefix(p.s[p.i:], []byte("false")):
		p.i += 5
		return p.node(jsonNode{kind: jsonFalse}), true
	}
	return 0, false
}

// children moves the nodes pushed on the stack since mark into one run of kids.
func (p *jsonParser) children(mark int) (first, n int32) {
	t := p.t
	first = int32(len(t.kids))
	t.kids = append(t.kids, t.stack[mark:]...)
	n = int32(len(t.stack) - mark)
	t.stack = t.stack[:mark]
	return first, n
}

func (p *jsonParser) object(depth int) (int32, bool) {
	p.i++ // {
	mark := len(p.t.stack)
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return p.node(jsonNode{kind: jsonObject, first: int32(len(p.t.kids))}), true
	}
	for {
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return 0, false
		}
		k, ok := p.str()
		if !ok {
			return 0, false
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return 0, false
		}
		p.i++
		p.space()
		v, ok := p.value(depth + 1)
		if !ok {
			return 0, false
		}
		p.t.stack = append(p.t.stack, k, v)
		p.space()
		if p.i >= len(p.s) {
			return 0, false
		}
		if p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.s[p.i] != '}' {
			return 0, false
		}
		p.i++
		first, n := p.children(mark)
		return p.node(jsonNode{kind: jsonObject, first: first, n: n / 2}), true
	}
}

func (p *jsonParser) array(depth int) (int32, bool) {
	p.i++ // [
	mark := len(p.t.stack)
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return p.node(jsonNode{kind: jsonArray, first: int32(len(p.t.kids))}), true
	}
	for {
		p.space()
		v, ok := p.value(depth + 1)
		if !ok {
			return 0, false
		}
		p.t.stack = append(p.t.stack, v)
		p.space()
		if p.i >= len(p.s) {
			return 0, false
		}
		if p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.s[p.i] != ']' {
			return 0, false
		}
		p.i++
		first, n := p.children(mark)
		return p.node(jsonNode{kind: jsonArray, first: first, n: n}), true
	}
}

// str reads a string. It is marked escaped when unquoting changes it: an
// escape, or bytes that are not UTF-8.
func (p *jsonParser) str() (int32, bool) {
	p.i++ // "
	start := p.i
	escaped := false
	for p.i < len(p.s) {
		if p.i+8 <= len(p.s) && plainJSONWord(binary.LittleEndian.Uint64(p.s[p.i:])) {
			p.i += 8
			continue
		}
		c := p.s[p.i]
		if jsonPlainByte[c] {
			p.i++
			continue
		}
		switch {
		case c == '"':
			n := jsonNode{kind: jsonString, escaped: escaped, start: int32(start), end: int32(p.i)}
			p.i++
			return p.node(n), true
		case c == '\\':
			escaped = true
			if p.i+1 >= len(p.s) {
				return 0, false
			}
			switch p.s[p.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.i += 2
			case 'u':
				if getu4(p.s[p.i:]) < 0 {
					return 0, false
				}
				p.i += 6
			default:
				return 0, false
			}
		case c < ' ':
			return 0, false
		case c < utf8.RuneSelf:
			p.i++
		default:
			r, size := utf8.DecodeRune(p.s[p.i:])
			if r == utf8.RuneError && size == 1 {
				escaped = true
			}
			p.i += size
		}
	}
	return 0, false
}

// plainJSONWord reports whether the 8 bytes of x are all printable ASCII but
// the quote and the backslash (jsonPlainByte of each), testing them at once:
// strings are most of the text render status parses. Each test below sets
// the high bit of a byte that is below 0x20, equal to '"' or '\\', or not
// ASCII; a byte's borrow can set the bit of a higher byte only when a lower
// byte already matched, so the result is exact for "none matched".
func plainJSONWord(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	below := (x - 0x20*ones) &^ x
	quote := x ^ '"'*ones
	quote = (quote - ones) &^ quote
	slash := x ^ '\\'*ones
	slash = (slash - ones) &^ slash
	return (below|quote|slash|x)&highs == 0
}

// jsonPlainByte is true for the bytes a string holds as they are: printable
// ASCII but the quote and the backslash.
var jsonPlainByte = func() (t [256]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// number reads a number as JSON's grammar (RFC 8259 section 6) has it.
func (p *jsonParser) number() (int32, bool) {
	s, start := p.s, p.i
	i := p.i
	if s[i] == '-' {
		i++
	}
	digits := func() bool {
		from := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i > from
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case !digits():
		return 0, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if !digits() {
			return 0, false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if !digits() {
			return 0, false
		}
	}
	p.i = i
	return p.node(jsonNode{kind: jsonNumber, start: int32(start), end: int32(i)}), true
}

// raw is a literal's text: a number, or a string's as written.
func (t *jsonTree) raw(n jsonNode) []byte { return t.text[n.start:n.end] }

// str is a string's value, as encoding/json unquotes it. The bytes are valid
// until the next call.
func (t *jsonTree) str(n jsonNode) []byte {
	s := t.raw(n)
	if !n.escaped {
		return s
	}
	t.scratch = unquoteJSON(t.scratch[:0], s)
	return t.scratch
}

// kid is child i of node n (of an object: its key at 2i, its value at 2i+1).
func (t *jsonTree) kid(n jsonNode, i int) int32 { return t.kids[int(n.first)+i] }

// unquoteJSON appends the value of a JSON string's contents, as written
// between its quotes, the way encoding/json unquotes it: escapes decoded, an
// unpaired surrogate and bytes that are not UTF-8 replaced by U+FFFD. s has
// been checked by jsonParser.str.
func unquoteJSON(b, s []byte) []byte {
	for r := 0; r < len(s); {
		switch c := s[r]; {
		case c == '\\':
			r++
			switch s[r] {
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				rr := getu4(s[r-1:])
				r += 5
				if utf16.IsSurrogate(rr) {
					if dec := utf16.DecodeRune(rr, getu4(s[r:])); dec != unicode.ReplacementChar {
						r += 6
						b = utf8.AppendRune(b, dec)
						continue
					}
					rr = unicode.ReplacementChar
				}
				b = utf8.AppendRune(b, rr)
				continue
			default: // " \ /
				b = append(b, s[r])
			}
			r++
		case c < utf8.RuneSelf:
			b = append(b, c)
			r++
		default:
			rr, size := utf8.DecodeRune(s[r:])
			r += size
			b = utf8.AppendRune(b, rr)
		}
	}
	return b
}

// getu4 decodes \uXXXX at the start of s, or returns -1.
func getu4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c = c - '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}
