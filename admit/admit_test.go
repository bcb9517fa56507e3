package admit_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
)

const v1 = "gateway.networking.k8s.io/v1"

// builtin returns the Admitter of a built-in channel, made once per test binary.
var builtin = func() func(testing.TB, admit.Channel) *admit.Admitter {
	var mu sync.Mutex
	made := map[admit.Channel]*admit.Admitter{}
	return func(tb testing.TB, ch admit.Channel) *admit.Admitter {
		tb.Helper()
		mu.Lock()
		defer mu.Unlock()
		if a := made[ch]; a != nil {
			return a
		}
		crds, err := admit.Builtin(ch)
		if err != nil {
			tb.Fatal(err)
		}
		a, err := admit.New(crds)
		if err != nil {
			tb.Fatal(err)
		}
		made[ch] = a
		return a
	}
}()

// gateway is a Gateway in namespace "infra" with the given listeners (JSON).
func gateway(listeners ...string) string {
	return `{"apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway","metadata":{"name":"gw","namespace":"infra"},
	  "spec":{"gatewayClassName":"example","listeners":[` + strings.Join(listeners, ",") + `]}}`
}

// httpRoute is an HTTPRoute "web" with the given spec (JSON).
func httpRoute(spec string) string {
	return `{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"web","namespace":"app"},"spec":` + spec + `}`
}

// The manifests issue 13 names as ones `kubectl apply` refuses, with the API
// server's own answer (e2e's TestClusterAdmission holds these answers equal to a
// kube-apiserver's).
func TestAdmitIssueExamples(t *testing.T) {
	a := builtin(t, admit.Experimental)
	for _, tc := range []struct {
		name   string
		kind   string
		object string
		want   []admit.FieldError // nil: admitted
		reason string
	}{{
		name: "two listeners named http: the listener list is a map keyed by name, and a CEL rule says so too",
		kind: "Gateway",
		object: gateway(`{"name":"http","port":80,"protocol":"HTTP"}`,
			`{"name":"http","port":8080,"protocol":"HTTP"}`),
		want: []admit.FieldError{
			{Field: "spec.listeners[1]", Message: `Duplicate value: {"name":"http"}`},
			{Field: "spec.listeners", Message: "Invalid value: Listener name must be unique within the Gateway"},
		},
		reason: `Gateway.gateway.networking.k8s.io "gw" is invalid: [spec.listeners[1]: Duplicate value: {"name":"http"}, spec.listeners: Invalid value: Listener name must be unique within the Gateway]`,
	}, {
		// v1.6.3 has no rule that an HTTPS listener names its TLS settings: the
		// certificate may come from elsewhere (spec.tls, an implementation's
		// default), so the API server admits it and the engine judges it.
		name:   "an HTTPS listener without tls is admitted by v1.6.3",
		kind:   "Gateway",
		object: gateway(`{"name":"https","port":443,"protocol":"HTTPS"}`),
	}, {
		name:   "a listener hostname * fails the Hostname pattern (a wildcard is a whole leftmost label of a longer name)",
		kind:   "Gateway",
		object: gateway(`{"name":"any","hostname":"*","port":80,"protocol":"HTTP"}`),
		want: []admit.FieldError{{
			Field:   "spec.listeners[0].hostname",
			Message: `Invalid value: "*": spec.listeners[0].hostname in body should match '^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'`,
		}},
		reason: `Gateway.gateway.networking.k8s.io "gw" is invalid: spec.listeners[0].hostname: Invalid value: "*": spec.listeners[0].hostname in body should match '^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'`,
	}, {
		name:   "a Service backendRef without port breaks the BackendRef CEL rule",
		kind:   "HTTPRoute",
		object: httpRoute(`{"parentRefs":[{"name":"gw","namespace":"infra"}],"rules":[{"backendRefs":[{"name":"web"}]}]}`),
		want: []admit.FieldError{{
			Field:   "spec.rules[0].backendRefs[0]",
			Message: "Invalid value: Must have port for Service reference",
		}},
		reason: `HTTPRoute.gateway.networking.k8s.io "web" is invalid: spec.rules[0].backendRefs[0]: Invalid value: Must have port for Service reference`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			v := a.Admit(v1, tc.kind, []byte(tc.object))
			if v.Admitted != (tc.want == nil) {
				t.Fatalf("admitted = %v, want %v (%s)", v.Admitted, tc.want == nil, v.Reason)
			}
			if !reflect.DeepEqual(v.Errors, tc.want) {
				t.Errorf("errors:\n got %q\nwant %q", v.Errors, tc.want)
			}
			if v.Reason != tc.reason {
				t.Errorf("reason:\n got %s\nwant %s", v.Reason, tc.reason)
			}
		})
	}
}

