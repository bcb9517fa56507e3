package e2e

// Drift against a real kube-apiserver: an identity acting as a controller
// writes statuses through the status subresource, and analyze (the built
// binary, in cluster mode) reports exactly where they differ from the spec.

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"
)

// driftManifest: two served Gateways and their routes, and a class no
// controller serves with a Gateway and a route of its own.
const driftManifest = `apiVersion: v1
kind: Namespace
metadata:
  name: drift-infra
---
apiVersion: v1
kind: Namespace
metadata:
  name: drift-apps
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: drift-served
spec:
  controllerName: example.com/drift-controller
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: drift-idle
spec:
  controllerName: example.com/nobody
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: edge
  namespace: drift-infra
spec:
  gatewayClassName: drift-served
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
  name: edge2
  namespace: drift-infra
spec:
  gatewayClassName: drift-served
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
  name: idle
  namespace: drift-infra
spec:
  gatewayClassName: drift-idle
  listeners:
  - name: http
    port: 80
    protocol: HTTP
    allowedRoutes:
      namespaces:
        from: All
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: correct
  namespace: drift-apps
spec:
  parentRefs:
  - name: edge
    namespace: drift-infra
  rules:
  - backendRefs:
    - name: web
      port: 8080
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: stale
  namespace: drift-apps
spec:
  parentRefs:
  - name: edge
    namespace: drift-infra
  rules:
  - backendRefs:
    - name: web
      port: 8080
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: two-parents
  namespace: drift-apps
spec:
  parentRefs:
  - name: edge
    namespace: drift-infra
  - name: edge2
    namespace: drift-infra
  rules:
  - backendRefs:
    - name: web
      port: 8080
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: orphaned
  namespace: drift-apps
spec:
  parentRefs:
  - name: edge
    namespace: drift-infra
  rules:
  - backendRefs:
    - name: web
      port: 8080
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: idle-route
  namespace: drift-apps
spec:
  parentRefs:
  - name: idle
    namespace: drift-infra
  rules:
  - backendRefs:
    - name: web
      port: 8080
---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: drift-apps
spec:
  ports:
  - port: 8080
`

// driftRBAC: the controller may get Gateway API objects and update their
// status subresource, nothing else; the restricted identity may list every
// kind the analysis reads, and do nothing else (no get, no watch).
const driftRBAC = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: gwtls-drift-controller
rules:
- apiGroups: ["gateway.networking.k8s.io"]
  resources: ["*"]
  verbs: ["get"]
