package analyze

import (
	"fmt"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// resolveBackends resolves every backendRef of a route once (BackendRef:
// InvalidKind, RefNotPermitted, BackendNotFound); the first failing ref in rule
// order decides the reason, and the message lists all.
func (e *engine) resolveBackends(rr *RouteResult, a *arena) {
	r := rr.Route
	n := 0
	for _, rule := range r.Rules {
		n += len(rule.BackendRefs)
	}
	if n == 0 {
		return
	}
	rr.Backends = a.backendResults(n)
	var first *Condition
	var msgs []string
	k := 0
	for ri, rule := range r.Rules {
		for j := range rule.BackendRefs {
			br := rr.Backends[k]
			k++
			e.resolveBackend(br, r, ri, &rule.BackendRefs[j])
			if br.Problem != nil {
				msgs = append(msgs, br.Problem.Message)
				if first == nil {
					first = br.Problem
				}
			}
		}
	}
	if first != nil {
		c := *first
		c.Message = strings.Join(msgs, "; ")
		rr.unresolved = &c
	}
}

// resolveBackend fills br with the resolution of backendRef ref of rule number
// rule of route r.
func (e *engine) resolveBackend(br *BackendResult, r *model.Route, rule int, ref *gwv1.BackendRef) {
	routeNS := r.ObjectMeta.Namespace
	group, kind := groupOr(ref.Group, ""), kindOr(ref.Kind, "Service")
	*br = BackendResult{Rule: rule, Ref: ref, Namespace: namespaceOr(ref.Namespace, routeNS)}
	target := br.NamespacedName()
	fail := func(rule *rules.Rule, msg, fix string) {
		c := failed(rule.Problem(msg, fix), r.ObjectMeta.Generation, e.now)
		br.Problem = &c
	}
	grant := grantedRef{fromGroup: gwv1.GroupName, fromKind: r.Kind, fromNamespace: routeNS, toKind: "Service", to: target}
	switch {
	case group != "" || kind != "Service":
		if ok, why := e.unverified(kind, target.Namespace, target.Name); ok {
			br.External, br.Unverified = true, why
			return
		}
		fail(rules.RouteResolvedRefsInvalidKind, fmt.Sprintf("backendRef %s %s: kind %s is not supported", groupKindString(group, kind), target, groupKindString(group, kind)),
			"reference a core Service (group \"\", kind Service)")
		return
	case !e.ix.permits(grant):
		fail(rules.RouteResolvedRefsRefNotPermitted,
			fmt.Sprintf("backendRef Service %s is not permitted: no ReferenceGrant in %s allows %s from namespace %s", target, target.Namespace, r.Kind, routeNS),
			grant.fix())
		return
	}
	svc := e.ix.services[target]
	if svc == nil {
		if ok, why := e.unverified("Service", target.Namespace, target.Name); ok {
			br.External, br.Unverified = true, why
			return
		}
		fail(rules.RouteResolvedRefsBackendNotFound, fmt.Sprintf("backendRef Service %s does not exist", target),
			fmt.Sprintf("create the Service, fix the name, or declare it with --external Service/%s", target))
		return
	}
	br.Service = svc.obj
	br.portMissing = ref.Port != nil && !svc.hasPort(int32(*ref.Port))
}
