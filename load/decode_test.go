package load

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// loadYAML writes content to a file named name in a fresh folder and loads it
// with admission off: these tests are about the loader's own decoding, of
// objects smaller than the API server admits (admission_test.go admits).
func loadYAML(t *testing.T, name, content string) (*model.Model, string, error) {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Files(FileOptions{Filenames: []string{p}, Admission: Admission{Off: true}})
	return m, p, err
}

func mustLoad(t *testing.T, content string) (*model.Model, string) {
	t.Helper()
	m, p, err := loadYAML(t, "in.yaml", content)
	if err != nil {
		t.Fatalf("Files: unexpected error: %v", err)
	}
	return m, p
}

// mustFail loads content and returns the *Error it must fail with.
func mustFail(t *testing.T, content string) (*Error, string) {
	t.Helper()
	m, p, err := loadYAML(t, "in.yaml", content)
	if err == nil {
		t.Fatalf("Files: no error, want one (model with %d objects)", m.Len())
	}
	var le *Error
	if !errors.As(err, &le) {
		t.Fatalf("error %q is a %T, want *load.Error", err, err)
	}
	return le, p
}

const gwGroup = "gateway.networking.k8s.io"

func routeYAML(apiVersion, kind string, hostnames bool) string {
	s := fmt.Sprintf(`apiVersion: %s
kind: %s
metadata:
  name: r
spec:
  parentRefs:
  - name: gw
    sectionName: https
`, apiVersion, kind)
	if hostnames {
		s += "  hostnames: [\"a.example.com\", \"b.example.com\"]\n"
	}
	s += `  rules:
  - name: first
    backendRefs:
    - name: svc
      port: 8080
  - backendRefs:
    - name: other
      namespace: elsewhere
      port: 9090
`
	return s
}

