package admit_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

var update = flag.Bool("update", false, "rewrite the built-in CRDs from the gateway-api module go.mod requires")

// The built-in CRDs are the files of the gateway-api module go.mod requires,
// so that upgrading the module without them fails here; and decoded, they
// are the definitions the module's YAML decodes to, less the schemas'
// descriptions. -update writes them.
func TestBuiltinCRDsMatchModule(t *testing.T) {
	version, dir := gatewayAPIModule(t)
	if version != admit.Release && !*update {
		t.Fatalf("go.mod requires sigs.k8s.io/gateway-api %s but the built-in CRDs are %s: set admit.Release to %s and run go test ./admit -run TestBuiltinCRDsMatchModule -update", version, admit.Release, version)
	}
	for _, ch := range []admit.Channel{admit.Standard, admit.Experimental} {
		moduleDir := filepath.Join(dir, "config", "crd", string(ch))
		module, err := filepath.Glob(filepath.Join(moduleDir, "*.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		embedded := filepath.Join("crds", version, string(ch))
		if *update {
			if err := os.RemoveAll(embedded); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(embedded, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		want := map[string]bool{}
		for _, f := range module {
			name := filepath.Base(f)
			if name == "kustomization.yaml" || strings.Contains(name, "_vap_") {
				continue // not CRDs: a kustomization and a ValidatingAdmissionPolicy
			}
			name = strings.TrimSuffix(name, ".yaml") + ".json"
			want[name] = true
			mod := builtinCRD(t, mustRead(t, f))
			if *update {
				if err := os.WriteFile(filepath.Join(embedded, name), mod, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			got, err := os.ReadFile(filepath.Join(embedded, name))
			if err != nil {
				t.Errorf("%s channel: %s is not built in (-update): %v", ch, name, err)
				continue
			}
			if !bytes.Equal(got, mod) {
				t.Errorf("%s channel: built-in %s differs from the module's (-update)", ch, name)
			}
		}
		entries, err := os.ReadDir(embedded)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !want[e.Name()] {
				t.Errorf("%s channel: built-in %s is not in the module", ch, e.Name())
			}
		}
		if len(want) == 0 {
			t.Errorf("%s channel: no CRDs in %s", ch, dir)
		}

		if *update {
			continue // the built-in definitions are the files this run replaced
		}
		fromYAML, err := admit.FromDir(moduleDir)
		if err != nil {
			t.Fatal(err)
		}
		yamlDefs, err := fromYAML.Definitions()
		if err != nil {
			t.Fatal(err)
		}
		builtin, err := admit.Builtin(ch)
		if err != nil {
			t.Fatal(err)
		}
		defs, err := builtin.Definitions()
		if err != nil {
			t.Fatal(err)
		}
		if len(defs) != len(yamlDefs) {
			t.Fatalf("%s channel: %d built-in definitions, %d in the module's YAML", ch, len(defs), len(yamlDefs))
		}
		for i := range defs {
			if !reflect.DeepEqual(defs[i], withoutDescriptions(yamlDefs[i])) {
				t.Errorf("%s channel: built-in %s is not what the module's YAML decodes to", ch, defs[i].Name)
			}
		}
	}
}

// builtinCRD is the built-in form of a CRD file of a Gateway API release:
// the CRD as JSON, without the descriptions of its schemas, which a run never
// reads (they are three quarters of the text the CRDs of a run's kinds are
// decoded from).
func builtinCRD(t *testing.T, yamlData []byte) []byte {
	t.Helper()
	js, err := yaml.YAMLToJSON(yamlData)
	if err != nil {
		t.Fatal(err)
	}
	var def apiextensionsv1.CustomResourceDefinition
	if err := json.Unmarshal(js, &def); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(withoutDescriptions(&def))
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

// withoutDescriptions returns a copy of def without its schemas' descriptions.
func withoutDescriptions(def *apiextensionsv1.CustomResourceDefinition) *apiextensionsv1.CustomResourceDefinition {
	def = def.DeepCopy()
	for i := range def.Spec.Versions {
		if v := def.Spec.Versions[i].Schema; v != nil {
			stripDescriptions(v.OpenAPIV3Schema)
		}
	}
	return def
}

func stripDescriptions(s *apiextensionsv1.JSONSchemaProps) {
	if s == nil {
		return
	}
	s.Description = ""
	for _, m := range []map[string]apiextensionsv1.JSONSchemaProps{s.Properties, s.PatternProperties, s.Definitions} {
		for k, p := range m {
			stripDescriptions(&p)
			m[k] = p
		}
	}
	for _, list := range [][]apiextensionsv1.JSONSchemaProps{s.AllOf, s.OneOf, s.AnyOf} {
		for i := range list {
			stripDescriptions(&list[i])
		}
	}
	stripDescriptions(s.Not)
	if s.Items != nil {
		stripDescriptions(s.Items.Schema)
		for i := range s.Items.JSONSchemas {
			stripDescriptions(&s.Items.JSONSchemas[i])
		}
	}
	if s.AdditionalProperties != nil {
		stripDescriptions(s.AdditionalProperties.Schema)
	}
	if s.AdditionalItems != nil {
		stripDescriptions(s.AdditionalItems.Schema)
	}
	for k, d := range s.Dependencies {
		stripDescriptions(d.Schema)
		s.Dependencies[k] = d
	}
}

// gatewayAPIModule returns the version of sigs.k8s.io/gateway-api that go.mod
// requires and its directory in the module cache.
func gatewayAPIModule(t *testing.T) (version, dir string) {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}} {{.Dir}}", "sigs.k8s.io/gateway-api").Output()
	if err != nil {
		t.Fatalf("go list -m sigs.k8s.io/gateway-api: %v", err)
	}
	version, dir, _ = strings.Cut(strings.TrimSpace(string(out)), " ")
	if dir == "" {
		t.Fatal("sigs.k8s.io/gateway-api is not in the module cache: go mod download")
	}
	return version, dir
}

func TestCRDsSayWhichTheyAre(t *testing.T) {
	for _, ch := range []admit.Channel{admit.Standard, admit.Experimental} {
		a := builtin(t, ch)
		if want := "Gateway API v1.6.3 " + string(ch) + " channel, built in"; a.CRDs() != want {
			t.Errorf("CRDs() = %q, want %q", a.CRDs(), want)
		}
	}
}

// A user on another release passes its CRDs: they are what decides, and the
// header says where they came from.
func TestFromDir(t *testing.T) {
	dir := t.TempDir()
	_, module := gatewayAPIModule(t)
	src := filepath.Join(module, "config", "crd", "standard")
	for _, name := range []string{"gateway.networking.k8s.io_gateways.yaml", "gateway.networking.k8s.io_httproutes.yaml"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "gateway.networking.k8s.io_httproutes.yaml" {
			// A release whose BackendRef port rule is gone.
			data = bytes.ReplaceAll(data, []byte(`? has(self.port) : true'`), []byte(`? true : true'`))
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Documents of other kinds beside the CRDs, as in a release's install YAML.
	if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte("resources:\n- gateway.networking.k8s.io_gateways.yaml\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	crds, err := admit.FromDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	a, err := admit.New(crds)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Gateway API v1.6.3 standard channel, from " + dir; a.CRDs() != want {
		t.Errorf("CRDs() = %q, want %q", a.CRDs(), want)
	}
	route := httpRoute(`{"rules":[{"backendRefs":[{"name":"web"}]}]}`)
	if v := a.Admit(v1, "HTTPRoute", []byte(route)); !v.Admitted {
		t.Errorf("the directory's HTTPRoute CRD has no port rule, yet: %s", v.Reason)
	}
	if v := builtin(t, admit.Standard).Admit(v1, "HTTPRoute", []byte(route)); v.Admitted {
		t.Error("the built-in CRDs admit a Service backendRef without port")
	}
	if a.Covers("gateway.networking.k8s.io/v1") && a.Admit(v1, "GRPCRoute", []byte(`{}`)).Admitted {
		t.Error("a kind the directory has no CRD for is admitted")
	}

	if _, err := admit.FromDir(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no CustomResourceDefinition") {
		t.Errorf("an empty directory: %v", err)
	}
	// The wrong directory: what it holds instead is said, so the user sees
	// what was read.
	manifests := t.TempDir()
	if err := os.WriteFile(filepath.Join(manifests, "app.yaml"), []byte("apiVersion: v1\nkind: Service\nmetadata: {name: web}\n---\nresources: [app.yaml]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := admit.FromDir(manifests); err == nil || !strings.Contains(err.Error(), "no CustomResourceDefinition in "+manifests+" (1 YAML or JSON file, 2 other documents: Service (1), no kind (1))") {
		t.Errorf("a directory of manifests: %v", err)
	}
	// CRDs, but none of Gateway API: every object would go unchecked.
	others := t.TempDir()
	certificates := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: certificates.cert-manager.io}
spec:
  group: cert-manager.io
  names: {kind: Certificate, plural: certificates}
  scope: Namespaced
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
`
	if err := os.WriteFile(filepath.Join(others, "certificates.yaml"), []byte(certificates), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := admit.FromDir(others); err == nil || !strings.Contains(err.Error(), "no Gateway API CustomResourceDefinition in "+others+" (1 CRD of other groups: cert-manager.io (1))") {
		t.Errorf("a directory of other CRDs: %v", err)
	}
	// Beside a Gateway API CRD, another group's is kept (it validates nothing
	// the tool loads).
	if err := os.WriteFile(filepath.Join(others, "gateways.yaml"), mustRead(t, filepath.Join(src, "gateway.networking.k8s.io_gateways.yaml")), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := admit.FromDir(others); err != nil {
		t.Errorf("a Gateway API CRD beside another group's: %v", err)
	}
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "crd.yaml"), []byte("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := admit.FromDir(bad); err == nil || !strings.Contains(err.Error(), filepath.Join(bad, "crd.yaml")) {
		t.Errorf("a malformed file: the error names no file: %v", err)
	}
}

// Two CRDs for one kind cannot both be served: New says which.
func TestNewRefusesTwoCRDsForOneKind(t *testing.T) {
	dir := t.TempDir()
	_, module := gatewayAPIModule(t)
	data, err := os.ReadFile(filepath.Join(module, "config", "crd", "standard", "gateway.networking.k8s.io_gateways.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.yaml", "b.yaml"} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	crds, err := admit.FromDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admit.New(crds); err == nil || !strings.Contains(err.Error(), "both define Gateway.gateway.networking.k8s.io") {
		t.Errorf("New: %v", err)
	}
}

// A built-in CRD's header is read before its versions are decoded: kind,
// resource, scope and release must be the full definition's.
func TestBuiltinHeadersAreTheDefinitions(t *testing.T) {
	for _, ch := range []admit.Channel{admit.Standard, admit.Experimental} {
		crds, err := admit.Builtin(ch)
		if err != nil {
			t.Fatal(err)
		}
		a, err := admit.New(crds)
		if err != nil {
			t.Fatal(err)
		}
		defs, err := crds.Definitions()
		if err != nil {
			t.Fatal(err)
		}
		for _, def := range defs {
			if def.Annotations["gateway.networking.k8s.io/channel"] != string(ch) {
				t.Errorf("%s: channel annotation %q", def.Name, def.Annotations["gateway.networking.k8s.io/channel"])
			}
			for _, v := range def.Spec.Versions {
				apiVersion := def.Spec.Group + "/" + v.Name
				resource, namespaced, ok := a.Resource(apiVersion, def.Spec.Names.Kind)
				want := v.Served
				if ok != want || ok && (resource != def.Spec.Names.Plural || namespaced != (def.Spec.Scope == "Namespaced")) {
					t.Errorf("%s %s: Resource = %q, %v, %v; the definition says %q, %s, served %v",
						apiVersion, def.Spec.Names.Kind, resource, namespaced, ok, def.Spec.Names.Plural, def.Spec.Scope, v.Served)
				}
			}
		}
	}
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
