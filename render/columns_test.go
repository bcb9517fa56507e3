package render

import (
	"strings"
	"testing"

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

// FuzzColumnsMatchTablewriter: for any one-line cells (findings' cells are made
// one line), writeColumns lays them out as tablewriter does.
func FuzzColumnsMatchTablewriter(f *testing.F) {
	f.Add("SEVERITY", "error", "listener/Conflicted", "Gateway/ns/café → x")
	f.Add("H", "\x1b[31merror\x1b[0m", "", "漢字")
	f.Fuzz(func(t *testing.T, a, b, c, d string) {
		for _, s := range []string{a, b, c, d} {
			if strings.ContainsAny(s, "\n\r") {
				return // the findings table's cells are one line (oneLine, firstLine)
			}
		}
		rows := [][]string{{"SEVERITY", "MESSAGE"}, {a, b}, {c, d}} // the headers are fixed words
		var got strings.Builder
		if err := writeColumns(&got, rows); err != nil {
			t.Fatal(err)
		}
		if want := tablewriterColumns(t, rows); got.String() != want {
			t.Errorf("writeColumns:\n%q\ntablewriter:\n%q", got.String(), want)
		}
	})
}
