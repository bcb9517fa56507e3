package load

import "bytes"

// listItemLines returns the line of body (1 for its first line) where each of
// the n items of a List document starts: the line of the item's first key, as
// a document's line is its first key's. kubectl get -o yaml writes a List as
// block YAML, items at the top level's indentation, which is read line by line
// without parsing a dump of many megabytes again; any other shape (flow
// style, JSON, anchors) is parsed with doc. nil when the lines are not known.
func listItemLines(body []byte, n int, doc *parsedDocument) []int {
	if lines := blockItemLines(body, n); lines != nil {
		return lines
	}
	items := mappingValue(doc.object(-1), "items")
	if !sequenceOf(items, n) {
		return nil
	}
	lines := make([]int, n)
	for i, item := range items.Content {
		lines[i] = item.Line
	}
	return lines
}

// blockItemLines finds the items of a top-level block sequence "items:" by
// their "- " lines: inside an item every line is indented further than its
// dash, so a line at the dash's indentation starting with "- " is the next
// item, and one at less ends the sequence. nil when body is not written so
// or the count differs from n (the caller then parses).
func blockItemLines(body []byte, n int) []int {
	lines := make([]int, 0, n)
	inItems := false // after the top-level "items:" line
	dash := -1       // the items' indentation, once seen
	pending := false // a "-" line whose item starts on a later line
	for line := 1; len(body) > 0; line++ {
		l := body
		if eol := bytes.IndexByte(body, '\n'); eol >= 0 {
			l, body = body[:eol], body[eol+1:]
		} else {
			body = nil
		}
		l = bytes.TrimRight(l, " \r")
		ind := 0
		for ind < len(l) && l[ind] == ' ' {
			ind++
		}
		if ind == len(l) || l[ind] == '#' {
			continue // blank or a comment
		}
		if l[ind] == '\t' {
			return nil
		}
		if ind == 0 && !(inItems && dash <= 0 && isDashLine(l)) {
			if isSeparator(l) || isDocumentEnd(l) || l[0] == '{' || l[0] == '[' {
				return nil
			}
			inItems = false
			if bytes.HasPrefix(l, []byte("items:")) {
				rest := bytes.TrimSpace(l[len("items:"):])
				if len(rest) > 0 && rest[0] != '#' {
					return nil // "items: [...]" or an anchor: parse
				}
				if len(lines) > 0 {
					return nil // "items" twice
				}
				inItems = true
			}
			continue
		}
		if !inItems {
			continue
		}
		if pending {
			lines, pending = append(lines, line), false
			continue
		}
		if dash < 0 {
			if !isDashLine(l[ind:]) {
				return nil
			}
			dash = ind
		}
		if ind < dash {
			return nil // a top-level key indented: not what kubectl writes
		}
		if ind > dash || !isDashLine(l[ind:]) {
			continue // inside an item
		}
		rest := bytes.TrimLeft(l[ind+1:], " ")
		switch {
		case len(rest) == 0 || rest[0] == '#':
			pending = true
		case rest[0] == '&' || rest[0] == '*' || rest[0] == '!' || rest[0] == '{':
			return nil
		default:
			lines = append(lines, line)
		}
	}
	if pending || len(lines) != n {
		return nil
	}
	return lines
}

// isDashLine reports whether l, from its first non-space byte, is a block
// sequence entry: "-" alone or followed by a space.
func isDashLine(l []byte) bool {
	return len(l) > 0 && l[0] == '-' && (len(l) == 1 || l[1] == ' ')
}