func TestDecodeEveryKindAndVersion(t *testing.T) {
	type check func(t *testing.T, m *model.Model) model.Meta
	simple := func(name, ns string, get func(m *model.Model) (int, model.Meta, string, string)) check {
		return func(t *testing.T, m *model.Model) model.Meta {
			t.Helper()
			n, meta, gotName, gotNS := get(m)
			if n != 1 {
				t.Fatalf("got %d objects of the kind, want 1", n)
			}
			if gotName != name || gotNS != ns {
				t.Errorf("name %q namespace %q, want %q %q", gotName, gotNS, name, ns)
			}
			return meta
		}
	}
	gatewayClass := simple("c", "", func(m *model.Model) (int, model.Meta, string, string) {
		if len(m.GatewayClasses) == 0 {
			return 0, model.Meta{}, "", ""
		}
		o := m.GatewayClasses[0]
		return len(m.GatewayClasses), o.Meta, o.Obj.Name, o.Obj.Namespace
	})
	gateway := simple("g", "default", func(m *model.Model) (int, model.Meta, string, string) {
		if len(m.Gateways) == 0 {
			return 0, model.Meta{}, "", ""
		}
		o := m.Gateways[0]
		return len(m.Gateways), o.Meta, o.Obj.Name, o.Obj.Namespace
	})
	listenerSet := simple("ls", "default", func(m *model.Model) (int, model.Meta, string, string) {
		if len(m.ListenerSets) == 0 {
			return 0, model.Meta{}, "", ""
		}
		o := m.ListenerSets[0]
		return len(m.ListenerSets), o.Meta, o.Obj.Name, o.Obj.Namespace
	})
	refGrant := simple("rg", "default", func(m *model.Model) (int, model.Meta, string, string) {
		if len(m.ReferenceGrants) == 0 {
			return 0, model.Meta{}, "", ""
		}
		o := m.ReferenceGrants[0]
		return len(m.ReferenceGrants), o.Meta, o.Obj.Name, o.Obj.Namespace
	})
	btls := simple("p", "default", func(m *model.Model) (int, model.Meta, string, string) {
		if len(m.BackendTLSPolicies) == 0 {
			return 0, model.Meta{}, "", ""
		}
		o := m.BackendTLSPolicies[0]
		if len(o.Obj.Spec.TargetRefs) != 1 || o.Obj.Spec.TargetRefs[0].Name != "svc" {
			t.Errorf("BackendTLSPolicy targetRefs = %+v", o.Obj.Spec.TargetRefs)
		}
		if o.Obj.Spec.Validation.Hostname != "svc.example.com" {
			t.Errorf("BackendTLSPolicy validation.hostname = %q", o.Obj.Spec.Validation.Hostname)
		}
		return len(m.BackendTLSPolicies), o.Meta, o.Obj.Name, o.Obj.Namespace
	})
	configMap := simple("cm", "default", func(m *model.Model) (int, model.Meta, string, string) {
		if len(m.ConfigMaps) == 0 {
			return 0, model.Meta{}, "", ""
		}
		o := m.ConfigMaps[0]
		if o.Obj.Data["ca.crt"] != "PEM" {
			t.Errorf("ConfigMap data = %v", o.Obj.Data)
		}
		return len(m.ConfigMaps), o.Meta, o.Obj.Name, o.Obj.Namespace
	})
	service := simple("svc", "default", func(m *model.Model) (int, model.Meta, string, string) {
		if len(m.Services) == 0 {
			return 0, model.Meta{}, "", ""
		}
		o := m.Services[0]
		if len(o.Obj.Spec.Ports) != 1 || o.Obj.Spec.Ports[0].Port != 8080 {
			t.Errorf("Service ports = %+v", o.Obj.Spec.Ports)
		}
		return len(m.Services), o.Meta, o.Obj.Name, o.Obj.Namespace
	})
	namespace := simple("ns", "", func(m *model.Model) (int, model.Meta, string, string) {
		if len(m.Namespaces) == 0 {
			return 0, model.Meta{}, "", ""
		}
		o := m.Namespaces[0]
		return len(m.Namespaces), o.Meta, o.Obj.Name, o.Obj.Namespace
	})
	route := func(hostnames bool) check {
		return func(t *testing.T, m *model.Model) model.Meta {
			t.Helper()
			if len(m.Routes) != 1 {
				t.Fatalf("got %d routes, want 1", len(m.Routes))
			}
			r := m.Routes[0]
			if r.Key() != (model.NamespacedName{Namespace: "default", Name: "r"}) {
				t.Errorf("route key = %v, want default/r", r.Key())
			}
			if len(r.ParentRefs) != 1 || r.ParentRefs[0].Name != "gw" || r.ParentRefs[0].SectionName == nil || *r.ParentRefs[0].SectionName != "https" {
				t.Errorf("ParentRefs = %+v", r.ParentRefs)
			}
			if hostnames {
				if len(r.Hostnames) != 2 || r.Hostnames[0] != "a.example.com" || r.Hostnames[1] != "b.example.com" {
					t.Errorf("Hostnames = %v", r.Hostnames)
				}
			} else if r.Hostnames != nil {
				t.Errorf("Hostnames = %v, want nil for %s", r.Hostnames, r.Kind)
			}
			if r.HasHostnames() != hostnames {
				t.Errorf("HasHostnames() = %v, want %v", r.HasHostnames(), hostnames)
			}
			if len(r.Rules) != 2 {
				t.Fatalf("Rules = %+v, want 2", r.Rules)
			}
			if r.Rules[0].Name != "first" || r.Rules[1].Name != "" {
				t.Errorf("rule names = %q %q", r.Rules[0].Name, r.Rules[1].Name)
			}
			b0, b1 := r.Rules[0].BackendRefs, r.Rules[1].BackendRefs
			if len(b0) != 1 || b0[0].Name != "svc" || b0[0].Port == nil || *b0[0].Port != 8080 {
				t.Errorf("rule 0 backendRefs = %+v", b0)
			}
			if len(b1) != 1 || b1[0].Name != "other" || b1[0].Namespace == nil || *b1[0].Namespace != "elsewhere" {
				t.Errorf("rule 1 backendRefs = %+v", b1)
			}
			return r.Meta
		}
	}

	gwBody := func(av, kind string) string {
		return fmt.Sprintf("apiVersion: %s\nkind: %s\nmetadata:\n  name: g\nspec:\n  gatewayClassName: c\n  listeners:\n  - name: https\n    protocol: HTTPS\n    port: 443\n", av, kind)
	}
	tests := []struct {
		apiVersion, kind, body string
		check                  check
	}{
		{gwGroup + "/v1", "GatewayClass", "metadata:\n  name: c\n  namespace: ignored\nspec:\n  controllerName: example.com/c\n", gatewayClass},
		{gwGroup + "/v1beta1", "GatewayClass", "metadata:\n  name: c\nspec:\n  controllerName: example.com/c\n", gatewayClass},
		{gwGroup + "/v1", "Gateway", "", gateway},
		{gwGroup + "/v1beta1", "Gateway", "", gateway},
		{gwGroup + "/v1", "ListenerSet", "metadata:\n  name: ls\nspec:\n  parentRef:\n    name: g\n  listeners:\n  - name: extra\n    protocol: HTTP\n    port: 80\n", listenerSet},
		{gwGroup + "/v1", "HTTPRoute", routeYAML(gwGroup+"/v1", "HTTPRoute", true), route(true)},
		{gwGroup + "/v1beta1", "HTTPRoute", routeYAML(gwGroup+"/v1beta1", "HTTPRoute", true), route(true)},
		{gwGroup + "/v1", "GRPCRoute", routeYAML(gwGroup+"/v1", "GRPCRoute", true), route(true)},
		{gwGroup + "/v1", "TLSRoute", routeYAML(gwGroup+"/v1", "TLSRoute", true), route(true)},
		{gwGroup + "/v1alpha3", "TLSRoute", routeYAML(gwGroup+"/v1alpha3", "TLSRoute", true), route(true)},
		{gwGroup + "/v1alpha2", "TLSRoute", routeYAML(gwGroup+"/v1alpha2", "TLSRoute", true), route(true)},
		{gwGroup + "/v1alpha2", "TCPRoute", routeYAML(gwGroup+"/v1alpha2", "TCPRoute", false), route(false)},
		{gwGroup + "/v1", "TCPRoute", routeYAML(gwGroup+"/v1", "TCPRoute", false), route(false)},
		{gwGroup + "/v1alpha2", "UDPRoute", routeYAML(gwGroup+"/v1alpha2", "UDPRoute", false), route(false)},
		{gwGroup + "/v1", "UDPRoute", routeYAML(gwGroup+"/v1", "UDPRoute", false), route(false)},
		{gwGroup + "/v1", "ReferenceGrant", "metadata:\n  name: rg\nspec:\n  from:\n  - group: gateway.networking.k8s.io\n    kind: HTTPRoute\n    namespace: a\n  to:\n  - group: \"\"\n    kind: Service\n", refGrant},
		{gwGroup + "/v1beta1", "ReferenceGrant", "metadata:\n  name: rg\nspec:\n  from: []\n  to: []\n", refGrant},
		{gwGroup + "/v1", "BackendTLSPolicy", "metadata:\n  name: p\nspec:\n  targetRefs:\n  - group: \"\"\n    kind: Service\n    name: svc\n  validation:\n    hostname: svc.example.com\n    wellKnownCACertificates: System\n", btls},
		{gwGroup + "/v1alpha3", "BackendTLSPolicy", "metadata:\n  name: p\nspec:\n  targetRefs:\n  - group: \"\"\n    kind: Service\n    name: svc\n  validation:\n    hostname: svc.example.com\n", btls},
		{"v1", "ConfigMap", "metadata:\n  name: cm\ndata:\n  ca.crt: PEM\n", configMap},
		{"v1", "Service", "metadata:\n  name: svc\nspec:\n  ports:\n  - port: 8080\n    targetPort: http\n", service},
		{"v1", "Namespace", "metadata:\n  name: ns\n  labels:\n    team: a\n", namespace},
	}
	for _, tt := range tests {
		t.Run(tt.apiVersion+"/"+tt.kind, func(t *testing.T) {
			content := tt.body
			switch {
			case content == "":
				content = gwBody(tt.apiVersion, tt.kind)
			case !strings.HasPrefix(content, "apiVersion:"):
				content = "apiVersion: " + tt.apiVersion + "\nkind: " + tt.kind + "\n" + content
			}
			// A leading comment and separator: the object's line is its first key.
			content = "# leading comment\n---\n" + content
			m, p := mustLoad(t, content)
			if len(m.Skipped) != 0 {
				t.Errorf("Skipped = %v, want none", m.Skipped)
			}
			if m.Len() != 1 {
				t.Fatalf("model holds %d objects, want 1", m.Len())
			}
			meta := tt.check(t, m)
			if meta.APIVersion != tt.apiVersion || meta.Kind != tt.kind {
				t.Errorf("Meta = %s %s, want %s %s (as written)", meta.APIVersion, meta.Kind, tt.apiVersion, tt.kind)
			}
			if meta.Source != (model.Source{File: p, Line: 3}) {
				t.Errorf("Source = %v, want %s:3", meta.Source, p)
			}
			if !strings.Contains(string(meta.Raw), `"kind":"`+tt.kind+`"`) {
				t.Errorf("Raw = %s, want the object as JSON", meta.Raw)
			}
		})
	}
}

