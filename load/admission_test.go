package load

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// admitYAML writes content to a file and loads it with admission as given.
func admitYAML(t *testing.T, content string, adm Admission) (*model.Model, string) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "in.yaml")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Files(FileOptions{Filenames: []string{p}, Admission: adm})
	if err != nil {
		t.Fatal(err)
	}
	return m, p
}

const admissionInput = `apiVersion: gateway.networking.k8s.io/v1
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
kind: Gateway
metadata:
  name: fine
  namespace: infra
spec:
  gatewayClassName: example
  listeners:
  - name: https
    port: 443
    protocol: HTTPS
    tls:
      certificateRefs:
      - name: cert
---
apiVersion: v1
kind: List
items:
- apiVersion: gateway.networking.k8s.io/v1
  kind: HTTPRoute
  metadata:
    name: web
  spec:
    parentRefs:
    - name: fine
      namespace: infra
    rules:
    - backendRefs:
      - name: web
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata:
  name: db
  namespace: app
spec:
  rules:
  - backendRefs:
    - name: db
      port: 5432
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoue
metadata:
  name: typo
`

// TestAdmissionRefusesWhatTheAPIServerRefuses: an object the API server
// refuses is not in the model; its refusal is, with each field the API server
// names at the line it is written on (inside a List too), and the objects it
// admits are in the model as it stores them, defaults applied.
func TestAdmissionRefusesWhatTheAPIServerRefuses(t *testing.T) {
	m, p := admitYAML(t, admissionInput, Admission{})
	if len(m.Gateways) != 1 || m.Gateways[0].Obj.Name != "fine" {
		t.Fatalf("Gateways %d, want only fine", len(m.Gateways))
	}
	if len(m.Routes) != 1 || m.Routes[0].ObjectMeta.Name != "db" {
		t.Fatalf("%d routes, want only the TCPRoute db", len(m.Routes))
	}
	if len(m.Skipped) != 0 {
		t.Errorf("skipped %v: a kind of the Gateway API's groups that no CRD defines is the API server's to refuse", m.Skipped)
	}
	at := func(line int) model.Source { return model.Source{File: p, Line: line} }
	want := []model.Refusal{{
		Object: model.Ref{Kind: "Gateway", Namespace: "infra", Name: "twice"}, APIVersion: "gateway.networking.k8s.io/v1", Source: at(1),
		Reason: `Gateway.gateway.networking.k8s.io "twice" is invalid: [spec.listeners[1]: Duplicate value: {"name":"http"}, spec.listeners: Invalid value: Listener name must be unique within the Gateway]`,
		Errors: []model.FieldError{
			{Field: "spec.listeners[1]", Message: `Duplicate value: {"name":"http"}`, Source: at(12)},
			{Field: "spec.listeners", Message: "Invalid value: Listener name must be unique within the Gateway", Source: at(8)},
		},
	}, {
		Object: model.Ref{Kind: "HTTPRoute", Namespace: "default", Name: "web"}, APIVersion: "gateway.networking.k8s.io/v1", Source: at(34),
		Reason: `HTTPRoute.gateway.networking.k8s.io "web" is invalid: spec.rules[0].backendRefs[0]: Invalid value: Must have port for Service reference`,
		Errors: []model.FieldError{{Field: "spec.rules[0].backendRefs[0]", Message: "Invalid value: Must have port for Service reference", Source: at(44)}},
	}, {
		Object: model.Ref{Kind: "HTTPRoue", Name: "typo"}, APIVersion: "gateway.networking.k8s.io/v1", Source: at(57),
		Reason: `no matches for kind "HTTPRoue" in version "gateway.networking.k8s.io/v1"`,
	}}
	if m.Admission == nil {
		t.Fatal("no admission report")
	}
	if !reflect.DeepEqual(m.Admission.Refused, want) {
		t.Errorf("refused:\n got %+v\nwant %+v", m.Admission.Refused, want)
	}
	if got := m.Admission.CRDs; got != "Gateway API v1.6.3 experimental channel, built in" {
		t.Errorf("CRDs %q", got)
	}
	if len(m.Admission.ExperimentalOnly) != 1 || m.Admission.ExperimentalOnly[0].Object.Name != "db" ||
		!strings.Contains(m.Admission.ExperimentalOnly[0].Reason, `no matches for kind "TCPRoute" in version "gateway.networking.k8s.io/v1alpha2"`) {
		t.Errorf("experimental only: %+v, want the TCPRoute v1alpha2, which the standard channel does not serve", m.Admission.ExperimentalOnly)
	}

	l := m.Gateways[0].Obj.Spec.Listeners[0]
	if l.AllowedRoutes == nil || l.AllowedRoutes.Namespaces == nil || l.AllowedRoutes.Namespaces.From == nil || *l.AllowedRoutes.Namespaces.From != "Same" {
		t.Errorf("allowedRoutes %+v: the CRD defaults it to from: Same", l.AllowedRoutes)
	}
	if l.TLS.Mode == nil || *l.TLS.Mode != "Terminate" || l.TLS.CertificateRefs[0].Kind == nil || *l.TLS.CertificateRefs[0].Kind != "Secret" {
		t.Errorf("tls %+v: the CRD defaults mode to Terminate and a certificateRef's kind to Secret", l.TLS)
	}
	if raw := string(m.Gateways[0].Raw); strings.Contains(raw, "allowedRoutes") || strings.Contains(raw, "Terminate") {
		t.Errorf("Meta.Raw %s: it keeps the object as written", raw)
	}
}

