package analyze_test

import (
	"crypto/x509"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/drift"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
	"github.com/kubectl-gwtls/kubectl-gwtls/triage"
)

// notInCorpus are the registered rules no golden input can fire, and where
// they are proven instead.
var notInCorpus = map[rules.ID]string{
	"load/Unreadable": "raised only by the cluster loader, for a kind the identity may not list: e2e/cluster_test.go proves it against a real API server",
	"annotation/wrong-kind": "the embedded sets document every key for every kind their set covers (Gwin's: TLSRoute), so no input reaches it; " +
		"annotations/set_test.go proves it with a set whose keys apply to some of its kinds",
}

// TestGoldenCorpusFiresEveryRule runs every golden input (testdata/golden, the
// cases `go test ./cmd/gwtls -run Golden` renders in every view) through the
// engine. Every rule a finding reports must be the registry's, so every
// renderer can describe it; and every registered rule must fire on some golden
// input, so each rule's output is reviewed in a golden file.
func TestGoldenCorpusFiresEveryRule(t *testing.T) {
	t.Chdir("..") // golden flags name files from the repository root, as the golden test runs
	inputs, err := filepath.Glob("testdata/golden/*.yaml")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	fired := map[*rules.Rule][]string{}
	for _, in := range inputs {
		opts, admissionOff := goldenOptions(t, in)
		var findings []analyze.Finding
		for _, off := range admissionOff {
			m, err := load.Files(load.FileOptions{Filenames: []string{in}, Admission: load.Admission{Off: off}})
			if err != nil {
				t.Fatalf("%s: %v", in, err)
			}
			res := analyze.Analyze(m, opts)
			if drift.Carried(m) { // a status dump: analyze compares statuses by default
				res.AddFindings(drift.Findings(res))
			}
			triage.Apply(res, nil) // the manifest's suppressions, as every command applies them
			findings = append(append(findings, res.Findings...), res.Suppressed...)
		}
		for _, f := range findings {
			if f.Rule == nil {
				t.Errorf("%s: a finding without a rule: %+v", in, f)
				continue
			}
			if reg, ok := rules.Lookup(f.Rule.ID); !ok || reg != f.Rule {
				t.Errorf("%s: rule %s is not the registry's", in, f.Rule.ID)
			}
			fired[f.Rule] = append(fired[f.Rule], filepath.Base(in))
		}
	}
	// A migration rule fires only in diff, on an Ingress base and a Gateway
	// API head: its output is reviewed in a diff golden instead (testdata/diff,
	// and the converter's pairs' verdicts).
	diffGoldens, _ := filepath.Glob("testdata/diff/*/diff.golden")
	verdicts, _ := filepath.Glob("testdata/ingress2gateway/verdicts/*.golden")
	diffGoldens = append(diffGoldens, verdicts...)
	var diffOut strings.Builder
	for _, g := range diffGoldens {
		data, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		diffOut.Write(data)
	}
	for _, r := range rules.All() {
		if strings.HasPrefix(string(r.ID), "migration/") {
			if !strings.Contains(diffOut.String(), `"rule":"`+string(r.ID)+`"`) {
				t.Errorf("%s fires in no diff golden: add a migration case to testdata/diff (then go test ./cmd/gwtls -run DiffGolden -update)", r.ID)
			}
			continue
		}
		_, exempt := notInCorpus[r.ID]
		switch {
		case exempt && len(fired[r]) > 0:
			t.Errorf("%s fires on %v: drop it from notInCorpus", r.ID, slices.Compact(fired[r]))
		case !exempt && len(fired[r]) == 0:
			t.Errorf("%s fires on no golden input: add a case to testdata/golden that fires it (then go test ./cmd/gwtls -run Golden -update)", r.ID)
		}
	}
	for id := range notInCorpus {
		if _, ok := rules.Lookup(id); !ok {
			t.Errorf("notInCorpus names %s, which is not a registered rule", id)
		}
	}
}

// goldenOptions are the engine options the golden test's command line gives
// an input: its clock, and the flags of its leading "# flags:" comment; and
// whether each analyze run the golden test makes of it turns admission off
// (--admission=false in its flags, or in its "# also analyze with:" comment,
// which asks for a second run).
func goldenOptions(t *testing.T, path string) (opts analyze.Options, admissionOff []bool) {
	t.Helper()
	opts = analyze.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var flags []string
	admissionOff = []bool{false}
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "#") {
			break
		}
		if rest, ok := strings.CutPrefix(line, "# flags:"); ok {
			flags = strings.Fields(rest)
		}
		if rest, ok := strings.CutPrefix(line, "# also analyze with:"); ok {
			if strings.TrimSpace(rest) != "--admission=false" {
				t.Fatalf("%s: also analyze with %q: this test knows --admission=false only", path, rest)
			}
			admissionOff = append(admissionOff, true)
		}
	}
	if i := slices.Index(flags, "--admission=false"); i >= 0 {
		admissionOff[0] = true
		flags = slices.Delete(flags, i, i+1)
	}
	for i := 0; i < len(flags); i += 2 {
		if flags[i] == "--allow-mixed-termination" { // the one boolean flag
			opts.AllowMixedTermination = true
			i--
			continue
		}
		if i+1 == len(flags) {
			t.Fatalf("%s: flags %v: want --name value pairs", path, flags)
		}
		switch name, value := flags[i], flags[i+1]; name {
		case "--external":
			e, err := analyze.ParseExternal(value)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			opts.External = append(opts.External, e)
		case "--ca-bundle":
			pem, err := os.ReadFile(value)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			opts.CABundle = x509.NewCertPool()
			if !opts.CABundle.AppendCertsFromPEM(pem) {
				t.Fatalf("%s: --ca-bundle %s holds no certificate", path, value)
			}
		case "--supported-features":
			opts.Features = analyze.ParseFeatures(value)
		case "--max-attachment-checks":
			n, err := strconv.ParseInt(value, 10, 64)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			opts.MaxAttachmentChecks = n
		default:
			t.Fatalf("%s: flag %s is not one this test passes to the engine; teach goldenOptions", path, name)
		}
	}
	return opts, admissionOff
}