func TestDecodeNamespaces(t *testing.T) {
	content := `apiVersion: v1
kind: ConfigMap
metadata:
  name: a
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: b
  namespace: explicit
---
apiVersion: v1
kind: Namespace
metadata:
  name: ns1
  namespace: bogus
`
	p := filepath.Join(t.TempDir(), "ns.yaml")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ def, want string }{{"", "default"}, {"team-a", "team-a"}} {
		m, err := Files(FileOptions{Filenames: []string{p}, DefaultNamespace: tc.def})
		if err != nil {
			t.Fatal(err)
		}
		if len(m.ConfigMaps) != 2 {
			t.Fatalf("ConfigMaps = %d", len(m.ConfigMaps))
		}
		if ns := m.ConfigMaps[0].Obj.Namespace; ns != tc.want {
			t.Errorf("DefaultNamespace %q: unnamespaced ConfigMap got %q, want %q", tc.def, ns, tc.want)
		}
		if ns := m.ConfigMaps[1].Obj.Namespace; ns != "explicit" {
			t.Errorf("explicit namespace became %q", ns)
		}
		if ns := m.Namespaces[0].Obj.Namespace; ns != "" {
			t.Errorf("cluster-scoped Namespace got namespace %q", ns)
		}
		lines := []int{m.ConfigMaps[0].Source.Line, m.ConfigMaps[1].Source.Line, m.Namespaces[0].Source.Line}
		if fmt.Sprint(lines) != "[1 6 12]" {
			t.Errorf("lines = %v, want [1 6 12]", lines)
		}
	}
}

