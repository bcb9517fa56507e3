package admit_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
)

// The built-in CRDs are the files of the gateway-api module go.mod requires, so
// that upgrading the module without them fails here.
func TestBuiltinCRDsMatchModule(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}} {{.Dir}}", "sigs.k8s.io/gateway-api").Output()
	if err != nil {
		t.Fatalf("go list -m sigs.k8s.io/gateway-api: %v", err)
	}
	version, dir, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	if version != admit.Release {
		t.Fatalf("go.mod requires sigs.k8s.io/gateway-api %s but the built-in CRDs are %s: copy config/crd/{standard,experimental} of %s into admit/crds/%s and set admit.Release", version, admit.Release, version, version)
	}
	if dir == "" {
		t.Fatal("sigs.k8s.io/gateway-api is not in the module cache: go mod download")
	}
	for _, ch := range []admit.Channel{admit.Standard, admit.Experimental} {
		module, err := filepath.Glob(filepath.Join(dir, "config", "crd", string(ch), "*.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		embedded := filepath.Join("crds", admit.Release, string(ch))
		want := map[string]bool{}
		for _, f := range module {
			name := filepath.Base(f)
			if name == "kustomization.yaml" || strings.Contains(name, "_vap_") {
				continue // not CRDs: a kustomization and a ValidatingAdmissionPolicy
			}
			want[name] = true
			mod, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(embedded, name))
			if err != nil {
				t.Errorf("%s channel: %s is not built in: %v", ch, name, err)
				continue
			}
			if !bytes.Equal(got, mod) {
				t.Errorf("%s channel: built-in %s differs from the module's", ch, name)
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
	}
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
	src := filepath.Join("crds", admit.Release, "standard")
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
	data, err := os.ReadFile(filepath.Join("crds", admit.Release, "standard", "gateway.networking.k8s.io_gateways.yaml"))
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