- apiGroups: ["gateway.networking.k8s.io"]
  resources: ["gatewayclasses/status", "gateways/status", "httproutes/status"]
  verbs: ["update"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: gwtls-drift-controller
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: gwtls-drift-controller
subjects:
- apiGroup: rbac.authorization.k8s.io
  kind: User
  name: gwtls-drift-controller
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: gwtls-list-only
rules:
- apiGroups: ["gateway.networking.k8s.io"]
  resources: ["*"]
  verbs: ["list"]
- apiGroups: [""]
  resources: ["namespaces", "services", "secrets", "configmaps"]
  verbs: ["list"]
- apiGroups: ["apiextensions.k8s.io"]
  resources: ["customresourcedefinitions"]
  verbs: ["list"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: gwtls-list-only
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: gwtls-list-only
subjects:
- apiGroup: rbac.authorization.k8s.io
  kind: User
  name: gwtls-restricted
`

func parseObjects(t *testing.T, manifest string) []*unstructured.Unstructured {
	t.Helper()
	var objs []*unstructured.Unstructured
	for _, doc := range strings.Split(manifest, "---\n") {
		u := &unstructured.Unstructured{}
		if err := yaml.Unmarshal([]byte(doc), &u.Object); err != nil {
			t.Fatal(err)
		}
		objs = append(objs, u)
	}
	return objs
}

// controllerClient acts as the controller: the admin impersonating the
// identity driftRBAC grants status updates.
func (env *clusterEnv) controllerClient(t *testing.T) dynamic.Interface {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", env.admin)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Impersonate = rest.ImpersonationConfig{UserName: "gwtls-drift-controller"}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return dyn
}

var (
	gatewayClassesGVR = schema.GroupVersionResource{Group: "gateway.networking.k8s.io", Version: "v1", Resource: "gatewayclasses"}
	gatewaysGVR       = schema.GroupVersionResource{Group: "gateway.networking.k8s.io", Version: "v1", Resource: "gateways"}
	httpRoutesGVR     = schema.GroupVersionResource{Group: "gateway.networking.k8s.io", Version: "v1", Resource: "httproutes"}
)

// writeStatus sets an object's status through the status subresource, as the
// controller, retrying while its RBAC grant reaches the authorizer.
func writeStatus(t *testing.T, dyn dynamic.Interface, gvr schema.GroupVersionResource, namespace, name string, status any) {
	t.Helper()
	ctx := context.Background()
	ri := dyn.Resource(gvr).Namespace(namespace)
	deadline := time.Now().Add(15 * time.Second)
	for {
		u, err := ri.Get(ctx, name, metav1.GetOptions{})
		if err == nil {
			u.Object["status"] = status
			_, err = ri.UpdateStatus(ctx, u, metav1.UpdateOptions{FieldManager: "gwtls-drift-controller"})
		}
		if err == nil {
			return
		}
		if !apierrors.IsForbidden(err) && !apierrors.IsConflict(err) || time.Now().After(deadline) {
			t.Fatalf("writing the status of %s %s/%s as the controller: %v", gvr.Resource, namespace, name, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestClusterDrift: a controller writes statuses (correct ones, one about an
// older spec, a wrong reason, a missing parent entry, an orphaned one, and
// none for a class no controller serves); analyze in cluster mode reports
// exactly those, explain shows both sides, and an identity that may only list
// reads the same.
func TestClusterDrift(t *testing.T) {
	env := clusterSetup(t)
	ctx := context.Background()
	env.apply(t, parseObjects(t, driftManifest))
	env.apply(t, parseObjects(t, driftRBAC))
	ctrl := env.controllerClient(t)
	now := time.Now().UTC().Format(time.RFC3339)

	// What a conformant controller writes: render status of the cluster as it
	// is, before any status.
	computed := map[string]map[string]any{}
	{
		r := gwtls(t, "", nil, "render", "status", "-A", "--kubeconfig", env.admin, "-o", "json", "--now", now)
		if r.code != 0 {
			t.Fatalf("render status: exit %d\n%s", r.code, r.stderr)
		}
		var list struct{ Items []map[string]any }
		if err := json.Unmarshal([]byte(r.stdout), &list); err != nil {
			t.Fatal(err)
		}
		for _, it := range list.Items {
			u := unstructured.Unstructured{Object: it}
			st, _ := it["status"].(map[string]any)
			computed[u.GetKind()+"/"+u.GetNamespace()+"/"+u.GetName()] = st
		}
	}
	status := func(key string) map[string]any {
		st, ok := computed[key]
		if !ok {
			t.Fatalf("render status gave no %s", key)
		}
		return st
	}
	cond := func(typ, status, reason string) map[string]any {
		return map[string]any{"type": typ, "status": status, "reason": reason, "message": "", "observedGeneration": int64(1), "lastTransitionTime": now}
	}

	// The served class, accepted; the idle class keeps the API server's default.
	writeStatus(t, ctrl, gatewayClassesGVR, "", "drift-served", map[string]any{"conditions": []any{cond("Accepted", "True", "Accepted")}})
	// Gateway edge as the spec says; edge2 accepted with a wrong reason.
	writeStatus(t, ctrl, gatewaysGVR, "drift-infra", "edge", status("Gateway/drift-infra/edge"))
	edge2 := status("Gateway/drift-infra/edge2")
	for _, c := range edge2["conditions"].([]any) {
		if c := c.(map[string]any); c["type"] == "Accepted" {
			c["reason"] = "ListenersNotValid"
		}
	}
	writeStatus(t, ctrl, gatewaysGVR, "drift-infra", "edge2", edge2)
	// Routes: correct, with an implementation-specific condition beside;
	// stale (its spec changes below); one parent entry of two; an extra entry
	// for a parent the spec does not name.
	correct := status("HTTPRoute/drift-apps/correct")
	parent := correct["parents"].([]any)[0].(map[string]any)
	parent["conditions"] = append(parent["conditions"].([]any), cond("example.com/Synced", "True", "Synced"))
	writeStatus(t, ctrl, httpRoutesGVR, "drift-apps", "correct", correct)
	writeStatus(t, ctrl, httpRoutesGVR, "drift-apps", "stale", status("HTTPRoute/drift-apps/stale"))
	two := status("HTTPRoute/drift-apps/two-parents")
	two["parents"] = two["parents"].([]any)[:1]
	writeStatus(t, ctrl, httpRoutesGVR, "drift-apps", "two-parents", two)
	orphaned := status("HTTPRoute/drift-apps/orphaned")
	extra, _ := json.Marshal(orphaned["parents"].([]any)[0])
	var gone map[string]any
	_ = json.Unmarshal(extra, &gone)
	gone["parentRef"].(map[string]any)["name"] = "edge2"
	orphaned["parents"] = append(orphaned["parents"].([]any), gone)
	writeStatus(t, ctrl, httpRoutesGVR, "drift-apps", "orphaned", orphaned)

	// The controller may not touch a spec: its grant is the status subresource.
	if _, err := ctrl.Resource(httpRoutesGVR).Namespace("drift-apps").Patch(ctx, "stale", "application/merge-patch+json",
		[]byte(`{"spec":{"hostnames":["stale.example.com"]}}`), metav1.PatchOptions{}); !apierrors.IsForbidden(err) {
		t.Errorf("the controller identity patched a spec: %v", err)
	}
	// The user changes the stale route's spec after its status was written.
	if _, err := env.dyn.Resource(httpRoutesGVR).Namespace("drift-apps").Patch(ctx, "stale", "application/merge-patch+json",
		[]byte(`{"spec":{"hostnames":["stale.example.com"]}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}

	want := []string{
		"warning drift/ConditionMismatch Gateway/drift-infra/edge2 status",
		"warning drift/OrphanedStatus HTTPRoute/drift-apps/orphaned status.parents[1]",
		"warning drift/StaleGeneration HTTPRoute/drift-apps/stale status",
		"warning drift/StatusMissing GatewayClass//drift-idle status",
		"warning drift/StatusMissing HTTPRoute/drift-apps/two-parents spec.parentRefs[1]",
	}
	placed := func(rep clusterReport) []string {
		var out []string
		for _, f := range rep.Findings {
			out = append(out, f.Severity+" "+f.Rule+" "+f.Object.Kind+"/"+f.Object.Namespace+"/"+f.Object.Name+" "+f.Field)
		}
		slices.Sort(out)
		return out
	}

	// The identity that may only list reads every status the controller wrote.
	var restricted clusterReport
	var rr result
	deadline := time.Now().Add(15 * time.Second)
	for { // the RBAC authorizer picks up the binding asynchronously
		restricted, rr = analyzeJSON(t, "--kubeconfig", env.restricted, "-A", "--now", now, "--fail-on", "warning")
		if len(restricted.Unreadable) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if len(restricted.Unreadable) != 0 {
		t.Fatalf("the list-only identity could not read: %+v", restricted.Unreadable)
	}
	if got := placed(restricted); !slices.Equal(got, want) {
		t.Errorf("drift findings from the cluster:\n  %s\nwant exactly:\n  %s\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), rr.stdout)
	}
	if rr.code != 1 {
		t.Errorf("--fail-on warning: exit %d, want 1", rr.code)
	}
	for _, f := range restricted.Findings {
		switch f.Rule {
		case "drift/StatusMissing":
			if f.Object.Kind == "GatewayClass" && (!strings.Contains(f.Message, "it has existed for") || !strings.Contains(f.Message, "1 Gateway and 1 route depend on it")) {
				t.Errorf("the idle class's finding does not say how long it has existed and what it takes along: %s", f.Message)
			}
		case "drift/ConditionMismatch":
			if !strings.Contains(f.Message, "wrote True (ListenersNotValid)") || !strings.Contains(f.Message, "the spec says True (Accepted)") {
				t.Errorf("the mismatch does not name both answers: %s", f.Message)
			}
		}
	}
	t.Logf("%s", gwtls(t, "", nil, "analyze", "-A", "--kubeconfig", env.restricted, "--now", now, "-o", "wide", "--color", "never").stdout)
	admin, _ := analyzeJSON(t, "--kubeconfig", env.admin, "-A", "--now", now)
	sameStrings(t, "findings of the admin and of the list-only identity", findingKeys(admin), findingKeys(restricted))
	// Off, drift reports nothing, and the default --fail-on (error) passes.
	off, ro := analyzeJSON(t, "--kubeconfig", env.restricted, "-A", "--now", now, "--drift=false")
	if len(off.Findings) != 0 || ro.code != 0 {
		t.Errorf("--drift=false: exit %d, findings %+v", ro.code, off.Findings)
	}

	// explain shows what the controller wrote beside what the spec says, and
	// why the spec says it; for the stale route, that it is behind.
	x := gwtls(t, "", nil, "explain", "gateway/edge2", "-n", "drift-infra", "--kubeconfig", env.restricted, "--now", now, "--color", "never")
	for _, s := range []string{"spec says", "controller wrote (example.com/drift-controller)", "True (ListenersNotValid)", "✗ differs", "decided by:"} {
		if !strings.Contains(x.stdout, s) {
			t.Errorf("explain gateway/edge2 does not show %q:\n%s%s", s, x.stdout, x.stderr)
		}
	}
	x = gwtls(t, "", nil, "explain", "httproute/stale", "-n", "drift-apps", "--kubeconfig", env.restricted, "--now", now, "--color", "never")
	if !strings.Contains(x.stdout, "last processed generation 1") || !strings.Contains(x.stdout, "metadata.generation is 2") {
		t.Errorf("explain httproute/stale does not say the controller is behind:\n%s%s", x.stdout, x.stderr)
	}
	// render status --diff shows the two sides of each object that differs.
	d := gwtls(t, "", nil, "render", "status", "--diff", "-A", "--kubeconfig", env.restricted, "--now", now)
	for _, s := range []string{"--- written: Gateway drift-infra/edge2 (cluster)", "+++ spec: Gateway drift-infra/edge2", "-  reason: ListenersNotValid", "+  reason: Accepted"} {
		if !strings.Contains(d.stdout, s) {
			t.Errorf("render status --diff does not show %q:\n%s%s", s, d.stdout, d.stderr)
		}
	}
}