// What kubectl's --validate=strict adds: the API server's strict decoding.
func TestAdmitStrictFieldValidation(t *testing.T) {
	a := builtin(t, admit.Experimental)
	for _, tc := range []struct {
		name, object, reason string
		want                 []admit.FieldError
	}{{
		name:   "an unknown spec field",
		object: httpRoute(`{"parentRef":[{"name":"gw"}]}`),
		reason: `HTTPRoute in version "v1" cannot be handled as a HTTPRoute: strict decoding error: unknown field "spec.parentRef"`,
		want:   []admit.FieldError{{Field: "spec.parentRef", Message: "unknown field"}},
	}, {
		name:   "an unknown field deep in a list",
		object: httpRoute(`{"rules":[{"backendRefs":[{"name":"web","port":80,"weigth":2}]}]}`),
		reason: `HTTPRoute in version "v1" cannot be handled as a HTTPRoute: strict decoding error: unknown field "spec.rules[0].backendRefs[0].weigth"`,
		want:   []admit.FieldError{{Field: "spec.rules[0].backendRefs[0].weigth", Message: "unknown field"}},
	}, {
		name:   "an unknown metadata field",
		object: `{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"web","labels":{},"label":{}}}`,
		reason: `HTTPRoute in version "v1" cannot be handled as a HTTPRoute: strict decoding error: unknown field "metadata.label"`,
		want:   []admit.FieldError{{Field: "metadata.label", Message: "unknown field"}},
	}, {
		name:   "a field given twice",
		object: httpRoute(`{"hostnames":["a.example.com"],"hostnames":["b.example.com"]}`),
		reason: `HTTPRoute in version "v1" cannot be handled as a HTTPRoute: strict decoding error: duplicate field "spec.hostnames"`,
		want:   []admit.FieldError{{Field: "spec.hostnames", Message: "duplicate field"}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			v := a.Admit(v1, "HTTPRoute", []byte(tc.object))
			if v.Admitted {
				t.Fatal("admitted")
			}
			if v.Reason != tc.reason {
				t.Errorf("reason:\n got %s\nwant %s", v.Reason, tc.reason)
			}
			if !reflect.DeepEqual(v.Errors, tc.want) {
				t.Errorf("errors:\n got %q\nwant %q", v.Errors, tc.want)
			}
		})
	}
}

// ObjectMeta is validated as the API server validates a custom resource's.
func TestAdmitObjectMeta(t *testing.T) {
	a := builtin(t, admit.Experimental)
	for _, tc := range []struct {
		name, metadata string
		want           []admit.FieldError
	}{{
		name:     "a name that is not a DNS subdomain",
		metadata: `{"name":"Web_1","namespace":"app"}`,
		want:     []admit.FieldError{{Field: "metadata.name", Message: `Invalid value: "Web_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`}},
	}, {
		name:     "no name",
		metadata: `{"namespace":"app"}`,
		// Required is one of the errors after which the API server does not run
		// the CEL rules, and says so.
		want: []admit.FieldError{
			{Field: "metadata.name", Message: "Required value: name or generateName is required"},
			{Message: "Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"},
		},
	}, {
		name:     "a namespace that is not a DNS label",
		metadata: `{"name":"web","namespace":"app.team"}`,
		want:     []admit.FieldError{{Field: "metadata.namespace", Message: `Invalid value: "app.team": must not contain dots`}},
	}, {
		name:     "no namespace: kubectl sends it to its context's namespace",
		metadata: `{"name":"web"}`,
	}, {
		name:     "generateName instead of a name",
		metadata: `{"generateName":"web-","namespace":"app"}`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			obj := `{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":` + tc.metadata + `,"spec":{}}`
			v := a.Admit(v1, "HTTPRoute", []byte(obj))
			if v.Admitted != (tc.want == nil) {
				t.Fatalf("admitted = %v, want %v (%s)", v.Admitted, tc.want == nil, v.Reason)
			}
			if !reflect.DeepEqual(v.Errors, tc.want) {
				t.Errorf("errors:\n got %q\nwant %q", v.Errors, tc.want)
			}
		})
	}
}

