package analyze

import (
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// generation is the metadata.generation of the object that declares a listener.
func (l *ListenerResult) generation() int64 {
	if l.ListenerSet != nil {
		return l.ListenerSet.ListenerSet.Obj.Generation
	}
	return l.Gateway.Gateway.Obj.Generation
}

// conditionGroups are the groups of the four conditions every listener has
// (Accepted, Programmed, ResolvedRefs, Conflicted) that one Gateway's listeners
// hold. Listeners whose four are equal (the healthy ones of a Gateway, all of
// one generation and one analysis time) share one group: kept per listener,
// the four were a tenth of a large Result.
type conditionGroups struct {
	kept []*[4]Condition
}

// sharedGroups is how many of the last groups kept a listener's conditions are
// compared with: listeners with equal conditions are mostly healthy ones, so a
// few suffice, and a Gateway whose every listener differs costs no more than
// that per listener.
const sharedGroups = 4

// share returns four conditions as a listener keeps them: an equal group
// kept before, or a new one. The slice has its length as its capacity, so
// appending to it (OverlappingTLSConfig) copies it.
func (gs *conditionGroups) share(four *[4]Condition) []Condition {
	for i := len(gs.kept) - 1; i >= max(0, len(gs.kept)-sharedGroups); i-- {
		if *gs.kept[i] == *four {
			return gs.kept[i][:]
		}
	}
	kept := new([4]Condition)
	*kept = *four
	gs.kept = append(gs.kept, kept)
	return kept[:]
}

// listenerConditions writes a listener's Accepted, Programmed, ResolvedRefs,
// Conflicted and (when true) OverlappingTLSConfig conditions. The four always
// written are shared with the Gateway's other listeners that have the same
// (groups): read them, do not change them.
func (e *engine) listenerConditions(l *ListenerResult, groups *conditionGroups) {
	st, gen := l.state, l.generation()
	var accepted Condition
	switch {
	case st.notAccepted != nil:
		accepted = failed(*st.notAccepted, gen, e.now)
	case st.conflict != nil:
		accepted = failed(*st.conflict, gen, e.now)
	case st.noValidCA:
		accepted = failed(rules.ListenerAcceptedNoValidCACertificate.Problem(
			"no frontend caCertificateRef resolves to a usable CA bundle", "fix the caCertificateRefs in the Gateway's spec.tls.frontend"), gen, e.now)
	default:
		accepted = cond(gwv1.ListenerConditionAccepted, true, gwv1.ListenerReasonAccepted, "listener is accepted", "", gen, e.now)
	}
	l.Accepted = accepted.Status == metav1.ConditionTrue

	var resolved Condition
	if len(st.unresolved) > 0 {
		resolved = failed(joined(st.unresolved), gen, e.now)
	} else {
		resolved = cond(gwv1.ListenerConditionResolvedRefs, true, gwv1.ListenerReasonResolvedRefs, "all references resolved", "", gen, e.now)
	}

	var programmed Condition
	switch {
	case l.Gateway.paramsProblem != nil:
		programmed = cond(gwv1.ListenerConditionProgrammed, false, gwv1.ListenerReasonInvalid, "the Gateway is not accepted: "+l.Gateway.paramsProblem.Message, l.Gateway.paramsProblem.Fix, gen, e.now)
	case !l.Accepted:
		programmed = cond(gwv1.ListenerConditionProgrammed, false, notProgrammedReason(l), "listener is not accepted: "+accepted.Message, accepted.Fix, gen, e.now)
	case st.certInvalid:
		programmed = cond(gwv1.ListenerConditionProgrammed, false, gwv1.ListenerReasonInvalid, "listener has no usable certificate: "+resolved.Message, resolved.Fix, gen, e.now)
	case len(l.SupportedKinds) == 0:
		// No route can attach, so nothing is configured (rules.ListenerResolvedRefsInvalidRouteKinds).
		programmed = cond(gwv1.ListenerConditionProgrammed, false, gwv1.ListenerReasonInvalid, "listener takes no route kind: "+resolved.Message, resolved.Fix, gen, e.now)
	default:
		programmed = cond(gwv1.ListenerConditionProgrammed, true, gwv1.ListenerReasonProgrammed, "listener is programmed", "", gen, e.now)
	}

	var conflicted Condition
	if st.conflict != nil {
		conflicted = cond(gwv1.ListenerConditionConflicted, true, st.conflict.Rule.Condition.Reason, st.conflict.Message, st.conflict.Fix, gen, e.now)
	} else {
		conflicted = cond(gwv1.ListenerConditionConflicted, false, gwv1.ListenerReasonNoConflicts, "no conflicts", "", gen, e.now)
	}
	four := [4]Condition{accepted, programmed, resolved, conflicted}
	if len(st.overlaps) > 0 && l.Accepted {
		l.Conditions = append(append(make([]Condition, 0, 5), four[:]...), failed(rules.ListenerOverlappingTLSConfigOverlappingHostnames.Problem(
			fmt.Sprintf("hostname overlaps with listeners %s on port %d; clients that coalesce HTTP/2 connections may reach the wrong listener", strings.Join(st.overlaps, ", "), l.Listener.Port),
			"give terminating listeners on one port hostnames that do not overlap, or serve them from one listener"), gen, e.now))
		return
	}
	l.Conditions = groups.share(&four)
}

// notProgrammedReason is the reason of a listener's Programmed=False when it is
// not accepted: Invalid, except for a conflicted ListenerSet listener, which
// carries the conflict's reason (HostnameConflict, ProtocolConflict) as the
// upstream ListenerSet conformance tests assert.
func notProgrammedReason(l *ListenerResult) string {
	if c := l.state.conflict; c != nil && l.ListenerSet != nil {
		return c.Rule.Condition.Reason
	}
	return string(gwv1.ListenerReasonInvalid)
}

// joined is the first problem, which decides the reason, with every
// problem's message: a condition has one reason, and its message says all
// that is wrong.
func joined(ps []rules.Problem) rules.Problem {
	msgs := make([]string, len(ps))
	for i, p := range ps {
		msgs[i] = p.Message
	}
	first := ps[0]
	first.Message = strings.Join(msgs, "; ")
	return first
}

// listenerValid is whether a listener is fully configured: accepted and programmed.
func listenerValid(l *ListenerResult) bool {
	return l.Accepted && IsTrue(l.Conditions, string(gwv1.ListenerConditionProgrammed))
}

// gatewayStatus writes the Gateway's Accepted, Programmed and ResolvedRefs
// conditions once its listeners and attached routes are known.
func (e *engine) gatewayStatus(g *GatewayResult) {
	gw := g.Gateway.Obj
	gen := gw.Generation
	var invalid, accepted []string
	for _, l := range g.Listeners {
		if !listenerValid(l) {
			invalid = append(invalid, l.Name())
		}
		if l.Accepted {
			accepted = append(accepted, l.Name())
		}
	}
	var acc Condition
	switch {
	case g.paramsProblem != nil:
		acc = failed(*g.paramsProblem, gen, e.now)
	case len(invalid) > 0:
		msg := fmt.Sprintf("listeners not valid: %s; accepted: %s", strings.Join(invalid, ", "), orDash(accepted))
		fix := "see the conditions of listeners " + strings.Join(invalid, ", ")
		if len(accepted) > 0 {
			// Accepted with the valid listeners: the invalid ones have findings of their own.
			acc = cond(gwv1.GatewayConditionAccepted, true, gwv1.GatewayReasonListenersNotValid, msg, fix, gen, e.now)
		} else {
			acc = failed(rules.GatewayAcceptedListenersNotValid.Problem(msg, fix), gen, e.now)
		}
	default:
		acc = cond(gwv1.GatewayConditionAccepted, true, gwv1.GatewayReasonAccepted, "Gateway is accepted", "", gen, e.now)
	}
	programmed := 0
	for _, l := range g.Listeners {
		if IsTrue(l.Conditions, string(gwv1.ListenerConditionProgrammed)) {
			programmed++
		}
	}
	var prog Condition
	switch {
	case acc.Status == metav1.ConditionTrue && programmed > 0:
		prog = cond(gwv1.GatewayConditionProgrammed, true, gwv1.GatewayReasonProgrammed, "Gateway is programmed", "", gen, e.now)
	case acc.Status == metav1.ConditionTrue:
		prog = cond(gwv1.GatewayConditionProgrammed, false, gwv1.GatewayReasonInvalid, "no listener is programmed", "see the conditions of the listeners", gen, e.now)
	default:
		prog = cond(gwv1.GatewayConditionProgrammed, false, gwv1.GatewayReasonInvalid, "Gateway is not accepted: "+acc.Message, acc.Fix, gen, e.now)
	}
	var refs Condition
	var unresolved []string
	for _, l := range g.Listeners {
		if l.state != nil && len(l.state.unresolved) > 0 {
			unresolved = append(unresolved, l.Name())
		}
	}
	if p := e.gatewayClientCertificate(g); p != nil {
		refs = failed(*p, gen, e.now)
	} else if len(unresolved) > 0 {
		refs = cond(gwv1.GatewayConditionResolvedRefs, false, gwv1.GatewayReasonListenersNotResolved,
			"listeners with unresolved references: "+strings.Join(unresolved, ", "), "see the ResolvedRefs condition of those listeners", gen, e.now)
	} else {
		refs = cond(gwv1.GatewayConditionResolvedRefs, true, gwv1.GatewayReasonResolvedRefs, "all references resolved", "", gen, e.now)
	}
	g.Conditions = []Condition{acc, prog, refs}
	if acc.Status != metav1.ConditionTrue {
		g.notAccepted = &g.Conditions[0]
	}
}

func orDash(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}

// parametersProblem checks spec.infrastructure.parametersRef: a core ConfigMap or
// Secret must exist; other kinds cannot be verified offline unless declared
// external, so they are InvalidParameters like any reference that does not resolve.
func (e *engine) parametersProblem(g *GatewayResult) *rules.Problem {
	gw := g.Gateway.Obj
	if gw.Spec.Infrastructure == nil || gw.Spec.Infrastructure.ParametersRef == nil {
		return nil
	}
	ref := gw.Spec.Infrastructure.ParametersRef
	group, kind, name := string(ref.Group), string(ref.Kind), ref.Name
	if e.isUnverified(kind, gw.Namespace, name) {
		return nil
	}
	found := false
	switch {
	case group == "" && kind == "ConfigMap":
		found = e.ix.configMaps[nn{Namespace: gw.Namespace, Name: name}] != nil
	case group == "" && kind == "Secret":
		found = e.ix.secrets[nn{Namespace: gw.Namespace, Name: name}] != nil
	}
	if found {
		return nil
	}
	params := model.NamespacedName{Namespace: gw.Namespace, Name: name}
	return problemOf(rules.GatewayAcceptedInvalidParameters,
		fmt.Sprintf("spec.infrastructure.parametersRef %s %s does not resolve", groupKindString(group, kind), params),
		fmt.Sprintf("create the %s, fix the reference, or declare it with --external %s/%s", kind, kind, params))
}

// listenerSetStatus writes a ListenerSet's Accepted and Programmed conditions.
func (e *engine) listenerSetStatus(ls *ListenerSetResult) {
	o := ls.ListenerSet.Obj
	gen := o.Generation
	// notAccepted writes Accepted=False with the rule's reason, and Programmed
	// False with the same reason.
	notAccepted := func(r *rules.Rule, msg, fix string) {
		ls.Conditions = []Condition{
			failed(r.Problem(msg, fix), gen, e.now),
			cond(gwv1.ListenerSetConditionProgrammed, false, r.Condition.Reason, msg, fix, gen, e.now),
		}
	}
	fixOf := func() string {
		for _, s := range ls.Trace {
			if !s.Passed && s.Fix != "" {
				return s.Fix
			}
		}
		return ""
	}
	switch {
	case ls.Parent == nil:
		detail := "parent Gateway not found"
		if len(ls.Trace) > 0 {
			detail = ls.Trace[0].Detail
		}
		notAccepted(rules.ListenerSetAcceptedParentNotAccepted, detail, fixOf())
		return
	case !ls.Allowed:
		notAccepted(rules.ListenerSetAcceptedNotAllowed, "not allowed by the parent Gateway: "+ls.Trace[0].Detail, fixOf())
		return
	case !IsTrue(ls.Parent.Conditions, string(gwv1.GatewayConditionAccepted)):
		notAccepted(rules.ListenerSetAcceptedParentNotAccepted, "the parent Gateway is not accepted", "fix the parent Gateway first")
		return
	}
	var invalid []string
	for _, l := range ls.Listeners {
		if !listenerValid(l) {
			invalid = append(invalid, l.Name())
		}
	}
	switch {
	case len(invalid) == 0:
		ls.Conditions = []Condition{
			cond(gwv1.ListenerSetConditionAccepted, true, gwv1.ListenerSetReasonAccepted, "ListenerSet is accepted", "", gen, e.now),
			cond(gwv1.ListenerSetConditionProgrammed, true, gwv1.ListenerSetReasonProgrammed, "ListenerSet is programmed", "", gen, e.now),
		}
	case len(invalid) == len(ls.Listeners):
		notAccepted(rules.ListenerSetAcceptedListenersNotValid,
			"no listener is valid: "+strings.Join(invalid, ", "), "see the conditions of listeners "+strings.Join(invalid, ", "))
	default:
		ls.Conditions = []Condition{
			cond(gwv1.ListenerSetConditionAccepted, true, gwv1.ListenerSetReasonListenersNotValid, "listeners not valid: "+strings.Join(invalid, ", "), "", gen, e.now),
			cond(gwv1.ListenerSetConditionProgrammed, true, gwv1.ListenerSetReasonProgrammed, "valid listeners are programmed", "", gen, e.now),
		}
	}
}
