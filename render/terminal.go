package render

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// TerminalText returns s as a terminal shows it without obeying it: every
// character a terminal acts on instead of printing is written as a Go escape
// (\n, \x1b, \u202e), as %q would inside quotes. Names, hostnames, paths and
// messages come from the input, and a terminal obeys what they carry: an ESC
// sequence can recolour, retitle or clear the screen, a newline or carriage
// return can forge a row, a bidi override (Unicode TR #9, and the Trojan Source
// paper, CVE-2021-42574) can show text in another order than it is read.
// Escaped are the C0 controls and DEL, the C1 controls (ECMA-48 section 5: a
// terminal may read U+009B as CSI), the line and paragraph separators and the
// bidi formatting characters; invalid UTF-8 bytes are written as \xNN. Every
// terminal renderer passes what it did not write itself through it; JSON and
// YAML need not, their encoders escape.
func TerminalText(s string) string {
	if terminalAsIs(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case obeyed(r):
			b.WriteString(escapeRune(r))
		default:
			b.WriteString(s[:size])
		}
		s = s[size:]
	}
	return b.String()
}

// TerminalLines is TerminalText for text of several lines (a fix, an
// explanation): its own line breaks (\n, or \r\n) stay, everything else is
// escaped.
func TerminalLines(s string) string {
	if terminalAsIs(s) {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if i < len(lines)-1 && strings.HasSuffix(l, "\r") {
			lines[i] = TerminalText(l[:len(l)-1]) + "\r"
			continue
		}
		lines[i] = TerminalText(l)
	}
	return strings.Join(lines, "\n")
}

// terminalAsIs reports whether TerminalText and TerminalLines return s as it
// is: valid UTF-8 without a character a terminal obeys.
func terminalAsIs(s string) bool {
	return printableASCII(s) || strings.IndexFunc(s, obeyed) < 0 && utf8.ValidString(s)
}

// terminalCell is a one-line table cell of text from the input: escaped,
// then its runs of spaces collapsed.
func terminalCell(s string) string { return oneLine(TerminalText(s)) }

// terminalRow is a table row of cells from the input, each escaped.
func terminalRow(cells ...string) []string {
	for i, c := range cells {
		cells[i] = TerminalText(c)
	}
	return cells
}

// obeyed reports whether a terminal acts on r rather than printing it.
func obeyed(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f: // C0 and DEL
		return true
	case r >= 0x80 && r <= 0x9f: // C1
		return true
	case r == '\u061c', r == '\u200e', r == '\u200f': // bidi marks
		return true
	case r >= '\u202a' && r <= '\u202e': // bidi embeddings and overrides
		return true
	case r >= '\u2066' && r <= '\u2069': // bidi isolates
		return true
	case r == '\u2028', r == '\u2029': // line and paragraph separators
		return true
	}
	return false
}

func escapeRune(r rune) string {
	switch r {
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	case '\v':
		return `\v`
	}
	if r < 0x80 {
		return fmt.Sprintf(`\x%02x`, r)
	}
	return fmt.Sprintf(`\u%04x`, r)
}
