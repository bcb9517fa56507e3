package load

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	yaml3 "go.yaml.in/yaml/v3"
)

// yamlProblem turns the error YAMLToJSONStrict gave for body, whose first line
// is the file's line bodyLine, into the file line it is on (0 when unknown)
// and a message in a user's terms. The parser's own line numbers are not all where the problem is:
//
//   - go.yaml.in/yaml/v2 reports a parser error (as opposed to a scanner
//     error) on the line before the token it could not take, and none at all
//     when that token is on the first line (decode.go, parser.fail: only
//     scanner errors have their 0-based mark incremented);
//   - errors of its reader (invalid UTF-8, control characters) and unknown
//     aliases name no line;
//   - a quoted scalar that is never closed is reported at the end of the
//     stream, and a duplicate key only at its second occurrence.
//
// It parses body again and is meant for errors only.
func yamlProblem(body []byte, bodyLine int, err error) (int, string) {
	line, msg := yamlProblemInBody(body, bodyLine, err)
	if line > 0 {
		line += bodyLine - 1
	}
	return line, msg
}

// yamlProblemInBody is yamlProblem with the line counted in body; a line
// named in the message is the file's.
func yamlProblemInBody(body []byte, bodyLine int, err error) (int, string) {
	fileLine := func(l int) int { return bodyLine + l - 1 }
	msg := strings.TrimPrefix(err.Error(), "error converting YAML to JSON: ")
	msg = strings.TrimPrefix(msg, "yaml: ")
	lines := 1 + bytes.Count(bytes.TrimSuffix(body, []byte("\n")), []byte("\n"))
	if rest, ok := strings.CutPrefix(msg, "unmarshal errors:\n"); ok {
		first, _, _ := strings.Cut(strings.TrimSpace(rest), "\n")
		if m := duplicateKey.FindStringSubmatch(first); m != nil {
			line, _ := strconv.Atoi(m[1])
			return line, duplicateKeyMessage(body, line, m[2], fileLine)
		}
		msg = first
	}
	switch {
	case strings.Contains(msg, "UTF-8"):
		if i := invalidUTF8(body); i >= 0 {
			return lineOf(body, i), fmt.Sprintf("invalid UTF-8 (byte 0x%02x): save the file as UTF-8", body[i])
		}
	case strings.Contains(msg, "control characters are not allowed"):
		if i, r := firstNonPrintable(body); i >= 0 {
			return lineOf(body, i), fmt.Sprintf("the control character %U is not allowed in YAML: remove it, or write it as an escape in a double-quoted string", r)
		}
	case strings.HasPrefix(msg, "unknown anchor "):
		// unknown anchor 'name' referenced
		name := strings.TrimSuffix(strings.TrimPrefix(msg, "unknown anchor '"), "' referenced")
		if i := bytes.Index(body, []byte("*"+name)); i >= 0 {
			return lineOf(body, i), fmt.Sprintf("the alias *%s names no anchor (&%s) above it", name, name)
		}
	}
	m := yamlLine.FindStringSubmatch(msg)
	if m == nil {
		if isParserProblem(msg) {
			return 1, msg
		}
		return 0, msg
	}
	line, _ := strconv.Atoi(m[1])
	problem := msg[len(m[0]):]
	if isParserProblem(problem) {
		line++
	}
	unclosed := problem == "found unexpected end of stream" || line > lines
	if unclosed || strings.HasPrefix(problem, "did not find expected ',' or ") {
		// The parser met the end, or a line, inside something opened earlier:
		// go.yaml.in/yaml/v3 reports where that began.
		if open, ok := v3ContextLine(body, problem); ok && open <= lines && open < line {
			if unclosed {
				return open, problem + ": a quote or bracket opened on this line is not closed"
			}
			problem += fmt.Sprintf(" (in the flow collection opened on line %d)", fileLine(open))
		}
	}
	return min(line, lines), problem
}

