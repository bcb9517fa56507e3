package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The built binary on an Ingress migration, as a team migrating runs it:
// `diff --base ingress/ -f gateway/` lists every host and path that would
// break, with the Ingress's file:line and the Gateway API object's, and exits
// 1; a faithful translation gets the explicit verdict and exits 0.
func TestMigrationBinary(t *testing.T) {
	// The converter's own ssl-redirect pair: it redirects to an HTTPS
	// listener no route serves.
	r := gwtls(t, "", nil, "diff", "--base", "testdata/ingress2gateway/nginx/input/nginx-ssl-redirect.yaml", "--base", "testdata/ingress2gateway/cluster.yaml",
		"-f", "testdata/ingress2gateway/nginx/output/nginx-ssl-redirect.yaml", "-f", "testdata/ingress2gateway/cluster.yaml", "--now", diffNow, "--color", "never")
	noStackTrace(t, r)
	for _, want := range []string{
		"Ingress migration: 2 differences where a host or path is not served the same way",
		"migration/PathNotServed",
		"testdata/ingress2gateway/nginx/input/nginx-ssl-redirect.yaml:14 (base)", // the Ingress path "/"
		"testdata/ingress2gateway/nginx/output/nginx-ssl-redirect.yaml:26",       // the HTTPRoute
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("converter's ssl-redirect pair: no %q in\n%s", want, r.stdout)
		}
	}
	if r.code != 1 {
		t.Errorf("converter's ssl-redirect pair: exit %d, want 1\n%s", r.code, r.stderr)
	}

	same := diffCase(t, "migration-nginx-canary", "--color", "never")
	if same.code != 0 || !strings.Contains(same.stdout, "Ingress migration: every host and path is served the same way (2 Ingresses") {
		t.Errorf("a faithful translation: exit %d\n%s%s", same.code, same.stdout, same.stderr)
	}
	// --from-ingress=false compares the two sides as Gateway API
	// configurations only.
	if off := diffCase(t, "migration-nginx-canary-lost", "--from-ingress=false"); off.code != 0 || strings.Contains(off.stdout, "migration/") {
		t.Errorf("--from-ingress=false: exit %d\n%s%s", off.code, off.stdout, off.stderr)
	}
	if bad := diffCase(t, "migration-nginx-canary", "--ingress-controller", "traefik"); bad.code != 2 || !strings.Contains(bad.stderr, `--ingress-controller "traefik"`) {
		t.Errorf("--ingress-controller traefik: exit %d, stderr %q", bad.code, bad.stderr)
	}
}

// Same inputs, same bytes: every migration case and every converter pair,
// in every format, twice.
func TestMigrationDeterministic(t *testing.T) {
	cases, err := filepath.Glob("../testdata/diff/migration-*")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no migration cases (%v)", err)
	}
	var runs [][]string
	for _, c := range cases {
		dir := "testdata/diff/" + filepath.Base(c)
		runs = append(runs, []string{"--base", dir + "/base.yaml", "-f", dir + "/head.yaml"})
	}
	// The converter's outputs open with its warnings, which are not YAML
	// (cmd/gwtls's TestConverterPairs drops them the same way).
	pairs, _ := filepath.Glob("../testdata/ingress2gateway/nginx/input/*.yaml")
	out := t.TempDir()
	for _, in := range pairs {
		data, err := os.ReadFile(filepath.Join(filepath.Dir(in), "../output", filepath.Base(in)))
		if err != nil {
			t.Fatal(err)
		}
		var kept []string
		for _, line := range strings.SplitAfter(string(data), "\n") {
			if !strings.HasPrefix(line, "┌") && !strings.HasPrefix(line, "│") && !strings.HasPrefix(line, "└") {
				kept = append(kept, line)
			}
		}
		head := filepath.Join(out, filepath.Base(in))
		if err := os.WriteFile(head, []byte(strings.Join(kept, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, []string{"--base", strings.TrimPrefix(in, "../"), "--base", "testdata/ingress2gateway/cluster.yaml", "-f", head, "-f", "testdata/ingress2gateway/cluster.yaml"})
	}
	for _, args := range runs {
		for _, format := range []string{"table", "json", "markdown", "github"} {
			full := append([]string{"diff", "--now", diffNow, "--color", "never", "-o", format}, args...)
			first := gwtls(t, "", nil, full...)
			if first.code == 2 {
				t.Fatalf("%v: exit 2: %s", full, first.stderr)
			}
			if again := gwtls(t, "", nil, full...); again.stdout != first.stdout || again.code != first.code {
				t.Errorf("%v: two runs on the same inputs differ", full)
			}
		}
	}
}
