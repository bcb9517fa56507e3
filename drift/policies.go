package drift

import (
	"fmt"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// comparePolicy compares a BackendTLSPolicy's status.ancestors with the
// entries the spec gives, keyed by ancestorRef and controllerName
// (PolicyStatus.Ancestors), and reports the selected controllers' entries for
// Gateways that no longer reach a Service the policy targets.
func (v *View) comparePolicy(pr *analyze.PolicyResult, keep bool) *Object {
	p := pr.Policy
	o := &Object{Ref: model.Ref{Kind: "BackendTLSPolicy", Namespace: p.Obj.Namespace, Name: p.Obj.Name}, Source: p.Source, keep: keep}
	written := p.Obj.Status.Ancestors
	var gen int64
	var staleBy gwv1.GatewayController
	for _, a := range written {
		if b := behind(a.Conditions, p.Obj.Generation); b > 0 && v.ours(a.ControllerName) {
			if gen == 0 {
				staleBy = a.ControllerName
			}
			gen = oldest(gen, b)
		}
	}
	if gen > 0 {
		msg := behindMessage(who(staleBy), "BackendTLSPolicy", gen, p.Obj.Generation)
		o.add(rules.DriftStaleGeneration, "status", msg, behindFix)
		o.entry(&Entry{Part: ObjectPart, NotCompared: msg})
		return o
	}
	matched := make([]bool, len(written))
	uncertain := false // an ancestor's routes are behind: the set of ancestors may be an older one
	for _, g := range pr.Ancestors {
		gs := v.gateways[g]
		part := AncestorPart(model.NameOf(g.Gateway.Obj))
		ref := analyze.AncestorRef(g)
		j := v.findAncestor(written, p.Obj.Namespace, &ref, g.Controller)
		if j >= 0 {
			matched[j] = true
		}
		if gs.behind > 0 {
			o.entry(&Entry{Part: part, Controller: g.Controller, NotCompared: "the ancestor Gateway's status is behind its spec"})
			uncertain = true
			continue
		}
		uncertain = uncertain || gs.routesBehind
		if j < 0 {
			if why := v.missingElsewhere(o, g); why != "" {
				o.entry(&Entry{Part: part, Controller: g.Controller, NotCompared: why})
				continue
			}
			if gs.routesBehind {
				o.entry(&Entry{Part: part, Controller: g.Controller, NotCompared: "a route of the ancestor Gateway is behind its spec"})
				continue
			}
			o.add(rules.DriftStatusMissing, "status.ancestors", fmt.Sprintf("%s wrote no status.ancestors entry for Gateway %s, whose routes reach a Service the policy targets; %s",
				who(g.Controller), model.NameOf(g.Gateway.Obj), existed(p.Obj.CreationTimestamp, v.res.Now)), missingFix)
			o.entry(&Entry{Part: part, Controller: g.Controller, NotCompared: "no status.ancestors entry written"})
			continue
		}
		o.compareEntry(policyAncestorEntry, func() string { return part }, "status.ancestors", g.Controller, written[j].Conditions, pr.Conditions)
	}
	if uncertain {
		return o
	}
	for j, w := range written {
		if matched[j] || !v.ours(w.ControllerName) {
			continue
		}
		if g := v.ancestorGateway(&w.AncestorRef, p.Obj.Namespace); g != nil && (v.gateways[g].behind > 0 || v.gateways[g].routesBehind) {
			continue // the Gateway's routes may be those of an older spec
		}
		o.add(rules.DriftOrphanedStatus, fmt.Sprintf("status.ancestors[%d]", j),
			fmt.Sprintf("%s's entry for ancestor %s names a Gateway none of whose attached routes reaches a Service the policy targets",
				who(w.ControllerName), parentName(&w.AncestorRef, p.Obj.Namespace)),
			"the controller removes its entry when it processes the policy; if it does not, check that it is running")
	}
	return o
}

// findAncestor is the index of the written entry for an ancestor, by
// ancestorRef and controllerName; -1 when none.
func (v *View) findAncestor(written []gwv1.PolicyAncestorStatus, policyNS string, ref *gwv1.ParentReference, controller gwv1.GatewayController) int {
	for j := range written {
		w := &written[j]
		if w.ControllerName != controller && (controller != analyze.AssumedController || v.controllers[w.ControllerName] || v.others[w.ControllerName]) {
			continue
		}
		if sameParent(&w.AncestorRef, ref, policyNS) {
			return j
		}
	}
	return -1
}

// ancestorGateway is the Gateway in scope an ancestorRef names, or nil.
func (v *View) ancestorGateway(ref *gwv1.ParentReference, policyNS string) *analyze.GatewayResult {
	if groupOf(ref.Group) != gwv1.GroupName || kindOf(ref.Kind) != "Gateway" {
		return nil
	}
	return v.gatewaysByName[model.NamespacedName{Namespace: namespaceOf(ref.Namespace, policyNS), Name: string(ref.Name)}]
}

// classFindings reports a class under which no status is due, with the
// objects that carry none because of it, and a class whose own status is
// behind its spec.
func (v *View) classFindings(c *analyze.GatewayClassResult) []analyze.Finding {
	cs := v.classes[c]
	if cs == nil {
		return nil
	}
	obj := c.Class.Obj
	o := &Object{Ref: model.Ref{Kind: "GatewayClass", Name: obj.Name}, Source: c.Class.Source}
	ctrl := obj.Spec.ControllerName
	if cs.unserved != "" {
		msg := fmt.Sprintf("GatewayClass %s (controllerName %s): %s; %s", obj.Name, ctrl, cs.unserved, existed(obj.CreationTimestamp, v.res.Now))
		if n := counted(count{cs.gateways, "Gateway"}, count{cs.listenerSets, "ListenerSet"}, count{cs.routes, "route"}, count{cs.policies, "BackendTLSPolicy"}); n != "" {
			msg += "; " + n + " depend on it and carry no status either"
		}
		o.add(rules.DriftStatusMissing, "status", msg, fmt.Sprintf("run a controller for %s, or check why it does not accept the class (its logs, spec.parametersRef)", ctrl))
		return o.findings
	}
	if gen := behind(obj.Status.Conditions, obj.Generation); gen > 0 {
		o.add(rules.DriftStaleGeneration, "status", behindMessage(who(ctrl), "GatewayClass", gen, obj.Generation), behindFix)
	}
	return o.findings
}
