package celrules_test

import (
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/celrules"
)

// LoadedKinds are the Gateway API kinds the tool reads (load/kinds.go, load/mesh.go).
var LoadedKinds = map[string]bool{
	"GatewayClass": true, "Gateway": true, "ListenerSet": true, "ReferenceGrant": true, "BackendTLSPolicy": true,
	"HTTPRoute": true, "GRPCRoute": true, "TLSRoute": true, "TCPRoute": true, "UDPRoute": true, "XMesh": true,
}

// Every rule of the built-in CRDs of the kinds the tool loads has an object that
// breaks it, refused with the rule's message at the rule's field, and one that
// keeps it, admitted (offline: e2e's TestClusterAdmission asks the API server).
func TestEveryRuleHasACase(t *testing.T) {
	for _, ch := range []admit.Channel{admit.Standard, admit.Experimental} {
		t.Run(string(ch), func(t *testing.T) {
			crds, err := admit.Builtin(ch)
			if err != nil {
				t.Fatal(err)
			}
			a, err := admit.New(crds)
			if err != nil {
				t.Fatal(err)
			}
			var total, covered, unreachable, shadowed int
			for _, r := range celrules.Rules(definitions(t, crds)) {
				if !LoadedKinds[r.Kind] {
					continue
				}
				total++
				if r.Unreachable() != "" {
					unreachable++
					continue
				}
				bad, good, err := celrules.Objects(r, "cel")
				if err != nil {
					t.Error(err)
					continue
				}
				ok := true
				if r.Shadowed() != "" {
					// Refused, by the check that shadows the rule.
					if v := a.Admit(r.APIVersion, r.Kind, bad); v.Admitted || breaks(v.Errors, r) {
						t.Errorf("%s: shadowed (%s), yet\n  breaking object %.300s\n  got %.400s", r, r.Shadowed(), bad, v.Reason)
						ok = false
					}
					if v := a.Admit(r.APIVersion, r.Kind, good); !v.Admitted {
						t.Errorf("%s\n  keeping object %.300s\n  refused: %.400s", r, good, v.Reason)
						ok = false
					}
					if ok {
						shadowed++
					}
					continue
				}
				if v := a.Admit(r.APIVersion, r.Kind, bad); v.Admitted || !breaks(v.Errors, r) {
					t.Errorf("%s\n  breaking object %.300s\n  got %.400s", r, bad, v.Reason)
					ok = false
				}
				if v := a.Admit(r.APIVersion, r.Kind, good); !v.Admitted {
					t.Errorf("%s\n  keeping object %.300s\n  refused: %.400s", r, good, v.Reason)
					ok = false
				}
				if ok {
					covered++
				}
			}
			t.Logf("%s channel: %d CEL rules (every served version, every schema node) of the loaded kinds: %d broken and kept, %d shadowed by an OpenAPI check, %d unreachable on create",
				ch, total, covered, shadowed, unreachable)
			if covered+shadowed+unreachable != total {
				t.Errorf("%d rules without a passing case", total-covered-shadowed-unreachable)
			}
		})
	}
}

func breaks(errs []admit.FieldError, r celrules.Rule) bool {
	for _, e := range errs {
		if e.Field == r.Field() && strings.HasSuffix(e.Message, ": "+r.Message) {
			return true
		}
	}
	return false
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
