// Package fastyaml converts the block-style YAML that kubectl, Helm and most
// people write straight into the JSON that sigs.k8s.io/yaml.YAMLToJSON produces
// for it, byte for byte: same scalar resolution (YAML 1.1 as go.yaml.in/yaml/v2
// does it: yes/no/on/off are booleans, 0x10 and 010 are integers, ~ is null),
// keys sorted as encoding/json sorts map keys, the same string escaping and
// number formatting.
//
// It exists because decoding is the floor of every command's time (DESIGN.md
// "Performance"), and YAMLToJSON, which builds a generic tree of every document
// before writing it out, is most of decoding: without this package the loader
// takes about five times as long and allocates about seven times as much
// (load's BenchmarkLoad).
//
// It reads only a subset: printable ASCII without tabs or carriage returns;
// block mappings and sequences; plain, single-quoted and double-quoted (without
// escapes) one-line scalars; literal block scalars (| and |-); [] and {} and
// one-line flow sequences of scalars. Anything else (anchors and aliases, tags,
// merge keys, non-string keys, duplicate keys, timestamps, .inf/.nan, folded or
// multi-line scalars, escapes, flow mappings, directives, malformed input) makes
// ToJSON report false, and the caller uses YAMLToJSON, which also produces the
// error text for malformed documents. Because of that the subset may only ever
// shrink a document's path, never change its bytes: FuzzYAMLToJSONEquivalence
// and TestEquivalence hold it to YAMLToJSON.
package fastyaml

