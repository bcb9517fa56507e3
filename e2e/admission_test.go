package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// admissionInput holds the manifests the issue names as ones `kubectl apply`
// refuses (two listeners named http, a listener hostname "*", a Service
// backendRef without a port), one it admits though it looks alike (an HTTPS
// listener without tls: v1.6.3 has no rule against it, and a real API server
// admits it), and the objects that refer to a refused one.
const admissionInput = `apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: example
spec:
  controllerName: example.com/gateway
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: twice
  namespace: infra
spec:
  gatewayClassName: example
  allowedListeners:
    namespaces:
      from: All
  listeners:
  - name: http
    port: 80
    protocol: HTTP
  - name: http
    port: 8080
    protocol: HTTP
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: no-tls
  namespace: infra
spec:
  gatewayClassName: example
  listeners:
  - name: https
    port: 443
    protocol: HTTPS
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: star
  namespace: infra
spec:
  gatewayClassName: example
  listeners:
  - name: any
    port: 80
    protocol: HTTP
    hostname: "*"
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: no-port
  namespace: infra
spec:
  parentRefs:
  - name: no-tls
  rules:
  - backendRefs:
    - name: web
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: orphan
  namespace: infra
spec:
  parentRefs:
  - name: twice
  rules:
  - backendRefs:
    - name: web
      port: 80
---
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata:
  name: team
  namespace: infra
spec:
  parentRef:
    name: twice
  listeners:
  - name: extra
    port: 9080
    protocol: HTTP
---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: infra
spec:
  ports:
  - port: 80
`

type reportJSON struct {
	Admission struct {
		Enabled bool   `json:"enabled"`
		CRDs    string `json:"crds"`
		Refused int    `json:"refused"`
	} `json:"admission"`
	Findings []findingJSON `json:"findings"`
}

type findingJSON struct {
	Rule   string `json:"rule"`
	Object struct{ Kind, Namespace, Name string }
	Field  string `json:"field"`
	Source struct {
		File string `json:"file"`
		Line int    `json:"line"`
	} `json:"source"`
	Message string `json:"message"`
}

func writeInput(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "in.yaml")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func admitAnalyzeJSON(t *testing.T, args ...string) (reportJSON, result) {
	t.Helper()
	r := gwtls(t, "", nil, append([]string{"analyze", "-o", "json", "--now", "2026-01-01T00:00:00Z"}, args...)...)
	var rep reportJSON
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("analyze -o json: exit %d: %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	return rep, r
}

// TestAdmissionAtTheFieldsLine: through the built binary, what the API server
// refuses is a schema/Invalid error with its own field path and message at the
// line the field is written on; the refused object is left out of the
// analysis (and of render status), and what refers to it says why, with the
// refusal's file:line, at the line of the referring field; an HTTPS listener without tls is admitted and judged by
// the engine.
func TestAdmissionAtTheFieldsLine(t *testing.T) {
	in := writeInput(t, admissionInput)
	rep, r := admitAnalyzeJSON(t, "-f", in)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1", r.code)
	}
	if !rep.Admission.Enabled || rep.Admission.CRDs != "Gateway API v1.6.3 experimental channel, built in" || rep.Admission.Refused != 3 {
		t.Errorf("admission %+v, want the built-in CRDs and 3 objects refused", rep.Admission)
	}
	type finding struct {
		rule, object, field string
		line                int
		message             string
	}
	var got []finding
	for _, f := range rep.Findings {
		if f.Source.File != in {
			t.Errorf("%s at %s, want %s", f.Rule, f.Source.File, in)
		}
		got = append(got, finding{f.Rule, f.Object.Kind + "/" + f.Object.Name, f.Field, f.Source.Line, f.Message})
	}
	refusal := fmt.Sprintf("Gateway infra/twice is refused by the API server (%s:22: spec.listeners[1]: Duplicate value: {\"name\":\"http\"}), so it does not exist", in)
	for _, want := range []finding{
		{"schema/Invalid", "Gateway/twice", "spec.listeners", 18, "spec.listeners: Invalid value: Listener name must be unique within the Gateway"},
		{"schema/Invalid", "Gateway/twice", "spec.listeners[1]", 22, `spec.listeners[1]: Duplicate value: {"name":"http"}`},
		{"listener/ResolvedRefs/InvalidCertificateRef", "Gateway/no-tls", "listener https", 26, "a terminating listener needs tls.certificateRefs"},
		{"schema/Invalid", "Gateway/star", "spec.listeners[0].hostname", 49, `spec.listeners[0].hostname: Invalid value: "*"`},
		{"schema/Invalid", "HTTPRoute/no-port", "spec.rules[0].backendRefs[0]", 61, "spec.rules[0].backendRefs[0]: Invalid value: Must have port for Service reference"},
		// What refers to the refused Gateway, at the referring field's line.
		{"route/Accepted/NoMatchingParent", "HTTPRoute/orphan", "spec.parentRefs[0]", 70, refusal},
		{"listenerset/Accepted/ParentNotAccepted", "ListenerSet/team", "", 82, refusal},
	} {
		found := false
		for _, g := range got {
			if g.rule == want.rule && g.object == want.object && g.field == want.field && g.line == want.line && strings.Contains(g.message, want.message) {
				found = true
			}
		}
		if !found {
			t.Errorf("no finding %+v in\n%+v", want, got)
		}
	}

	status := gwtls(t, "", nil, "render", "status", "-f", in, "-o", "yaml", "--now", "2026-01-01T00:00:00Z")
	if status.code != 0 {
		t.Fatalf("render status: exit %d: %s", status.code, status.stderr)
	}
	// An object's own name is metadata's first line; its referrers name it
	// elsewhere.
	for _, refused := range []string{"twice", "star", "no-port"} {
		if strings.Contains(status.stdout, "metadata:\n  name: "+refused+"\n") {
			t.Errorf("render status writes the refused object %q", refused)
		}
	}
	if !strings.Contains(status.stdout, "metadata:\n  name: no-tls\n") || !strings.Contains(status.stdout, "metadata:\n  name: orphan\n") {
		t.Errorf("render status leaves out admitted objects:\n%s", status.stdout)
	}

	// The engine's own answer for every object, as written.
	off, r := admitAnalyzeJSON(t, "-f", in, "--admission=false")
	if off.Admission.Enabled || off.Admission.Refused != 0 {
		t.Errorf("--admission=false: admission %+v", off.Admission)
	}
	for _, f := range off.Findings {
		if strings.HasPrefix(f.Rule, "schema/") {
			t.Errorf("--admission=false reports %s: %s", f.Rule, f.Message)
		}
	}
	if !strings.Contains(r.stdout, `"name":"star"`) {
		t.Errorf("--admission=false leaves out the Gateway the API server refuses:\n%s", r.stdout)
	}
}

