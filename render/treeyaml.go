package render

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// This file writes a parsed object as go-yaml v2 (go.yaml.in/yaml/v2)
// writes the value render status used to give it: the object decoded into
// maps with json.Numbers, numbers turned into int, uint64 or float64
// (yamlValues), then goyaml.Marshal. That is the YAML sigs.k8s.io/yaml
// writes. go-yaml's reflection, events and emitter were most of render
// status -o yaml's time; this writer follows the emitter's rules (emitterc.go:
// scalar analysis, style selection, indentation and folding at 80 columns)
// for the values objects are made of, and reports !ok for the rest, which
// go-yaml then writes: a string that is not printable ASCII or holds a line
// break, or a key longer than a simple key may be. FuzzStatusYAML checks it
// against go-yaml.

// yamlSpaces indents a line.
var yamlSpaces = strings.Repeat(" ", 256)

// yamlBestWidth is go-yaml's line width: plain and quoted scalars fold at a
// space past it.
const yamlBestWidth = 80

// yamlEmitter is the part of go-yaml's emitter state that block mappings,
// block sequences and scalars read and write.
type yamlEmitter struct {
	b          []byte
	column     int
	indent     int
	whitespace bool
	indention  bool
}

type yamlStyle int

const (
	yamlPlain yamlStyle = iota
	yamlSingleQuoted
	yamlDoubleQuoted
)

// appendYAML appends the object whose members are ms as one YAML document,
// as goyaml.Marshal writes it.
func (s *statusTree) appendYAML(b []byte, ms []member) (_ []byte, ok bool) {
	if s.styles == nil {
		s.styles = map[string]yamlStyle{}
	}
	e := yamlEmitter{b: b, indent: -1, whitespace: true, indention: true}
	if !e.mapping(s, ms) {
		return b, false
	}
	// The document's implicit end: yaml_emitter_emit_document_end.
	e.indent = -1
	e.writeIndent()
	return e.b, true
}

// mapping writes a block mapping (yaml_emitter_emit_block_mapping_key and
// _value, every key simple), or {}. It sorts ms in go-yaml's key order.
func (e *yamlEmitter) mapping(s *statusTree, ms []member) bool {
	if len(ms) == 0 {
		e.flowEmpty('{', '}')
		return true
	}
	slices.SortStableFunc(ms, func(a, b member) int {
		// b < a first: ms is usually in order already, and an insertion
		// sort then asks about each key and the one before it once.
		ak, bk := s.key(a), s.key(b)
		switch {
		case yamlKeyLess(bk, ak):
			return 1
		case yamlKeyLess(ak, bk):
			return -1
		}
		return 0
	})
	outer := e.indent
	e.increaseIndent(false, false)
	for _, m := range ms {
		e.writeIndent()
		// A simple key is at most 128 characters (yaml_emitter_check_simple_key).
		key := s.key(m)
		if len(key) > 128 || !printableASCII(key) {
			return false
		}
		e.scalar(key, stringStyle(key, s.styles), true)
		e.writeIndicator(":", false, false, false)
		if !e.node(s, m.value, false) {
			return false
		}
	}
	e.indent = outer
	return true
}

// sequence writes a non-empty block sequence (yaml_emitter_emit_block_sequence_item).
func (e *yamlEmitter) sequence(s *statusTree, n jsonNode, inMapping bool) bool {
	outer := e.indent
	e.increaseIndent(false, inMapping && !e.indention)
	for i := 0; i < int(n.n); i++ {
		e.writeIndent()
		e.writeIndicator("-", true, false, true)
		if !e.node(s, s.kid(n, i), true) {
			return false
		}
	}
	e.indent = outer
	return true
}

// node writes a value of a mapping (inSequence false) or a sequence.
func (e *yamlEmitter) node(s *statusTree, v int32, inSequence bool) bool {
	n := s.nodes[v]
	switch n.kind {
	case jsonNull:
		e.scalar([]byte("null"), yamlPlain, false)
	case jsonTrue:
		e.scalar([]byte("true"), yamlPlain, false)
	case jsonFalse:
		e.scalar([]byte("false"), yamlPlain, false)
	case jsonNumber:
		e.scalar(yamlNumber(s.raw(n)), yamlPlain, false)
	case jsonString:
		str := s.raw(n)
		if n.escaped {
			str = s.str(n)
		}
		if !printableASCII(str) {
			return false
		}
		e.scalar(str, stringStyle(str, s.styles), false)
	case jsonArray:
		if n.n == 0 {
			e.flowEmpty('[', ']')
			return true
		}
		return e.sequence(s, n, !inSequence)
	case jsonObject:
		lo := len(s.members)
		s.members = s.jsonTree.members(s.members, n)
		ok := e.mapping(s, s.members[lo:])
		s.members = s.members[:lo]
		return ok
	}
	return true
}

