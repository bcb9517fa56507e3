package gwtls

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiffGolden runs every case in testdata/diff: CASE/base.yaml and
// CASE/head.yaml are the two sides, each opening with what it proves (flags
// for both runs in a leading "# flags:" comment of base.yaml);
// CASE/diff.golden is `diff --base base.yaml -f head.yaml` in every output
// format (table, json, markdown, github), each followed by its exit code.
// Regenerate with go test ./cmd/gwtls -run Golden -update, then review the
// diff.
func TestDiffGolden(t *testing.T) {
	t.Chdir("../..")
	cases, err := filepath.Glob("testdata/diff/*/base.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no diff cases in testdata/diff")
	}
	for _, base := range cases {
		dir := filepath.Dir(base)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			head := filepath.Join(dir, "head.yaml")
			for _, side := range []string{base, head} {
				if !opensWithComment(t, side) {
					t.Errorf("%s does not open with a comment saying what it proves", side)
				}
			}
			compareGolden(t, filepath.Join(dir, "diff.golden"), diffGolden(t, base, head))
		})
	}
}

// diffGolden is the diff of two inputs in every output format.
func diffGolden(t *testing.T, base, head string) string {
	t.Helper()
	extra := goldenFlags(t, base)
	var out strings.Builder
	for _, format := range []string{"table", "json", "markdown", "github"} {
		args := append([]string{"diff", "--base", base, "-f", head, "--now", goldenNow, "--color", "never", "-o", format}, extra...)
		stdout, stderr, code := run(t, "", args...)
		if code == ExitError {
			t.Fatalf("diff -o %s: exit %d: %s", format, code, stderr)
		}
		fmt.Fprintf(&out, "$ %s\n%s%s--- exit %d\n", strings.Join(append([]string{"diff", "-o", format}, extra...), " "), stderr, stdout, code)
	}
	return out.String()
}

func opensWithComment(t *testing.T, path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.HasPrefix(string(data), "# ")
}