func TestDecodeSecretStringData(t *testing.T) {
	m, _ := mustLoad(t, `apiVersion: v1
kind: Secret
metadata:
  name: tls
  namespace: web
type: kubernetes.io/tls
data:
  tls.crt: Y2VydA==
  tls.key: b2xk
stringData:
  tls.key: new
  extra: plain
`)
	if len(m.Secrets) != 1 {
		t.Fatalf("Secrets = %d", len(m.Secrets))
	}
	s := m.Secrets[0].Obj
	want := map[string]string{"tls.crt": "cert", "tls.key": "new", "extra": "plain"}
	if len(s.Data) != len(want) {
		t.Errorf("Data = %v, want %v", s.Data, want)
	}
	for k, v := range want {
		if string(s.Data[k]) != v {
			t.Errorf("Data[%s] = %q, want %q (stringData wins)", k, s.Data[k], v)
		}
	}
	if s.StringData != nil {
		t.Errorf("StringData = %v, want nil after merging", s.StringData)
	}
	if s.Namespace != "web" || s.Type != "kubernetes.io/tls" {
		t.Errorf("namespace %q type %q", s.Namespace, s.Type)
	}

	// stringData alone (no data) works too.
	m, _ = mustLoad(t, "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\nstringData:\n  a: b\n")
	if got := string(m.Secrets[0].Obj.Data["a"]); got != "b" {
		t.Errorf("stringData only: Data[a] = %q", got)
	}
}

