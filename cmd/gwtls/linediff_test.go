package gwtls

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/linediff"
)

// diff shows how got differs from want as a unified diff of lines ("-" want,
// "+" got, three lines of context), so that one inserted line shows as one
// line, not as every line after it.
func diff(want, got string) string {
	const context, maxLines = 3, 80
	edits, ok := linediff.EditScript(strings.Split(want, "\n"), strings.Split(got, "\n"), 4000)
	if !ok {
		return "(too many differences for a line diff: review the whole output)\n"
	}
	var b strings.Builder
	printed := 0
	for _, h := range linediff.Hunks(edits, context) {
		fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", h.AStart, h.ACount, h.BStart, h.BCount)
		for i := h.From; i < h.To; i++ {
			if printed == maxLines {
				fmt.Fprintf(&b, "... and %d more changed lines\n", changedFrom(edits, i))
				return b.String()
			}
			fmt.Fprintf(&b, "%c %s\n", edits[i].Op, edits[i].Line)
			printed++
		}
	}
	return b.String()
}

// changedFrom counts the changed lines of edits from index i on.
func changedFrom(edits []linediff.Edit, i int) int {
	n := 0
	for _, e := range edits[i:] {
		if e.Op != ' ' {
			n++
		}
	}
	return n
}

func TestDiff(t *testing.T) {
	lines := func(from, to int) []string {
		var out []string
		for i := from; i <= to; i++ {
			out = append(out, strconv.Itoa(i))
		}
		return out
	}
	text := func(parts ...[]string) string { return strings.Join(slices.Concat(parts...), "\n") + "\n" }
	many := make([]string, 200)
	for i := range many {
		many[i] = "x" + strconv.Itoa(i)
	}
	tests := []struct {
		name, want, got, diff string
	}{
		{name: "equal", want: text(lines(1, 10)), got: text(lines(1, 10)), diff: ""},
		{
			name: "one inserted line is one + line, the rest is context",
			want: text(lines(1, 20)), got: text(lines(1, 2), []string{"new"}, lines(3, 20)),
			diff: "@@ -1,5 +1,6 @@\n  1\n  2\n+ new\n  3\n  4\n  5\n",
		},
		{
			name: "one removed line",
			want: text(lines(1, 20)), got: text(lines(1, 9), lines(11, 20)),
			diff: "@@ -7,7 +7,6 @@\n  7\n  8\n  9\n- 10\n  11\n  12\n  13\n",
		},
		{
			name: "one changed line",
			want: text(lines(1, 5)), got: text(lines(1, 2), []string{"three"}, lines(4, 5)),
			diff: "@@ -1,6 +1,6 @@\n  1\n  2\n- 3\n+ three\n  4\n  5\n  \n",
		},
		{
			name: "changes far apart are two hunks",
			want: text(lines(1, 30)), got: text([]string{"zero"}, lines(1, 29)),
			diff: "@@ -1,3 +1,4 @@\n+ zero\n  1\n  2\n  3\n@@ -27,5 +28,4 @@\n  27\n  28\n  29\n- 30\n  \n",
		},
		{
			name: "changes within twice the context share a hunk",
			want: text(lines(1, 12)), got: text(lines(1, 2), lines(4, 8), lines(10, 12)),
			diff: "@@ -1,12 +1,10 @@\n  1\n  2\n- 3\n  4\n  5\n  6\n  7\n  8\n- 9\n  10\n  11\n  12\n",
		},
		{
			name: "a missing final newline",
			want: "a\nb\n", got: "a\nb",
			diff: "@@ -1,3 +1,2 @@\n  a\n  b\n- \n",
		},
		{
			name: "long output is cut",
			want: text(many), got: "",
			diff: "@@ -1,201 +1,1 @@\n" + "- " + strings.Join(many[:80], "\n- ") + "\n... and 120 more changed lines\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := diff(tt.want, tt.got); got != tt.diff {
				t.Errorf("diff:\n%s\nwant:\n%s", got, tt.diff)
			}
		})
	}
}
