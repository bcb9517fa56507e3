package gwtls

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// kubeconfigIn writes a kubeconfig whose current context's namespace is ns.
func kubeconfigIn(t *testing.T, ns string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kubeconfig")
	cfg := `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {}}]
contexts: [{name: ctx, context: {cluster: c, user: u, namespace: ` + ns + `}}]
current-context: ctx
`
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestFileNamespaceIsTheContextNamespace: as kubectl does, objects in files that
// name no namespace are in the request's namespace (-n, else the kubeconfig
// context's), and explain's KIND/NAME is looked up in the same one.
func TestFileNamespaceIsTheContextNamespace(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "r.yaml")
	docs := `apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gc}
spec: {controllerName: example.com/gc}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw}
spec:
  gatewayClassName: gc
  listeners: [{name: http, port: 80, protocol: HTTP}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r}
spec:
  parentRefs: [{name: gw}]
`
	if err := os.WriteFile(manifest, []byte(docs), 0o600); err != nil {
		t.Fatal(err)
	}
	kubeconfig := kubeconfigIn(t, "apps")
	for _, c := range []struct {
		name  string
		flags []string
		want  string
	}{
		{"the kubeconfig context's namespace", []string{"--kubeconfig", kubeconfig}, "apps"},
		{"-n wins over the context's namespace", []string{"--kubeconfig", kubeconfig, "-n", "other"}, "other"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, stderr, code := run(t, "", append([]string{"explain", "httproute/r", "-f", manifest, "--now", goldenNow, "--color", "never"}, c.flags...)...)
			if code != ExitClean || !strings.Contains(out, "HTTPRoute "+c.want+"/r") {
				t.Errorf("explain httproute/r: exit %d, want 0 explaining HTTPRoute %s/r\n%s%s", code, c.want, out, stderr)
			}
			// The route has no backendRefs: simulate refuses it (exit 1), naming
			// the Gateway and route it reached.
			out, stderr, code = run(t, "", append([]string{"simulate", "--all", "-f", manifest, "--now", goldenNow, "-o", "json"}, c.flags...)...)
			if code != ExitFindings || !strings.Contains(out, `"gateway": "`+c.want+`/gw"`) || !strings.Contains(out, "route "+c.want+"/r has no backendRefs") {
				t.Errorf("simulate --all: exit %d, want the Gateway and route in %s\n%s%s", code, c.want, out, stderr)
			}
		})
	}
}