// TestAdmissionWithTheUsersCRDs: --crds holds the objects to other CRDs. A
// field only the experimental channel has is a warning against the built-in
// CRDs, and an error against the standard channel's (here the repository's
// copy of v1.6.3's config/crd/standard).
func TestAdmissionWithTheUsersCRDs(t *testing.T) {
	in := writeInput(t, `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: defaults
  namespace: apps
spec:
  useDefaultGateways: All
`)
	rep, r := admitAnalyzeJSON(t, "-f", in)
	var schema []findingJSON
	for _, f := range rep.Findings {
		if strings.HasPrefix(f.Rule, "schema/") {
			schema = append(schema, f) // the route's own findings (no parentRefs) aside
		}
	}
	if r.code != 0 || len(schema) != 1 || schema[0].Rule != "schema/ExperimentalOnly" || schema[0].Source.Line != 7 ||
		!strings.Contains(schema[0].Message, "spec.useDefaultGateways: unknown field") {
		t.Errorf("built-in CRDs: exit %d, findings %+v; want one schema/ExperimentalOnly warning at line 7", r.code, rep.Findings)
	}

	std := "admit/crds/v1.6.3/standard"
	rep, r = admitAnalyzeJSON(t, "-f", in, "--crds", std)
	if r.code != 1 || rep.Admission.CRDs != "Gateway API v1.6.3 standard channel, from "+std || rep.Admission.Refused != 1 {
		t.Fatalf("--crds %s: exit %d, admission %+v", std, r.code, rep.Admission)
	}
	if len(rep.Findings) != 1 || rep.Findings[0].Rule != "schema/Invalid" || rep.Findings[0].Field != "spec.useDefaultGateways" || rep.Findings[0].Source.Line != 7 {
		t.Errorf("--crds %s: findings %+v, want schema/Invalid at spec.useDefaultGateways, line 7", std, rep.Findings)
	}
	table := gwtls(t, "", nil, "analyze", "-f", in, "--crds", std)
	if !strings.Contains(table.stdout, "admission: Gateway API v1.6.3 standard channel, from "+std+"; 1 object refused") {
		t.Errorf("the table does not say which CRDs:\n%s", table.stdout)
	}
	bad := gwtls(t, "", nil, "analyze", "-f", in, "--crds", t.TempDir())
	if bad.code != 2 || !strings.Contains(bad.stderr, "--crds: no CustomResourceDefinition in") {
		t.Errorf("--crds of an empty folder: exit %d, stderr %q", bad.code, bad.stderr)
	}
}

// TestExplainARefusedObject: explain names the API server's refusal of an
// object it refused, instead of saying it is not in the input.
func TestExplainARefusedObject(t *testing.T) {
	in := writeInput(t, admissionInput)
	r := gwtls(t, "", nil, "explain", "gateway/twice", "-n", "infra", "-f", in)
	want := fmt.Sprintf(`Gateway infra/twice is refused by the API server (%s:22: spec.listeners[1]: Duplicate value: {"name":"http"}), so it is not analyzed`, in)
	if r.code != 2 || !strings.Contains(r.stderr, want) || strings.Contains(r.stderr, "use -n") {
		t.Errorf("exit %d, stderr %q; want %q", r.code, r.stderr, want)
	}
}
