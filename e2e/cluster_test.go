package e2e

// Cluster mode against a real kube-apiserver + etcd (hack/apiserver.sh). These tests
// run only when GWTLS_CLUSTER_TESTS=1 and hack/apiserver.sh start has written its
// state dir; hack/test.sh does both:
//
//	hack/apiserver.sh build && hack/apiserver.sh start
//	GWTLS_CLUSTER_TESTS=1 go test ./e2e -run Cluster
//	hack/apiserver.sh stop
//
// Each scenario applies manifests from testdata with server-side apply as the admin,
// then runs the BUILT binary with --kubeconfig and compares it with the same binary
// run on the same files.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-gwtls/kubectl-gwtls/load"
)

// clusterNow pins certificate checks and lastTransitionTime in both runs.
const clusterNow = "2026-01-01T00:00:00Z"

type clusterEnv struct {
	admin, restricted, nocrd string // kubeconfig paths
	dyn                      dynamic.Interface
}

func clusterSetup(t *testing.T) *clusterEnv {
	t.Helper()
	if os.Getenv("GWTLS_CLUSTER_TESTS") != "1" {
		t.Skip("cluster tests need a kube-apiserver: run hack/apiserver.sh build && hack/apiserver.sh start, then GWTLS_CLUSTER_TESTS=1 (hack/test.sh does this)")
	}
	state := os.Getenv("GWTLS_CLUSTER_STATE")
	if state == "" {
		state = filepath.Join(os.TempDir(), "kubectl-gwtls-cluster")
	}
	env := &clusterEnv{
		admin:      filepath.Join(state, "admin.kubeconfig"),
		restricted: filepath.Join(state, "restricted.kubeconfig"),
		nocrd:      filepath.Join(state, "nocrd.kubeconfig"),
	}
	if _, err := os.Stat(env.admin); err != nil {
		t.Skipf("GWTLS_CLUSTER_TESTS=1 but no running cluster (state dir %s: %v): run hack/apiserver.sh start", state, err)
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", env.admin)
	if err != nil {
		t.Fatal(err)
	}
	cfg.QPS, cfg.Burst = 100, 200 // client-go's default 5 QPS makes applying the scenarios slow
	if env.dyn, err = dynamic.NewForConfig(cfg); err != nil {
		t.Fatal(err)
	}
	return env
}

// kindResources maps the kinds in the test manifests to their resources.
var kindResources = map[string]struct {
	resource   string
	namespaced bool
}{
	"GatewayClass": {"gatewayclasses", false}, "Gateway": {"gateways", true}, "ListenerSet": {"listenersets", true},
	"HTTPRoute": {"httproutes", true}, "GRPCRoute": {"grpcroutes", true}, "TLSRoute": {"tlsroutes", true},
	"TCPRoute": {"tcproutes", true}, "UDPRoute": {"udproutes", true}, "ReferenceGrant": {"referencegrants", true},
	"BackendTLSPolicy": {"backendtlspolicies", true}, "Namespace": {"namespaces", false}, "Service": {"services", true},
	"Secret": {"secrets", true}, "ConfigMap": {"configmaps", true}, "Role": {"roles", true}, "RoleBinding": {"rolebindings", true},
	"ClusterRole": {"clusterroles", false}, "ClusterRoleBinding": {"clusterrolebindings", false},
	"Ingress": {"ingresses", true}, "IngressClass": {"ingressclasses", false},
}

func (env *clusterEnv) resource(t *testing.T, u *unstructured.Unstructured) dynamic.ResourceInterface {
	t.Helper()
	kr, ok := kindResources[u.GetKind()]
	if !ok {
		t.Fatalf("no resource known for kind %s", u.GetKind())
	}
	gv, err := schema.ParseGroupVersion(u.GetAPIVersion())
	if err != nil {
		t.Fatal(err)
	}
	ri := env.dyn.Resource(gv.WithResource(kr.resource))
	if kr.namespaced {
		if u.GetNamespace() == "" {
			u.SetNamespace("default") // what -f assumes for objects without a namespace
		}
		return ri.Namespace(u.GetNamespace())
	}
	return ri
}

// readManifests reads every object of the files (absolute, or relative to the repo
// root).
func readManifests(t *testing.T, paths ...string) []*unstructured.Unstructured {
	t.Helper()
	var files []string
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join("..", p)
		}
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			m, _ := filepath.Glob(filepath.Join(p, "*.yaml"))
			files = append(files, m...)
		} else {
			files = append(files, p)
		}
	}
	var objs []*unstructured.Unstructured
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
		for {
			var obj map[string]any
			if err := dec.Decode(&obj); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if len(obj) > 0 {
				objs = append(objs, &unstructured.Unstructured{Object: obj})
			}
		}
	}
	return objs
}