// The defaults the API server applies are the ones the CRDs declare
// (+kubebuilder:default markers of the v1.6.3 types).
func TestAdmitDefaults(t *testing.T) {
	a := builtin(t, admit.Experimental)
	for _, tc := range []struct {
		name, kind, object, want string
	}{{
		name: "a listener's allowedRoutes, and tls mode and certificateRef group/kind",
		kind: "Gateway",
		object: gateway(`{"name":"http","port":80,"protocol":"HTTP"}`,
			`{"name":"https","port":443,"protocol":"HTTPS","tls":{"certificateRefs":[{"name":"cert"}]}}`),
		want: `{"apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway","metadata":{"name":"gw","namespace":"infra"},
		  "spec":{"gatewayClassName":"example","listeners":[
		    {"allowedRoutes":{"namespaces":{"from":"Same"}},"name":"http","port":80,"protocol":"HTTP"},
		    {"allowedRoutes":{"namespaces":{"from":"Same"}},"name":"https","port":443,"protocol":"HTTPS",
		     "tls":{"certificateRefs":[{"group":"","kind":"Secret","name":"cert"}],"mode":"Terminate"}}]}}`,
	}, {
		name:   "parentRef group and kind, backendRef group, kind and weight, and the default match",
		kind:   "HTTPRoute",
		object: httpRoute(`{"parentRefs":[{"name":"gw","namespace":"infra"}],"rules":[{"backendRefs":[{"name":"web","port":80}]}]}`),
		want: `{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"web","namespace":"app"},
		  "spec":{"parentRefs":[{"group":"gateway.networking.k8s.io","kind":"Gateway","name":"gw","namespace":"infra"}],
		    "rules":[{"backendRefs":[{"group":"","kind":"Service","name":"web","port":80,"weight":1}],
		      "matches":[{"path":{"type":"PathPrefix","value":"/"}}]}]}}`,
	}, {
		name: "a written status keeps what it says, with its defaults; creationTimestamp stays",
		kind: "HTTPRoute",
		object: `{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"web","namespace":"app","creationTimestamp":"2025-01-01T00:00:00Z"},
		  "spec":{"rules":[{"matches":[{"path":{"type":"PathPrefix","value":"/"}}]}]},"status":{"parents":[{"controllerName":"example.com/gw","parentRef":{"name":"gw"},"conditions":[]}]}}`,
		want: `{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"web","namespace":"app","creationTimestamp":"2025-01-01T00:00:00Z"},
		  "spec":{"rules":[{"matches":[{"path":{"type":"PathPrefix","value":"/"}}]}]},"status":{"parents":[{"controllerName":"example.com/gw","parentRef":{"group":"gateway.networking.k8s.io","kind":"Gateway","name":"gw"},"conditions":[]}]}}`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			v := a.Admit(v1, tc.kind, []byte(tc.object))
			if !v.Admitted {
				t.Fatalf("refused: %s", v.Reason)
			}
			got, err := v.JSON()
			if err != nil {
				t.Fatal(err)
			}
			if !jsonEqual(t, got, []byte(tc.want)) {
				t.Errorf("defaulted:\n got %s\nwant %s", got, compact(t, tc.want))
			}
		})
	}
}

// An object only the experimental channel admits is admitted with the standard
// channel's refusal, which is the warning.
func TestAdmitExperimentalOnly(t *testing.T) {
	a := builtin(t, admit.Experimental)
	for _, tc := range []struct {
		name, apiVersion, kind, object, standard string
	}{{
		name:       "a version the standard channel does not serve",
		apiVersion: "gateway.networking.k8s.io/v1alpha2",
		kind:       "TCPRoute",
		object:     `{"apiVersion":"gateway.networking.k8s.io/v1alpha2","kind":"TCPRoute","metadata":{"name":"db","namespace":"app"},"spec":{"rules":[{"backendRefs":[{"name":"db","port":5432}]}]}}`,
		standard:   `no matches for kind "TCPRoute" in version "gateway.networking.k8s.io/v1alpha2"`,
	}, {
		name:       "a field the standard channel does not have",
		apiVersion: v1,
		kind:       "HTTPRoute",
		object:     httpRoute(`{"useDefaultGateways":"All"}`),
		standard:   `HTTPRoute in version "v1" cannot be handled as a HTTPRoute: strict decoding error: unknown field "spec.useDefaultGateways"`,
	}, {
		name:       "a filter type the standard channel's enum leaves out",
		apiVersion: v1,
		kind:       "HTTPRoute",
		object:     httpRoute(`{"rules":[{"filters":[{"type":"ExternalAuth","externalAuth":{"protocol":"HTTP","http":{},"backendRef":{"name":"auth","port":80}}}]}]}`),
		standard:   `HTTPRoute in version "v1" cannot be handled as a HTTPRoute: strict decoding error: unknown field "spec.rules[0].filters[0].externalAuth"`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			v := a.Admit(tc.apiVersion, tc.kind, []byte(tc.object))
			if !v.Admitted {
				t.Fatalf("refused: %s", v.Reason)
			}
			if v.Standard == nil {
				t.Fatal("no warning")
			}
			if v.Standard.Reason != tc.standard {
				t.Errorf("standard channel:\n got %s\nwant %s", v.Standard.Reason, tc.standard)
			}
			if !strings.Contains(v.Warning(), tc.standard) {
				t.Errorf("warning %q does not say why", v.Warning())
			}
		})
	}
	v := a.Admit(v1, "HTTPRoute", []byte(httpRoute(`{}`)))
	if !v.Admitted || v.Standard != nil || v.StandardAdmits || v.Warning() != "" {
		t.Errorf("a route both channels admit: admitted %v, warning %q", v.Admitted, v.Warning())
	}
	// The experimental channel holds header values to ^[!-~]+([\t ]?[!-~]+)*$;
	// the standard channel takes any string.
	v = a.Admit(v1, "HTTPRoute", []byte(httpRoute(`{"rules":[{"matches":[{"headers":[{"name":"x-team","value":"a  b"}]}]}]}`)))
	if v.Admitted || !v.StandardAdmits || !strings.Contains(v.Warning(), "standard channel's CRDs admit") {
		t.Errorf("a header value only the standard channel takes: admitted %v, warning %q, reason %s", v.Admitted, v.Warning(), v.Reason)
	}
}

