package gitrev_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/gitrev"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

func route(name, hostname string) string {
	return "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: " + name +
		"\n  namespace: apps\nspec:\n  hostnames:\n  - " + hostname + "\n"
}

// repo makes a git repository in a new folder with the files given, commits
// them and tags the commit v1; it returns the folder.
func repo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	write(t, dir, files)
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "v1")
	git(t, dir, "tag", "v1")
	return dir
}

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=gwtls test", "-c", "user.email=test@example.com",
		"-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// sources are the model's routes as NAME@FILE:LINE, sorted.
func sources(m *model.Model) []string {
	var out []string
	for _, r := range m.Routes {
		out = append(out, r.ObjectMeta.Name+"@"+r.Source.String())
	}
	sort.Strings(out)
	return out
}

func load(t *testing.T, o gitrev.Options) *model.Model {
	t.Helper()
	m, rev, err := gitrev.Load(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(rev.Commit) != 40 {
		t.Errorf("commit %q, want a full object name", rev.Commit)
	}
	return m
}

func TestLoadReadsTheRevisionNotTheWorkingTree(t *testing.T) {
	dir := repo(t, map[string]string{
		"deploy/routes.yaml":     route("a", "a.example.com") + "---\n" + route("b", "b.example.com"),
		"deploy/sub/nested.yaml": route("nested", "n.example.com"),
		"deploy/README.md":       "not a manifest",
		"other/elsewhere.yaml":   route("elsewhere", "e.example.com"),
	})
	// The working tree moves on: a route changes, a file is added, one removed.
	write(t, dir, map[string]string{"deploy/routes.yaml": route("a", "a.example.com"), "deploy/new.yaml": route("new", "new.example.com")})
	if err := os.Remove(filepath.Join(dir, "deploy/sub/nested.yaml")); err != nil {
		t.Fatal(err)
	}
	deploy := filepath.Join(dir, "deploy")

	for _, tc := range []struct {
		name      string
		paths     []string
		recursive bool
		want      []string
	}{
		{"a folder: its files at the revision, named as the working tree's", []string{deploy + "/"}, false,
			[]string{"a@" + deploy + "/routes.yaml:1", "b@" + deploy + "/routes.yaml:10"}},
		{"a folder with -R: its sub-folders too, though removed since", []string{deploy}, true,
			[]string{"a@" + deploy + "/routes.yaml:1", "b@" + deploy + "/routes.yaml:10", "nested@" + deploy + "/sub/nested.yaml:1"}},
		{"a file: named as given", []string{filepath.Join(deploy, "routes.yaml")}, false,
			[]string{"a@" + deploy + "/routes.yaml:1", "b@" + deploy + "/routes.yaml:10"}},
		{"a file that did not exist at the revision: nothing", []string{filepath.Join(deploy, "new.yaml")}, false, nil},
		{"several paths, in order", []string{filepath.Join(dir, "other"), filepath.Join(deploy, "routes.yaml")}, false,
			[]string{"a@" + deploy + "/routes.yaml:1", "b@" + deploy + "/routes.yaml:10", "elsewhere@" + dir + "/other/elsewhere.yaml:1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := load(t, gitrev.Options{Ref: "v1", Paths: tc.paths, Recursive: tc.recursive})
			if got := sources(m); strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("routes %q, want %q", got, tc.want)
			}
		})
	}
}

// In CI the paths are relative to the repository's root, where the job runs,
// and the base is a remote-tracking branch.
func TestLoadRelativePathsAndBranches(t *testing.T) {
	dir := repo(t, map[string]string{"deploy/routes.yaml": route("a", "a.example.com")})
	git(t, dir, "update-ref", "refs/remotes/origin/main", "HEAD")
	git(t, dir, "checkout", "-q", "-b", "feature")
	write(t, dir, map[string]string{"deploy/routes.yaml": route("changed", "c.example.com")})
	git(t, dir, "commit", "-q", "-am", "change")
	t.Chdir(filepath.Join(dir, "deploy"))
	m := load(t, gitrev.Options{Ref: "origin/main", Paths: []string{"."}})
	if got := sources(m); len(got) != 1 || got[0] != "a@routes.yaml:1" {
		t.Errorf("routes %q, want [a@routes.yaml:1]", got)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := repo(t, map[string]string{
		"deploy/bad.yaml":   "apiVersion: v1\nkind: Service\nmetadata: [not, a, map\n",
		"good/routes.yaml":  route("a", "a.example.com"),
		"links/inside.yaml": "",
	})
	outside := filepath.Join(t.TempDir(), "outside.yaml")
	if err := os.WriteFile(outside, []byte(route("x", "x.example.com")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "links/inside.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../good/routes.yaml", filepath.Join(dir, "links/inside.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "links/outside.yaml")); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "links")
	notRepo := t.TempDir()

	for _, tc := range []struct {
		name  string
		o     gitrev.Options
		want  []string // in the error
		avoid string   // never in the error
	}{
		{"a revision that does not exist names it", gitrev.Options{Ref: "no-such-branch", Paths: []string{filepath.Join(dir, "good")}},
			[]string{"no-such-branch", "no such revision"}, ""},
		{"a path outside any repository", gitrev.Options{Ref: "HEAD", Paths: []string{notRepo}}, []string{notRepo, "not in a git repository"}, ""},
		{"a manifest that does not decode names its file:line, not a temporary folder", gitrev.Options{Ref: "HEAD", Paths: []string{filepath.Join(dir, "deploy")}},
			[]string{filepath.Join(dir, "deploy", "bad.yaml") + ":"}, os.TempDir() + "/gwtls-base-"},
		{"a link out of the repository", gitrev.Options{Ref: "HEAD", Paths: []string{filepath.Join(dir, "links")}},
			[]string{"outside.yaml", "symbolic link"}, ""},
		{"files larger than the input bound are not read", gitrev.Options{Ref: "HEAD", Paths: []string{filepath.Join(dir, "good")}, MaxInputBytes: 16},
			[]string{"good/routes.yaml", "--max-input-bytes"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := gitrev.Load(context.Background(), tc.o)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if tc.avoid != "" && strings.Contains(err.Error(), tc.avoid) {
				t.Errorf("error %q names the temporary folder", err)
			}
		})
	}

	t.Run("a link inside the repository is followed", func(t *testing.T) {
		m := load(t, gitrev.Options{Ref: "HEAD", Paths: []string{filepath.Join(dir, "links", "inside.yaml")}})
		if got := sources(m); len(got) != 1 || got[0] != "a@"+filepath.Join(dir, "links", "inside.yaml")+":1" {
			t.Errorf("routes %q, want route a read through the link", got)
		}
	})
}
