// Package linediff computes line diffs: a shortest edit script between two
// lists of lines, grouped into hunks with context, as unified diffs show them.
package linediff

import (
	"fmt"
	"slices"
	"strings"
)

// Edit is one line of an edit script: ' ' kept, '-' only in a, '+' only in b.
// ALine and BLine are 1-based; a line not in a side has the number of the
// next line there.
type Edit struct {
	Op           byte
	Line         string
	ALine, BLine int
}

// EditScript returns a shortest edit script from a to b, with Myers' greedy
// algorithm ("An O(ND) Difference Algorithm and Its Variations", 1986). ok is
// false when a and b need more than maxEdits insertions and deletions: the
// trace it keeps grows with their number.
func EditScript(a, b []string, maxEdits int) (_ []Edit, ok bool) {
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
func backtrack(a, b []string, trace [][]int, off int) []Edit {
	var out []Edit
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
			out = append(out, Edit{' ', a[x-1], x, y})
			x, y = x-1, y-1
		}
		if d == 0 {
			break
		}
		if x == prevX {
			out = append(out, Edit{'+', b[y-1], x + 1, y})
		} else {
			out = append(out, Edit{'-', a[x-1], x, y + 1})
		}
		x, y = prevX, prevY
	}
	slices.Reverse(out)
	return out
}

// Hunk is a run of edits[From:To] holding changes and their context, and the
// lines it covers in a and in b.
type Hunk struct {
	From, To       int
	AStart, ACount int
	BStart, BCount int
}

// Hunks groups the changes of edits with context kept lines around each;
// changes closer than twice the context share a hunk.
func Hunks(edits []Edit, context int) []Hunk {
	var out []Hunk
	for i := 0; i < len(edits); {
		if edits[i].Op == ' ' {
			i++
			continue
		}
		from, to, kept := max(0, i-context), i, 0
		for ; to < len(edits) && kept < 2*context+1; to++ {
			if edits[to].Op == ' ' {
				kept++
			} else {
				kept = 0
			}
		}
		if kept > context {
			to -= kept - context
		}
		h := Hunk{From: from, To: to, AStart: edits[from].ALine, BStart: edits[from].BLine}
		for _, e := range edits[from:to] {
			if e.Op != '+' {
				h.ACount++
			}
			if e.Op != '-' {
				h.BCount++
			}
		}
		out = append(out, h)
		i = to
	}
	return out
}

// Unified is the unified diff (diff -u, three lines of context) from a to b,
// named aName and bName in its header; "" when they are equal. Texts so
// different that a shortest script would need more than maxEdits changes
// are shown whole, every line of a removed and every line of b added.
func Unified(aName, bName string, a, b []string, maxEdits int) string {
	edits, ok := EditScript(a, b, maxEdits)
	if !ok {
		edits = edits[:0]
		for i, l := range a {
			edits = append(edits, Edit{'-', l, i + 1, 1})
		}
		for i, l := range b {
			edits = append(edits, Edit{'+', l, len(a) + 1, i + 1})
		}
	}
	hs := Hunks(edits, 3)
	if len(hs) == 0 {
		return ""
	}
	var s strings.Builder
	fmt.Fprintf(&s, "--- %s\n+++ %s\n", aName, bName)
	for _, h := range hs {
		fmt.Fprintf(&s, "@@ -%s +%s @@\n", span(h.AStart, h.ACount), span(h.BStart, h.BCount))
		for _, e := range edits[h.From:h.To] {
			s.WriteByte(e.Op)
			s.WriteString(e.Line)
			s.WriteByte('\n')
		}
	}
	return s.String()
}

// span writes a hunk's range as diff -u does: the start alone for one line,
// and an empty range as the line before it.
func span(start, count int) string {
	switch count {
	case 1:
		return fmt.Sprint(start)
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	}
	return fmt.Sprintf("%d,%d", start, count)
}