import (
	"bytes"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// converter holds one conversion's state and buffers, reused through pool.
type converter struct {
	src       []byte
	pos       int    // start of the line after the current one
	ind       int    // indent of the current line; -1 at the end
	line      []byte // the current line after its indent, trailing spaces removed
	lineStart int    // where line starts in src

	out     []byte
	entries []entry
	scratch []byte
	depth   int

	// The last scalar written, when it was a string (for the header).
	lastIsStr bool
	lastStr   []byte

	// The top-level apiVersion and kind when both are absent or strings, and
	// irregular when they must be read from the JSON (see Header).
	apiVersion, kind string
	irregular        bool
	// names holds the apiVersion and kind values met, to share: a file
	// repeats a few of them in every object, and every object keeps its own.
	names map[string]string

	// The items of the top-level spec.listeners sequence (see Header):
	// under says what the value being converted is (underSpec, underListeners
	// or neither), itemStarts holds where each item starts in src, and
	// itemsUnknown is set when one is not placed on the way.
	under        int
	itemStarts   []int
	itemsUnknown bool
}

const (
	underSpec = 1 + iota
	underListeners
)

type entry struct {
	key        []byte
	start, end int // `"key":value` in out
}

var pool = sync.Pool{New: func() any { return new(converter) }}

// Header is the top-level apiVersion and kind, read on the way. Known is false
// when they must be read from the JSON instead: the document has items, or a
// key that case-folds to apiVersion, kind or items (encoding/json matches keys
// case-insensitively), or an apiVersion or kind that is not a string.
//
// Listeners is the line in body (1 for its first) of each item of the
// top-level spec.listeners block sequence, the line a YAML parser gives the
// item's node (its first token: a `- |` item's is the dash's, an item whose
// mapping starts on the line after its dash is that line's), so that a
// Gateway's listeners are placed without parsing the document again; nil when
// there is no such sequence. ListenersKnown is false when an item is not
// placed on the way (an empty item, a flow sequence that holds items): the
// caller must parse body to place them.
type Header struct {
	APIVersion, Kind string
	Known            bool
	Listeners        []int
	ListenersKnown   bool
}

// ToJSON returns the JSON YAMLToJSON writes for the document body, in a new
// slice, and its header; ok is false when body is outside the subset.
func ToJSON(body []byte) (js []byte, h Header, ok bool) {
	return AppendJSON(nil, body)
}

// AppendJSON is ToJSON appending the JSON to dst[:0] when it has room, for a
// caller that converts document after document and keeps none of the text:
// js then shares dst's array, and is only good until dst is used again. With
// a nil dst it is ToJSON.
func AppendJSON(dst, body []byte) (js []byte, h Header, ok bool) {
	c := pool.Get().(*converter)
	defer c.release()
	out, ok := c.convert(body)
	if !ok {
		return nil, Header{}, false
	}
	h = Header{APIVersion: c.apiVersion, Kind: c.kind, Known: !c.irregular, ListenersKnown: !c.itemsUnknown}
	if len(c.itemStarts) > 0 && !c.itemsUnknown {
		h.Listeners = make([]int, len(c.itemStarts))
		line, from := 1, 0
		for i, at := range c.itemStarts {
			line += bytes.Count(body[from:at], []byte{'\n'})
			h.Listeners[i], from = line, at
		}
	}
	if dst == nil {
		return bytes.Clone(out), h, true
	}
	return append(dst[:0], out...), h, true
}

// convert returns the JSON for body and true, or false when body is outside the
// subset. The JSON is in c's buffer: copy it before c is reused.
func (c *converter) convert(body []byte) ([]byte, bool) {
	for _, b := range body {
		if b >= 0x7f || (b < 0x20 && b != '\n') {
			return nil, false
		}
	}
	c.src, c.pos, c.out, c.entries, c.depth = body, 0, c.out[:0], c.entries[:0], 0
	c.apiVersion, c.kind, c.irregular = "", "", false
	c.under, c.itemStarts, c.itemsUnknown = 0, c.itemStarts[:0], false
	if !c.advance() || c.ind < 0 || isDash(c.line) {
		return nil, false
	}
	if !c.mapping(c.ind) || c.ind != -1 {
		return nil, false
	}
	return c.out, true
}

// advance makes the next line holding content the current one, skipping blank and
// comment lines. It reports false for lines outside the subset.
func (c *converter) advance() bool {
	for c.pos < len(c.src) {
		start := c.pos
		l := c.src[start:]
		if eol := bytes.IndexByte(l, '\n'); eol >= 0 {
			l = l[:eol]
			c.pos = start + eol + 1
		} else {
			c.pos = len(c.src)
		}
		i := 0
		for i < len(l) && l[i] == ' ' {
			i++
		}
		if i == len(l) || l[i] == '#' {
			continue
		}
		if i == 0 && (bytes.HasPrefix(l, []byte("---")) || bytes.HasPrefix(l, []byte("..."))) {
			return false
		}
		j := len(l)
		for l[j-1] == ' ' {
			j--
		}
		c.ind, c.line, c.lineStart = i, l[i:j], start+i
		return true
	}
	c.ind, c.line = -1, nil
	return true
}

func isDash(l []byte) bool { return l[0] == '-' && (len(l) == 1 || l[1] == ' ') }

// block converts the block node starting on the current line.
func (c *converter) block() bool {
	if isDash(c.line) {
		return c.sequence(c.ind)
	}
	return c.mapping(c.ind)
}

func (c *converter) mapping(ind int) bool {
	inSpec := c.under == underSpec
	c.under = 0
	c.depth++
	c.lastIsStr = false
	base := len(c.entries)
	c.out = append(c.out, '{')
	open := len(c.out)
	for c.ind == ind {
		if isDash(c.line) {
			return false
		}
		key, rest, isKey, ok := splitKey(c.line)
		if !ok || !isKey {
			return false
		}
		if len(c.entries) > base {
			c.out = append(c.out, ',')
		}
		start := len(c.out)
		c.out = appendJSONString(c.out, key)
		c.out = append(c.out, ':')
		c.lastIsStr = false
		switch {
		case c.depth == 1 && string(key) == "spec":
			c.under = underSpec
		case inSpec && string(key) == "listeners":
			c.under = underListeners
		}
		if !c.value(ind, rest) {
			return false
		}
		if c.under == underListeners && len(rest) > 0 && rest[0] == '[' && !bytes.HasPrefix(rest, []byte("[]")) {
			c.itemsUnknown = true // a flow sequence's items are not placed
		}
		c.under = 0
		if c.depth == 1 {
			c.header(key)
		}
		c.entries = append(c.entries, entry{key, start, len(c.out)})
	}
	if c.ind > ind {
		return false
	}
	c.out = append(c.out, '}')
	if !c.sortEntries(base, open, len(c.out)-1) {
		return false
	}
	c.entries = c.entries[:base]
	c.depth--
	c.lastIsStr = false
	return true
}

// header records apiVersion and kind of the top-level mapping.
func (c *converter) header(key []byte) {
	var dst *string
	switch string(key) {
	case "apiVersion":
		dst = &c.apiVersion
	case "kind":
		dst = &c.kind
	default:
		k := string(key)
		if strings.EqualFold(k, "apiVersion") || strings.EqualFold(k, "kind") || strings.EqualFold(k, "items") {
			c.irregular = true
		}
		return
	}
	if !c.lastIsStr {
		c.irregular = true
		return
	}
	*dst = c.name(c.lastStr)
}

// name is s as a string, shared with the documents before that had it.
func (c *converter) name(s []byte) string {
	if n, ok := c.names[string(s)]; ok {
		return n
	}
	n := string(s)
	if c.names == nil || len(c.names) >= maxNames {
		c.names = make(map[string]string)
	}
	c.names[n] = n
	return n
}

// maxNames bounds the names a converter shares (a file of many kinds
// starts again).
const maxNames = 256

// sortEntries puts the entries from base, written in out[open:close], in the order
// encoding/json writes map keys. Duplicate keys are outside the subset.
func (c *converter) sortEntries(base, open, close int) bool {
	es := c.entries[base:]
	sorted := true
	for i := 1; i < len(es); i++ {
		switch bytes.Compare(es[i-1].key, es[i].key) {
		case 0:
			return false
		case 1:
			sorted = false
		}
	}
	if sorted {
		return true
	}
	slices.SortFunc(es, func(a, b entry) int { return bytes.Compare(a.key, b.key) })
	for i := 1; i < len(es); i++ {
		if bytes.Equal(es[i-1].key, es[i].key) {
			return false
		}
	}
	c.scratch = append(c.scratch[:0], c.out[open:close]...)
	o := c.out[:open]
	for i, e := range es {
		if i > 0 {
			o = append(o, ',')
		}
		o = append(o, c.scratch[e.start-open:e.end-open]...)
	}
	c.out = append(o, '}')
	return true
}

// value converts the value of a mapping key whose mapping is indented ind; rest is
// what follows the colon on the key's line.
func (c *converter) value(ind int, rest []byte) bool {
	if len(rest) == 0 {
		if !c.advance() {
			return false
		}
		switch {
		case c.ind > ind:
			return c.block()
		case c.ind == ind && isDash(c.line):
			return c.sequence(ind)
		}
		c.out = append(c.out, "null"...)
		return true
	}
	if rest[0] == '|' {
		return c.literal(ind, rest)
	}
	if !c.scalar(rest) || !c.advance() {
		return false
	}
	return c.ind <= ind
}

func (c *converter) sequence(ind int) bool {
	listeners := c.under == underListeners
	c.under = 0
	c.out = append(c.out, '[')
	n := 0
	for c.ind == ind && isDash(c.line) {
		if n > 0 {
			c.out = append(c.out, ',')
		}
		n++
		rest := bytes.TrimLeft(c.line[1:], " ")
		col := ind + len(c.line) - len(rest)
		switch {
		case len(rest) == 0 || rest[0] == '#':
			if !c.advance() {
				return false
			}
			if c.ind > ind {
				if listeners {
					c.itemStarts = append(c.itemStarts, c.lineStart)
				}
				if !c.block() {
					return false
				}
			} else {
				c.itemsUnknown = c.itemsUnknown || listeners // an empty item
				c.out = append(c.out, "null"...)
			}
			continue
		case isDash(rest):
			return false
		}
		if listeners {
			c.itemStarts = append(c.itemStarts, c.lineStart)
		}
		switch {
		case rest[0] == '|':
			if !c.literal(ind, rest) {
				return false
			}
			continue
		}
		_, _, isKey, ok := splitKey(rest)
		if !ok {
			return false
		}
		if isKey {
			c.ind, c.line = col, rest
			if !c.mapping(col) {
				return false
			}
			continue
		}
		if !c.scalar(rest) || !c.advance() || c.ind > ind {
			return false
		}
	}
	if c.ind > ind {
		return false
	}
	c.out = append(c.out, ']')
	c.lastIsStr = false
	return true
}

// literal converts a literal block scalar (| or |-) whose parent is indented ind,
// then moves to the line after it.
func (c *converter) literal(ind int, head []byte) bool {
	strip := false
	switch string(head) {
	case "|":
	case "|-":
		strip = true
	default:
		return false
	}
	buf := c.scratch[:0]
	m, breaks, content := -1, 0, false
	p := c.pos
	for p < len(c.src) {
		l := c.src[p:]
		eol := bytes.IndexByte(l, '\n')
		if eol < 0 {
			return false // the last line has no line break
		}
		l, next := l[:eol], p+eol+1
		sp := 0
		for sp < len(l) && l[sp] == ' ' {
			sp++
		}
		if sp == len(l) {
			if m < 0 || sp > m {
				return false
			}
			breaks++
			p = next
			continue
		}
		if m < 0 {
			if sp <= ind {
				break
			}
			m = sp
		}
		if sp < m {
			break
		}
		if content {
			buf = append(buf, '\n')
		}
		for ; breaks > 0; breaks-- {
			buf = append(buf, '\n')
		}
		buf = append(buf, l[m:]...)
		content = true
		p = next
	}
	if content && !strip {
		buf = append(buf, '\n')
	}
	c.scratch = buf
	c.out = appendJSONString(c.out, buf)
	c.lastIsStr, c.lastStr = true, buf
	c.pos = p
	if !c.advance() {
		return false
	}
	return c.ind <= ind
}

// splitKey splits "key: rest" (rest without a trailing comment). isKey is false for
// a line that is a scalar; ok is false outside the subset.
func splitKey(l []byte) (key, rest []byte, isKey, ok bool) {
	var after []byte
	switch l[0] {
	case '"', '\'':
		j := bytes.IndexByte(l[1:], l[0])
		if j < 0 {
			return nil, nil, false, false
		}
		key, after = l[1:1+j], l[2+j:]
		if bytes.IndexByte(key, '\\') >= 0 || (l[0] == '\'' && len(after) > 0 && after[0] == '\'') {
			return nil, nil, false, false
		}
		if len(after) == 0 || after[0] != ':' {
			return nil, nil, false, true
		}
		if len(after) > 1 && after[1] != ' ' {
			return nil, nil, false, false
		}
		after = after[1:]
	default:
		if isIndicator(l) {
			return nil, nil, false, true
		}
		i := 0
		for ; i < len(l); i++ {
			if l[i] == ':' && (i+1 == len(l) || l[i+1] == ' ') {
				break
			}
			if l[i] == '#' && l[i-1] == ' ' {
				return nil, nil, false, true
			}
		}
		if i == len(l) {
			return nil, nil, false, true
		}
		key, after = bytes.TrimRight(l[:i], " "), l[i+1:]
		if len(key) == 0 || string(key) == "<<" || !plainIsString(key) {
			return nil, nil, false, false
		}
	}
	if len(key) > 1000 {
		return nil, nil, false, false
	}
	rest = bytes.TrimLeft(after, " ")
	if len(rest) > 0 && rest[0] == '#' {
		rest = nil
	}
	return key, rest, true, true
}

// isIndicator reports whether a plain scalar cannot start l (or this reader does not
// take one that does).
func isIndicator(l []byte) bool {
	switch l[0] {
	case '&', '*', '!', '|', '>', '%', '@', '`', '[', ']', '{', '}', ',', '?', ':', '#', '"', '\'':
		return true
	case '-':
		return len(l) == 1 || l[1] == ' '
	}
	return false
}

// trailerOK reports whether t, what follows a quoted scalar or flow collection on
// its line, is nothing or a comment.
func trailerOK(t []byte) bool {
	if len(t) == 0 {
		return true
	}
	if t[0] != ' ' {
		return false
	}
	t = bytes.TrimLeft(t, " ")
	return len(t) == 0 || t[0] == '#'
}

// scalar converts a one-line scalar or flow collection.
func (c *converter) scalar(s []byte) bool {
	switch s[0] {
	case '"':
		j := bytes.IndexByte(s[1:], '"')
		if j < 0 || bytes.IndexByte(s[1:1+j], '\\') >= 0 || !trailerOK(s[2+j:]) {
			return false
		}
		c.str(s[1 : 1+j])
		return true
	case '\'':
		v, n, ok := c.singleQuoted(s)
		if !ok || !trailerOK(s[n:]) {
			return false
		}
		c.str(v)
		return true
	case '[':
		return c.flowSequence(s)
	case '{':
		if len(s) < 2 || s[1] != '}' || !trailerOK(s[2:]) {
			return false
		}
		c.out = append(c.out, "{}"...)
		return true
	}
	if isIndicator(s) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] == '#' && s[i-1] == ' ' {
			s = bytes.TrimRight(s[:i], " ")
			break
		}
	}
	if bytes.Contains(s, []byte(": ")) || s[len(s)-1] == ':' {
		return false
	}
	return c.plain(s)
}

