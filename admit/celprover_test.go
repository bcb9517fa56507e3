package admit_test

import (
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/celrules"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
)

// The CEL prover is the oracle-checked fast path of CEL validation: whenever it
// says an object keeps every rule, the API server's validator finds no error
// (else a refused object would be admitted). On the corpus it also says so for
// every object the validator finds clean, so that it is the path taken.
func TestCELProverAgreesWithValidator(t *testing.T) {
	for _, ch := range []admit.Channel{admit.Standard, admit.Experimental} {
		t.Run(string(ch), func(t *testing.T) {
			a := builtin(t, ch)
			crds, err := admit.Builtin(ch)
			if err != nil {
				t.Fatal(err)
			}
			var corpus []object
			data, err := generate.Bytes(generate.Sizes[0].Config)
			if err != nil {
				t.Fatal(err)
			}
			corpus = append(corpus, gatewayObjects(t, a, data)...)
			for _, r := range celrules.Rules(definitions(t, crds)) {
				if r.Unreachable() != "" {
					continue
				}
				bad, good, err := celrules.Objects(r, "cel")
				if err != nil {
					continue // a kind the tool does not load, without cases
				}
				corpus = append(corpus, object{r.APIVersion, r.Kind, bad}, object{r.APIVersion, r.Kind, good})
			}
			var compared, proved, refused int
			for _, o := range corpus {
				holds, clean, ok := admit.ProverAndValidator(a, o.apiVersion, o.kind, o.raw)
				if !ok {
					continue
				}
				compared++
				switch {
				case holds && !clean:
					t.Errorf("%s %s: the prover says every rule holds, the validator finds errors\n  %.300s", o.apiVersion, o.kind, o.raw)
				case clean && !holds:
					t.Errorf("%s %s: the validator finds no error, the prover cannot show it\n  %.300s", o.apiVersion, o.kind, o.raw)
				case holds:
					proved++
				default:
					refused++
				}
			}
			t.Logf("%d objects: %d proved by the prover, %d left to the validator (which found errors)", compared, proved, refused)
			if proved == 0 || refused == 0 {
				t.Error("the corpus does not exercise both answers")
			}
		})
	}
}

// Soundness on arbitrary objects: the prover never shows an object keeps the
// rules when the validator finds an error.
//
//	go test -fuzz FuzzCELProver -fuzztime 60s ./admit
func FuzzCELProver(f *testing.F) {
	kinds := []struct{ apiVersion, kind string }{
		{v1, "Gateway"}, {v1, "HTTPRoute"}, {v1, "GRPCRoute"}, {v1, "TLSRoute"}, {v1, "ListenerSet"}, {v1, "BackendTLSPolicy"},
	}
	for i, seed := range []string{
		gateway(`{"name":"http","port":80,"protocol":"HTTP"}`, `{"name":"http","port":81,"protocol":"HTTP"}`),
		gateway(`{"name":"a","port":443,"protocol":"HTTPS","tls":{"mode":"Passthrough"}}`),
		httpRoute(`{"parentRefs":[{"name":"gw"},{"name":"gw","sectionName":"a"}],"rules":[{"backendRefs":[{"name":"web"}]}]}`),
		httpRoute(`{"rules":[{"matches":[{"path":{"type":"Exact","value":"/a/../b"}}],"filters":[{"type":"URLRewrite","urlRewrite":{"path":{"type":"ReplacePrefixMatch","replacePrefixMatch":"/x"}}}]}]}`),
		httpRoute(`{"rules":[{"timeouts":{"request":"1s","backendRequest":"2s"}}]}`),
	} {
		f.Add([]byte(seed), uint8(i))
	}
	a := builtin(f, admit.Experimental)
	f.Fuzz(func(t *testing.T, raw []byte, k uint8) {
		kind := kinds[int(k)%len(kinds)]
		if holds, clean, ok := admit.ProverAndValidator(a, kind.apiVersion, kind.kind, raw); ok && holds && !clean {
			t.Errorf("the prover says every rule holds, the validator finds errors: %s", raw)
		}
	})
}

// definitions returns the CRDs' definitions, decoded.
func definitions(t testing.TB, crds admit.CRDs) []*apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	defs, err := crds.Definitions()
	if err != nil {
		t.Fatal(err)
	}
	return defs
}