// apply creates or updates the objects with server-side apply (Namespaces first) and
// deletes them (but not the Namespaces, which need a namespace controller to go away)
// when the test ends.
func (env *clusterEnv) apply(t *testing.T, objs []*unstructured.Unstructured) {
	t.Helper()
	ctx := context.Background()
	sorted := append([]*unstructured.Unstructured(nil), objs...)
	sort.SliceStable(sorted, func(i, j int) bool {
		return sorted[i].GetKind() == "Namespace" && sorted[j].GetKind() != "Namespace"
	})
	for _, u := range sorted {
		u = u.DeepCopy()
		ri := env.resource(t, u)
		var err error
		for try := 0; try < 20; try++ { // discovery of freshly established CRDs can lag
			if _, err = ri.Apply(ctx, u.GetName(), u, metav1.ApplyOptions{FieldManager: "gwtls-e2e", Force: true}); err == nil || !apierrors.IsNotFound(err) {
				break
			}
			time.Sleep(250 * time.Millisecond)
		}
		if err != nil {
			t.Fatalf("applying %s %s/%s (%s): %v", u.GetKind(), u.GetNamespace(), u.GetName(), u.GetAPIVersion(), err)
		}
		if u.GetKind() == "Namespace" {
			continue
		}
		t.Cleanup(func() {
			if err := ri.Delete(context.Background(), u.GetName(), metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				t.Errorf("deleting %s %s/%s: %v", u.GetKind(), u.GetNamespace(), u.GetName(), err)
			}
		})
	}
}

type clusterFinding struct {
	Rule, Severity, Field, Message string
	Object                         struct{ Kind, Namespace, Name string }
	Source                         struct {
		File string
		Line int
	}
}

func (f clusterFinding) key() string {
	return fmt.Sprintf("%s %s %s/%s/%s %s: %s", f.Severity, f.Rule, f.Object.Kind, f.Object.Namespace, f.Object.Name, f.Field, f.Message)
}

type clusterReport struct {
	Findings   []clusterFinding
	Unreadable []struct{ Kind, Namespace, Reason string }
	Admission  struct {
		CRDs, Note string
		Refused    int
	}
}

// analyzeJSON runs analyze -o json and returns the report and exit code.
func analyzeJSON(t *testing.T, args ...string) (clusterReport, result) {
	t.Helper()
	r := gwtls(t, "", nil, append([]string{"analyze", "-o", "json", "--now", clusterNow}, args...)...)
	if r.code != 0 && r.code != 1 {
		t.Fatalf("analyze %v: exit %d\n%s", args, r.code, r.stderr)
	}
	noStackTrace(t, r)
	var rep clusterReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("analyze %v: not JSON: %v\n%s", args, err, r.stdout)
	}
	return rep, r
}

func noStackTrace(t *testing.T, r result) {
	t.Helper()
	if strings.Contains(r.stderr, "goroutine ") || strings.Contains(r.stderr, "panic:") {
		t.Errorf("stack trace on stderr:\n%s", r.stderr)
	}
}

// findingKeys are the findings without their source, sorted.
func findingKeys(rep clusterReport) []string {
	keys := []string{}
	for _, f := range rep.Findings {
		keys = append(keys, f.key())
	}
	sort.Strings(keys)
	return keys
}

func sameStrings(t *testing.T, what string, got, want []string) {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return
	}
	t.Errorf("%s: cluster and files differ\ncluster (%d):\n  %s\nfiles (%d):\n  %s", what,
		len(got), strings.Join(got, "\n  "), len(want), strings.Join(want, "\n  "))
}

