package render

import "testing"

func TestTerminalText(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"plain text is unchanged", "shop.example.com", "shop.example.com"},
		{"printable Unicode is unchanged", "bücher.example — ✓", "bücher.example — ✓"},
		{"an SGR sequence is shown, not obeyed", "gw\x1b[31mred", `gw\x1b[31mred`},
		{"an OSC hyperlink is shown, not obeyed", "\x1b]8;;http://x\a", `\x1b]8;;http://x\a`},
		{"a newline cannot forge a row", "a\nb", `a\nb`},
		{"a carriage return cannot overwrite a row", "a\rb", `a\rb`},
		{"a tab is shown", "a\tb", `a\tb`},
		{"NUL and DEL are shown", "a\x00b\x7f", `a\x00b\x7f`},
		{"C1 CSI is shown", "a\u009b31m", `a\u009b31m`},
		{"a bidi override is shown", "a\u202eb", `a\u202eb`},
		{"a bidi isolate is shown", "a\u2066b\u2069", `a\u2066b\u2069`},
		{"a line separator is shown", "a\u2028b", `a\u2028b`},
		{"an invalid UTF-8 byte is shown as a byte", "a\xffb", `a\xffb`},
	} {
		if got := TerminalText(tc.in); got != tc.want {
			t.Errorf("%s: TerminalText(%q) = %s, want %s", tc.name, tc.in, got, tc.want)
		}
	}
}

func TestTerminalLinesKeepsItsOwnLineBreaks(t *testing.T) {
	in := "apply this ReferenceGrant:\nkind: ReferenceGrant\n  name: \x1b[2Jx"
	want := "apply this ReferenceGrant:\nkind: ReferenceGrant\n  name: \\x1b[2Jx"
	if got := TerminalLines(in); got != want {
		t.Errorf("TerminalLines = %q, want %q", got, want)
	}
}
