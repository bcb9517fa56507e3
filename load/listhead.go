package load

import "bytes"

// listHeadBytes is how far into a document isListHead looks for its items: a
// List's own fields (apiVersion, kind, metadata) are small and come before or
// beside items, which kubectl writes second.
const listHeadBytes = 64 << 10

// isListHead reports whether a document, of which head is the start, is a List:
// one of its top-level keys is items, and only a List's own fields (apiVersion,
// kind, metadata) come before it, within its first listHeadBytes. It is decided
// from the start alone, so that a stream is told while it is read: a List
// dump may be far larger than MaxDocumentBytes, each of its items not. An
// endless document (yes 'a: b', /dev/zero) has no such key and is refused at
// MaxDocumentBytes; one that does is stopped by the run's input budget.
func isListHead(head []byte) bool {
	head = head[:min(len(head), listHeadBytes)]
	for len(head) > 0 {
		eol := bytes.IndexByte(head, '\n')
		l := head
		if eol >= 0 {
			l, head = head[:eol], head[eol+1:]
		} else {
			head = nil
		}
		t := bytes.TrimSpace(l)
		switch {
		case len(t) == 0 || t[0] == '#' || t[0] == '%' || isSeparator(l):
			continue // before the document's content
		case t[0] == '{':
			return isJSONListHead(bytes.TrimLeft(bytes.TrimSpace(l), "{"), head)
		case l[0] == ' ' || l[0] == '\t':
			continue // inside a top-level field's value (metadata)
		}
		k, _, ok := bytes.Cut(l, []byte(":"))
		if !ok {
			return false
		}
		switch string(bytes.Trim(bytes.TrimSpace(k), `"'`)) {
		case "items":
			return true
		case "apiVersion", "kind", "metadata":
		default:
			return false
		}
	}
	return false
}

// isJSONListHead is isListHead for a JSON document, after its opening brace:
// the keys at the top level (depth 0 here) are read, strings skipped.
func isJSONListHead(first, rest []byte) bool {
	s := append(append(bytes.Clone(first), '\n'), rest...)
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth < 0 {
				return false
			}
		case '"':
			end := i + 1
			for end < len(s) && s[end] != '"' {
				if s[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(s) {
				return false
			}
			k := s[i+1 : end]
			i = end
			if depth != 0 {
				continue
			}
			if after := bytes.TrimLeft(s[end+1:], " \t\r\n"); len(after) == 0 || after[0] != ':' {
				continue // a value, not a key
			}
			switch string(k) {
			case "items":
				return true
			case "apiVersion", "kind", "metadata":
			default:
				return false
			}
		}
	}
	return false
}
