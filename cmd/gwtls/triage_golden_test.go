package gwtls

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"sigs.k8s.io/yaml"
)

// analyzeFormats are the output formats of analyze, each of which must exit
// the same way on the same input.
var analyzeFormats = []string{"table", "wide", "json", "yaml", "sarif", "github"}

// TestTriageGolden renders each case of testdata/triage (suppressions, a
// baseline, the configuration file and its precedence) with analyze in every
// output format and with render report, into testdata/triage/NAME.golden.
// Every format exits the same; the JSON and YAML parse; the SARIF validates
// against the 2.1.0 schema and carries suppressions on every result and a
// baselineState on all results or none. Regenerate with
// go test ./cmd/gwtls -run TriageGolden -update, and review the diff.
func TestTriageGolden(t *testing.T) {
	t.Chdir("../..")
	sarif := compileSARIFSchema(t, "render/testdata/sarif-schema-2.1.0.json")

	// baseline.json is what --write-baseline records of baseline-before.yaml.
	written := filepath.Join(t.TempDir(), "baseline.json")
	_, stderr, code := run(t, "", "analyze", "-f", "testdata/triage/baseline-before.yaml", "--now", goldenNow, "--config=", "--write-baseline", written)
	if code != ExitClean || !strings.Contains(stderr, "wrote baseline "+written+": 3 findings") {
		t.Fatalf("--write-baseline alone compares with what it wrote, so nothing is new: exit %d\n%s", code, stderr)
	}
	data, err := os.ReadFile(written)
	if err != nil {
		t.Fatal(err)
	}
	compareGolden(t, "testdata/triage/baseline.json", string(data))

	for _, c := range []struct {
		name string
		args []string
		exit int
	}{
		{"suppressions", []string{"-f", "testdata/golden/suppressions.yaml", "--config="}, ExitFindings},
		{"suppressions-shown", []string{"-f", "testdata/golden/suppressions.yaml", "--config=", "--show-suppressed"}, ExitFindings},
		{"baseline", []string{"-f", "testdata/triage/baseline.yaml", "--config=", "--baseline", "testdata/triage/baseline.json", "--show-suppressed"}, ExitFindings},
		{"baseline-none-new", []string{"-f", "testdata/triage/baseline-before.yaml", "--config=", "--baseline", "testdata/triage/baseline.json"}, ExitClean},
		{"config", []string{"-f", "testdata/triage/config.yaml", "--config", "testdata/triage/team.gwtls.yaml"}, ExitFindings},
		{"config-flags-win", []string{"-f", "testdata/triage/config.yaml", "--config", "testdata/triage/team.gwtls.yaml", "--fail-on", "error", "--warn-expiry", "720h"}, ExitClean},
		{"config-none", []string{"-f", "testdata/triage/config.yaml", "--config="}, ExitFindings},
	} {
		t.Run(c.name, func(t *testing.T) {
			var golden strings.Builder
			for _, format := range analyzeFormats {
				args := append([]string{"analyze", "--now", goldenNow, "--color", "never", "-o", format}, c.args...)
				out, stderr, code := run(t, "", args...)
				fmt.Fprintf(&golden, "$ analyze -o %s\n%s%s--- exit %d\n", format, stderr, out, code)
				if code != c.exit {
					t.Errorf("analyze -o %s: exit %d, want %d (every format exits the same)\n%s", format, code, c.exit, stderr)
				}
				switch format {
				case "json":
					if !json.Valid([]byte(out)) {
						t.Errorf("-o json is not JSON:\n%s", out)
					}
				case "yaml":
					var v any
					if err := yaml.Unmarshal([]byte(out), &v); err != nil {
						t.Errorf("-o yaml: %v", err)
					}
				case "sarif":
					checkSARIF(t, sarif, out)
				}
			}
			out, stderr, code := run(t, "", append([]string{"render", "report", "--now", goldenNow}, c.args...)...)
			fmt.Fprintf(&golden, "$ render report\n%s%s--- exit %d\n", stderr, out, code)
			compareGolden(t, "testdata/triage/"+c.name+".golden", golden.String())
		})
	}
}

func compileSARIFSchema(t *testing.T, path string) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkSARIF validates a log against the schema, and checks what the schema
// cannot: suppressions and baselineState are on every result or on none
// (SARIF 2.1.0 sections 3.27.23 and 3.27.24).
func checkSARIF(t *testing.T, schema *jsonschema.Schema, out string) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(out)))
	if err != nil {
		t.Fatalf("-o sarif is not JSON: %v", err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Errorf("-o sarif does not validate against SARIF 2.1.0: %v", err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Suppressions  *[]map[string]string `json:"suppressions"`
				BaselineState string               `json:"baselineState"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	states := 0
	results := log.Runs[0].Results
	for i, r := range results {
		if r.Suppressions == nil {
			t.Errorf("result %d has no suppressions array", i)
		}
		if r.BaselineState != "" {
			states++
		}
	}
	if states != 0 && states != len(results) {
		t.Errorf("%d of %d results have a baselineState: all or none", states, len(results))
	}
}
