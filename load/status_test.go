package load

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// statusDump is what `kubectl get gateway,httproute,... -o yaml` prints: a List
// whose items carry the status their controller wrote.
const statusDump = `apiVersion: v1
kind: List
items:
- apiVersion: gateway.networking.k8s.io/v1
  kind: GatewayClass
  metadata: {name: gc, generation: 1}
  spec: {controllerName: example.com/c}
  status:
    conditions:
    - {type: Accepted, status: "True", reason: Accepted, observedGeneration: 1, lastTransitionTime: "2026-01-01T00:00:00Z", message: ""}
- apiVersion: gateway.networking.k8s.io/v1
  kind: Gateway
  metadata: {name: gw, namespace: infra, generation: 3}
  spec:
    gatewayClassName: gc
    listeners: [{name: http, port: 80, protocol: HTTP}]
  status:
    attachedListenerSets: 1
    conditions:
    - {type: Accepted, status: "True", reason: Accepted, observedGeneration: 2, lastTransitionTime: "2026-01-01T00:00:00Z", message: ""}
    listeners:
    - name: http
      attachedRoutes: 4
      supportedKinds: [{kind: HTTPRoute}]
      conditions:
      - {type: Programmed, status: "False", reason: Pending, observedGeneration: 2, lastTransitionTime: "2026-01-01T00:00:00Z", message: ""}
- apiVersion: gateway.networking.k8s.io/v1
  kind: ListenerSet
  metadata: {name: ls, namespace: infra}
  spec:
    parentRef: {name: gw}
    listeners: [{name: extra, port: 81, protocol: HTTP}]
  status:
    conditions:
    - {type: Accepted, status: "False", reason: NotAllowed, lastTransitionTime: "2026-01-01T00:00:00Z", message: ""}
    listeners:
    - {name: extra, attachedRoutes: 2, supportedKinds: [], conditions: []}
- apiVersion: gateway.networking.k8s.io/v1
  kind: BackendTLSPolicy
  metadata: {name: p, namespace: apps}
  spec:
    targetRefs: [{group: "", kind: Service, name: svc}]
    validation: {hostname: svc.example.com, wellKnownCACertificates: System}
  status:
    ancestors:
    - ancestorRef: {name: gw, namespace: infra}
      controllerName: example.com/c
      conditions:
      - {type: Accepted, status: "True", reason: Accepted, lastTransitionTime: "2026-01-01T00:00:00Z", message: ""}
`

// routeWithStatus is a route of a kind whose status names two parents, one
// per controller.
func routeWithStatus(apiVersion, kind string) string {
	return fmt.Sprintf(`- apiVersion: %s
  kind: %s
  metadata: {name: r, namespace: apps, generation: 2}
  spec:
    parentRefs: [{name: gw, namespace: infra}]
  status:
    parents:
    - parentRef: {name: gw, namespace: infra}
      controllerName: example.com/c
      conditions:
      - {type: Accepted, status: "False", reason: NotAllowedByListeners, observedGeneration: 1, lastTransitionTime: "2026-01-01T00:00:00Z", message: ""}
    - parentRef: {name: old, namespace: infra, sectionName: https}
      controllerName: example.com/other
      conditions: []
`, apiVersion, kind)
}

