package gwtls

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzAnalyzeFile runs the whole path of a file through the CLI in-process,
// as `analyze -f FILE -o json` does: load, analyze, render. Whatever the
// bytes, it never panics, exits 0, 1 or 2, and prints JSON unless it failed.
// Nearly every run reaches new code, and minimizing each such input for the
// default minute leaves no time to fuzz:
//
//	go test ./cmd/gwtls -run '^$' -fuzz FuzzAnalyzeFile -fuzztime 5m -fuzzminimizetime 1x
func FuzzAnalyzeFile(f *testing.F) {
	var seeds []string
	for _, pattern := range []string{
		"../../testdata/golden/*.yaml",
		"../../testdata/examples/*/*.yaml",
		"../../testdata/gep2643/*.yaml",
		"../../../shared/conformance/*/input.yaml", // beside the repository, where it is
	} {
		m, _ := filepath.Glob(pattern)
		seeds = append(seeds, m...)
	}
	if len(seeds) == 0 {
		f.Fatal("no seed inputs found")
	}
	for _, p := range seeds {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "in.yaml")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := run(t, "", "analyze", "-f", p, "-o", "json", "--now", goldenNow)
		switch code {
		case ExitClean, ExitFindings:
			if !json.Valid([]byte(out)) {
				t.Fatalf("exit %d without a JSON report:\n%s\nstderr: %s", code, out, errOut)
			}
		case ExitError:
			if errOut == "" {
				t.Fatal("exit 2 without a word on stderr")
			}
		default:
			t.Fatalf("exit %d, want 0, 1 or 2; stderr: %s", code, errOut)
		}
	})
}
