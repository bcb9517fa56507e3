package gwtls

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// TestRuleExamples runs every rule's example (rules/examples) through
// analyze (diff, for a migration rule's), as a user would run it on the file, and checks that it fires its
// rule and no other (but those its "# also fires:" lines name, each with why);
// and that the catalog, which runs the examples in-process, reports the same.
func TestRuleExamples(t *testing.T) {
	for _, r := range rules.All() {
		ex, ok := r.Example()
		if !ok {
			continue
		}
		t.Run(string(r.ID), func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, ex.Name)
			if err := os.WriteFile(file, []byte(ex.Manifest), 0o644); err != nil {
				t.Fatal(err)
			}
			// A migration rule's example is the head of a diff whose
			// --base flag names the Ingress base beside it.
			command := "analyze"
			if _, ok := ex.Base(); ok {
				command = "diff"
			}
			args := []string{command, "-f", file, "--now", rules.ExampleNow, "-o", "json", "--config="}
			for _, f := range ex.Flags {
				if data, ok := ex.Files[f]; ok {
					f = filepath.Join(dir, f)
					if err := os.WriteFile(f, data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				args = append(args, f)
			}
			out, stderr, code := run(t, "", args...)
			if code == ExitError {
				t.Fatalf("%s: exit %d: %s", command, code, stderr)
			}
			var report struct {
				Findings []struct {
					Rule    string `json:"rule"`
					Finding struct {
						Rule string `json:"rule"`
					} `json:"finding"`
					Changes []struct {
						Kind string `json:"kind"`
					} `json:"changes"`
				} `json:"findings"`
			}
			if err := json.Unmarshal([]byte(out), &report); err != nil {
				t.Fatalf("%s -o json: %v\n%s", command, err, out)
			}
			var fired []rules.ID
			for _, f := range report.Findings {
				switch {
				case command == "analyze":
					fired = append(fired, rules.ID(f.Rule))
				case len(f.Changes) > 0 && f.Changes[0].Kind == "FindingNew":
					fired = append(fired, rules.ID(f.Finding.Rule))
				}
			}
			want := []rules.ID{r.ID}
			for _, also := range ex.AlsoFires {
				want = append(want, also.Rule)
			}
			if got, want := set(fired), set(want); !slices.Equal(got, want) {
				t.Errorf("%s fires %v; want %v", ex.Name, got, want)
			}
			findings, err := exampleFindings(ex)
			if err != nil {
				t.Fatal(err)
			}
			var catalog []rules.ID
			for _, f := range findings {
				catalog = append(catalog, f.Rule.ID)
			}
			if !slices.Equal(catalog, fired) {
				t.Errorf("the catalog reports %v on %s, analyze %v", catalog, ex.Name, fired)
			}
		})
	}
}

// set is the sorted, distinct IDs.
func set(ids []rules.ID) []rules.ID {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// TestCatalogIsCurrent: docs/rules.md is `rules -o markdown`, and the table and
// JSON of the catalog are reviewed as golden files (testdata/catalog).
func TestCatalogIsCurrent(t *testing.T) {
	t.Chdir("../..")
	md, stderr, code := run(t, "", "rules", "-o", "markdown")
	if code != ExitClean {
		t.Fatalf("rules -o markdown: exit %d: %s", code, stderr)
	}
	// The examples' Secrets hold real keys; the catalog describes them.
	for _, data := range []string{"-----BEGIN", "LS0tLS1CRUdJTi"} {
		if strings.Contains(md, data) {
			t.Errorf("the catalog holds PEM data (%s)", data)
		}
	}
	if *update {
		if err := os.WriteFile("docs/rules.md", []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	} else if want, err := os.ReadFile("docs/rules.md"); err != nil || string(want) != md {
		t.Errorf("docs/rules.md is stale (or missing: %v); regenerate it with\n  go run ./cmd/kubectl-gwtls rules -o markdown > docs/rules.md\n(or go test ./cmd/gwtls -run Catalog -update), and review the diff:\n%s", err, diff(string(want), md))
	}
	// Every rule as a table; the JSON of rules of each kind (a condition, one
	// with flags and a file, one that also fires another, one without an
	// example), since docs/rules.md already shows every entry.
	for _, c := range []struct {
		golden string
		args   []string
	}{
		{"table", []string{"rules", "--color", "never"}},
		{"json", []string{"rules", "-o", "json", "route/Accepted/NoMatchingParent", "certificate/ChainUntrusted", "gateway/Accepted/ListenersNotValid", "load/Unreadable"}},
	} {
		out, stderr, code := run(t, "", c.args...)
		compareGolden(t, "testdata/catalog/rules."+c.golden+".golden", out+stderr+"--- exit "+strconv.Itoa(code)+"\n")
	}
	// A selection by glob; a pattern that matches nothing is a usage error
	// with the closest rule.
	out, _, code := run(t, "", "rules", "certificate/Exp*")
	if code != ExitClean || !strings.Contains(out, "certificate/Expired") || !strings.Contains(out, "certificate/ExpiresSoon") || strings.Contains(out, "WeakKey") {
		t.Errorf("rules certificate/Exp*: exit %d\n%s", code, out)
	}
	_, stderr, code = run(t, "", "rules", "certificate/Expird")
	if code != ExitError || !strings.Contains(stderr, "did you mean certificate/Expired?") {
		t.Errorf("rules certificate/Expird: exit %d: %s", code, stderr)
	}
}