// Objects of versions no CRD serves are refused as kubectl refuses them: it has
// nowhere to send them.
func TestAdmitUnservedKinds(t *testing.T) {
	a := builtin(t, admit.Standard)
	for _, tc := range []struct{ apiVersion, kind, reason string }{
		{"gateway.networking.k8s.io/v1alpha2", "TLSRoute", `no matches for kind "TLSRoute" in version "gateway.networking.k8s.io/v1alpha2"`},
		{"gateway.networking.k8s.io/v1", "Mesh", `no matches for kind "Mesh" in version "gateway.networking.k8s.io/v1"`},
	} {
		v := a.Admit(tc.apiVersion, tc.kind, []byte(`{"apiVersion":"`+tc.apiVersion+`","kind":"`+tc.kind+`","metadata":{"name":"x"}}`))
		if v.Admitted || v.Reason != tc.reason {
			t.Errorf("%s %s: admitted %v, reason %q; want %q", tc.apiVersion, tc.kind, v.Admitted, v.Reason, tc.reason)
		}
	}
	if a.Covers("v1") || a.Covers("networking.k8s.io/v1") || !a.Covers("gateway.networking.k8s.io/v1alpha9") {
		t.Error("Covers: the CRDs cover the Gateway API group only")
	}
}

// Admit is safe for concurrent use and its verdicts do not depend on what else
// runs: every object admitted on many goroutines gets the verdict it gets alone.
func TestAdmitConcurrent(t *testing.T) {
	a := builtin(t, admit.Experimental)
	objects := []struct{ kind, json string }{
		{"Gateway", gateway(`{"name":"http","port":80,"protocol":"HTTP"}`, `{"name":"http","port":81,"protocol":"HTTP"}`)},
		{"Gateway", gateway(`{"name":"https","port":443,"protocol":"HTTPS","tls":{"certificateRefs":[{"name":"c"}]}}`)},
		{"HTTPRoute", httpRoute(`{"rules":[{"backendRefs":[{"name":"web"}]}]}`)},
		{"HTTPRoute", httpRoute(`{"parentRefs":[{"name":"gw"}],"hostnames":["a.example.com"],"rules":[{"backendRefs":[{"name":"web","port":80}]}]}`)},
		{"HTTPRoute", httpRoute(`{"useDefaultGateways":"All"}`)},
	}
	alone := make([]admit.Verdict, len(objects))
	for i, o := range objects {
		alone[i] = a.Admit(v1, o.kind, []byte(o.json))
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for n := range 50 {
				i := (g + n) % len(objects)
				if got := a.Admit(v1, objects[i].kind, []byte(objects[i].json)); !reflect.DeepEqual(got, alone[i]) {
					t.Errorf("object %d: concurrent verdict\n%+v\nalone\n%+v", i, got, alone[i])
					return
				}
			}
		})
	}
	wg.Wait()
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}

func compact(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// The API server reports the CEL errors of sibling fields in Go's map order; the
// Admitter reports them in one of those orders, the same every time.
func TestAdmitErrorOrderIsStable(t *testing.T) {
	a := builtin(t, admit.Experimental)
	route := httpRoute(`{"parentRefs":[{"name":"gw"},{"name":"gw","sectionName":"a"}],
	  "rules":[{"name":"r","backendRefs":[{"name":"web"}]},{"name":"r","backendRefs":[{"name":"web"}]}]}`)
	first := a.Admit(v1, "HTTPRoute", []byte(route))
	want := []string{"spec.parentRefs", "spec.rules", "spec.rules[0].backendRefs[0]", "spec.rules[1].backendRefs[0]"}
	var got []string
	for _, e := range first.Errors {
		got = append(got, e.Field)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fields %q, want %q", got, want)
	}
	for range 50 {
		if v := a.Admit(v1, "HTTPRoute", []byte(route)); !reflect.DeepEqual(v, first) {
			t.Fatalf("verdicts differ between runs:\n%+v\n%+v", v, first)
		}
	}
}