// TestRulesNotCheckedIsANote: after a type error the API server runs no CEL
// rule and adds a whole-object error saying so; next to the type error it is
// a note (Refusal.RulesNotChecked), not a second problem at the document's
// first line.
func TestRulesNotCheckedIsANote(t *testing.T) {
	in := "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: r, namespace: default}\nspec:\n  parentRefs:\n  - name: gw\n    port: eighty\n"
	m, p := admitYAML(t, in, Admission{})
	if m.Admission == nil || len(m.Admission.Refused) != 1 {
		t.Fatalf("admission %+v, want the route refused", m.Admission)
	}
	r := m.Admission.Refused[0]
	if !strings.Contains(r.Reason, admit.RulesNotChecked) {
		t.Fatalf("reason %q: the API server's own words no longer say it skipped the rules; the test needs another input", r.Reason)
	}
	want := []model.FieldError{{Field: "spec.parentRefs[0].port", Message: `Invalid value: "string": spec.parentRefs[0].port in body must be of type integer: "string"`, Source: model.Source{File: p, Line: 7}}}
	if !r.RulesNotChecked || !reflect.DeepEqual(r.Errors, want) {
		t.Errorf("RulesNotChecked %v, errors %+v; want true and only the port's error %+v", r.RulesNotChecked, r.Errors, want)
	}
}

// TestAdmissionOffRefusesNothing: with admission off every object is in the
// model, with its CRD's defaults all the same.
func TestAdmissionOffRefusesNothing(t *testing.T) {
	m, _ := admitYAML(t, admissionInput, Admission{Off: true})
	if len(m.Gateways) != 2 || len(m.Routes) != 2 {
		t.Fatalf("%d Gateways and %d routes, want 2 and 2", len(m.Gateways), len(m.Routes))
	}
	if m.Admission == nil || !m.Admission.Off || len(m.Admission.Refused)+len(m.Admission.ExperimentalOnly) > 0 {
		t.Errorf("admission report %+v, want off and nothing refused", m.Admission)
	}
	if !reflect.DeepEqual(m.Skipped, map[string]int{"gateway.networking.k8s.io/v1/HTTPRoue": 1}) {
		t.Errorf("skipped %v, want the HTTPRoue", m.Skipped)
	}
	for _, g := range m.Gateways {
		for _, l := range g.Obj.Spec.Listeners {
			if l.AllowedRoutes == nil || l.AllowedRoutes.Namespaces == nil || l.AllowedRoutes.Namespaces.From == nil {
				t.Errorf("Gateway %s listener %s: allowedRoutes not defaulted", g.Obj.Name, l.Name)
			}
		}
	}
	for _, r := range m.Routes {
		for _, rule := range r.Rules {
			for _, b := range rule.BackendRefs {
				if b.Kind == nil || *b.Kind != "Service" || b.Weight == nil || *b.Weight != 1 {
					t.Errorf("%s %s: backendRef %+v not defaulted", r.Kind, r.ObjectMeta.Name, b)
				}
			}
		}
	}
}

func TestParseAPIFieldPath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"spec.listeners[1].name", "spec.listeners[1].name"},
		{"spec.rules[0].backendRefs[0]", "spec.rules[0].backendRefs[0]"},
		{"spec", "spec"},
		{"metadata.annotations[example.com/a.b]", "metadata.annotations.example.com/a.b"},
		{"", ""},
		{"<nil>", ""},
		{"spec.listeners[1", ""},
	} {
		if got := parseAPIFieldPath(tc.in).String(); got != tc.want {
			t.Errorf("parseAPIFieldPath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// With admission off the CRDs' defaults are applied to the typed object
// (admit.Admitter.TypedDefaults); every input of the corpus and the rules'
// examples must load exactly as through the API server's own defaulting of
// the unstructured object.
func TestTypedDefaultsAgreeWithTheAPIServers(t *testing.T) {
	var files []string
	for _, dir := range []string{"../testdata", "../rules/examples", "../examples"} {
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
				files = append(files, p)
			}
			return err
		})
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	if len(files) < 100 {
		t.Fatalf("only %d inputs found", len(files))
	}
	loadOff := func(p string, untyped bool) (*model.Model, error) {
		untypedDefaults = untyped
		defer func() { untypedDefaults = false }()
		return Files(FileOptions{Filenames: []string{p}, Admission: Admission{Off: true}})
	}
	compared := 0
	for _, p := range files {
		typed, err := loadOff(p, false)
		if err != nil {
			continue // not an input this loader reads (an error case, a config)
		}
		untyped, err := loadOff(p, true)
		if err != nil {
			t.Errorf("%s: loads with typed defaults, not without: %v", p, err)
			continue
		}
		if !reflect.DeepEqual(ingressLinesFound(typed), ingressLinesFound(untyped)) {
			t.Errorf("%s: typed defaults find other Ingress lines than the API server's defaulting", p)
		}
		if !reflect.DeepEqual(typed, untyped) {
			t.Errorf("%s: typed defaults load another model than the API server's defaulting", p)
		}
		compared++
	}
	t.Logf("%d inputs compared", compared)
}

// ingressLinesFound finds the lines of m's Ingresses and leaves their
// finders out of m, which reflect.DeepEqual cannot compare (funcs).
func ingressLinesFound(m *model.Model) []*model.IngressLines {
	var out []*model.IngressLines
	for _, ing := range m.Ingresses {
		if ing.IngressLines != nil {
			out = append(out, ing.IngressLines())
			ing.IngressLines = nil
		}
	}
	return out
}
