package gwtls

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/fakecluster"
)

// TestMigrationFromCluster: with no --base, --from-ingress reads the
// cluster's Ingresses and IngressClasses as the base and compares them with
// the cluster as the Gateway API files would leave it, also when the cluster
// does not serve Gateway API yet (the usual state before a migration).
func TestMigrationFromCluster(t *testing.T) {
	const (
		class   = `{"metadata":{"name":"nginx"},"spec":{"controller":"k8s.io/ingress-nginx"}}`
		ing     = `{"metadata":{"name":"shop","namespace":"shop"},"spec":{"ingressClassName":"nginx","rules":[{"host":"app.example.com","http":{"paths":[{"path":"/","pathType":"Prefix","backend":{"service":{"name":"web","port":{"number":80}}}}]}}]}}`
		service = `{"metadata":{"name":"web","namespace":"shop"},"spec":{"ports":[{"name":"http","port":80}]}}`
	)
	head := filepath.Join(t.TempDir(), "gateway.yaml")
	const gatewayYAML = `apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: gwtls
spec:
  controllerName: example.com/gateway-controller
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
  namespace: shop
spec:
  gatewayClassName: gwtls
  listeners:
  - name: http
    port: 80
    protocol: HTTP
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: shop
  namespace: shop
spec:
  parentRefs:
  - name: gw
  hostnames: [app.example.com]
  rules:
  - matches:
    - path: {type: PathPrefix, value: /}
    backendRefs:
    - name: web
      port: 80
`
	if err := os.WriteFile(head, []byte(gatewayYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	handlers := map[string]http.HandlerFunc{
		"ingressclasses": fakecluster.Items(class),
		"ingresses":      fakecluster.Items(ing),
		"services":       fakecluster.Items(service),
	}
	for _, tc := range []struct {
		name       string
		gatewayAPI bool
	}{
		{"the cluster serves Gateway API", true},
		{"the cluster does not serve Gateway API yet", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := map[string]http.HandlerFunc{}
			for k, v := range handlers {
				h[k] = v
			}
			if !tc.gatewayAPI {
				h["/apis"] = func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "application/json")
					_, _ = w.Write([]byte(`{"kind":"APIGroupList","apiVersion":"v1","groups":[{"name":"networking.k8s.io","versions":[{"groupVersion":"networking.k8s.io/v1","version":"v1"}],"preferredVersion":{"groupVersion":"networking.k8s.io/v1","version":"v1"}}]}`))
				}
			}
			kubeconfig := fakecluster.New(t, h).Kubeconfig(t, t.TempDir())
			out, errOut, code := run(t, "", "diff", "--from-ingress", "-f", head, "-A", "--kubeconfig", kubeconfig, "--now", goldenNow, "--color", "never")
			if code != ExitClean || !strings.Contains(out, "Ingress migration: every host and path is served the same way (1 Ingress, 1 host, 1 path") {
				t.Errorf("exit %d\n%s%s", code, out, errOut)
			}
			// Without --from-ingress the cluster's Ingresses are not read:
			// nothing is compared, and a cluster without Gateway API is an
			// error, as for every command.
			out, errOut, code = run(t, "", "diff", "-f", head, "-A", "--kubeconfig", kubeconfig, "--now", goldenNow, "--color", "never")
			switch {
			case strings.Contains(out, "Ingress migration"):
				t.Errorf("without --from-ingress: compared the Ingresses\n%s", out)
			case tc.gatewayAPI && code == ExitError, !tc.gatewayAPI && (code != ExitError || !strings.Contains(errOut, "does not serve the Gateway API")):
				t.Errorf("without --from-ingress: exit %d\n%s%s", code, out, errOut)
			}
		})
	}
}

// An identity that may not list the cluster's Ingresses cannot run an
// Ingress migration: compared with no Ingress, any Gateway API configuration
// would pass. The run fails with what to grant, in every format, and prints
// no verdict.
func TestMigrationFromClusterIngressesForbidden(t *testing.T) {
	head := filepath.Join(t.TempDir(), "gateway.yaml")
	const gatewayYAML = `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
  namespace: shop
spec:
  gatewayClassName: gwtls
  listeners:
  - name: http
    port: 80
    protocol: HTTP
`
	if err := os.WriteFile(head, []byte(gatewayYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	kubeconfig := fakecluster.New(t, map[string]http.HandlerFunc{"ingresses": fakecluster.Forbidden}).Kubeconfig(t, t.TempDir())
	for _, format := range []string{"table", "json", "markdown", "github"} {
		out, errOut, code := run(t, "", "diff", "--from-ingress", "-f", head, "-A", "--kubeconfig", kubeconfig, "--now", goldenNow, "-o", format)
		if code != ExitError || out != "" || !strings.Contains(errOut, "could not be read in every namespace: forbidden: the identity may not list ingresses; grant") {
			t.Errorf("-o %s: exit %d\n%s%s", format, code, out, errOut)
		}
	}
	// Without --from-ingress nothing asks for the Ingresses.
	if out, errOut, code := run(t, "", "diff", "-f", head, "-A", "--kubeconfig", kubeconfig, "--now", goldenNow); code == ExitError {
		t.Errorf("without --from-ingress: exit %d\n%s%s", code, out, errOut)
	}

	// Ingresses without their IngressClasses: which controller serves each is
	// unknown, unless --ingress-controller names it.
	kubeconfig = fakecluster.New(t, map[string]http.HandlerFunc{"ingressclasses": fakecluster.Forbidden}).Kubeconfig(t, t.TempDir())
	out, errOut, code := run(t, "", "diff", "--from-ingress", "-f", head, "-A", "--kubeconfig", kubeconfig, "--now", goldenNow)
	if code != ExitError || out != "" || !strings.Contains(errOut, "IngressClasses to know which controller serves each Ingress, and they could not be read: forbidden") || !strings.Contains(errOut, "--ingress-controller") {
		t.Errorf("IngressClasses forbidden: exit %d\n%s%s", code, out, errOut)
	}
	if out, errOut, code := run(t, "", "diff", "--from-ingress", "--ingress-controller", "ingress-nginx", "-f", head, "-A", "--kubeconfig", kubeconfig, "--now", goldenNow); code == ExitError {
		t.Errorf("IngressClasses forbidden, --ingress-controller ingress-nginx: exit %d\n%s%s", code, out, errOut)
	}
}
