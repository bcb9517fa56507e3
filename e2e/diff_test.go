package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
)

const diffNow = "2026-01-01T00:00:00Z"

// diffCase runs diff on a case of testdata/diff.
func diffCase(t *testing.T, name string, args ...string) result {
	t.Helper()
	dir := "testdata/diff/" + name
	return gwtls(t, "", nil, append([]string{"diff", "--base", dir + "/base.yaml", "-f", dir + "/head.yaml", "--now", diffNow}, args...)...)
}

// The exit code is the same in every output format: 1 when a regression is at
// or above --fail-on, 0 when none is, 2 on errors.
func TestDiffExitCodes(t *testing.T) {
	for _, format := range []string{"table", "json", "markdown", "github"} {
		for _, tc := range []struct {
			name, failOn string
			want         int
		}{
			{"takeover", "error", 1},      // a takeover is an error
			{"takeover", "none", 0},       // nothing fails --fail-on none
			{"route-changed", "error", 0}, // another route of the same namespace: a warning
			{"route-changed", "warning", 1},
			{"certificate-changed", "info", 0}, // not a regression at any severity
			{"unchanged", "info", 0},
		} {
			r := diffCase(t, tc.name, "-o", format, "--fail-on", tc.failOn)
			if r.code != tc.want {
				t.Errorf("%s -o %s --fail-on %s: exit %d, want %d\n%s%s", tc.name, format, tc.failOn, r.code, tc.want, r.stdout, r.stderr)
			}
			noStackTrace(t, r)
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("# a comment\napiVersion: v1\nkind: Service\nmetadata: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string // on stderr
	}{
		{"an unknown format", []string{"diff", "--base", "a.yaml", "-f", "b.yaml", "-o", "sarif"}, "want table, json, markdown or github"},
		{"both bases", []string{"diff", "--base", "a.yaml", "--base-ref", "HEAD", "-f", "b.yaml"}, "cannot be used together"},
		{"no head", []string{"diff", "--base", "testdata/diff/takeover/base.yaml"}, "give the changed manifests with -f"},
		{"a base that does not exist", []string{"diff", "--base", "testdata/diff/nothing.yaml", "-f", "testdata/diff/takeover/head.yaml"}, "testdata/diff/nothing.yaml"},
		{"a revision that does not exist", []string{"diff", "--base-ref", "no-such-ref-gwtls", "-f", "testdata/diff/takeover/head.yaml"}, "--base-ref no-such-ref-gwtls: no such revision"},
		{"a head that does not decode", []string{"diff", "--base", "testdata/diff/takeover/base.yaml", "-f", bad}, bad + ":4: malformed YAML"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := gwtls(t, "", nil, tc.args...)
			if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d, want 2 naming %q\n%s", r.code, tc.want, r.stderr)
			}
			noStackTrace(t, r)
		})
	}
}

