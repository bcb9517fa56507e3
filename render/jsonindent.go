package render

import (
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// appendIndentedJSON appends v, a value as encoding/json decodes JSON into an
// interface (nil, bool, float64, string, []any, map[string]any), as
// json.MarshalIndent(v, prefix, indent) writes it, byte for byte: keys sorted,
// HTML characters, U+2028 and U+2029 escaped, invalid UTF-8 replaced, floats
// formatted as encoding/json does. ok is false for a value of another type (the
// caller falls back to encoding/json).
//
// It is worth a second JSON writer because render status -o json writes every
// object of the input: json.MarshalIndent marshals compact JSON through
// reflection, then scans it again to validate and indent it, and that is about
// a quarter of the command's CPU time on the 100k-route benchmark input
// (docs/performance.md). The price is keeping it equal to encoding/json, which
// FuzzIndentedJSON and TestIndentedJSON check against json.MarshalIndent.
func appendIndentedJSON(b []byte, v any, prefix, indent string, depth int) (_ []byte, ok bool) {
	newline := func(b []byte, depth int) []byte {
		b = append(b, '\n')
		b = append(b, prefix...)
		for range depth {
			b = append(b, indent...)
		}
		return b
	}
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), true
	case bool:
		return strconv.AppendBool(b, v), true
	case float64:
		return appendJSONFloat(b, v)
	case string:
		return appendJSONString(b, v), true
	case []any:
		if len(v) == 0 {
			return append(b, "[]"...), true
		}
		b = append(b, '[')
		for i, x := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = newline(b, depth+1)
			if b, ok = appendIndentedJSON(b, x, prefix, indent, depth+1); !ok {
				return b, false
			}
		}
		b = newline(b, depth)
		return append(b, ']'), true
	case map[string]any:
		if len(v) == 0 {
			return append(b, "{}"...), true
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = newline(b, depth+1)
			b = appendJSONString(b, k)
			b = append(b, ": "...)
			if b, ok = appendIndentedJSON(b, v[k], prefix, indent, depth+1); !ok {
				return b, false
			}
		}
		b = newline(b, depth)
		return append(b, '}'), true
	}
	return b, false
}

// appendJSONFloat formats f as encoding/json does; ok is false for NaN and
// infinities, which JSON cannot hold.
func appendJSONFloat(b []byte, f float64) ([]byte, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, false
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 is written e-9, as encoding/json does.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, true
}

const hexDigits = "0123456789abcdef"

// appendJSONString quotes s as encoding/json does with HTML escaping (its
// default).
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
