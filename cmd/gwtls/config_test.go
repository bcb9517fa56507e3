package gwtls

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// writeFile writes a file, making its folders.
func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// orphanRoute fires route/NoParentRefs (a warning) and nothing else.
const orphanRoute = `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: orphan
  namespace: apps
spec:
  hostnames: [orphan.example.com]
`

// The nearest .gwtls.yaml from the working directory up is read, and names
// itself in errors as the user can find it; --config names another;
// --config=” reads none.
func TestConfigDiscovery(t *testing.T) {
	root := t.TempDir()
	manifest := filepath.Join(root, "deploy", "routes.yaml")
	writeFile(t, manifest, orphanRoute)
	writeFile(t, filepath.Join(root, ".gwtls.yaml"), "failOn: warning\n")
	t.Chdir(filepath.Join(root, "deploy"))

	if _, stderr, code := run(t, "", "analyze", "-f", manifest); code != ExitFindings {
		t.Errorf("failOn: warning from ../.gwtls.yaml: exit %d, want %d\n%s", code, ExitFindings, stderr)
	}
	if _, stderr, code := run(t, "", "analyze", "-f", manifest, "--config="); code != ExitClean {
		t.Errorf("--config='' reads no file: exit %d, want %d\n%s", code, ExitClean, stderr)
	}
	if _, stderr, code := run(t, "", "analyze", "-f", manifest, "--fail-on", "error"); code != ExitClean {
		t.Errorf("--fail-on error wins over the file: exit %d, want %d\n%s", code, ExitClean, stderr)
	}
	other := filepath.Join(root, "other.yaml")
	writeFile(t, other, "rules:\n  route/NoParentRefs: off\nfailOn: info\n")
	if out, stderr, code := run(t, "", "analyze", "-f", manifest, "--config", other); code != ExitClean || strings.Contains(out, "NoParentRefs") {
		t.Errorf("--config FILE replaces the nearest file: exit %d\n%s%s", code, out, stderr)
	}

	// A nearer file wins, and its mistakes name it as ../.gwtls.yaml would be
	// found: relative to the working directory, with the line.
	writeFile(t, filepath.Join(root, "deploy", ".gwtls.yaml"), "rules:\n  route/NoParentRef: off\n")
	_, stderr, code := run(t, "", "analyze", "-f", manifest)
	if code != ExitError || !strings.Contains(stderr, `.gwtls.yaml:2: rules: no rule matches "route/NoParentRef" (did you mean route/NoParentRefs?)`) || strings.Contains(stderr, root) {
		t.Errorf("exit %d, want %d naming .gwtls.yaml:2 and the closest rule\n%s", code, ExitError, stderr)
	}
}

// Every command that reads input reads the configuration file: a mistake in
// it stops each of them with the file and line.
func TestEveryInputCommandReadsTheConfiguration(t *testing.T) {
	t.Chdir("../..")
	bad := "testdata/triage/bad-unknown-key.gwtls.yaml"
	in := "testdata/golden/route-no-parent-refs.yaml"
	for _, args := range [][]string{
		{"analyze"},
		{"explain", "httproute/orphan", "-n", "apps"},
		{"simulate", "--all"},
		{"probe", "--sni", "app.example.com"},
		{"render", "status"},
		{"render", "plan"},
		{"render", "graph"},
		{"render", "report"},
	} {
		full := append(append(args, "-f", in, "--config", bad), "--now", goldenNow)
		_, stderr, code := run(t, "", full...)
		if code != ExitError || !strings.Contains(stderr, bad+`:4: unknown key "fail-on" (did you mean "failOn"?)`) {
			t.Errorf("%s: exit %d, want %d naming %s:4\n%s", strings.Join(args, " "), code, ExitError, bad, stderr)
		}
	}
}