// Same inputs, same bytes: a large diff (1k routes against a changed copy),
// whose sides are loaded and analyzed concurrently, in every format.
func TestDiffDeterministic(t *testing.T) {
	dir := t.TempDir()
	data, err := generate.Bytes(generate.Sizes[0].Config)
	if err != nil {
		t.Fatal(err)
	}
	base, head := filepath.Join(dir, "base.yaml"), filepath.Join(dir, "head.yaml")
	if err := os.WriteFile(base, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(head, generate.Mutated(data), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"table", "json", "markdown", "github"} {
		args := []string{"diff", "--base", base, "-f", head, "--now", diffNow, "-o", format}
		first := gwtls(t, "", nil, args...)
		if first.code != 1 {
			t.Fatalf("-o %s: exit %d, want 1 (the change removes routes)\n%s", format, first.code, first.stderr)
		}
		for range 2 {
			if again := gwtls(t, "", nil, args...); again.stdout != first.stdout {
				t.Fatalf("-o %s: two runs on the same inputs differ", format)
			}
		}
	}
}

// gitRepo makes a throwaway repository whose deploy/ holds the base at its
// only commit and the head in the working tree.
func gitRepo(t *testing.T, base, head string) string {
	t.Helper()
	dir := t.TempDir()
	copyFile := func(src string) {
		data, err := os.ReadFile(filepath.Join("..", src))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, "deploy"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "deploy", "gateway-api.yaml"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=gwtls test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	copyFile(base)
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	git("update-ref", "refs/remotes/origin/main", "HEAD")
	copyFile(head)
	return dir
}

// runIn runs the built binary in a folder with environment variables set.
func runIn(t *testing.T, dir string, env []string, script string) result {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "PATH="+filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH")), env...)
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

// diff --base-ref reads the -f paths at the revision with git, and says the
// same as --base given the same files.
func TestDiffBaseRef(t *testing.T) {
	repo := gitRepo(t, "testdata/diff/takeover/base.yaml", "testdata/diff/takeover/head.yaml")
	r := runIn(t, repo, nil, "kubectl-gwtls diff --base-ref origin/main -f deploy/ -o json --now "+diffNow)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (a takeover)\n%s", r.code, r.stderr)
	}
	var rep struct {
		Base    struct{ From, Ref, Commit string }
		Summary struct {
			Kinds map[string]int
		}
		Hostnames []struct {
			Changes []struct {
				Kind   string
				Source struct {
					File string
					Line int
				}
				Side string
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.stdout)
	}
	if rep.Base.From != "git" || rep.Base.Ref != "origin/main" || len(rep.Base.Commit) != 40 {
		t.Errorf("base %+v, want git origin/main at a commit", rep.Base)
	}
	if rep.Summary.Kinds["Takeover"] != 2 {
		t.Errorf("kinds %v, want 2 takeovers", rep.Summary.Kinds)
	}
	takeover := rep.Hostnames[0].Changes[0]
	if takeover.Kind != "Takeover" || takeover.Source.File != "deploy/gateway-api.yaml" || takeover.Side != "head" {
		t.Errorf("first change %+v, want the takeover at deploy/gateway-api.yaml in head", takeover)
	}

	// The same comparison with the base given as a file: the same changes.
	baseFile := filepath.Join(t.TempDir(), "base.yaml")
	data, _ := os.ReadFile("../testdata/diff/takeover/base.yaml")
	if err := os.WriteFile(baseFile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	files := runIn(t, repo, nil, "kubectl-gwtls diff --base "+baseFile+" -f deploy/ -o json --now "+diffNow)
	var fromFiles struct {
		Summary struct{ Kinds map[string]int }
	}
	if err := json.Unmarshal([]byte(files.stdout), &fromFiles); err != nil {
		t.Fatal(err)
	}
	if b1, _ := json.Marshal(rep.Summary.Kinds); string(b1) != mustJSON(t, fromFiles.Summary.Kinds) {
		t.Errorf("--base-ref found %s, --base %s", b1, mustJSON(t, fromFiles.Summary.Kinds))
	}

	// --crds holds the revision's objects to the same CRDs as head's.
	crds, err := filepath.Abs("../" + v170Standard)
	if err != nil {
		t.Fatal(err)
	}
	held := runIn(t, repo, nil, "kubectl-gwtls diff --base-ref origin/main -f deploy/ -o json --now "+diffNow+" --crds "+crds)
	var sides struct {
		Base, Head struct{ Admission struct{ CRDs string } }
	}
	if err := json.Unmarshal([]byte(held.stdout), &sides); err != nil {
		t.Fatalf("--crds: not JSON: %v\n%s%s", err, held.stdout, held.stderr)
	}
	if want := "Gateway API v1.7.0 standard channel, from " + crds; sides.Base.Admission.CRDs != want || sides.Head.Admission.CRDs != want {
		t.Errorf("--base-ref with --crds: base held to %q, head to %q; want both %q", sides.Base.Admission.CRDs, sides.Head.Admission.CRDs, want)
	}
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The GitHub Actions example's diff job, run as the runner would in a
// repository whose pull request adds a takeover: the comment it posts and the
// annotations that gate it.
func TestGitHubActionsDiffExample(t *testing.T) {
	data, err := os.ReadFile("../examples/ci/github-actions.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			If          string
			Permissions map[string]string
			Env         map[string]string
			Steps       []struct {
				Name, Uses, Run string
				With            map[string]any
				Env             map[string]string
			}
		}
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatalf("workflow is not YAML: %v", err)
	}
	job, ok := wf.Jobs["diff"]
	if !ok {
		t.Fatal("the workflow has no diff job")
	}
	if !strings.Contains(job.If, "pull_request") || job.Permissions["pull-requests"] != "write" {
		t.Errorf("diff job: if %q, permissions %v; want pull requests only, with pull-requests: write to comment", job.If, job.Permissions)
	}
	repo := gitRepo(t, "testdata/diff/takeover/base.yaml", "testdata/diff/takeover/head.yaml")
	env := []string{"BASE=origin/main", "SOURCE_URL=https://github.com/OWNER/REPO/blob/SHA"}
	var comment string
	var sawComment, sawAnnotations, sawPost bool
	for _, s := range job.Steps {
		if s.Uses == "actions/checkout@v4" && s.With["fetch-depth"] != float64(0) && s.With["fetch-depth"] != 0 {
			t.Errorf("checkout fetch-depth %v: --base-ref needs the target branch's history (0)", s.With["fetch-depth"])
		}
		switch {
		case strings.HasPrefix(s.Run, "kubectl-gwtls diff") && strings.Contains(s.Run, "-o markdown"):
			sawComment = true
			r := runIn(t, repo, env, s.Run+" --now "+diffNow)
			if r.code != 1 {
				t.Errorf("%s: exit %d, want 1\n%s", s.Run, r.code, r.stderr)
			}
			out, err := os.ReadFile(filepath.Join(repo, "diff.md"))
			if err != nil {
				t.Fatalf("the comment step writes no diff.md: %v", err)
			}
			comment = string(out)
		case strings.HasPrefix(s.Run, "kubectl-gwtls diff") && strings.Contains(s.Run, "-o github"):
			sawAnnotations = true
			r := runIn(t, repo, env, s.Run+" --now "+diffNow)
			if r.code != 1 || !strings.Contains(r.stdout, "::error file=deploy/gateway-api.yaml,line=") || !strings.Contains(r.stdout, "title=gwtls diff%3A Takeover") {
				t.Errorf("%s: exit %d, want 1 with an error annotation on the takeover:\n%s%s", s.Run, r.code, r.stdout, r.stderr)
			}
		case strings.HasPrefix(s.Run, "gh pr comment"):
			sawPost = true
			if !strings.Contains(s.Run, "--body-file diff.md") {
				t.Errorf("the comment step posts %q, not diff.md", s.Run)
			}
		}
	}
	if !sawComment || !sawAnnotations || !sawPost {
		t.Fatalf("diff job lacks a step: comment %v, annotations %v, post %v", sawComment, sawAnnotations, sawPost)
	}
	for _, want := range []string{"## kubectl-gwtls diff: ❌", "[!CAUTION]", "(https://github.com/OWNER/REPO/blob/SHA/deploy/gateway-api.yaml#L", "<details>"} {
		if !strings.Contains(comment, want) {
			t.Errorf("the comment lacks %q:\n%s", want, comment)
		}
	}
}