// flowEmpty writes an empty mapping or sequence, which go-yaml writes in flow
// style: {} or [].
func (e *yamlEmitter) flowEmpty(open, end byte) {
	e.writeIndicator(string(open), true, true, false)
	e.writeIndicator(string(end), false, false, false)
}

// scalar writes a scalar of printable ASCII in the style go-yaml selects for
// the requested one (yaml_emitter_select_scalar_style, block context).
func (e *yamlEmitter) scalar(v []byte, style yamlStyle, simpleKey bool) {
	outer := e.indent
	e.increaseIndent(true, false)
	if style == yamlPlain && (!yamlPlainAllowed(v) || len(v) == 0 && simpleKey) {
		style = yamlSingleQuoted
	}
	switch style {
	case yamlPlain:
		e.writePlain(v, !simpleKey)
	case yamlSingleQuoted:
		e.writeSingleQuoted(v, !simpleKey)
	default:
		e.writeDoubleQuoted(v, !simpleKey)
	}
	e.indent = outer
}

func (e *yamlEmitter) put(c byte) {
	e.b = append(e.b, c)
	e.column++
}

// write appends v to e.b. Slicing e.b itself, unlike append(e.b, v...),
// stores no pointer unless e.b grows: a pointer stored while the collector
// marks goes through its write barrier, which was a tenth of the writer's
// time.
func write[T string | []byte](e *yamlEmitter, v T) {
	n := len(e.b)
	if cap(e.b)-n < len(v) {
		e.b = slices.Grow(e.b, len(v))
	}
	e.b = e.b[:n+len(v)]
	copy(e.b[n:], v)
}

func (e *yamlEmitter) increaseIndent(flow, indentless bool) {
	switch {
	case e.indent < 0 && flow:
		e.indent = 2
	case e.indent < 0:
		e.indent = 0
	case !indentless:
		e.indent += 2
	}
}

func (e *yamlEmitter) writeIndent() {
	indent := max(e.indent, 0)
	if !e.indention || e.column > indent || (e.column == indent && !e.whitespace) {
		e.b = append(e.b, '\n')
		e.column = 0
	}
	for e.column < indent {
		n := min(indent-e.column, len(yamlSpaces))
		write(e, yamlSpaces[:n])
		e.column += n
	}
	e.whitespace = true
	e.indention = true
}

func (e *yamlEmitter) writeIndicator(indicator string, needWhitespace, isWhitespace, isIndention bool) {
	if needWhitespace && !e.whitespace {
		e.put(' ')
	}
	for i := 0; i < len(indicator); i++ {
		e.put(indicator[i])
	}
	e.whitespace = isWhitespace
	e.indention = e.indention && isIndention
}

func (e *yamlEmitter) writePlain(v []byte, allowBreaks bool) {
	if !e.whitespace {
		e.put(' ')
	}
	if len(v) > 0 && (!allowBreaks || e.column+len(v)-1 <= yamlBestWidth) {
		// No space in v is past the width: written as it is.
		write(e, v)
		e.column += len(v)
		e.whitespace = false
		e.indention = false
		return
	}
	spaces := false
	for i := 0; i < len(v); i++ {
		if v[i] == ' ' {
			// A plain scalar has no trailing space, so v[i+1] exists.
			if allowBreaks && !spaces && e.column > yamlBestWidth && v[i+1] != ' ' {
				e.writeIndent()
			} else {
				e.put(' ')
			}
			spaces = true
			continue
		}
		e.put(v[i])
		e.indention = false
		spaces = false
	}
	e.whitespace = false
	e.indention = false
}

