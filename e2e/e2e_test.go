// Package e2e runs the built kubectl-gwtls binary the way users and CI do.
package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gwtls-e2e")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "kubectl-gwtls")
	build := exec.Command("go", "build", "-o", binary, "../cmd/kubectl-gwtls")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		panic("building kubectl-gwtls: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type result struct {
	stdout, stderr string
	code           int
}

func gwtls(t *testing.T, stdin string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
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

// The README's first command: analyze the shipped example. It has three real
// problems, so it exits 1 and names each with its rule, place and fix.
func TestAnalyzeExample(t *testing.T) {
	r := gwtls(t, "", nil, "analyze", "-f", "testdata/examples/shop")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (findings)\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"route/Accepted/NoMatchingParent", "testdata/examples/shop/routes.yaml:20",
		"route/Accepted/NoMatchingListenerHostname", "route/ResolvedRefs/RefNotPermitted",
		"3 errors",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "\x1b[") {
		t.Errorf("ANSI escapes in output that is not a terminal:\n%q", r.stdout)
	}
	again := gwtls(t, "", nil, "analyze", "-f", "testdata/examples/shop")
	if again.stdout != r.stdout {
		t.Error("same input gave different output")
	}
}

func TestAnalyzeJSONSchemaAndExitCodes(t *testing.T) {
	r := gwtls(t, "", nil, "analyze", "-f", "testdata/examples/shop", "-o", "json")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 in every format", r.code)
	}
	var report struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Summary    struct{ Errors, Objects int }
		Findings   []struct {
			Rule, Severity, Message, Fix string
			Source                       struct {
				File string
				Line int
			}
		}
		Listeners []struct {
			Name   string
			Routes []struct{ Hostnames []string }
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &report); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.stdout)
	}
	if report.APIVersion != "gwtls.kubectl.dev/v1" || report.Kind != "Report" || report.Summary.Errors != 3 {
		t.Errorf("report header: %+v", report)
	}
	for _, f := range report.Findings {
		if f.Source.File == "" || f.Source.Line == 0 || f.Fix == "" || f.Severity == "" {
			t.Errorf("finding without place, severity or fix: %+v", f)
		}
	}
	// --fail-on none turns findings into exit 0; usage errors are 2.
	if r := gwtls(t, "", nil, "analyze", "-f", "testdata/examples/shop", "--fail-on", "none"); r.code != 0 {
		t.Errorf("--fail-on none: exit %d", r.code)
	}
	if r := gwtls(t, "", nil, "analyze", "-f", "testdata/examples/shop", "-o", "bogus"); r.code != 2 || !strings.Contains(r.stderr, "--output") {
		t.Errorf("bad -o: exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestRenderStatusFromStdin(t *testing.T) {
	data, err := os.ReadFile("../testdata/examples/shop/gateway.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := gwtls(t, string(data), nil, "render", "status", "-f", "-", "-o", "json", "--now", "2026-01-01T00:00:00Z")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var list struct {
		APIVersion, Kind string
		Items            []struct {
			Kind   string
			Status struct {
				Conditions []struct{ Type, Status, Reason, LastTransitionTime string }
				Listeners  []struct{ Name string }
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil {
		t.Fatal(err)
	}
	if list.APIVersion != "v1" || list.Kind != "List" || len(list.Items) != 1 {
		t.Fatalf("want a v1 List with the one Gateway, got %+v", list)
	}
	gw := list.Items[0]
	if len(gw.Status.Listeners) != 3 || gw.Status.Conditions[0].Type != "Accepted" || gw.Status.Conditions[0].Status != "True" {
		t.Errorf("gateway status: %+v", gw.Status)
	}
	if gw.Status.Conditions[0].LastTransitionTime != "2026-01-01T00:00:00Z" {
		t.Errorf("--now not used for lastTransitionTime: %+v", gw.Status.Conditions[0])
	}
	if strings.Contains(r.stdout, "tls.key") || strings.Contains(r.stdout, "PRIVATE KEY") {
		t.Error("Secret data in output")
	}
}

// Bad input is exit 2 with file:line and never a stack trace.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	doc := "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ok\n---\napiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: x\nspec:\n  listeners:\n  - port: [80\n"
	if err := os.WriteFile(bad, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	r := gwtls(t, "", nil, "analyze", "-f", bad)
	if r.code != 2 {
		t.Fatalf("exit %d, want 2", r.code)
	}
	if !strings.Contains(r.stderr, bad+":12:") || strings.Contains(r.stderr, "goroutine") {
		t.Errorf("want an error at %s:12, the unclosed bracket, without a stack trace, got %q", bad, r.stderr)
	}
	if r := gwtls(t, "", nil, "analyze", "-f", filepath.Join(dir, "missing.yaml")); r.code != 2 || !strings.Contains(r.stderr, "no such file") {
		t.Errorf("missing file: exit %d, %q", r.code, r.stderr)
	}
}

func TestColorFlag(t *testing.T) {
	always := gwtls(t, "", nil, "analyze", "-f", "testdata/examples/shop", "--color", "always")
	if !strings.Contains(always.stdout, "\x1b[") {
		t.Error("--color always printed no ANSI escapes")
	}
	noColor := gwtls(t, "", []string{"NO_COLOR=1"}, "analyze", "-f", "testdata/examples/shop")
	if strings.Contains(noColor.stdout, "\x1b[") {
		t.Error("NO_COLOR ignored")
	}
}

// explain secret/NAME shows the certificate as `step certificate inspect --short`
// does, the names it is served for and the listeners serving it, and no key.
func TestExplainSecret(t *testing.T) {
	r := gwtls(t, "", nil, "explain", "secret/shop-wildcard", "-n", "infra", "-f", "testdata/examples/shop", "--now", "2026-01-01T00:00:00Z")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"X.509v3 TLS Certificate (ECDSA P-256)", "*.shop.example.com", "www.shop.example.com is covered", "Gateway infra/edge listener https"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "PRIVATE") {
		t.Error("key material in output")
	}
	expired := gwtls(t, "", nil, "explain", "secret/shop-wildcard", "-n", "infra", "-f", "testdata/examples/shop", "--now", "2037-01-01T00:00:00Z")
	if !strings.Contains(expired.stdout, "certificate/Expired") {
		t.Errorf("--now after notAfter should report expiry:\n%s", expired.stdout)
	}
}
