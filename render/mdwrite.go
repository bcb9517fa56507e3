package render

import (
	"bufio"
	"strconv"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// The report's rows written straight to its buffer: the text mdCell,
// mdSource, mdRule and oneLine would return, without building it. A report
// of 100k routes writes tens of megabytes of cells; each writer falls back on
// the function it stands for whenever its quick path does not hold, and
// TestMarkdownAsTheOracleWritesIt holds the report to the one written with
// those functions alone.

// mdCellBytes is what mdCell makes of each byte of a string that
// TerminalLines leaves as it is, and mdCellSpecial the bytes it changes.
// mdEscape and mdCellBreaks replace single bytes, and no byte the first
// writes is one the second replaces, so mdCell of such a string is each of
// its bytes replaced on its own: the table is made by the replacers.
var mdCellBytes, mdCellSpecial = func() (*[256]string, *[256]bool) {
	var out [256]string
	var special [256]bool
	for c := range 256 {
		in := string([]byte{byte(c)})
		out[c] = mdCellBreaks.Replace(mdEscape.Replace(in))
		special[c] = out[c] != in
	}
	return &out, &special
}()

// writeMDCell writes mdCell(s).
func writeMDCell(b *bufio.Writer, s string) {
	if !terminalAsIs(s) {
		b.WriteString(mdCell(s))
		return
	}
	writeMDEscaped(b, s)
}

// writeMDEscaped writes mdCell(s) of an s that TerminalLines leaves as it is
// (terminalAsIs), or a part of one.
func writeMDEscaped(b *bufio.Writer, s string) {
	start := 0
	for i := 0; i < len(s); i++ {
		if mdCellSpecial[s[i]] {
			b.WriteString(s[start:i])
			b.WriteString(mdCellBytes[s[i]])
			start = i + 1
		}
	}
	b.WriteString(s[start:])
}

// writeMDRouteCell writes mdCell(route.String() + " (" + hostnamesLabel(hs) + ")"),
// a route of a listener's row.
func writeMDRouteCell(b *bufio.Writer, route model.Ref, hs []string) {
	asIs := terminalAsIs(route.Kind) && terminalAsIs(route.Namespace) && terminalAsIs(route.Name)
	for _, h := range hs {
		asIs = asIs && terminalAsIs(h)
	}
	if !asIs {
		// A piece that is not valid UTF-8 on its own may be with its
		// neighbour: the whole is escaped as it was.
		b.WriteString(mdCell(route.String() + " (" + hostnamesLabel(hs) + ")"))
		return
	}
	// Each piece is valid UTF-8 without a character a terminal obeys, and
	// so is their concatenation: mdCell replaces its bytes one by one.
	writeMDEscaped(b, route.Kind)
	b.WriteByte('/')
	if route.Namespace != "" {
		writeMDEscaped(b, route.Namespace)
		b.WriteByte('/')
	}
	writeMDEscaped(b, route.Name)
	b.WriteString(" (")
	if len(hs) == 0 || len(hs) == 1 && hs[0] == "" {
		b.WriteString("(any hostname)")
	} else {
		for i, h := range hs {
			if i > 0 {
				b.WriteString(", ")
			}
			writeMDEscaped(b, h)
		}
	}
	b.WriteByte(')')
}

// writeMDSource writes mdSource(src, base).
func writeMDSource(b *bufio.Writer, src model.Source, base string) {
	if base != "" || src.File == "" || !mdCodeAsIs(src.File) {
		b.WriteString(mdSource(src, base))
		return
	}
	// mdCode of printable ASCII without a backtick or a pipe is the text
	// in backticks.
	b.WriteByte('`')
	b.WriteString(src.File)
	if src.Line > 0 {
		b.WriteByte(':')
		var digits [20]byte
		b.Write(strconv.AppendInt(digits[:0], int64(src.Line), 10))
	}
	b.WriteByte('`')
}

// mdCodeAsIs reports whether mdCode writes s in backticks as it is:
// printable ASCII without a backtick or a pipe.
func mdCodeAsIs(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '`' || c == '|' {
			return false
		}
	}
	return true
}

// oneLineAsIs reports whether oneLine(s) is s: ASCII whose only white space
// is single spaces between words.
func oneLineAsIs(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80, c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
			return false
		case c == ' ' && s[i+1] == ' ': // s does not end with a space
			return false
		}
	}
	return true
}

// oneLineFast is oneLine(s), s itself when it is already one line.
func oneLineFast(s string) string {
	if oneLineAsIs(s) {
		return s
	}
	return oneLine(s)
}

// mdRules remembers mdRule of each rule a report names: a report of many
// findings names few rules.
type mdRules map[*rules.Rule]string

func (m mdRules) of(r *rules.Rule) string {
	s, ok := m[r]
	if !ok {
		s = mdRule(r)
		m[r] = s
	}
	return s
}
