package render

import (
	"bufio"
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
)

// tablewriterColumns lays rows out with tablewriter, as the findings table did
// before writeColumns and as the other tables still do.
func tablewriterColumns(t *testing.T, rows [][]string) string {
	t.Helper()
	var b strings.Builder
	tw := newTrimWriter(&b)
	tab := newTable(tw, rows[0])
	for _, r := range rows[1:] {
		if err := tab.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := tab.Render(); err != nil {
		t.Fatal(err)
	}
	if err := tw.Flush(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestColumnsMatchTablewriter(t *testing.T) {
	colour := Style{Color: true}
	for _, tc := range []struct {
		name string
		rows [][]string
	}{
		{"plain", [][]string{{"SEVERITY", "RULE", "MESSAGE"}, {"error", "listener/Conflicted", "two listeners"}, {"info", "x", "a longer message than the header"}}},
		{"empty cells", [][]string{{"A", "FIELD", "C"}, {"a", "", "c"}, {"", "f", ""}}},
		{"a last column narrower than its header", [][]string{{"SEVERITY", "MESSAGE"}, {"warning", "m"}}},
		{"ANSI colour takes no width", [][]string{{"SEVERITY", "SOURCE", "MESSAGE"},
			{colour.severity(analyze.SeverityError), colour.paint(dimStyle, "a.yaml:12"), "m"},
			{colour.severity(analyze.SeverityInfo), colour.paint(dimStyle, "testdata/golden/long-name.yaml:1234"), "n"}}},
		{"non-ASCII", [][]string{{"OBJECT", "MESSAGE"}, {"Gateway/ns/café", "parentRefs[0] → Gateway x/y…"}, {"HTTPRoute/漢字/名前", "wide characters take two columns"}}},
		{"one row", [][]string{{"H"}, {"only"}}},
		{"a cell of several lines", [][]string{{"A", "B", "C"}, {"a", "first\nsecond line\n third", "c"}, {"x", "y", "z"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := writeColumns(&b, tc.rows); err != nil {
				t.Fatal(err)
			}
			if tc.name == "ANSI colour takes no width" && !strings.Contains(b.String(), "\x1b[") {
				t.Fatal("no colour codes in the rows: the case tests nothing")
			}
			if got, want := b.String(), tablewriterColumns(t, tc.rows); got != want {
				t.Errorf("writeColumns:\n%q\ntablewriter:\n%q", got, want)
			}
		})
	}
}

// A row longer than the header still gets columns (no caller writes one).
func TestColumnsRaggedRows(t *testing.T) {
	var b strings.Builder
	if err := writeColumns(&b, [][]string{{"A"}, {"a", "extra"}, {}}); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), "A\na  extra\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// FuzzColumnsMatchTablewriter: for any cells, writeColumns lays them out as
// tablewriter does.
func FuzzColumnsMatchTablewriter(f *testing.F) {
	f.Add("SEVERITY", "error", "listener/Conflicted", "Gateway/ns/café → x")
	f.Add("H", "\x1b[31merror\x1b[0m", "", "漢字")
	f.Fuzz(func(t *testing.T, a, b, c, d string) {
		rows := func() [][]string { return [][]string{{"SEVERITY", "MESSAGE"}, {a, b}, {c, d}} } // the headers are fixed words
		in := rows()
		var got strings.Builder
		if err := writeColumns(&got, in); err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(in, rows(), slices.Equal) {
			t.Fatalf("writeColumns changed its rows: %q", in)
		}
		if want := tablewriterColumns(t, rows()); got.String() != want {
			t.Errorf("writeColumns:\n%q\ntablewriter:\n%q", got.String(), want)
		}
	})
}

// The reference layout: tablewriter, as every table was written before
// writeColumns, through a writer that drops the padding it leaves at the start
// and end of every line and trailing empty lines.

// newTable is the borderless, left-aligned table every text output used.
func newTable(w io.Writer, header []string) *tablewriter.Table {
	return tablewriter.NewTable(w,
		tablewriter.WithHeader(header),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithRendition(tw.Rendition{Borders: tw.BorderNone, Settings: tw.Settings{
			Separators: tw.Separators{BetweenColumns: tw.Off, BetweenRows: tw.Off}, Lines: tw.Lines{ShowHeaderLine: tw.Off}}}),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignment(tw.AlignLeft),
	)
}

// trimWriter passes table text through line by line, without the padding
// tablewriter leaves at the start and end of every line and without trailing
// empty lines, so that a large table streams instead of being held twice.
type trimWriter struct {
	w       *bufio.Writer
	line    []byte // the current line, not yet ended
	pending int    // empty lines held back until a line with text follows
}

func newTrimWriter(w io.Writer) *trimWriter { return &trimWriter{w: bufio.NewWriterSize(w, 1<<16)} }

func (t *trimWriter) Write(p []byte) (int, error) {
	for rest := p; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			t.line = append(t.line, rest...)
			break
		}
		t.line = append(t.line, rest[:i]...)
		t.endLine()
		rest = rest[i+1:]
	}
	return len(p), nil
}

func (t *trimWriter) endLine() {
	l := bytes.TrimRight(bytes.TrimPrefix(t.line, []byte(" ")), " ")
	t.line = t.line[:0]
	if len(l) == 0 {
		t.pending++
		return
	}
	for ; t.pending > 0; t.pending-- {
		t.w.WriteByte('\n')
	}
	t.w.Write(l)
	t.w.WriteByte('\n')
}

// Flush ends the last line and writes everything out.
func (t *trimWriter) Flush() error {
	if len(t.line) > 0 {
		t.endLine()
	}
	return t.w.Flush()
}

// TestCellWidthAsTwwidth holds cellWidth's quick path to twwidth.Width: every
// printable ASCII byte alone, all of them together, and texts with what is
// not printable ASCII (tabs, ESC sequences, wide and combining characters).
func TestCellWidthAsTwwidth(t *testing.T) {
	var all []byte
	texts := []string{"", "\t", "a\tb", "\x1b[31mred\x1b[0m", "日本", "é", "e\u0301", "\u00a0", "\x7f", "a\nb"}
	for c := byte(0x20); c <= 0x7e; c++ {
		texts = append(texts, string([]byte{c}), "ab"+string([]byte{c})+"cd")
		all = append(all, c)
	}
	texts = append(texts, string(all))
	for _, s := range texts {
		if got, want := cellWidth(s), twwidth.Width(s); got != want {
			t.Errorf("cellWidth(%q) = %d, twwidth.Width %d", s, got, want)
		}
	}
}
