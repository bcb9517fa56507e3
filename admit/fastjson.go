package admit

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// jsonReader reads the JSON of a create request the way the API server's strict
// decoder (sigs.k8s.io/json UnmarshalStrict into a map, integers kept as int64)
// reads it, for the values that decoder reads without complaint or conversion.
// For anything else (a duplicate key, null, a number that is not an int64, a
// string that is not valid UTF-8, malformed JSON) it reports false, and the
// caller leaves the object to the API server's decoder: it never has to
// reproduce a decoding error, only the values of a clean decode.
type jsonReader struct {
	b   []byte
	pos int
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (r *jsonReader) skipSpace() {
	for r.pos < len(r.b) && isSpace(r.b[r.pos]) {
		r.pos++
	}
}

// peek returns the next byte that is not white space, 0 at the end.
func (r *jsonReader) peek() byte {
	r.skipSpace()
	if r.pos >= len(r.b) {
		return 0
	}
	return r.b[r.pos]
}

// consume reads c, after white space.
func (r *jsonReader) consume(c byte) bool {
	if r.peek() != c {
		return false
	}
	r.pos++
	return true
}

// atEnd reports whether only white space is left.
func (r *jsonReader) atEnd() bool {
	r.skipSpace()
	return r.pos == len(r.b)
}

// str reads a string. Strings with escapes are unquoted by encoding/json, of
// which the API server's decoder is a fork with the same string rules.
func (r *jsonReader) str() (string, bool) {
	if !r.consume('"') {
		return "", false
	}
	start := r.pos
	ascii := true
	for i := r.pos; i < len(r.b); i++ {
		switch c := r.b[i]; {
		case c == '"':
			r.pos = i + 1
			s := r.b[start:i]
			if !ascii && !utf8.Valid(s) {
				return "", false // the decoder would replace the bad bytes
			}
			return string(s), true
		case c == '\\':
			return r.escapedStr(start - 1)
		case c < 0x20:
			return "", false
		case c >= 0x80:
			ascii = false
		}
	}
	return "", false
}

// plainStr reads a string of printable ASCII without escapes, and returns its
// bytes (the string str reads); for any other string, or none, it reads
// nothing and reports false.
func (r *jsonReader) plainStr() ([]byte, bool) {
	save := r.pos
	if !r.consume('"') {
		r.pos = save
		return nil, false
	}
	for i := r.pos; i < len(r.b); i++ {
		switch c := r.b[i]; {
		case c == '"':
			s := r.b[r.pos:i]
			r.pos = i + 1
			return s, true
		case c == '\\' || c < 0x20 || c >= 0x80:
			r.pos = save
			return nil, false
		}
	}
	r.pos = save
	return nil, false
}

// escapedStr reads the string that opens at start with encoding/json.
func (r *jsonReader) escapedStr(start int) (string, bool) {
	end, ok := skipString(r.b, start)
	if !ok {
		return "", false
	}
	tok := r.b[start:end]
	if !utf8.Valid(tok) {
		return "", false
	}
	var s string
	if err := json.Unmarshal(tok, &s); err != nil || !utf8.ValidString(s) || containsReplacement(s, tok) {
		return "", false
	}
	r.pos = end
	return s, true
}

// containsReplacement reports whether unquoting put U+FFFD where the token did
// not spell it (an unpaired surrogate escape): a conversion, not a clean decode.
func containsReplacement(s string, tok []byte) bool {
	for _, c := range s {
		if c == utf8.RuneError {
			return true
		}
	}
	_ = tok
	return false
}

// skipString returns the end of the string token that opens at start.
func skipString(b []byte, start int) (int, bool) {
	for i := start + 1; i < len(b); i++ {
		switch b[i] {
		case '"':
			return i + 1, true
		case '\\':
			i++
		}
	}
	return 0, false
}

// integer reads a number that the decoder keeps as an int64: an integer literal
// without fraction or exponent that fits.
func (r *jsonReader) integer() (int64, bool) {
	r.skipSpace()
	start := r.pos
	i := start
	if i < len(r.b) && r.b[i] == '-' {
		i++
	}
	digits := i
	for i < len(r.b) && r.b[i] >= '0' && r.b[i] <= '9' {
		i++
	}
	if i == digits || r.b[digits] == '0' && i-digits > 1 {
		return 0, false
	}
	if i < len(r.b) {
		switch r.b[i] {
		case '.', 'e', 'E':
			return 0, false // a float64 for the decoder
		}
	}
	n, err := strconv.ParseInt(string(r.b[start:i]), 10, 64)
	if err != nil {
		return 0, false // out of range: a float64 for the decoder
	}
	r.pos = i
	return n, true
}

// boolean reads true or false.
func (r *jsonReader) boolean() (bool, bool) {
	r.skipSpace()
	rest := r.b[r.pos:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		r.pos += 4
		return true, r.delimited()
	case len(rest) >= 5 && string(rest[:5]) == "false":
		r.pos += 5
		return false, r.delimited()
	}
	return false, false
}

// delimited reports whether a literal ended where it should: "truex" is not true.
func (r *jsonReader) delimited() bool {
	if r.pos == len(r.b) {
		return true
	}
	switch c := r.b[r.pos]; {
	case isSpace(c), c == ',', c == '}', c == ']':
		return true
	}
	return false
}

// skip returns the end of the value that starts at the reader's position,
// without reading it: only where it ends. It accepts some malformed values; a
// caller that reads the value afterwards finds those.
func (r *jsonReader) skip() (start, end int, ok bool) {
	r.skipSpace()
	start = r.pos
	depth := 0
	for i := start; i < len(r.b); i++ {
		switch r.b[i] {
		case '"':
			e, ok := skipString(r.b, i)
			if !ok {
				return 0, 0, false
			}
			i = e - 1
			if depth == 0 {
				return start, e, true
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth < 0 {
				return 0, 0, false
			}
			if depth == 0 {
				return start, i + 1, true
			}
		case ',', ' ', '\t', '\n', '\r', ':':
			if depth == 0 {
				return start, i, i > start
			}
		}
	}
	if depth == 0 && len(r.b) > start {
		return start, len(r.b), true
	}
	return 0, 0, false
}