// TestDecodeKeepsWrittenStatus: the status a controller wrote is in the model
// beside the spec, per object, per listener, per route parent (with its
// controllerName) and per policy ancestor, for every kind that has one, read
// from a dump (a List) as from a cluster's list page.
func TestDecodeKeepsWrittenStatus(t *testing.T) {
	routes := []string{
		routeWithStatus("gateway.networking.k8s.io/v1", "HTTPRoute"),
		routeWithStatus("gateway.networking.k8s.io/v1", "GRPCRoute"),
		routeWithStatus("gateway.networking.k8s.io/v1alpha2", "TLSRoute"),
		routeWithStatus("gateway.networking.k8s.io/v1alpha2", "TCPRoute"),
		routeWithStatus("gateway.networking.k8s.io/v1alpha2", "UDPRoute"),
	}
	m, _ := mustLoad(t, statusDump+strings.Join(routes, ""))
	checkWrittenStatus(t, m)

	// A list page: the same items, each as the API server returns it.
	page := &model.Model{}
	for _, doc := range []struct{ apiVersion, kind, item string }{
		{"gateway.networking.k8s.io/v1", "Gateway", `{"metadata":{"name":"gw","namespace":"infra","generation":3},"spec":{"gatewayClassName":"gc","listeners":[{"name":"http","port":80,"protocol":"HTTP"}]},"status":{"attachedListenerSets":1,"conditions":[{"type":"Accepted","status":"True","reason":"Accepted","observedGeneration":2,"lastTransitionTime":"2026-01-01T00:00:00Z","message":""}],"listeners":[{"name":"http","attachedRoutes":4,"supportedKinds":[{"kind":"HTTPRoute"}],"conditions":[]}]}}`},
		{"gateway.networking.k8s.io/v1", "HTTPRoute", `{"metadata":{"name":"r","namespace":"apps","generation":2},"spec":{"parentRefs":[{"name":"gw","namespace":"infra"}]},"status":{"parents":[{"parentRef":{"name":"gw","namespace":"infra"},"controllerName":"example.com/c","conditions":[{"type":"Accepted","status":"False","reason":"NotAllowedByListeners","observedGeneration":1,"lastTransitionTime":"2026-01-01T00:00:00Z","message":""}]}]}}`},
	} {
		objs, err := decodePage([]json.RawMessage{json.RawMessage(doc.item)}, header{APIVersion: doc.apiVersion, Kind: doc.kind}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range objs.objects {
			o.addTo(page)
		}
	}
	if gw := page.Gateways[0].Obj.Status; len(gw.Conditions) != 1 || gw.Listeners[0].AttachedRoutes != 4 {
		t.Errorf("Gateway from a list page: status %+v", gw)
	}
	if st := page.Routes[0].Status; len(st.Parents) != 1 || st.Parents[0].ControllerName != "example.com/c" {
		t.Errorf("HTTPRoute from a list page: status %+v", st)
	}
}

func checkWrittenStatus(t *testing.T, m *model.Model) {
	t.Helper()
	if len(m.GatewayClasses) != 1 || len(m.Gateways) != 1 || len(m.ListenerSets) != 1 || len(m.BackendTLSPolicies) != 1 || len(m.Routes) != 5 {
		t.Fatalf("model: %d classes, %d gateways, %d listenersets, %d policies, %d routes", len(m.GatewayClasses), len(m.Gateways), len(m.ListenerSets), len(m.BackendTLSPolicies), len(m.Routes))
	}
	if c := m.GatewayClasses[0].Obj.Status.Conditions; len(c) != 1 || c[0].Reason != string(gwv1.GatewayClassReasonAccepted) {
		t.Errorf("GatewayClass conditions %+v", c)
	}
	gw := m.Gateways[0].Obj
	if gw.Generation != 3 || len(gw.Status.Conditions) != 1 || gw.Status.Conditions[0].ObservedGeneration != 2 {
		t.Errorf("Gateway: generation %d, conditions %+v", gw.Generation, gw.Status.Conditions)
	}
	if gw.Status.AttachedListenerSets == nil || *gw.Status.AttachedListenerSets != 1 {
		t.Errorf("Gateway attachedListenerSets %v", gw.Status.AttachedListenerSets)
	}
	if ls := gw.Status.Listeners; len(ls) != 1 || ls[0].Name != "http" || ls[0].AttachedRoutes != 4 || len(ls[0].SupportedKinds) != 1 ||
		ls[0].Conditions[0].Reason != string(gwv1.ListenerReasonPending) {
		t.Errorf("Gateway listeners %+v", ls)
	}
	if st := m.ListenerSets[0].Obj.Status; len(st.Conditions) != 1 || len(st.Listeners) != 1 || st.Listeners[0].AttachedRoutes != 2 {
		t.Errorf("ListenerSet status %+v", st)
	}
	if a := m.BackendTLSPolicies[0].Obj.Status.Ancestors; len(a) != 1 || a[0].ControllerName != "example.com/c" || a[0].AncestorRef.Name != "gw" {
		t.Errorf("BackendTLSPolicy ancestors %+v", a)
	}
	for _, r := range m.Routes {
		ps := r.Status.Parents
		if len(ps) != 2 {
			t.Errorf("%s: %d parents in status, want 2", r.Kind, len(ps))
			continue
		}
		if ps[0].ControllerName != "example.com/c" || ps[0].ParentRef.Name != "gw" || ps[0].Conditions[0].ObservedGeneration != 1 ||
			ps[0].Conditions[0].Reason != string(gwv1.RouteReasonNotAllowedByListeners) {
			t.Errorf("%s: first parent %+v", r.Kind, ps[0])
		}
		if ps[1].ControllerName != "example.com/other" || ps[1].ParentRef.SectionName == nil || *ps[1].ParentRef.SectionName != "https" {
			t.Errorf("%s: second parent %+v", r.Kind, ps[1])
		}
	}
}

// A route that carries no status has none in the model.
func TestDecodeRouteWithoutStatus(t *testing.T) {
	m, _ := mustLoad(t, routeYAML("gateway.networking.k8s.io/v1", "HTTPRoute", true))
	if st := m.Routes[0].Status; st.Parents != nil {
		t.Errorf("status %+v, want none", st)
	}
}