func (c *converter) str(s []byte) {
	c.out = appendJSONString(c.out, s)
	c.lastIsStr, c.lastStr = true, s
}

// singleQuoted reads a single-quoted scalar at the start of s: its value and the
// length it takes in s.
func (c *converter) singleQuoted(s []byte) ([]byte, int, bool) {
	esc := false
	for i := 1; i < len(s); i++ {
		if s[i] != '\'' {
			continue
		}
		if i+1 < len(s) && s[i+1] == '\'' {
			esc = true
			i++
			continue
		}
		v := s[1:i]
		if esc {
			c.scratch = append(c.scratch[:0], v...)
			c.scratch = bytes.ReplaceAll(c.scratch, []byte("''"), []byte("'"))
			v = c.scratch
		}
		return v, i + 1, true
	}
	return nil, 0, false
}

// flowSequence converts a one-line flow sequence of scalars: [], [a, "b", 'c'].
func (c *converter) flowSequence(s []byte) bool {
	c.out = append(c.out, '[')
	i, n := 1, 0
	for {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i == len(s) {
			return false
		}
		if s[i] == ']' && n == 0 {
			i++
			break
		}
		if n > 0 {
			c.out = append(c.out, ',')
		}
		n++
		switch s[i] {
		case '"':
			j := bytes.IndexByte(s[i+1:], '"')
			if j < 0 || bytes.IndexByte(s[i+1:i+1+j], '\\') >= 0 {
				return false
			}
			c.str(s[i+1 : i+1+j])
			i += j + 2
		case '\'':
			j := bytes.IndexByte(s[i+1:], '\'')
			if j < 0 || (i+2+j < len(s) && s[i+2+j] == '\'') {
				return false
			}
			c.str(s[i+1 : i+1+j])
			i += j + 2
		default:
			j := i
			for j < len(s) && s[j] != ',' && s[j] != ']' {
				if bytes.IndexByte([]byte("[]{}#:\"'"), s[j]) >= 0 {
					return false
				}
				j++
			}
			v := bytes.TrimRight(s[i:j], " ")
			if len(v) == 0 || isIndicator(v) || !c.plain(v) {
				return false
			}
			i = j
		}
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i == len(s) {
			return false
		}
		if s[i] == ']' {
			i++
			break
		}
		if s[i] != ',' {
			return false
		}
		i++
	}
	c.out = append(c.out, ']')
	c.lastIsStr = false
	return trailerOK(s[i:])
}

