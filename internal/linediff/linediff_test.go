package linediff

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

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
		edits, ok := EditScript(a, b, 100)
		if !ok {
			t.Fatalf("%q -> %q: no script", a, b)
		}
		var gotA, gotB []string
		changes := 0
		for _, e := range edits {
			if e.Op != '+' {
				gotA = append(gotA, e.Line)
			}
			if e.Op != '-' {
				gotB = append(gotB, e.Line)
			}
			if e.Op != ' ' {
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
	if _, ok := EditScript(repeat("a", 50), repeat("b", 50), 10); ok {
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

// lcsLength is the textbook dynamic program, the oracle of EditScript.
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

// TestUnifiedIsPatchable: a unified diff applies with patch(1) and turns a
// into b, for changes at the start, the middle, the end and everywhere,
// including the case too large for a shortest script.
func TestUnifiedIsPatchable(t *testing.T) {
	if _, err := exec.LookPath("patch"); err != nil {
		t.Skip("patch(1) is not installed")
	}
	lines := func(s string) []string { return strings.Split(s, " ") }
	tests := []struct {
		name     string
		a, b     []string
		maxEdits int
	}{
		{"one changed line in the middle", lines("1 2 3 4 5 6 7 8 9 10"), lines("1 2 3 4 five 6 7 8 9 10"), 100},
		{"a line added at the start", lines("1 2 3 4 5 6 7 8"), lines("0 1 2 3 4 5 6 7 8"), 100},
		{"a line removed at the end", lines("1 2 3 4 5 6 7 8"), lines("1 2 3 4 5 6 7"), 100},
		{"two hunks", lines("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18"), lines("1 x 3 4 5 6 7 8 9 10 11 12 13 14 15 16 y 18"), 100},
		{"from nothing", nil, lines("a b c"), 100},
		{"to nothing", lines("a b c"), nil, 100},
		{"too many changes for a script: whole texts", lines("a b c d e f"), lines("u v w x y z"), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Unified("a", "b", tt.a, tt.b, tt.maxEdits)
			if !strings.HasPrefix(d, "--- a\n+++ b\n@@ -") {
				t.Fatalf("no unified header:\n%s", d)
			}
			dir := t.TempDir()
			file := filepath.Join(dir, "f")
			text := func(ls []string) string {
				if len(ls) == 0 {
					return ""
				}
				return strings.Join(ls, "\n") + "\n"
			}
			if err := os.WriteFile(file, []byte(text(tt.a)), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("patch", "-s", file)
			cmd.Stdin = strings.NewReader(d)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("patch: %v\n%s\ndiff:\n%s", err, out, d)
			}
			got, _ := os.ReadFile(file)
			if string(got) != text(tt.b) {
				t.Errorf("patched:\n%s\nwant:\n%s\ndiff:\n%s", got, text(tt.b), d)
			}
		})
	}
	if d := Unified("a", "b", lines("x y"), lines("x y"), 10); d != "" {
		t.Errorf("equal texts: %q, want no diff", d)
	}
}
