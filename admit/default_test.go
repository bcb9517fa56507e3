package admit_test

import (
	"encoding/json"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
)

// Default applies the CRD's defaults and refuses nothing: an object the API
// server refuses is defaulted all the same, and one no CRD serves is not.
func TestDefault(t *testing.T) {
	a := builtin(t, admit.Experimental)
	for _, tc := range []struct {
		name, apiVersion, kind, object, want string
	}{{
		name:       "a Gateway the API server refuses (two listeners named http) gets its listeners' defaults",
		apiVersion: v1, kind: "Gateway",
		object: gateway(`{"name":"http","port":80,"protocol":"HTTP"}`, `{"name":"http","port":8080,"protocol":"HTTP","hostname":"*"}`),
		want: `{"apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway","metadata":{"name":"gw","namespace":"infra"},
		  "spec":{"gatewayClassName":"example","listeners":[
		    {"allowedRoutes":{"namespaces":{"from":"Same"}},"name":"http","port":80,"protocol":"HTTP"},
		    {"allowedRoutes":{"namespaces":{"from":"Same"}},"name":"http","port":8080,"protocol":"HTTP","hostname":"*"}]}}`,
	}, {
		name:       "unknown fields are kept: nothing is pruned",
		apiVersion: v1, kind: "HTTPRoute",
		object: httpRoute(`{"parentRef":[{"name":"gw"}],"parentRefs":[{"name":"gw"}]}`),
		want: `{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"web","namespace":"app"},
		  "spec":{"parentRef":[{"name":"gw"}],"parentRefs":[{"group":"gateway.networking.k8s.io","kind":"Gateway","name":"gw"}],
		    "rules":[{"matches":[{"path":{"type":"PathPrefix","value":"/"}}]}]}}`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			obj, ok := a.Default(tc.apiVersion, tc.kind, []byte(tc.object))
			if !ok {
				t.Fatal("not defaulted")
			}
			got, err := json.Marshal(obj)
			if err != nil {
				t.Fatal(err)
			}
			if !jsonEqual(t, got, []byte(tc.want)) {
				t.Errorf("defaulted:\n got %s\nwant %s", got, compact(t, tc.want))
			}
		})
	}
	for _, tc := range []struct{ name, apiVersion, kind, object string }{
		{"a version no CRD serves", "gateway.networking.k8s.io/v1alpha2", "GRPCRoute", `{"kind":"GRPCRoute"}`},
		{"a kind no CRD defines", v1, "Mesh", `{"kind":"Mesh"}`},
		{"not a JSON object", v1, "Gateway", `["spec"]`},
	} {
		if obj, ok := a.Default(tc.apiVersion, tc.kind, []byte(tc.object)); ok || obj != nil {
			t.Errorf("%s: defaulted %v", tc.name, obj)
		}
	}
}