// Plain scalar resolution, as go.yaml.in/yaml/v2's resolve does it.

var resolveHint = func() (t [256]byte) {
	t['+'], t['-'] = 'S', 'S'
	for c := '0'; c <= '9'; c++ {
		t[c] = 'D'
	}
	for _, c := range "yYnNtTfFoO~" {
		t[c] = 'M'
	}
	t['.'] = '.'
	return t
}()

var yamlStyleFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// plain writes the JSON for a plain scalar, or reports false for values this reader
// leaves to YAMLToJSON (timestamps, infinities, NaN).
func (c *converter) plain(s []byte) bool {
	hint := resolveHint[s[0]]
	if hint == 0 {
		c.str(s)
		return true
	}
	c.lastIsStr = false
	switch string(s) {
	case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
		c.out = append(c.out, "true"...)
		return true
	case "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
		c.out = append(c.out, "false"...)
		return true
	case "~", "null", "Null", "NULL":
		c.out = append(c.out, "null"...)
		return true
	case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return false
	}
	switch hint {
	case '.':
		if f, err := strconv.ParseFloat(string(s), 64); err == nil {
			return c.float(f)
		}
	case 'D', 'S':
		if looksLikeTimestamp(s) {
			return false
		}
		plain := strings.ReplaceAll(string(s), "_", "")
		if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
			c.out = strconv.AppendInt(c.out, i, 10)
			return true
		}
		if u, err := strconv.ParseUint(plain, 0, 64); err == nil {
			c.out = strconv.AppendUint(c.out, u, 10)
			return true
		}
		if yamlStyleFloat.MatchString(plain) {
			if f, err := strconv.ParseFloat(plain, 64); err == nil {
				return c.float(f)
			}
		}
		if strings.HasPrefix(plain, "0b") {
			if i, err := strconv.ParseInt(plain[2:], 2, 64); err == nil {
				c.out = strconv.AppendInt(c.out, i, 10)
				return true
			}
			if u, err := strconv.ParseUint(plain[2:], 2, 64); err == nil {
				c.out = strconv.AppendUint(c.out, u, 10)
				return true
			}
		} else if strings.HasPrefix(plain, "-0b") {
			if i, err := strconv.ParseInt("-"+plain[3:], 2, 64); err == nil {
				c.out = strconv.AppendInt(c.out, i, 10)
				return true
			}
		}
	}
	c.str(s)
	return true
}

