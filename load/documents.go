package load

import (
	"bytes"
)

// document is one YAML document of a stream: line is the 1-based line of its first
// content (where a reader looks), bodyLine the line its text starts on (where a YAML
// parser counts from).
type document struct {
	line     int
	bodyLine int
	body     []byte
}

// splitDocuments cuts a YAML stream at its "---" separators, remembering where each
// document starts so that findings and errors can point at file:line. Documents that
// hold only comments or blank lines are dropped.
func splitDocuments(data []byte) []document {
	// Room for a document after each line that starts with "---": one pass
	// to count costs less than growing the list.
	docs := make([]document, 0, bytes.Count(data, []byte("\n---"))+1)
	start, startLine, line := 0, 1, 1
	flush := func(end int) {
		body := data[start:end]
		if !blankDocument(body) {
			docs = append(docs, document{line: firstContentLine(body, startLine), bodyLine: startLine, body: body})
		}
	}
	for i := 0; i < len(data); {
		eol := bytes.IndexByte(data[i:], '\n')
		next := len(data)
		if eol >= 0 {
			next = i + eol + 1
		}
		l := data[i:next]
		if isSeparator(l) {
			flush(i)
			start, startLine = next, line+1
			if rest := bytes.TrimSpace(l[3:]); len(rest) > 0 && rest[0] != '#' {
				// "--- {kind: ...}": the document starts on the separator line.
				start, startLine = i+3, line
			}
		} else if l[0] == '.' && isDocumentEnd(l) { // most lines start otherwise: no trimming
			flush(i)
			start, startLine = next, line+1
		}
		i = next
		line++
	}
	flush(len(data))
	return docs
}

// isSeparator reports whether a line is a YAML document start marker: "---" followed
// by nothing, white space or a comment.
func isSeparator(l []byte) bool {
	if !bytes.HasPrefix(l, []byte("---")) {
		return false
	}
	rest := bytes.TrimRight(l[3:], "\r\n")
	return len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '#'
}

// isDocumentEnd reports whether a line is the YAML document end marker "...".
func isDocumentEnd(l []byte) bool {
	return len(bytes.TrimSpace(l)) == 3 && bytes.HasPrefix(l, []byte("..."))
}

func blankDocument(body []byte) bool {
	for len(body) > 0 {
		eol := bytes.IndexByte(body, '\n')
		l := body
		if eol >= 0 {
			l, body = body[:eol], body[eol+1:]
		} else {
			body = nil
		}
		t := bytes.TrimSpace(l)
		if len(t) > 0 && t[0] != '#' && !bytes.HasPrefix(t, []byte("%")) {
			return false
		}
	}
	return true
}

// firstContentLine skips leading blank and comment lines so that a document's line
// is the line of its first key, which is where a reader looks.
func firstContentLine(body []byte, line int) int {
	for len(body) > 0 {
		eol := bytes.IndexByte(body, '\n')
		l := body
		if eol >= 0 {
			l, body = body[:eol], body[eol+1:]
		} else {
			body = nil
		}
		t := bytes.TrimSpace(l)
		if len(t) > 0 && t[0] != '#' {
			return line
		}
		line++
	}
	return line
}
