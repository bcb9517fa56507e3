package load

import (
	"encoding/json"
	"strconv"
	"strings"

	yaml3 "go.yaml.in/yaml/v3"
)

// fieldPath is the path of a field as a user writes it, from the top of an
// object or a document: spec.parentRefs[0].port.
type fieldPath []pathStep

// pathStep is a mapping key, or with isIndex a list index.
type pathStep struct {
	key     string
	index   int
	isIndex bool
}

func key(k string) pathStep { return pathStep{key: k} }
func index(i int) pathStep  { return pathStep{index: i, isIndex: true} }
func field(keys ...string) fieldPath {
	p := make(fieldPath, len(keys))
	for i, k := range keys {
		p[i] = key(k)
	}
	return p
}

func (p fieldPath) String() string {
	var b strings.Builder
	for _, s := range p {
		switch {
		case s.isIndex:
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		case b.Len() > 0:
			b.WriteString("." + s.key)
		default:
			b.WriteString(s.key)
		}
	}
	return b.String()
}

// under returns p below prefix.
func (p fieldPath) under(prefix ...pathStep) fieldPath {
	return append(append(fieldPath{}, prefix...), p...)
}

// jsonPathAt returns the path of the innermost value of js (valid JSON) that
// holds the byte at offset off: where encoding/json's UnmarshalTypeError
// points (its Offset is just past the value it could not store, or just past
// the bracket of a list or mapping it could not store), a path with list
// indexes and JSON names, which UnmarshalTypeError.Field has neither of.
func jsonPathAt(js []byte, off int) fieldPath {
	w := jsonWalker{js: js, target: off}
	w.value(0, nil)
	return w.found
}

type jsonWalker struct {
	js     []byte
	target int
	found  fieldPath
	done   bool
}

// value walks the value at i and returns the offset just past it. A value's
// children end before it does, so the first value found to hold the target is
// the innermost.
func (w *jsonWalker) value(i int, path fieldPath) int {
	i = w.space(i)
	start := i
	if i >= len(w.js) {
		return i
	}
	switch w.js[i] {
	case '{':
		i = w.space(i + 1)
		for i < len(w.js) && w.js[i] != '}' {
			from := i
			keyStart := i
			i = w.str(i)
			var k string
			_ = json.Unmarshal(w.js[keyStart:i], &k)
			i = w.space(i) + 1 // ':'
			i = w.space(w.value(i, append(path[:len(path):len(path)], key(k))))
			if i < len(w.js) && w.js[i] == ',' {
				i = w.space(i + 1)
			} else if i <= from {
				return len(w.js) // not JSON: stop
			}
		}
		i++
	case '[':
		i = w.space(i + 1)
		for n := 0; i < len(w.js) && w.js[i] != ']'; n++ {
			from := i
			i = w.space(w.value(i, append(path[:len(path):len(path)], index(n))))
			if i < len(w.js) && w.js[i] == ',' {
				i = w.space(i + 1)
			} else if i <= from {
				return len(w.js) // not JSON: stop
			}
		}
		i++
	case '"':
		i = w.str(i)
	default:
		for i < len(w.js) && !strings.ContainsRune(",]} \t\r\n", rune(w.js[i])) {
			i++
		}
	}
	if !w.done && start <= w.target && w.target < i {
		w.found, w.done = path, true
	}
	return i
}

func (w *jsonWalker) space(i int) int {
	for i < len(w.js) && (w.js[i] == ' ' || w.js[i] == '\t' || w.js[i] == '\r' || w.js[i] == '\n') {
		i++
	}
	return i
}

// str returns the offset just past the string that starts at i.
func (w *jsonWalker) str(i int) int {
	for i++; i < len(w.js); i++ {
		switch w.js[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// matchesGoField reports whether p names the field that encoding/json calls
// goField: the same JSON names in order, goField adding the Go names of
// embedded structs (spec.CommonRouteSpec.parentRefs), which start with an
// upper-case letter. A mismatch means the offset p came from was not into the
// whole object (a custom UnmarshalJSON decoding a part of it).
func (p fieldPath) matchesGoField(goField string) bool {
	var keys []string
	for _, s := range p {
		if !s.isIndex {
			keys = append(keys, s.key)
		}
	}
	j := 0
	for _, seg := range strings.Split(goField, ".") {
		switch {
		case j < len(keys) && seg == keys[j]:
			j++
		case seg != "" && seg[0] >= 'A' && seg[0] <= 'Z':
		default:
			return false
		}
	}
	return j == len(keys)
}

// fieldLine returns the line of body (1 for its first line) where path is
// written: the line of the last key, or of the list item, that path names;
// as far down path as the document goes. It parses body again and is meant
// for errors only.
func fieldLine(body []byte, path fieldPath) (int, bool) {
	var doc yaml3.Node
	if yaml3.Unmarshal(body, &doc) != nil || doc.Kind != yaml3.DocumentNode || len(doc.Content) == 0 {
		return 0, false
	}
	return nodeLine(doc.Content[0], path)
}

// nodeLine is fieldLine in the document whose top node is n, parsed already;
// false when n is nil.
func nodeLine(n *yaml3.Node, path fieldPath) (int, bool) {
	if n == nil {
		return 0, false
	}
	line := n.Line
	for _, s := range path {
		for n.Kind == yaml3.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		switch {
		case !s.isIndex && n.Kind == yaml3.MappingNode:
			found := false
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == s.key {
					line, n, found = n.Content[i].Line, n.Content[i+1], true
					break
				}
			}
			if !found {
				return line, true
			}
		case s.isIndex && n.Kind == yaml3.SequenceNode && s.index < len(n.Content):
			n = n.Content[s.index]
			line = n.Line
		default:
			return line, true
		}
	}
	return line, true
}

// fieldLine is the line of the document (1 for its first line) where path is
// written, as fieldLine says; a path into an item of a List written in block
// style is looked up in that item alone.
func (d *parsedDocument) fieldLine(path fieldPath) (int, bool) {
	if d.items != nil && len(path) >= 2 && !path[0].isIndex && path[0].key == "items" && path[1].isIndex {
		if n := d.object(path[1].index); n != nil {
			return nodeLine(n, path[2:])
		}
	}
	return nodeLine(d.object(-1), path)
}
