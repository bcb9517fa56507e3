package migration_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/ingress"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/migration"
)

var now = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// loadFile reads a manifest; the converter's output files open with a
// warning box that is not YAML, read as comments so lines keep their numbers.
func loadFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	box := regexp.MustCompile(`(?m)^([┌│└].*)$`)
	return box.ReplaceAll(data, []byte("# $1"))
}

func compare(t *testing.T, base, head string, opts analyze.Options) *migration.Report {
	t.Helper()
	dir := t.TempDir()
	bf, hf := filepath.Join(dir, filepath.Base(base)), filepath.Join(dir, "gateway-"+filepath.Base(head))
	os.WriteFile(bf, loadFile(t, base), 0o644)
	os.WriteFile(hf, loadFile(t, head), 0o644)
	bm, err := load.Files(load.FileOptions{Filenames: []string{bf}})
	if err != nil {
		t.Fatal(err)
	}
	hm, err := load.Files(load.FileOptions{Filenames: []string{hf}})
	if err != nil {
		t.Fatal(err)
	}
	opts.Now = now
	it, err := ingress.Build(bm, ingress.Options{Analyze: opts})
	if err != nil {
		t.Fatal(err)
	}
	return migration.Compare(it, analyze.Analyze(hm, opts))
}

func TestPrint(t *testing.T) {
	ext := analyze.Options{External: []analyze.ExternalRef{{Kind: "Service"}, {Kind: "Secret"}}}
	files, _ := filepath.Glob("../../shared/ingress2gateway/nginx/input/*.yaml")
	for _, f := range files {
		r := compare(t, f, strings.Replace(f, "/input/", "/output/", 1), ext)
		fmt.Println("==", filepath.Base(f), r.Verdict)
		for _, x := range r.Findings {
			fmt.Printf("  %s %s %s %s: %s\n     fix: %s\n", x.Severity, x.Rule.ID, x.Object, x.Field, x.Message, x.Fix)
		}
	}
}
