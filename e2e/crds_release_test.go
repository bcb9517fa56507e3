package e2e

import (
	"strings"
	"testing"
)

// releaseInput holds an HTTPRoute with a retry policy, which Gateway API
// v1.7.0 moved to the standard channel (v1.6.3's standard CRDs do not know the
// field), and a Gateway with two listeners named http, which both releases
// refuse.
const releaseInput = `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: edge
  namespace: infra
spec:
  gatewayClassName: example
  listeners:
  - name: http
    port: 80
    protocol: HTTP
    allowedRoutes:
      namespaces:
        from: All
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: twice
  namespace: infra
spec:
  gatewayClassName: example
  listeners:
  - name: http
    port: 80
    protocol: HTTP
  - name: http
    port: 8080
    protocol: HTTP
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: retried
  namespace: apps
spec:
  parentRefs:
  - name: edge
    namespace: infra
  rules:
  - backendRefs:
    - name: web
      port: 80
    retry:
      attempts: 2
      codes: [503]
---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: apps
spec:
  ports:
  - port: 80
`

// v170Standard is Gateway API v1.7.0's config/crd/standard, as released: ten
// CRDs and a ValidatingAdmissionPolicy that --crds skips.
const v170Standard = "testdata/crds/gateway-api-v1.7.0/standard"

// TestCRDsOfANewerRelease: through the built binary, --crds with the CRDs of a
// release newer than the built-in one validates against them, and every view
// names them from their bundle-version and channel annotations; what the newer
// release changed shows (a field it moved to the standard channel is admitted
// by its CRDs and refused by v1.6.3's), and what both refuse is refused.
func TestCRDsOfANewerRelease(t *testing.T) {
	in := writeInput(t, releaseInput)
	retryLine := lineOf(t, releaseInput, "retry:", 1)

	rep, r := admitAnalyzeJSON(t, "-f", in, "--crds", v170Standard)
	if r.stderr != "" {
		t.Errorf("--crds %s: stderr %q; the ValidatingAdmissionPolicy beside the CRDs is not one, and is skipped", v170Standard, r.stderr)
	}
	if want := "Gateway API v1.7.0 standard channel, from " + v170Standard; rep.Admission.CRDs != want || rep.Admission.Refused != 1 {
		t.Errorf("--crds %s: admission %+v, want %q and 1 refused (Gateway twice)", v170Standard, rep.Admission, want)
	}
	for _, f := range rep.Findings {
		if strings.HasPrefix(f.Rule, "schema/") && f.Object.Name != "twice" {
			t.Errorf("--crds %s: %s on %s %s: %s; v1.7.0's standard channel admits it", v170Standard, f.Rule, f.Object.Kind, f.Object.Name, f.Message)
		}
	}
	if !hasFinding(rep, "schema/Invalid", "twice", "spec.listeners[1]") {
		t.Errorf("--crds %s: Gateway twice not refused: %+v", v170Standard, rep.Findings)
	}

	// The same input under v1.6.3's standard channel: retry is an unknown field.
	std163 := "admit/crds/v1.6.3/standard"
	old, _ := admitAnalyzeJSON(t, "-f", in, "--crds", std163)
	if old.Admission.Refused != 2 || !hasFinding(old, "schema/Invalid", "twice", "spec.listeners[1]") {
		t.Errorf("--crds %s: admission %+v, findings %+v; want Gateway twice and HTTPRoute retried refused", std163, old.Admission, old.Findings)
	}
	found := false
	for _, f := range old.Findings {
		if f.Rule == "schema/Invalid" && f.Object.Name == "retried" {
			found = true
			if f.Field != "spec.rules[0].retry" || f.Source.Line != retryLine || !strings.Contains(f.Message, "unknown field") {
				t.Errorf("--crds %s: %+v; want spec.rules[0].retry: unknown field at line %d", std163, f, retryLine)
			}
		}
	}
	if !found {
		t.Errorf("--crds %s: HTTPRoute retried admitted; v1.6.3's standard channel has no retry field", std163)
	}

	// Every view says which CRDs.
	header := "Gateway API v1.7.0 standard channel, from " + v170Standard + "; 1 object refused"
	for _, view := range []struct {
		args []string
		want string
	}{
		{[]string{"analyze", "--color", "never"}, "admission: " + header},
		{[]string{"analyze", "-o", "github"}, "::notice title=admission::" + header},
		{[]string{"explain", "httproute/retried", "-n", "apps", "--color", "never"}, "admission: " + header},
		{[]string{"simulate", "--all", "--color", "never"}, "admission: " + header},
		{[]string{"render", "status"}, "# admission: " + header},
		{[]string{"render", "report"}, "Admission: " + header + "."},
	} {
		r := gwtls(t, "", nil, append(view.args, "-f", in, "--crds", v170Standard)...)
		if !strings.Contains(r.stdout, view.want+"\n") {
			t.Errorf("%v: no line %q in\n%s%s", view.args, view.want, r.stdout, r.stderr)
		}
	}
}

func hasFinding(rep reportJSON, rule, name, field string) bool {
	for _, f := range rep.Findings {
		if f.Rule == rule && f.Object.Name == name && f.Field == field {
			return true
		}
	}
	return false
}
