package change_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/change"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// generated analyzes the 1k configuration of the benchmarks and, loaded
// separately, its mutated copy.
func generated(t *testing.T) (base, head *analyze.Result) {
	t.Helper()
	dir := t.TempDir()
	in, err := generate.Load(dir, "1k", generate.Sizes[0].Config)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(in.Path)
	if err != nil {
		t.Fatal(err)
	}
	headPath := filepath.Join(dir, "head.yaml")
	if err := os.WriteFile(headPath, generate.Mutated(data), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := load.Files(load.FileOptions{Filenames: []string{headPath}})
	if err != nil {
		t.Fatal(err)
	}
	opts := analyze.Options{Now: now}
	return analyze.Analyze(in.Model, opts), analyze.Analyze(m, opts)
}

// A configuration compared with itself (analyzed twice, from one model) has
// no change: every aspect compares values, not pointers.
func TestCompareWithItselfIsEmpty(t *testing.T) {
	base, _ := generated(t)
	again := analyze.Analyze(base.Model, analyze.Options{Now: now})
	d := change.Compare(base, again, change.Options{Now: now, WarnExpiry: warnExpiry})
	if s := d.Summary(); s.Changes != 0 {
		b, _ := json.MarshalIndent(d, "", "  ")
		t.Fatalf("%d changes comparing a configuration with itself:\n%.3000s", s.Changes, b)
	}
}

// The same two Results give the same diff, byte for byte, though both sides
// and the sections are built concurrently.
func TestCompareIsDeterministic(t *testing.T) {
	base, head := generated(t)
	first, err := json.Marshal(change.Compare(base, head, change.Options{Now: now, WarnExpiry: warnExpiry}))
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		again, _ := json.Marshal(change.Compare(base, head, change.Options{Now: now, WarnExpiry: warnExpiry}))
		if string(again) != string(first) {
			t.Fatal("two comparisons of the same Results differ")
		}
	}
	if d := change.Compare(base, head, change.Options{Now: now, WarnExpiry: warnExpiry}); d.Summary().Changes == 0 {
		t.Fatal("the mutated copy has no change: the test proves nothing")
	}
}

// Findings are matched by Finding.Key as many times as each side has the key:
// one of two identical findings fixed is one fixed, whatever the messages and
// lines say.
func TestFindingsMatchByKeyAsAMultiset(t *testing.T) {
	rule := &rules.Rule{ID: "route/BackendPortNotFound", Severity: rules.Warning}
	obj := model.Ref{Kind: "HTTPRoute", Namespace: "apps", Name: "a"}
	f := func(field, msg string, line int) analyze.Finding {
		return analyze.Finding{Rule: rule, Severity: rules.Warning, Object: obj, Field: field, Message: msg, Source: model.Source{File: "a.yaml", Line: line}}
	}
	base := &analyze.Result{Model: &model.Model{}, Findings: []analyze.Finding{
		f("spec.rules[0].backendRefs", "port 1", 10), f("spec.rules[0].backendRefs", "port 2", 10)}}
	head := &analyze.Result{Model: &model.Model{}, Findings: []analyze.Finding{
		f("spec.rules[0].backendRefs", "port 3", 40), f("spec.rules[1].backendRefs", "port 4", 40)}}
	d := change.Compare(base, head, change.Options{Now: now, WarnExpiry: warnExpiry})
	var got []string
	for _, x := range d.Findings {
		got = append(got, string(x.Changes[0].Kind)+" "+x.Finding.Field+" "+x.Finding.Message)
	}
	want := []string{"FindingNew spec.rules[1].backendRefs port 4", "FindingFixed spec.rules[0].backendRefs port 2"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("findings %q, want %q", got, want)
	}
	if n := d.CountAtOrAbove(rules.Warning); n != 1 {
		t.Errorf("%d regressions at warning, want 1: only a new finding fails a run", n)
	}
}
