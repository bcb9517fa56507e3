package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// The four findings of the shipped example, in output order: its TLSRoute is
// v1alpha2, which only the experimental channel's CRD serves.
var shopFindings = []struct {
	rule  string
	line  int
	level string
}{
	{"route/Accepted/NoMatchingParent", 20, "error"},
	{"route/Accepted/NoMatchingListenerHostname", 38, "error"},
	{"schema/ExperimentalOnly", 57, "warning"},
	{"route/ResolvedRefs/RefNotPermitted", 57, "error"},
}

const shopRoutes = "testdata/examples/shop/routes.yaml"

// checkSARIF asserts a SARIF log holds exactly the example's findings, each with
// its file and start line, and a rule for each.
func checkSARIF(t *testing.T, out []byte) {
	t.Helper()
	var log struct {
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string
					Rules []struct{ ID string }
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex int
				Level     string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "kubectl-gwtls" {
		t.Fatalf("not a kubectl-gwtls SARIF 2.1.0 log:\n%s", out)
	}
	run := log.Runs[0]
	if len(run.Results) != len(shopFindings) || len(run.Tool.Driver.Rules) != len(shopFindings) {
		t.Fatalf("%d results, %d rules; want %d each:\n%s", len(run.Results), len(run.Tool.Driver.Rules), len(shopFindings), out)
	}
	for i, want := range shopFindings {
		res := run.Results[i]
		if res.RuleID != want.rule || run.Tool.Driver.Rules[res.RuleIndex].ID != want.rule || res.Level != want.level {
			t.Errorf("result %d: %s (index %d, %s), want %s %s", i, res.RuleID, res.RuleIndex, res.Level, want.rule, want.level)
		}
		if len(res.Locations) != 1 {
			t.Fatalf("result %d: %d locations", i, len(res.Locations))
		}
		pl := res.Locations[0].PhysicalLocation
		if pl.ArtifactLocation.URI != shopRoutes || pl.Region.StartLine != want.line {
			t.Errorf("result %d: %s:%d, want %s:%d", i, pl.ArtifactLocation.URI, pl.Region.StartLine, shopRoutes, want.line)
		}
	}
}

// checkAnnotations asserts GitHub workflow commands for exactly the example's
// findings, and nothing else on stdout.
func checkAnnotations(t *testing.T, out string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	// The CRDs the objects were held to open the output, as a notice.
	const admission = "::notice title=admission::Gateway API v1.6.3 experimental channel, built in; 0 objects refused"
	if lines[0] != admission {
		t.Errorf("line 1: %q\nwant %q", lines[0], admission)
	}
	lines = lines[1:]
	if len(lines) != len(shopFindings) {
		t.Fatalf("%d lines, want %d annotations:\n%s", len(lines), len(shopFindings), out)
	}
	for i, want := range shopFindings {
		prefix := "::" + want.level + " file=" + shopRoutes + ",line=" + strconv.Itoa(want.line) + ",title=" + want.rule + "::"
		if !strings.HasPrefix(lines[i], prefix) {
			t.Errorf("line %d: %q\nwant prefix %q", i+2, lines[i], prefix)
		}
		if strings.Count(lines[i], "::") != 2 {
			t.Errorf("line %d is not one workflow command: %q", i+2, lines[i])
		}
	}
}

func TestAnalyzeSARIF(t *testing.T) {
	r := gwtls(t, "", nil, "analyze", "-f", "testdata/examples/shop", "-o", "sarif")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	checkSARIF(t, []byte(r.stdout))
	if again := gwtls(t, "", nil, "analyze", "-f", "testdata/examples/shop", "-o", "sarif"); again.stdout != r.stdout {
		t.Error("same input gave different SARIF")
	}
}

func TestAnalyzeGitHubAnnotations(t *testing.T) {
	r := gwtls(t, "", nil, "analyze", "-f", "testdata/examples/shop", "-o", "github")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	checkAnnotations(t, r.stdout)
	// The ReferenceGrant fix spans lines; it stays on one escaped line.
	if !strings.Contains(r.stdout, "%0AFix: apply this ReferenceGrant:%0AapiVersion: gateway.networking.k8s.io/v1%0A") {
		t.Errorf("multi-line fix not escaped:\n%s", r.stdout)
	}
}

// Exit codes come from the findings, whatever the format.
func TestCIFormatsExitCodes(t *testing.T) {
	for _, format := range []string{"table", "wide", "json", "yaml", "sarif", "github"} {
		for failOn, want := range map[string]int{"error": 1, "none": 0} {
			r := gwtls(t, "", nil, "analyze", "-f", "testdata/examples/shop", "-o", format, "--fail-on", failOn)
			if r.code != want {
				t.Errorf("-o %s --fail-on %s: exit %d, want %d\n%s", format, failOn, r.code, want, r.stderr)
			}
		}
	}
	if r := gwtls(t, "", nil, "analyze", "-f", "testdata/examples/shop", "-o", "sarif2"); r.code != 2 || !strings.Contains(r.stderr, "sarif or github") {
		t.Errorf("-o sarif2: exit %d, want 2 naming the formats\n%s", r.code, r.stderr)
	}
}

// runShell runs a command line the way CI or pre-commit would, from the repository
// root, with the built kubectl-gwtls first on PATH.
func runShell(t *testing.T, script string, args ...string) result {
	t.Helper()
	cmd := exec.Command("sh", append([]string{"-c", script, "sh"}, args...)...)
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH"))
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{out.String(), errOut.String(), code}
}

// The GitHub Actions example's kubectl-gwtls command lines, run on the shipped
// example in place of deploy/.
func TestGitHubActionsExample(t *testing.T) {
	data, err := os.ReadFile("../examples/ci/github-actions.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Name string
				Uses string
				Run  string
				With map[string]string
			}
		}
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatalf("workflow is not YAML: %v", err)
	}
	var lines []string
	uploads := 0
	for _, job := range wf.Jobs {
		for _, s := range job.Steps {
			if strings.HasPrefix(s.Uses, "github/codeql-action/upload-sarif@") {
				uploads++
				if s.With["sarif_file"] != "results.sarif" {
					t.Errorf("upload-sarif uploads %q, not results.sarif", s.With["sarif_file"])
				}
			}
			if strings.Contains(s.Run, "cmd/kubectl-gwtls@") {
				if _, err := os.Stat("../cmd/kubectl-gwtls"); err != nil {
					t.Errorf("install step names a package that does not exist: %v", err)
				}
			}
			for _, l := range strings.Split(s.Run, "\n") {
				if strings.HasPrefix(strings.TrimSpace(l), "kubectl-gwtls analyze") {
					lines = append(lines, strings.TrimSpace(l))
				}
			}
		}
	}
	if uploads != 1 {
		t.Errorf("%d upload-sarif steps, want 1", uploads)
	}
	var sawSARIF, sawGitHub bool
	sarifFile := filepath.Join(t.TempDir(), "results.sarif")
	for _, l := range lines {
		cmdline := strings.ReplaceAll(l, "deploy/", "testdata/examples/shop/")
		cmdline = strings.ReplaceAll(cmdline, "results.sarif", sarifFile)
		r := runShell(t, cmdline)
		if r.code != 1 {
			t.Errorf("%s: exit %d, want 1\n%s%s", cmdline, r.code, r.stdout, r.stderr)
			continue
		}
		switch {
		case strings.Contains(l, "-o sarif > results.sarif"):
			sawSARIF = true
			out, err := os.ReadFile(sarifFile)
			if err != nil {
				t.Fatal(err)
			}
			checkSARIF(t, out)
		case strings.Contains(l, "-o github"):
			sawGitHub = true
			checkAnnotations(t, r.stdout)
		}
	}
	if !sawSARIF || !sawGitHub {
		t.Errorf("workflow lacks the -o sarif > results.sarif or the -o github command: %q", lines)
	}
}

