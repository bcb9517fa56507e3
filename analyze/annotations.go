package analyze

import (
	"fmt"

	"github.com/kubectl-gwtls/kubectl-gwtls/annotations"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// annotations validates the implementation-specific annotations of every route
// against the known annotation sets (spec 001 for Gwin), and checks them against
// the BackendTLSPolicy of each backend.
func (e *engine) annotations() {
	for _, rr := range e.res.Routes {
		r := rr.Route
		if len(r.ObjectMeta.Annotations) == 0 {
			continue
		}
		ps := annotations.Validate(r.Kind, r.ObjectMeta.Annotations)
		seen := map[*PolicyResult]bool{}
		for _, b := range rr.Backends {
			if b.Policy == nil || seen[b.Policy] {
				continue
			}
			seen[b.Policy] = true
			o := b.Policy.Policy.Obj
			v := o.Spec.Validation
			wk := ""
			if v.WellKnownCACertificates != nil {
				wk = string(*v.WellKnownCACertificates)
			}
			port := ""
			if b.Ref.Port != nil {
				port = fmt.Sprintf(":%d", *b.Ref.Port)
			}
			ps = append(ps, annotations.Consistency(r.Kind, r.ObjectMeta.Annotations, annotations.BackendTLSPolicy{
				Policy: model.NameOf(o).String(), Backend: b.NamespacedName().String() + port,
				Hostname: string(v.Hostname), CACertificateRefs: len(v.CACertificateRefs) > 0, WellKnownCACertificates: wk,
			})...)
		}
		for _, p := range ps {
			lint := p.Problem
			lint.Message = fmt.Sprintf("annotation %s: %s", p.Key, p.Message)
			refs := rr.filterRefs()
			refs.lints = append(refs.lints, lint)
		}
	}
}
