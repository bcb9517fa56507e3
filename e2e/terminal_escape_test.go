package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testcert"
)

// hostile is what the manifests and the server's certificate carry: an SGR
// sequence that would turn the terminal red and a newline that would forge a
// row. escaped is how every terminal output must show it.
const (
	hostile = "\x1b[31m\n"
	escaped = `\x1b[31m\n`
	// folder is the manifests' folder as the output shows it.
	folder = `in\x1b[31mput`
)

// hostileManifests is a Gateway whose listener names carry the hostile bytes
// (the loader keeps them; admission would refuse them): h... serves
// www.example.com with the Secret's certificate, t... is HTTPS without tls, so
// findings name it. A base without the listeners lets diff show them. The
// folder's name carries the ESC sequence too (a newline in a -f path is cut
// by the flag's parser), so every source shows it.
func hostileManifests(t *testing.T) (dir string, ca *testcert.Cert) {
	ca = testcert.Must(testcert.Options{CommonName: "escape e2e CA", IsCA: true}, nil)
	leaf := testcert.Must(testcert.Options{CommonName: "www.example.com", DNSNames: []string{"www.example.com"}}, ca)
	dir = filepath.Join(t.TempDir(), "in\x1b[31mput")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	gateway := func(listeners string) string {
		return strings.Join([]string{`apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gc}
spec: {controllerName: example.com/gc}`, `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: default}
spec:
  gatewayClassName: gc
  listeners:` + listeners, `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: default}
spec:
  parentRefs: [{name: edge}]
  hostnames: [www.example.com]
  rules: [{backendRefs: [{name: shop, port: 8080}]}]`,
			"apiVersion: v1\nkind: Service\nmetadata: {name: shop, namespace: default}\nspec: {ports: [{port: 8080}]}",
			testcert.SecretYAML("default", "shop-cert", []*testcert.Cert{leaf, ca})}, "\n---\n")
	}
	head := gateway(`
  - {name: "h\e[31m\nx", port: 443, protocol: HTTPS, hostname: "*.example.com", tls: {certificateRefs: [{name: shop-cert}]}}
  - {name: "t\e[31m\ny", port: 8443, protocol: HTTPS}`)
	base := gateway(`
  - {name: web, port: 443, protocol: HTTPS, hostname: "*.example.com", tls: {certificateRefs: [{name: shop-cert}]}}`)
	for name, text := range map[string]string{"gw.yaml": head, "base.yaml": base} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir, ca
}

// TestTerminalOutputEscapesControls: names, paths and a server's certificate
// reach the terminal through every command; what a terminal would obey (an ESC
// sequence, a newline) is shown escaped, never written raw.
func TestTerminalOutputEscapesControls(t *testing.T) {
	dir, ca := hostileManifests(t)
	gw := filepath.Join(dir, "gw.yaml")
	// The live data plane presents a certificate whose subject carries them too.
	evil := testcert.Must(testcert.Options{CommonName: "www" + hostile + "evil", DNSNames: []string{"www.example.com"}}, ca)
	addr := dataPlane(t, map[string]*testcert.Cert{"www.example.com": evil}, ca)

	// Listener names that carry controls are refused by the Gateway CRD's
	// pattern; the views that show a listener read them as written.
	asWritten := "--admission=false"
	for _, tc := range []struct {
		name string
		args []string
		// shows is the escaped text the output must carry.
		shows []string
	}{
		{"analyze table", []string{"analyze", "-f", gw, "--color", "never"}, []string{folder}},
		{"analyze wide", []string{"analyze", "-f", gw, asWritten, "-o", "wide", "--color", "never"}, []string{folder, "listener t" + escaped + "y"}},
		{"explain", []string{"explain", "gateway/edge", "-n", "default", "-f", gw, asWritten, "--color", "never"}, []string{folder, "listener h" + escaped + "x"}},
		{"simulate", []string{"simulate", "--all", "-f", gw, asWritten, "--color", "never"}, []string{"h" + escaped + "x"}},
		{"render plan", []string{"render", "plan", "-f", gw, asWritten, "--color", "never"}, []string{"h" + escaped + "x"}},
		{"render graph", []string{"render", "graph", "-f", gw, asWritten}, []string{`h\\x1b[31m\\nx`}},
		{"render graph mermaid", []string{"render", "graph", "-f", gw, asWritten, "-o", "mermaid"}, []string{`h\x1b#91;31m\nx`}},
		{"probe", []string{"probe", "-f", gw, asWritten, "--target", addr}, []string{"h" + escaped + "x", "www" + escaped + "evil"}},
		{"diff", []string{"diff", "--base", filepath.Join(dir, "base.yaml"), "-f", gw, "--color", "never"}, []string{folder, "h" + escaped + "x"}},
		{"rules", []string{"rules", "listener/" + hostile, "--color", "never"}, nil},
		{"analyze -o github, read in the Actions log", []string{"analyze", "-f", gw, "-o", "github"}, []string{folder}},
		{"render report, read before it is posted", []string{"render", "report", "-f", gw}, []string{`t\x1b[31m`}},
		{"diff -o github", []string{"diff", "--base", filepath.Join(dir, "base.yaml"), "-f", gw, "-o", "github"}, []string{folder}},
		{"diff -o markdown", []string{"diff", "--base", filepath.Join(dir, "base.yaml"), "-f", gw, "-o", "markdown"}, []string{`h\x1b[31m`}},
		{"an error naming a path", []string{"analyze", "-f", filepath.Join(dir, "missing.yaml")}, []string{folder + "/missing.yaml"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := gwtls(t, "", nil, tc.args...)
			noStackTrace(t, r)
			out := r.stdout + r.stderr
			if strings.Contains(out, "\x1b") {
				t.Errorf("exit %d: output carries a raw ESC:\n%q", r.code, out)
			}
			if strings.Contains(out, "\x1b[31m\n") || strings.Contains(out, "h\nx") || strings.Contains(out, "t\ny") {
				t.Errorf("exit %d: output breaks a line the input gave:\n%s", r.code, out)
			}
			for _, want := range tc.shows {
				if !strings.Contains(out, want) {
					t.Errorf("exit %d: output does not show %s:\n%s", r.code, want, out)
				}
			}
		})
	}
}