// statusItems runs render status -o json and returns .status by kind/namespace/name.
func statusItems(t *testing.T, args ...string) map[string]any {
	t.Helper()
	r := gwtls(t, "", nil, append([]string{"render", "status", "-o", "json", "--now", clusterNow}, args...)...)
	if r.code != 0 {
		t.Fatalf("render status %v: exit %d\n%s", args, r.code, r.stderr)
	}
	var list struct{ Items []map[string]any }
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil {
		t.Fatalf("render status: not JSON: %v\n%s", err, r.stdout)
	}
	out := map[string]any{}
	for _, it := range list.Items {
		u := unstructured.Unstructured{Object: it}
		key := u.GetKind() + " " + u.GetNamespace() + "/" + u.GetName()
		out[key] = it["status"]
		// Objects are applied server-side, so the server keeps managedFields on
		// them; like kubectl, the tool does not print them.
		if u.GetManagedFields() != nil {
			t.Errorf("render status %v printed metadata.managedFields of %s", args, key)
		}
	}
	return out
}

// writeManifests writes objects as one multi-document YAML file and returns its
// path relative to the repo root (where gwtls runs).
func writeManifests(t *testing.T, objs []*unstructured.Unstructured) string {
	t.Helper()
	var buf bytes.Buffer
	for _, u := range objs {
		y, err := yaml.Marshal(u.Object)
		if err != nil {
			t.Fatal(err)
		}
		buf.WriteString("---\n")
		buf.Write(y)
	}
	p := filepath.Join(t.TempDir(), "objects.yaml")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// l4Manifest covers the kinds no golden input has: GRPCRoute, TCPRoute and UDPRoute.
const l4Manifest = `apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: gwtls-l4
spec:
  controllerName: example.com/gateway-controller
---
apiVersion: v1
kind: Namespace
metadata:
  name: l4
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: l4
  namespace: l4
spec:
  gatewayClassName: gwtls-l4
  listeners:
  - name: grpc
    port: 80
    protocol: HTTP
    hostname: grpc.example.com
  - name: tcp
    port: 5432
    protocol: TCP
  - name: udp
    port: 53
    protocol: UDP
---
apiVersion: gateway.networking.k8s.io/v1
kind: GRPCRoute
metadata:
  name: grpc
  namespace: l4
spec:
  parentRefs:
  - name: l4
    sectionName: grpc
  hostnames:
  - grpc.example.com
  rules:
  - backendRefs:
    - name: grpc
      port: 9000
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata:
  name: db
  namespace: l4
spec:
  parentRefs:
  - name: l4
    sectionName: tcp
  rules:
  - backendRefs:
    - name: db
      port: 5432
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: UDPRoute
metadata:
  name: dns
  namespace: l4
spec:
  parentRefs:
  - name: l4
    sectionName: udp
  rules:
  - backendRefs:
    - name: dns-missing
      port: 53
---
apiVersion: v1
kind: Service
metadata:
  name: grpc
  namespace: l4
spec:
  ports:
  - port: 9000
---
apiVersion: v1
kind: Service
metadata:
  name: db
  namespace: l4
spec:
  ports:
  - port: 5432
`

// The same objects give the same findings and the same status read from the
// cluster (-A) as from files: every kind, TLSRoutes written as v1, v1alpha3 and
// v1alpha2, Namespace labels feeding allowedRoutes selectors.
func TestClusterMatchesFiles(t *testing.T) {
	env := clusterSetup(t)
	l4 := filepath.Join(t.TempDir(), "l4.yaml")
	if err := os.WriteFile(l4, []byte(l4Manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, input := range []string{
		"testdata/examples/shop",
		"testdata/golden/tlsroute-api-versions.yaml",
		"testdata/golden/route-namespace-selector.yaml",
		"testdata/golden/backendtlspolicy-accepted.yaml",
		"testdata/golden/cross-namespace-without-grants.yaml",
		"testdata/golden/listener-certificate-malformed-secret.yaml",
		"testdata/golden/listenerset-route-attachment.yaml",
		"testdata/golden/listener-hostname-conflict.yaml",
		l4,
	} {
		name := strings.TrimSuffix(filepath.Base(input), ".yaml")
		if input == l4 {
			name = "grpc-tcp-udp"
		}
		t.Run(name, func(t *testing.T) {
			objs := readManifests(t, input)
			env.apply(t, objs)

			// No controller runs here: drift (TestClusterDrift) would report every
			// class as unserved, which files, without status, do not carry. The
			// files are held to the CRDs the cluster serves (the experimental
			// channel's, which warn about nothing else): the same objects, the
			// same CRDs, the same answer.
			fromCluster, rc := analyzeJSON(t, "--kubeconfig", env.admin, "-A", "--drift=false")
			fromFiles, rf := analyzeJSON(t, "-f", input, "--crds", experimentalCRDs)
			sameStrings(t, "findings", findingKeys(fromCluster), findingKeys(fromFiles))
			if rc.code != rf.code {
				t.Errorf("exit %d from the cluster, %d from files", rc.code, rf.code)
			}
			for _, f := range fromCluster.Findings {
				if f.Source.File != "cluster" {
					t.Errorf("finding from the cluster with source %+v, want file \"cluster\"", f.Source)
				}
			}
			if len(fromCluster.Unreadable) != 0 {
				t.Errorf("the admin could not read: %+v", fromCluster.Unreadable)
			}

			clusterStatus := statusItems(t, "--kubeconfig", env.admin, "-A")
			fileStatus := statusItems(t, "-f", input, "--crds", experimentalCRDs)
			if len(fileStatus) == 0 {
				t.Fatal("render status from files gave no items")
			}
			var ck, fk []string
			for k := range clusterStatus {
				ck = append(ck, k)
			}
			for k := range fileStatus {
				fk = append(fk, k)
			}
			sort.Strings(ck)
			sort.Strings(fk)
			sameStrings(t, "render status items", ck, fk)
			for k, want := range fileStatus {
				got := stripServerFields(clusterStatus[k])
				if !reflect.DeepEqual(got, stripServerFields(want)) {
					g, _ := json.MarshalIndent(got, "", "  ")
					w, _ := json.MarshalIndent(want, "", "  ")
					t.Errorf("%s .status differs\ncluster: %s\nfiles:   %s", k, g, w)
				}
			}
		})
	}
}

// stripServerFields drops observedGeneration: it echoes metadata.generation, which
// the server sets (1) and files do not have.
func stripServerFields(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			if k != "observedGeneration" {
				out[k] = stripServerFields(x)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = stripServerFields(x)
		}
		return out
	}
	return v
}

// -n reads namespaced kinds from that namespace only (cluster-scoped kinds whole):
// the result equals analyzing just those objects from a file.
func TestClusterNamespaceFlag(t *testing.T) {
	env := clusterSetup(t)
	objs := readManifests(t, "testdata/examples/shop")
	env.apply(t, objs)
	for _, ns := range []string{"shop", "infra"} {
		t.Run(ns, func(t *testing.T) {
			var subset []*unstructured.Unstructured
			for _, u := range objs {
				if !kindResources[u.GetKind()].namespaced || u.GetNamespace() == ns {
					subset = append(subset, u)
				}
			}
			file := writeManifests(t, subset)
			fromCluster, _ := analyzeJSON(t, "--kubeconfig", env.admin, "-n", ns, "--drift=false")
			// Files held to the CRDs the cluster serves, as in TestClusterMatchesFiles.
			fromFiles, _ := analyzeJSON(t, "-f", file, "-n", ns, "--crds", experimentalCRDs)
			sameStrings(t, "findings with -n "+ns, findingKeys(fromCluster), findingKeys(fromFiles))
			for _, f := range fromCluster.Findings {
				if f.Object.Namespace != "" && f.Object.Namespace != ns {
					t.Errorf("-n %s gave a finding about %+v", ns, f.Object)
				}
			}
			all, _ := analyzeJSON(t, "--kubeconfig", env.admin, "-A", "--drift=false")
			if reflect.DeepEqual(findingKeys(all), findingKeys(fromCluster)) {
				t.Errorf("-n %s gave the same findings as -A", ns)
			}
		})
	}
}

// A cluster that does not serve the Gateway API: a clear message and exit 2.
func TestClusterWithoutGatewayAPI(t *testing.T) {
	env := clusterSetup(t)
	for _, args := range [][]string{{"analyze", "-A"}, {"render", "status", "-n", "default"}} {
		r := gwtls(t, "", nil, append(args, "--kubeconfig", env.nocrd)...)
		if r.code != 2 {
			t.Errorf("%v: exit %d, want 2\n%s%s", args, r.code, r.stdout, r.stderr)
		}
		if !strings.Contains(r.stderr, "does not serve the Gateway API") || !strings.Contains(r.stderr, "install the Gateway API CRDs") {
			t.Errorf("%v: unclear message %q", args, r.stderr)
		}
		noStackTrace(t, r)
	}
}

// An identity that may get/list Gateway API objects in one namespace only, and no
// Secrets: the analysis runs, names what it could not read and skips the
// certificate checks instead of calling the Secrets missing.
func TestClusterRestrictedIdentity(t *testing.T) {
	env := clusterSetup(t)
	const ns = "infra"
	env.apply(t, readManifests(t, "testdata/examples/shop"))
	rbac := `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: gwtls-read-gateway-api
  namespace: infra
rules:
- apiGroups: ["gateway.networking.k8s.io"]
  resources: ["*"]
  verbs: ["get", "list"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: gwtls-restricted
  namespace: infra
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: gwtls-read-gateway-api
subjects:
- apiGroup: rbac.authorization.k8s.io
  kind: User
  name: gwtls-restricted
`
	var rbacObjs []*unstructured.Unstructured
	for _, doc := range strings.Split(rbac, "---\n") {
		u := &unstructured.Unstructured{}
		if err := yaml.Unmarshal([]byte(doc), &u.Object); err != nil {
			t.Fatal(err)
		}
		rbacObjs = append(rbacObjs, u)
	}
	env.apply(t, rbacObjs)

	var rep clusterReport
	var r result
	deadline := time.Now().Add(10 * time.Second)
	for { // the RBAC authorizer's informer picks up the RoleBinding asynchronously
		rep, r = analyzeJSON(t, "--kubeconfig", env.restricted, "-n", ns)
		if unreadable(rep, "Gateway") == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("exit %d\n%s", r.code, r.stdout)
	if u := unreadable(rep, "Gateway"); u != nil {
		t.Fatalf("Gateways in %s should be readable: %+v", ns, u)
	}
	for _, kind := range []string{"Secret", "GatewayClass", "Namespace", "Service", "ConfigMap", "CustomResourceDefinition"} {
		if unreadable(rep, kind) == nil {
			t.Errorf("no unreadable entry for %s: %+v", kind, rep.Unreadable)
		}
	}
	var secretFinding *clusterFinding
	for i, f := range rep.Findings {
		if f.Rule == "load/Unreadable" && f.Object.Kind == "Secret" {
			secretFinding = &rep.Findings[i]
		}
	}
	if secretFinding == nil {
		t.Fatalf("no load/Unreadable finding names Secrets: %+v", rep.Findings)
	}
	if secretFinding.Object.Namespace != ns || !strings.Contains(secretFinding.Message, "forbidden") || !strings.Contains(secretFinding.Message, "skipped") {
		t.Errorf("Secret finding: %+v", *secretFinding)
	}
	// It may not read the CRDs either: the objects are held to the built-in
	// ones, and the report says so.
	if rep.Admission.CRDs != "Gateway API v1.6.3 experimental channel, built in" || !strings.Contains(rep.Admission.Note, "may not read customresourcedefinitions.apiextensions.k8s.io") {
		t.Errorf("admission %+v, want the built-in CRDs and why", rep.Admission)
	}
	// The listener's certificate Secret exists; it is unreadable, not missing.
	for _, f := range rep.Findings {
		if f.Severity == "error" && strings.Contains(f.Message, "shop-wildcard") {
			t.Errorf("certificate check not skipped: %s", f.key())
		}
	}
	// The text output says so too, and there is no stack trace.
	text := gwtls(t, "", nil, "analyze", "--kubeconfig", env.restricted, "-n", ns, "--now", clusterNow)
	if text.code != 0 && text.code != 1 {
		t.Errorf("text output: exit %d\n%s", text.code, text.stderr)
	}
	noStackTrace(t, text)
	if !strings.Contains(text.stdout, "load/Unreadable") || !strings.Contains(text.stdout, "could not read Secret") {
		t.Errorf("text output does not report the unreadable Secrets:\n%s", text.stdout)
	}

	// Cluster-wide it may list nothing at all: an empty input, exit 2 unless
	// --allow-empty says it is expected; still no crash.
	none := gwtls(t, "", nil, "analyze", "--kubeconfig", env.restricted, "-A")
	if none.code != 2 || !strings.Contains(none.stderr, "no Gateway API object to analyze") || !strings.Contains(none.stderr, "the identity may not list") {
		t.Errorf("-A, nothing readable: exit %d, stderr %q", none.code, none.stderr)
	}
	noStackTrace(t, none)
	all, ra := analyzeJSON(t, "--kubeconfig", env.restricted, "-A", "--allow-empty")
	if unreadable(all, "Gateway") == nil {
		t.Errorf("-A: Gateways should be unreadable cluster-wide: %+v", all.Unreadable)
	}
	noStackTrace(t, ra)
}

func unreadable(rep clusterReport, kind string) *struct{ Kind, Namespace, Reason string } {
	for i, u := range rep.Unreadable {
		if u.Kind == kind {
			return &rep.Unreadable[i]
		}
	}
	return nil
}

// Lists are paginated (limit/continue): a page size far below the object count reads
// every object once, the same as one big page or no pages at all (--chunk-size 0).
// This calls the loader directly.
func TestClusterPagination(t *testing.T) {
	env := clusterSetup(t)
	var objs []*unstructured.Unstructured
	ns := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "paging"}}}
	objs = append(objs, ns)
	for i := 0; i < 23; i++ {
		objs = append(objs, &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
			"metadata": map[string]any{"name": fmt.Sprintf("route-%02d", i), "namespace": "paging"},
			"spec":     map[string]any{"parentRefs": []any{map[string]any{"name": "gw"}}},
		}})
	}
	env.apply(t, objs)
	cfg, err := clientcmd.BuildConfigFromFlags("", env.admin)
	if err != nil {
		t.Fatal(err)
	}
	cfg.QPS, cfg.Burst = 100, 200
	var mu sync.Mutex
	continued, unlimited := 0, 0
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			if strings.HasSuffix(req.URL.Path, "/httproutes") {
				mu.Lock()
				if req.URL.Query().Get("continue") != "" {
					continued++
				}
				if !req.URL.Query().Has("limit") {
					unlimited++
				}
				mu.Unlock()
			}
			return rt.RoundTrip(req)
		})
	})
	names := func(pageSize int64) []string {
		m, err := load.Cluster(context.Background(), load.ClusterOptions{Config: cfg, Namespace: "paging", PageSize: pageSize})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range m.Routes {
			out = append(out, r.Kind+"/"+r.ObjectMeta.Namespace+"/"+r.ObjectMeta.Name)
		}
		sort.Strings(out)
		return out
	}
	small := names(2)
	if continued < 11 {
		t.Errorf("page size 2 over 23 routes made %d continue requests, want 11", continued)
	}
	if unlimited != 0 {
		t.Errorf("page size 2 made %d list requests without a limit", unlimited)
	}
	big := names(0)
	if len(small) != 23 || !reflect.DeepEqual(small, big) {
		t.Errorf("page size 2 read %d routes, page size 500 %d:\n%v\n%v", len(small), len(big), small, big)
	}
	// --chunk-size 0: one request per kind, no limit, no continue.
	before := continued
	whole := names(-1)
	if unlimited != 1 || continued != before {
		t.Errorf("page size -1 made %d unlimited and %d continue requests, want 1 and 0", unlimited, continued-before)
	}
	if !reflect.DeepEqual(whole, big) {
		t.Errorf("one response read %d routes, pages of 500 %d", len(whole), len(big))
	}

	// On a terminal, a line per kind listed overwrites the last one, and the
	// line is cleared at the end so that output starts on a clean line.
	var progress bytes.Buffer
	if _, err := load.Cluster(context.Background(), load.ClusterOptions{Config: cfg, Namespace: "paging", Progress: &progress}); err != nil {
		t.Fatal(err)
	}
	p := progress.String()
	if !regexp.MustCompile(`^(\rloading: \d+ kinds listed, last \w+ \(\d+\) +)+\r\x1b\[K$`).MatchString(p) || !strings.Contains(p, "last httproutes (23)") {
		t.Errorf("progress output %q: want one \\r-led line per kind (httproutes with 23), then a cleared line", p)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// experimentalCRDs is the repository's copy of the CRDs the test API server
// serves (hack/apiserver.sh installs v1.6.3's experimental channel).
const experimentalCRDs = "admit/crds/v1.6.3/experimental"

// TestClusterReadsItsCRDs: a cluster's objects are held to the CRDs it serves,
// which the output names; with --crds, to the user's. An object the CRDs
// given refuse that the cluster stored (a field of the experimental channel,
// held to the standard channel's CRDs) stays in the analysis, with a warning.
func TestClusterReadsItsCRDs(t *testing.T) {
	env := clusterSetup(t)
	objs := readManifests(t, "testdata/examples/shop")
	extra := &unstructured.Unstructured{}
	if err := yaml.Unmarshal([]byte(`apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: defaults
  namespace: shop
spec:
  useDefaultGateways: All
  hostnames: [defaults.shop.example.com]
`), &extra.Object); err != nil {
		t.Fatal(err)
	}
	env.apply(t, append(objs, extra))

	rep, _ := analyzeJSON(t, "--kubeconfig", env.admin, "-A")
	if rep.Admission.CRDs != "Gateway API v1.6.3 experimental channel, from the cluster" || rep.Admission.Refused != 0 || rep.Admission.Note != "" {
		t.Errorf("admission %+v, want the cluster's experimental CRDs, nothing refused", rep.Admission)
	}
	for _, f := range rep.Findings {
		if strings.HasPrefix(f.Rule, "schema/") {
			t.Errorf("the cluster's own CRDs refuse what it stored: %s", f.key())
		}
	}

	rep, _ = analyzeJSON(t, "--kubeconfig", env.admin, "-A", "--crds", "admit/crds/v1.6.3/standard")
	if rep.Admission.CRDs != "Gateway API v1.6.3 standard channel, from admit/crds/v1.6.3/standard" || rep.Admission.Refused != 1 {
		t.Errorf("--crds standard: admission %+v, want 1 object refused", rep.Admission)
	}
	var stored *clusterFinding
	for i, f := range rep.Findings {
		if f.Rule == "schema/Invalid" {
			stored = &rep.Findings[i]
		}
	}
	if stored == nil || stored.Severity != "warning" || stored.Object.Name != "defaults" || stored.Field != "spec.useDefaultGateways" ||
		!strings.Contains(stored.Message, "the cluster stored it under earlier CRDs") || stored.Source.File != "cluster" {
		t.Errorf("stored refusal: %+v, want a warning on HTTPRoute shop/defaults, spec.useDefaultGateways", stored)
	}
	if _, ok := statusItems(t, "--kubeconfig", env.admin, "-A", "--crds", "admit/crds/v1.6.3/standard")["HTTPRoute shop/defaults"]; !ok {
		t.Error("render status leaves out the route the cluster stored")
	}

	standard := filepath.Join(filepath.Dir(env.admin), "standard.kubeconfig")
	rep, _ = analyzeJSON(t, "--kubeconfig", standard, "-A", "--allow-empty")
	if rep.Admission.CRDs != "Gateway API v1.6.3 standard channel, from the cluster" {
		t.Errorf("the standard-channel API server: admission %+v", rep.Admission)
	}
}