// Each key of the file gives its flag's default, and the flag wins when set.
func TestConfigPrecedence(t *testing.T) {
	t.Chdir("../..")
	dir := t.TempDir()
	for i, tc := range []struct {
		name, config string
		args         []string
		has, lacks   string
	}{
		{"controller from the file: no class is in scope", "controller: example.com/other-controller\n",
			[]string{"render", "status", "-f", "testdata/golden/listener-certificate-missing-secret.yaml"}, "", "controllerName: example.com/gateway-controller"},
		{"--controller wins", "controller: example.com/other-controller\n",
			[]string{"render", "status", "-f", "testdata/golden/listener-certificate-missing-secret.yaml", "--controller", "example.com/gateway-controller"}, "controllerName: example.com/gateway-controller", ""},
		{"external from the file", "external: [Service]\n",
			[]string{"analyze", "-f", "testdata/golden/route-backend-unresolved.yaml", "-o", "json"}, "reference/External", "route/ResolvedRefs/BackendNotFound"},
		{"--external wins", "external: [Service]\n",
			[]string{"analyze", "-f", "testdata/golden/route-backend-unresolved.yaml", "-o", "json", "--external", "Secret"}, "route/ResolvedRefs/BackendNotFound", ""},
		{"warnExpiry from the file", "warnExpiry: 1h\n",
			[]string{"analyze", "-f", "testdata/golden/certificate-problems.yaml", "-o", "json"}, "", "certificate/ExpiresSoon"},
		{"--warn-expiry wins", "warnExpiry: 1h\n",
			[]string{"analyze", "-f", "testdata/golden/certificate-problems.yaml", "-o", "json", "--warn-expiry", "720h"}, "certificate/ExpiresSoon", ""},
		{"supportedFeatures from the file: TLSRoute unsupported", "supportedFeatures: [HTTPRoute]\n",
			[]string{"render", "status", "-f", "testdata/golden/tlsroute-api-versions.yaml"}, "supportedKinds: []", ""},
		{"--supported-features wins", "supportedFeatures: [HTTPRoute]\n",
			[]string{"render", "status", "-f", "testdata/golden/tlsroute-api-versions.yaml", "--supported-features", "TLSRoute"}, "", "supportedKinds: []"},
		{"rules from the file", "rules:\n  route/*: info\n",
			[]string{"analyze", "-f", "testdata/golden/route-backend-unresolved.yaml", "-o", "json"}, `"severity":"info"`, `"severity":"error"`},
	} {
		cfg := filepath.Join(dir, strconv.Itoa(i)+".gwtls.yaml")
		writeFile(t, cfg, tc.config)
		args := append(append([]string{}, tc.args...), "--config", cfg, "--now", goldenNow)
		out, stderr, code := run(t, "", args...)
		if code == ExitError || (tc.has != "" && !strings.Contains(out, tc.has)) || (tc.lacks != "" && strings.Contains(out, tc.lacks)) {
			t.Errorf("%s: exit %d; want %q in the output and not %q\n%s", tc.name, code, tc.has, tc.lacks, stderr)
		}
	}
}

// A baseline named by the configuration is read relative to it; the first
// --write-baseline creates it, and later runs report only what is new.
func TestBaselineFromConfiguration(t *testing.T) {
	root := t.TempDir()
	manifest := filepath.Join(root, "deploy", "routes.yaml")
	writeFile(t, manifest, orphanRoute)
	writeFile(t, filepath.Join(root, ".gwtls.yaml"), "baseline: gwtls-baseline.json\nfailOn: warning\n")
	t.Chdir(filepath.Join(root, "deploy"))

	if _, stderr, code := run(t, "", "analyze", "-f", manifest); code != ExitError || !strings.Contains(stderr, "gwtls-baseline.json") {
		t.Errorf("a configured baseline that does not exist: exit %d, want %d naming it\n%s", code, ExitError, stderr)
	}
	_, stderr, code := run(t, "", "analyze", "-f", manifest, "--write-baseline", "../gwtls-baseline.json")
	if code != ExitClean || !strings.Contains(stderr, "wrote baseline ../gwtls-baseline.json: 1 findings") {
		t.Fatalf("--write-baseline: exit %d\n%s", code, stderr)
	}
	out, stderr, code := run(t, "", "analyze", "-f", manifest)
	if code != ExitClean || !strings.Contains(out, "baseline ../gwtls-baseline.json: 0 new, 1 known") {
		t.Errorf("with the configured baseline: exit %d\n%s%s", code, out, stderr)
	}
	writeFile(t, manifest, orphanRoute+"---\n"+strings.ReplaceAll(orphanRoute, "orphan", "second"))
	if out, _, code := run(t, "", "analyze", "-f", manifest); code != ExitFindings || !strings.Contains(out, "HTTPRoute/apps/second") || strings.Contains(out, "HTTPRoute/apps/orphan ") {
		t.Errorf("a new finding: exit %d\n%s", code, out)
	}
}
