package gwtls

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// diff shows how got differs from want as a unified diff of lines ("-" want,
// "+" got, three lines of context), so that one inserted line shows as one
// line, not as every line after it.
func diff(want, got string) string {
	const context, maxLines = 3, 80
	edits, ok := editScript(strings.Split(want, "\n"), strings.Split(got, "\n"), 4000)
	if !ok {
		return "(too many differences for a line diff: review the whole output)\n"
	}
	var b strings.Builder
	printed := 0
	for _, h := range hunks(edits, context) {
		fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", h.wantStart, h.wantCount, h.gotStart, h.gotCount)
		for i := h.from; i < h.to; i++ {
			if printed == maxLines {
				fmt.Fprintf(&b, "... and %d more changed lines\n", changedFrom(edits, i))
				return b.String()
			}
			fmt.Fprintf(&b, "%c %s\n", edits[i].op, edits[i].line)
			printed++
		}
	}
	return b.String()
}

// edit is one line of an edit script: ' ' kept, '-' only in want, '+' only in
// got. wantLine and gotLine are 1-based; a line not in a side has the number
// of the next line there.
type edit struct {
	op                byte
	line              string
	wantLine, gotLine int
}

// editScript returns a shortest edit script from a to b, with Myers' greedy
// algorithm ("An O(ND) Difference Algorithm and Its Variations", 1986). ok is
// false when a and b need more than maxEdits insertions and deletions: the
// trace it keeps grows with their number.
func editScript(a, b []string, maxEdits int) (_ []edit, ok bool) {
	n, m := len(a), len(b)
	limit := min(n+m, maxEdits)
	off := limit + 1
	v := make([]int, 2*limit+3) // v[off+k]: furthest x on diagonal k
	var trace [][]int
	for d := 0; d <= limit; d++ {
		trace = append(trace, slices.Clone(v))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: insert b[y-1]
			} else {
				x = v[off+k-1] + 1 // right: delete a[x-1]
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(a, b, trace, off), true
			}
		}
	}
	return nil, false
}

// backtrack walks the trace from the end back to the start, collecting edits.
func backtrack(a, b []string, trace [][]int, off int) []edit {
	var out []edit
	x, y := len(a), len(b)
	for d := len(trace) - 1; d >= 0; d-- {
		v := trace[d]
		k := x - y
		prevK := k - 1
		if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
			prevK = k + 1
		}
		prevX := v[off+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			out = append(out, edit{' ', a[x-1], x, y})
			x, y = x-1, y-1
		}
		if d == 0 {
			break
		}
		if x == prevX {
			out = append(out, edit{'+', b[y-1], x + 1, y})
		} else {
			out = append(out, edit{'-', a[x-1], x, y + 1})
		}
		x, y = prevX, prevY
	}
	slices.Reverse(out)
	return out
}

// hunk is a run of edits[from:to] holding changes and their context.
type hunk struct {
	from, to             int
	wantStart, wantCount int
	gotStart, gotCount   int
}

// hunks groups the changes of edits with context kept lines around each;
// changes closer than twice the context share a hunk.
func hunks(edits []edit, context int) []hunk {
	var out []hunk
	for i := 0; i < len(edits); {
		if edits[i].op == ' ' {
			i++
			continue
		}
		from, to, kept := max(0, i-context), i, 0
		for ; to < len(edits) && kept < 2*context+1; to++ {
			if edits[to].op == ' ' {
				kept++
			} else {
				kept = 0
			}
		}
		if kept > context {
			to -= kept - context
		}
		h := hunk{from: from, to: to, wantStart: edits[from].wantLine, gotStart: edits[from].gotLine}
		for _, e := range edits[from:to] {
			if e.op != '+' {
				h.wantCount++
			}
			if e.op != '-' {
				h.gotCount++
			}
		}
		out = append(out, h)
		i = to
	}
	return out
}

// changedFrom counts the changed lines of edits from index i on.
func changedFrom(edits []edit, i int) int {
	n := 0
	for _, e := range edits[i:] {
		if e.op != ' ' {
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

// TestEditScriptIsShortest: for random line lists, the script turns a into b
// and changes exactly the lines outside a longest common subsequence.
func TestEditScriptIsShortest(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := func() []string {
		out := make([]string, rng.IntN(12))
		for i := range out {
			out[i] = string(rune('a' + rng.IntN(3)))
		}
		return out
	}
	for range 2000 {
		a, b := random(), random()
		edits, ok := editScript(a, b, 100)
		if !ok {
			t.Fatalf("%q -> %q: no script", a, b)
		}
		var gotA, gotB []string
		changes := 0
		for _, e := range edits {
			if e.op != '+' {
				gotA = append(gotA, e.line)
			}
			if e.op != '-' {
				gotB = append(gotB, e.line)
			}
			if e.op != ' ' {
				changes++
			}
		}
		if !slices.Equal(gotA, a) || !slices.Equal(gotB, b) {
			t.Fatalf("%q -> %q: script gives %q -> %q", a, b, gotA, gotB)
		}
		if want := len(a) + len(b) - 2*lcsLength(a, b); changes != want {
			t.Fatalf("%q -> %q: %d changes, shortest has %d", a, b, changes, want)
		}
	}
	if _, ok := editScript(repeat("a", 50), repeat("b", 50), 10); ok {
		t.Error("100 changes fit in a limit of 10")
	}
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// lcsLength is the textbook dynamic program, the oracle of editScript.
func lcsLength(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}