func (e *yamlEmitter) writeSingleQuoted(v []byte, allowBreaks bool) {
	e.writeIndicator("'", true, false, false)
	spaces := false
	for i := 0; i < len(v); i++ {
		if v[i] == ' ' {
			if allowBreaks && !spaces && e.column > yamlBestWidth && i > 0 && i < len(v)-1 && v[i+1] != ' ' {
				e.writeIndent()
			} else {
				e.put(' ')
			}
			spaces = true
			continue
		}
		if v[i] == '\'' {
			e.put('\'')
		}
		e.put(v[i])
		e.indention = false
		spaces = false
	}
	e.writeIndicator("'", false, false, false)
	e.whitespace = false
	e.indention = false
}

func (e *yamlEmitter) writeDoubleQuoted(v []byte, allowBreaks bool) {
	spaces := false
	e.writeIndicator(`"`, true, false, false)
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '"' || c == '\\':
			e.put('\\')
			e.put(c)
			spaces = false
		case c == ' ':
			if allowBreaks && !spaces && e.column > yamlBestWidth && i > 0 && i < len(v)-1 {
				e.writeIndent()
				if v[i+1] == ' ' {
					e.put('\\')
				}
			} else {
				e.put(' ')
			}
			spaces = true
		default:
			e.put(c)
			spaces = false
		}
	}
	e.writeIndicator(`"`, false, false, false)
	e.whitespace = false
	e.indention = false
}

// printableASCII reports whether s is printable ASCII (no line breaks, tabs
// or other control characters): the subset of strings the YAML writer writes,
// and text a terminal prints as it is (TerminalText's quick answer).
func printableASCII[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
}

// yamlPlainAllowed is yaml_emitter_analyze_scalar's block_plain_allowed for
// printable ASCII: no indicator where one would be read, no leading or
// trailing space. Past the first character only ": " (or a final ':') and
// " #" are indicators.
func yamlPlainAllowed(v []byte) bool {
	if len(v) == 0 {
		return true
	}
	if v[0] == ' ' || v[len(v)-1] == ' ' {
		return false
	}
	if len(v) >= 3 && (string(v[:3]) == "---" || string(v[:3]) == "...") {
		return false
	}
	switch v[0] {
	case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	case '?', ':', '-':
		if len(v) == 1 || v[1] == ' ' {
			return false
		}
	}
	for i := 1; i < len(v); i++ {
		switch v[i] {
		case ':':
			if i+1 == len(v) || v[i+1] == ' ' {
				return false
			}
		case '#':
			if v[i-1] == ' ' {
				return false
			}
		}
	}
	return true
}

// stringStyle is the style go-yaml's encoder asks for a string (stringv):
// plain unless the text would be read back as another type. Most strings
// start with a letter no other type starts with, or are longer than every
// word YAML reads as a bool or null; the rest (numbers, timestamps) are
// remembered in styles, which may be nil, up to maxStyles of them.
func stringStyle(s []byte, styles map[string]yamlStyle) yamlStyle {
	if len(s) == 0 {
		return yamlDoubleQuoted // null
	}
	switch yamlResolveHints[s[0]] {
	case 0:
		return yamlPlain // neither resolve nor isBase60Float reads it as another type
	case 'M':
		// The words of yamlResolveMap are at most 5 characters; a string
		// starting with one of these letters is otherwise a string, and not
		// a base 60 float.
		if len(s) > 5 || !yamlResolveMap[string(s)] {
			return yamlPlain
		}
		return yamlDoubleQuoted
	}
	if st, ok := styles[string(s)]; ok {
		return st
	}
	st := yamlDoubleQuoted
	if str := string(s); yamlResolvesToString(str) && !isBase60Float(str) {
		st = yamlPlain
	}
	if styles != nil && len(styles) < maxStyles {
		styles[string(s)] = st
	}
	return st
}

// maxStyles bounds the strings a tree remembers the style of.
const maxStyles = 4096

// yamlNumber is a JSON number as go-yaml writes the value yamlValues makes of
// it: an int, else a uint64, else a float64.
func yamlNumber(num []byte) []byte {
	if exactJSONInteger(num) && string(num) != "-0" {
		return num
	}
	s := string(num)
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return strconv.AppendInt(nil, i, 10)
	}
	if u, err := strconv.ParseUint(s, 10, 64); err == nil {
		return strconv.AppendUint(nil, u, 10)
	}
	f, _ := strconv.ParseFloat(s, 64)
	switch out := strconv.FormatFloat(f, 'g', -1, 64); out {
	case "+Inf":
		return []byte(".inf")
	case "-Inf":
		return []byte("-.inf")
	case "NaN":
		return []byte(".nan")
	default:
		return []byte(out)
	}
}