var (
	yamlLine     = regexp.MustCompile(`^line (\d+): `)
	anyYAMLLine  = regexp.MustCompile(`line (\d+): (.*)`)
	duplicateKey = regexp.MustCompile(`^line (\d+): key (".*") already set in map$`)
)

// isParserProblem reports whether msg is one of go.yaml.in/yaml/v2's parser
// errors (parserc.go), which it reports a line early.
func isParserProblem(msg string) bool {
	switch msg {
	case "did not find expected <stream-start>", "did not find expected <document start>",
		"found undefined tag handle", "did not find expected node content",
		"did not find expected '-' indicator", "did not find expected key",
		"did not find expected ',' or ']'", "did not find expected ',' or '}'",
		"found duplicate %YAML directive", "found incompatible YAML document", "found duplicate %TAG directive":
		return true
	}
	return false
}

// v3ContextLine returns the line go.yaml.in/yaml/v3 reports for the same
// problem: the line where the construct it was reading began.
func v3ContextLine(body []byte, problem string) (int, bool) {
	var n yaml3.Node
	err := yaml3.Unmarshal(body, &n)
	if err == nil {
		return 0, false
	}
	m := anyYAMLLine.FindStringSubmatch(err.Error())
	if m == nil || m[2] != problem {
		return 0, false
	}
	line, _ := strconv.Atoi(m[1])
	if isParserProblem(problem) {
		line++ // v3 reports a parser error's 0-based context line
	}
	return line, true
}

// duplicateKeyMessage says that key (quoted as the parser quotes it) is given
// twice, on body's line dup, and where first when go.yaml.in/yaml/v3 can tell.
// The first occurrence is looked up in a node tree, in time linear in the
// document: yaml.v3's own duplicate check (Unmarshal into a value) compares
// every pair of keys and formats an error for each equal pair, so a mapping of
// n equal keys cost n²/2 messages (8,000 keys: two minutes and 5 GB).
func duplicateKeyMessage(body []byte, dup int, key string, fileLine func(int) int) string {
	first := ""
	if l, ok := firstKeyLine(body, dup, key); ok {
		first = " (first on line " + strconv.Itoa(fileLine(l)) + ")"
	}
	return fmt.Sprintf("the key %s is given twice in one mapping%s: keys of a mapping must be unique, and tools disagree on which value wins; remove one", key, first)
}

// firstKeyLine finds the mapping of body that gives key (quoted as %#v quotes
// it) on line dup and another time before, and returns the line of its first
// occurrence.
func firstKeyLine(body []byte, dup int, key string) (int, bool) {
	var doc yaml3.Node
	if yaml3.Unmarshal(body, &doc) != nil { // into a Node: no duplicate check
		return 0, false
	}
	want, err := strconv.Unquote(key)
	if err != nil {
		want = key
	}
	stack := []*yaml3.Node{&doc}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Kind == yaml3.MappingNode {
			first := 0
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if k.Kind != yaml3.ScalarNode || k.Value != want {
					continue
				}
				if first == 0 {
					first = k.Line
				} else if k.Line == dup {
					return first, true
				}
			}
		}
		stack = append(stack, n.Content...)
	}
	return 0, false
}

func lineOf(body []byte, i int) int { return 1 + bytes.Count(body[:i], []byte("\n")) }

// invalidUTF8 returns the offset of the first byte of body that is not UTF-8,
// or -1.
func invalidUTF8(body []byte) int {
	for i := 0; i < len(body); {
		r, n := utf8.DecodeRune(body[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}

// firstNonPrintable returns the offset of the first character YAML does not
// allow in a stream (YAML 1.1 section 5.1, c-printable), and the character.
func firstNonPrintable(body []byte) (int, rune) {
	for i, r := range string(body) {
		switch {
		case r == '\t', r == '\n', r == '\r', r == 0x85:
		case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0, r == 0xfffe, r == 0xffff:
			return i, r
		case r >= 0xd800 && r <= 0xdfff:
			return i, r
		}
	}
	return -1, 0
}
