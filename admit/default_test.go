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

// TypedDefaults gives a decoded Go value the same defaults Default gives the
// JSON object: where a field is absent, never where it is written, never under
// a status nobody wrote, and never one value shared by two objects but the
// pointee of a pointer to a scalar, which every object shares (nothing
// writes through a pointer of the model).
func TestTypedDefaults(t *testing.T) {
	a := builtin(t, admit.Experimental)
	for _, tc := range []struct {
		name, kind, object string
	}{
		{"a Gateway's listeners get allowedRoutes", "Gateway", gateway(`{"name":"http","port":80,"protocol":"HTTP"}`, `{"name":"tls","port":443,"protocol":"TLS","tls":{"mode":"Passthrough"},"allowedRoutes":{"namespaces":{"from":"All"}}}`)},
		{"a route's parentRefs, matches and backendRefs get theirs", "HTTPRoute", httpRoute(`{"parentRefs":[{"name":"gw"},{"name":"other","kind":"ListenerSet","group":"gateway.networking.k8s.io"}],"rules":[{"backendRefs":[{"name":"svc","port":80}]},{"matches":[{"headers":[{"name":"a","value":"b"}]}]}]}`)},
		{"a written status gets the defaults under it", "GatewayClass", `{"apiVersion":"gateway.networking.k8s.io/v1","kind":"GatewayClass","metadata":{"name":"c"},"spec":{"controllerName":"example.com/c"},"status":{"supportedFeatures":[{"name":"HTTPRoute"}]}}`},
		{"no status is defaulted where none is written", "GatewayClass", `{"apiVersion":"gateway.networking.k8s.io/v1","kind":"GatewayClass","metadata":{"name":"c"},"spec":{"controllerName":"example.com/c"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, ok := a.Default(v1, tc.kind, []byte(tc.object))
			if !ok {
				t.Fatal("not defaulted")
			}
			apply, ok := a.TypedDefaults(v1, tc.kind)
			if !ok {
				t.Fatal("no typed defaults")
			}
			var got, again struct {
				APIVersion string          `json:"apiVersion"`
				Kind       string          `json:"kind"`
				Metadata   map[string]any  `json:"metadata"`
				Spec       *routeOrGateway `json:"spec"`
				Status     *classStatus    `json:"status,omitempty"`
			}
			for _, v := range []any{&got, &again} {
				if err := json.Unmarshal([]byte(tc.object), v); err != nil {
					t.Fatal(err)
				}
				apply(v)
			}
			gotJSON, _ := json.Marshal(got)
			wantJSON, _ := json.Marshal(want)
			if !jsonEqual(t, gotJSON, wantJSON) {
				t.Errorf("typed defaults:\n got %s\nwant %s", gotJSON, wantJSON)
			}
			if got.Spec != nil && len(got.Spec.ParentRefs) > 0 {
				g, a := got.Spec.ParentRefs[0], again.Spec.ParentRefs[0]
				if g.Kind == nil || g.Kind != a.Kind || g.Group != a.Group {
					t.Errorf("parentRef defaults: kind %p and %p, group %p and %p: want one pointee each, shared", g.Kind, a.Kind, g.Group, a.Group)
				}
			}
			if got.Spec != nil && len(got.Spec.Listeners) > 0 && got.Spec.Listeners[0].AllowedRoutes != nil {
				got.Spec.Listeners[0].AllowedRoutes.Namespaces.From = "Changed"
				if again.Spec.Listeners[0].AllowedRoutes.Namespaces.From == "Changed" {
					t.Error("two objects share one default")
				}
			}
		})
	}
	if _, ok := a.TypedDefaults("gateway.networking.k8s.io/v1alpha2", "GRPCRoute"); ok {
		t.Error("typed defaults for a version no CRD serves")
	}
}

// routeOrGateway and classStatus hold the fields TestTypedDefaults's objects
// write or are given, as a Go type with pointers where a field may be absent.
type routeOrGateway struct {
	GatewayClassName string `json:"gatewayClassName,omitempty"`
	ControllerName   string `json:"controllerName,omitempty"`
	Listeners        []struct {
		Name     string `json:"name"`
		Port     int    `json:"port"`
		Protocol string `json:"protocol"`
		TLS      *struct {
			Mode *string `json:"mode,omitempty"`
		} `json:"tls,omitempty"`
		AllowedRoutes *struct {
			Namespaces *struct {
				From string `json:"from,omitempty"`
			} `json:"namespaces,omitempty"`
		} `json:"allowedRoutes,omitempty"`
	} `json:"listeners,omitempty"`
	ParentRefs []struct {
		Group *string `json:"group,omitempty"`
		Kind  *string `json:"kind,omitempty"`
		Name  string  `json:"name"`
	} `json:"parentRefs,omitempty"`
	Rules []struct {
		Matches []struct {
			Path *struct {
				Type  *string `json:"type,omitempty"`
				Value *string `json:"value,omitempty"`
			} `json:"path,omitempty"`
			Headers []struct {
				Type  *string `json:"type,omitempty"`
				Name  string  `json:"name"`
				Value string  `json:"value"`
			} `json:"headers,omitempty"`
		} `json:"matches,omitempty"`
		BackendRefs []struct {
			Group  *string `json:"group,omitempty"`
			Kind   *string `json:"kind,omitempty"`
			Name   string  `json:"name"`
			Port   int     `json:"port"`
			Weight *int    `json:"weight,omitempty"`
		} `json:"backendRefs,omitempty"`
	} `json:"rules,omitempty"`
}

type classStatus struct {
	Conditions        []map[string]any `json:"conditions,omitempty"`
	SupportedFeatures []struct {
		Name string `json:"name"`
	} `json:"supportedFeatures,omitempty"`
}

// TypedDefaultsUnchanged sees a write through a default's shared scalar
// pointee: every later object defaulted would get the written value.
func TestTypedDefaultsUnchangedSeesWrites(t *testing.T) {
	a := builtin(t, admit.Experimental)
	apply, ok := a.TypedDefaults(v1, "HTTPRoute")
	if !ok {
		t.Fatal("no typed defaults")
	}
	var r struct {
		Spec routeOrGateway `json:"spec"`
	}
	if err := json.Unmarshal([]byte(httpRoute(`{"parentRefs":[{"name":"gw"}]}`)), &r); err != nil {
		t.Fatal(err)
	}
	apply(&r)
	if err := admit.TypedDefaultsUnchanged(); err != nil {
		t.Fatalf("before any write: %v", err)
	}
	kind := r.Spec.ParentRefs[0].Kind
	was := *kind
	*kind = "Written"
	err := admit.TypedDefaultsUnchanged()
	*kind = was
	if err == nil {
		t.Error("a write through a shared default is not reported")
	}
	if err := admit.TypedDefaultsUnchanged(); err != nil {
		t.Errorf("after the write is undone: %v", err)
	}
}