func TestDecodeSkipsUnknownKinds(t *testing.T) {
	m, _ := mustLoad(t, `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: e
---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: c
---
apiVersion: gateway.networking.k8s.io/v1alpha1
kind: Gateway
metadata:
  name: too-old
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: kept
`)
	want := map[string]int{
		"apps/v1/Deployment":                         2,
		"cert-manager.io/v1/Certificate":             1,
		"gateway.networking.k8s.io/v1alpha1/Gateway": 1,
	}
	if fmt.Sprint(m.Skipped) != fmt.Sprint(want) {
		t.Errorf("Skipped = %v, want %v", m.Skipped, want)
	}
	if len(m.Routes) != 1 || m.Len() != 1 {
		t.Errorf("kept %d objects (%d routes), want the one HTTPRoute", m.Len(), len(m.Routes))
	}
}

func TestDecodeList(t *testing.T) {
	m, p := mustLoad(t, `apiVersion: v1
kind: ConfigMap
metadata:
  name: before
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Service
  metadata:
    name: svc
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: d
- apiVersion: v1
  kind: List
  items:
  - apiVersion: gateway.networking.k8s.io/v1
    kind: Gateway
    metadata:
      name: nested
      namespace: ns1
`)
	if len(m.Services) != 1 || len(m.Gateways) != 1 || len(m.ConfigMaps) != 1 {
		t.Fatalf("model = %d services %d gateways %d configmaps, want 1 each", len(m.Services), len(m.Gateways), len(m.ConfigMaps))
	}
	if m.Skipped["apps/v1/Deployment"] != 1 || len(m.Skipped) != 1 {
		t.Errorf("Skipped = %v, want only apps/v1/Deployment", m.Skipped)
	}
	if m.Skipped["v1/List"] != 0 {
		t.Error("the List itself was counted as skipped")
	}
	// Each item is reported at its own line, as a document is at its
	// first key's; an item of a nested List at the nested List's.
	if src := m.Services[0].Source; src.File != p || src.Line != 9 {
		t.Errorf("list item Source = %v, want %s:9", src, p)
	}
	if src := m.Gateways[0].Source; src.Line != 17 {
		t.Errorf("nested list item Source = %v, want %s:17", src, p)
	}
	if g := m.Gateways[0].Obj; g.Name != "nested" || g.Namespace != "ns1" {
		t.Errorf("nested item = %s/%s", g.Namespace, g.Name)
	}

	// JSON List, as kubectl get -o json prints.
	m, _, err := loadYAML(t, "list.json", `{"apiVersion": "v1", "kind": "List", "items": [
  {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "a"}},
  {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "b"}}
]}`)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Namespaces) != 2 {
		t.Fatalf("JSON List gave %d namespaces, want 2", len(m.Namespaces))
	}
	if a, b := m.Namespaces[0].Source.Line, m.Namespaces[1].Source.Line; a != 2 || b != 3 {
		t.Errorf("JSON List items at lines %d and %d, want 2 and 3", a, b)
	}

	// An empty List is fine.
	m, _ = mustLoad(t, "apiVersion: v1\nkind: List\nitems: []\n")
	if m.Len() != 0 || len(m.Skipped) != 0 {
		t.Errorf("empty List: %d objects, skipped %v", m.Len(), m.Skipped)
	}

	// A bad item is an error at the item's line.
	le, p := mustFail(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n---\napiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  metadata:\n    name: nokind\n")
	if le.Source != (model.Source{File: p, Line: 9}) || !strings.Contains(le.Error(), "kind") || !strings.Contains(le.Error(), "List items[0]: ") {
		t.Errorf("bad list item: %v (source %v)", le, le.Source)
	}
	// A bad field of the second item is an error at the field's line,
	// naming the item.
	le, p = mustFail(t, "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Service\n  metadata:\n    name: a\n- apiVersion: v1\n  kind: Service\n  metadata:\n    name: b\n  spec:\n    ports:\n    - port: many\nkind: List\n")
	if le.Source != (model.Source{File: p, Line: 13}) || !strings.Contains(le.Error(), "List items[1]: Service \"b\": field spec.ports[0].port") {
		t.Errorf("bad field of list item 1: %v (source %v), want line 13", le, le.Source)
	}
}