// plainIsString reports whether a plain key resolves to a string.
func plainIsString(s []byte) bool {
	switch resolveHint[s[0]] {
	case 0:
		return true
	case 'M':
		switch string(s) {
		case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON",
			"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF",
			"~", "null", "Null", "NULL":
			return false
		}
		return true
	}
	var c converter
	return c.plain(s) && c.lastIsStr
}

// looksLikeTimestamp is yaml.v2's quick check: timestamps start with YYYY-.
func looksLikeTimestamp(s []byte) bool {
	return len(s) > 4 && s[4] == '-' &&
		s[0] >= '0' && s[0] <= '9' && s[1] >= '0' && s[1] <= '9' &&
		s[2] >= '0' && s[2] <= '9' && s[3] >= '0' && s[3] <= '9'
}

// float writes f as encoding/json does.
func (c *converter) float(f float64) bool {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return false
	}
	abs, format := math.Abs(f), byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(c.out, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	c.out = b
	return true
}

// appendJSONString writes printable ASCII (and line breaks) as encoding/json does,
// HTML characters escaped.
func appendJSONString(b, s []byte) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i, ch := range s {
		if ch >= 0x20 && ch != '"' && ch != '\\' && ch != '<' && ch != '>' && ch != '&' {
			continue
		}
		b = append(b, s[start:i]...)
		switch ch {
		case '"', '\\':
			b = append(b, '\\', ch)
		case '\n':
			b = append(b, '\\', 'n')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[ch>>4], hex[ch&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// release returns c to the pool unless a huge document made its buffers large.
func (c *converter) release() {
	c.src, c.line, c.lastStr = nil, nil, nil
	if cap(c.itemStarts) > 1<<10 {
		c.itemStarts = nil
	}
	if cap(c.out) > 1<<20 || cap(c.scratch) > 1<<20 {
		return
	}
	clear(c.entries[:cap(c.entries)])
	pool.Put(c)
}
