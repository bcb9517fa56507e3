package admit

import (
	"context"

	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
)

// ProverAndValidator decodes raw as the API server would and answers for it
// both whether the CEL prover shows every rule holds and whether the API
// server's CEL validator finds no error. ok is false when raw does not decode
// or its version has no rules.
func ProverAndValidator(a *Admitter, apiVersion, kind string, raw []byte) (proverHolds, validatorClean, ok bool) {
	gv, err := k8sschema.ParseGroupVersion(apiVersion)
	if err != nil {
		return false, false, false
	}
	compile, err := a.kinds[gv.WithKind(kind).GroupKind()].version(gv.Version)
	if err != nil || compile == nil {
		return false, false, false
	}
	v, err := compile()
	if err != nil || !v.hasRules {
		return false, false, false
	}
	u, rej := v.decode(raw)
	if rej != nil {
		return false, false, false
	}
	errs, _ := v.cel().Validate(context.Background(), nil, v.structural, u.Object, nil, celconfig.RuntimeCELCostBudget)
	return v.prover != nil && v.prover.holds(u.Object), len(errs) == 0, true
}