func TestDecodeJSONFiles(t *testing.T) {
	// Compact, space-indented and tab-indented JSON (json.MarshalIndent(v, "", "\t")).
	for name, content := range map[string]string{
		"compact": `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"},"data":{"a":"b"}}`,
		"spaces":  "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"ConfigMap\",\n  \"metadata\": {\n    \"name\": \"cm\"\n  }\n}\n",
		"tabs":    "{\n\t\"apiVersion\": \"v1\",\n\t\"kind\": \"ConfigMap\",\n\t\"metadata\": {\n\t\t\"name\": \"cm\"\n\t}\n}\n",
	} {
		t.Run(name, func(t *testing.T) {
			m, _, err := loadYAML(t, "cm.json", content)
			if err != nil {
				t.Fatal(err)
			}
			if len(m.ConfigMaps) != 1 {
				t.Errorf("ConfigMaps = %d", len(m.ConfigMaps))
			}
		})
	}
}

// TestDecodeDefaultsParentRefs: a parentRef's group and kind are defaulted as
// the API server defaults them (ParentReference's kubebuilder defaults, applied
// from the CRDs even with admission off), for every route kind; what is
// written is kept, the empty (core) group included.
func TestDecodeDefaultsParentRefs(t *testing.T) {
	var docs []string
	for _, kind := range []string{"HTTPRoute", "GRPCRoute", "TLSRoute", "TCPRoute", "UDPRoute"} {
		version := "v1"
		if kind == "TCPRoute" || kind == "UDPRoute" {
			version = "v1alpha2"
		}
		docs = append(docs, fmt.Sprintf("apiVersion: gateway.networking.k8s.io/%s\nkind: %s\nmetadata: {name: r, namespace: apps}\nspec:\n  parentRefs:\n  - {name: gw}\n  - {group: \"\", kind: Service, name: mesh}\n  - {group: gateway.networking.k8s.io, kind: ListenerSet, name: ls}\n", version, kind))
	}
	m, _ := mustLoad(t, strings.Join(docs, "---\n"))
	if len(m.Routes) != 5 {
		t.Fatalf("%d routes, want 5", len(m.Routes))
	}
	for _, r := range m.Routes {
		var got []string
		for _, p := range r.ParentRefs {
			if p.Group == nil || p.Kind == nil {
				t.Fatalf("%s: parentRef %s has no group or kind after loading", r.Kind, p.Name)
			}
			got = append(got, string(*p.Group)+"/"+string(*p.Kind)+"/"+string(p.Name))
		}
		if want := "gateway.networking.k8s.io/Gateway/gw, /Service/mesh, gateway.networking.k8s.io/ListenerSet/ls"; strings.Join(got, ", ") != want {
			t.Errorf("%s: parentRefs %s, want %s", r.Kind, strings.Join(got, ", "), want)
		}
	}
}