// yamlKeyLess is go-yaml's order of string keys (sorter.go keyList.Less) for
// printable ASCII: letters before other characters, runs of digits compared
// as numbers.
func yamlKeyLess(a, b []byte) bool {
	isLetter := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] == b[i] {
			continue
		}
		al, bl := isLetter(a[i]), isLetter(b[i])
		if al && bl {
			return a[i] < b[i]
		}
		if al || bl {
			return bl
		}
		var ai, bi int
		var an, bn int64
		if a[i] == '0' || b[i] == '0' {
			for j := i - 1; j >= 0 && isDigit(a[j]); j-- {
				if a[j] != '0' {
					an, bn = 1, 1
					break
				}
			}
		}
		for ai = i; ai < len(a) && isDigit(a[ai]); ai++ {
			an = an*10 + int64(a[ai]-'0')
		}
		for bi = i; bi < len(b) && isDigit(b[bi]); bi++ {
			bn = bn*10 + int64(b[bi]-'0')
		}
		if an != bn {
			return an < bn
		}
		if ai != bi {
			return ai < bi
		}
		return a[i] < b[i]
	}
	return len(a) < len(b)
}

// yamlResolvesToString reports whether go-yaml reads the plain scalar s as
// a string (resolve.go resolve with no tag), not a bool, null, number or
// timestamp.
func yamlResolvesToString(s string) bool {
	if s == "" {
		return false // null
	}
	hint := yamlResolveHint(s[0])
	if hint == 0 {
		return true
	}
	if _, ok := yamlResolveMap[s]; ok {
		return false
	}
	switch hint {
	case 'M':
		return true
	case '.':
		_, err := strconv.ParseFloat(s, 64)
		return err != nil
	}
	// 'D', 'S': an int, a float or a timestamp.
	if yamlTimestamp(s) {
		return false
	}
	plain := strings.ReplaceAll(s, "_", "")
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return false
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return false
	}
	if yamlStyleFloat.MatchString(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return false
		}
	}
	if strings.HasPrefix(plain, "0b") {
		if _, err := strconv.ParseInt(plain[2:], 2, 64); err == nil {
			return false
		}
		if _, err := strconv.ParseUint(plain[2:], 2, 64); err == nil {
			return false
		}
	} else if strings.HasPrefix(plain, "-0b") {
		if _, err := strconv.ParseInt("-"+plain[3:], 2, 64); err == nil {
			return false
		}
	}
	return true
}

// yamlResolveHint is go-yaml's resolveTable: what a plain scalar's first
// character says it may be.
func yamlResolveHint(c byte) byte { return yamlResolveHints[c] }

var yamlResolveHints = func() (t [256]byte) {
	t['+'], t['-'] = 'S', 'S'
	for c := '0'; c <= '9'; c++ {
		t[c] = 'D'
	}
	for _, c := range []byte("yYnNtTfFoO~") {
		t[c] = 'M'
	}
	t['.'] = '.'
	return t
}()

// yamlResolveMap are go-yaml's plain scalars of a fixed value (resolveMap):
// booleans, nulls, special floats and the merge key.
var yamlResolveMap = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range []string{
		"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON",
		"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF",
		"", "~", "null", "Null", "NULL",
		".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF",
		"<<",
	} {
		m[s] = true
	}
	return m
}()

var yamlStyleFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// yamlTimestamp is go-yaml's parseTimestamp: the formats it reads a plain
// scalar as a timestamp in.
func yamlTimestamp(s string) bool {
	i := 0
	for ; i < len(s); i++ {
		if c := s[i]; c < '0' || c > '9' {
			break
		}
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, format := range []string{
		"2006-1-2T15:4:5.999999999Z07:00",
		"2006-1-2t15:4:5.999999999Z07:00",
		"2006-1-2 15:4:5.999999999",
		"2006-1-2",
	} {
		if _, err := time.Parse(format, s); err == nil {
			return true
		}
	}
	return false
}

var base60Float = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)

// isBase60Float is go-yaml's: YAML 1.1's sexagesimal numbers are quoted.
func isBase60Float(s string) bool {
	if s == "" {
		return false
	}
	c := s[0]
	if !(c == '+' || c == '-' || c >= '0' && c <= '9') || strings.IndexByte(s, ':') < 0 {
		return false
	}
	return base60Float.MatchString(s)
}
