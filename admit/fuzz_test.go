package admit_test

import (
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
)

// Any bytes, under any kind the CRDs serve (or not), get a verdict and no panic:
// an admitted object has a defaulted form, a refused one a reason.
//
//	go test -fuzz FuzzAdmit -fuzztime 60s ./admit
func FuzzAdmit(f *testing.F) {
	kinds := []struct{ apiVersion, kind string }{
		{v1, "Gateway"}, {v1, "HTTPRoute"}, {v1, "GRPCRoute"}, {v1, "TLSRoute"}, {v1, "ListenerSet"},
		{v1, "BackendTLSPolicy"}, {v1, "GatewayClass"}, {"gateway.networking.k8s.io/v1beta1", "ReferenceGrant"},
		{"gateway.networking.k8s.io/v1alpha2", "TCPRoute"}, {"gateway.networking.x-k8s.io/v1alpha1", "XMesh"},
		{v1, "Nothing"}, {"not a version//", "Gateway"},
	}
	for i, seed := range []string{
		gateway(`{"name":"http","port":80,"protocol":"HTTP"}`, `{"name":"http","port":81,"protocol":"HTTP"}`),
		gateway(`{"name":"any","hostname":"*","port":80,"protocol":"HTTP"}`),
		httpRoute(`{"rules":[{"backendRefs":[{"name":"web"}]}]}`),
		httpRoute(`{"hostnames":["a"],"hostnames":["b"]}`),
		httpRoute(`{"rules":[{"matches":[{"path":{"type":"Exact","value":"/a/../b"}}],"filters":[{"type":"URLRewrite"}]}]}`),
		`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"x","labels":{"a":1}}}`,
		`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":null,"spec":null,"status":7}`,
		`{"kind":"HTTPRoute"}`, `[]`, `null`, `{`, "",
	} {
		f.Add([]byte(seed), uint8(i))
	}
	a := builtin(f, admit.Experimental)
	f.Fuzz(func(t *testing.T, raw []byte, k uint8) {
		kind := kinds[int(k)%len(kinds)]
		v := a.Admit(kind.apiVersion, kind.kind, raw)
		if v.Admitted {
			if _, err := v.JSON(); err != nil {
				t.Errorf("admitted, but no defaulted JSON: %v", err)
			}
			return
		}
		if v.Reason == "" {
			t.Error("refused without a reason")
		}
		if strings.HasPrefix(v.Reason, "Internal error occurred") {
			t.Errorf("Kubernetes' validation panicked: %s", v.Reason)
		}
		if v.Object != nil || v.Standard != nil {
			t.Error("a refused object carries an admitted object's parts")
		}
	})
}