// The pre-commit hook's entry, given the example's files as pre-commit passes
// them (hook args first), and the wrapper script that does the same.
func TestPreCommitHook(t *testing.T) {
	data, err := os.ReadFile("../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID            string `json:"id"`
		Entry         string `json:"entry"`
		Language      string `json:"language"`
		Files         string `json:"files"`
		PassFilenames *bool  `json:"pass_filenames"`
	}
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatalf(".pre-commit-hooks.yaml is not YAML: %v", err)
	}
	if len(hooks) != 1 || hooks[0].ID != "kubectl-gwtls" {
		t.Fatalf("hooks %+v, want one with id kubectl-gwtls", hooks)
	}
	h := hooks[0]
	if h.Language != "golang" && h.Language != "system" {
		t.Errorf("language %q", h.Language)
	}
	if h.PassFilenames == nil || !*h.PassFilenames {
		t.Error("pass_filenames must be true")
	}
	if !strings.Contains(h.Entry, "kubectl-gwtls analyze -o github") {
		t.Errorf("entry does not run kubectl-gwtls analyze -o github: %q", h.Entry)
	}
	files := regexp.MustCompile(h.Files)
	var staged []string
	for _, f := range []string{"testdata/examples/shop/gateway.yaml", "testdata/examples/shop/routes.yaml", "README.md", "x.yml", "x.yaml.orig"} {
		if files.MatchString(f) {
			staged = append(staged, f)
		}
	}
	if strings.Join(staged, " ") != "testdata/examples/shop/gateway.yaml testdata/examples/shop/routes.yaml x.yml" {
		t.Errorf("files %q selects %q", h.Files, staged)
	}
	staged = staged[:2]

	// pre-commit runs shlex.split(entry) + args + filenames: the shell does the same
	// with the entry as written followed by "$@".
	entry := h.Entry + ` "$@"`
	r := runShell(t, entry, staged...)
	if r.code != 1 {
		t.Fatalf("hook: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	checkAnnotations(t, r.stdout)
	if r := runShell(t, entry, append([]string{"--fail-on", "none"}, staged...)...); r.code != 0 {
		t.Errorf("hook with args --fail-on none: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := runShell(t, entry); r.code != 0 || r.stdout != "" {
		t.Errorf("hook without files: exit %d, want 0 and no output\n%s%s", r.code, r.stdout, r.stderr)
	}

	r = runShell(t, `hack/pre-commit.sh "$@"`, staged...)
	if r.code != 1 {
		t.Fatalf("hack/pre-commit.sh: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	checkAnnotations(t, r.stdout)
	if r := runShell(t, `hack/pre-commit.sh "$@"`, append([]string{"--fail-on", "none"}, staged...)...); r.code != 0 {
		t.Errorf("hack/pre-commit.sh --fail-on none: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
}
