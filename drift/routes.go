package drift

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// routeFindings compares every route, and counts those whose missing status
// is reported at their class or Gateway. One Object serves every route: a
// large dump has a route per hundred objects or so, and most agree.
func (v *View) routeFindings(routes []*analyze.RouteResult) []analyze.Finding {
	var out []analyze.Finding
	o := &Object{}
	for _, rr := range routes {
		o.reset()
		v.compareRoute(o, rr)
		out = append(out, o.findings...)
		for _, c := range o.underClasses {
			c.routes++
		}
		for _, g := range o.underGateways {
			g.routes++
		}
	}
	return out
}

// compareRoute compares a route's status.parents with the entries the spec
// gives, keyed by parentRef and controllerName (RouteStatus.Parents), and
// reports the entries of the selected controllers the spec no longer names.
func (v *View) compareRoute(o *Object, rr *analyze.RouteResult) {
	r := rr.Route
	o.Ref, o.Source = model.Ref{Kind: r.Kind, Namespace: r.ObjectMeta.Namespace, Name: r.ObjectMeta.Name}, r.Source
	written := r.Status.Parents
	if gen := v.staleRoutes[rr]; gen > 0 {
		msg := behindMessage(who(v.staleController(r)), "route", gen, r.ObjectMeta.Generation)
		o.add(rules.DriftStaleGeneration, "status", msg, behindFix)
		o.entry(&Entry{Part: ObjectPart, NotCompared: msg})
		return
	}
	var matchedBuf [8]bool
	matched := matchedBuf[:0]
	for range written {
		matched = append(matched, false)
	}
	resolved := rr.ResolvedRefs()
	for _, p := range rr.Parents {
		if !p.Written || p.Controller() == "" {
			continue // no controller in scope writes this parent's status
		}
		j := v.findParent(written, r.ObjectMeta.Namespace, p)
		if j >= 0 {
			matched[j] = true
		}
		if why := v.parentNotCompared(p); why != "" {
			o.entry(&Entry{Part: ParentPart(int(p.Index)), Controller: p.Controller(), NotCompared: why})
			continue
		}
		if j < 0 {
			if why := v.missingElsewhere(o, parentGateway(p)); why != "" {
				o.entry(&Entry{Part: ParentPart(int(p.Index)), Controller: p.Controller(), NotCompared: why})
				continue
			}
			o.add(rules.DriftStatusMissing, ParentPart(int(p.Index)), fmt.Sprintf("%s wrote no status.parents entry for spec.parentRefs[%d] (%s); %s",
				who(p.Controller()), p.Index, parentName(p.Ref, r.ObjectMeta.Namespace), existed(r.ObjectMeta.CreationTimestamp, v.res.Now)), missingFix)
			o.entry(&Entry{Part: ParentPart(int(p.Index)), Controller: p.Controller(), NotCompared: "no status.parents entry written"})
			continue
		}
		w := written[j].Conditions
		if !o.keep && parentAgrees(w, p, &resolved) {
			continue
		}
		o.compareEntry(routeParentEntry, func() string { return ParentPart(int(p.Index)) }, "", p.Controller(), w, p.Conditions())
	}
	for j := range written {
		if !matched[j] {
			v.orphanedParent(o, rr, j)
		}
	}
}

// parentAgrees reports whether a route parent's written conditions agree
// with the spec's, from the Accepted condition's status and reason (not its
// message) and the route's ResolvedRefs: the route types the engine writes
// are all a parent entry is compared on.
func parentAgrees(written []metav1.Condition, p *analyze.ParentResult, resolved *analyze.Condition) bool {
	status, reason, ok := p.AcceptedStatus()
	if !ok {
		return true
	}
	t := string(gwv1.RouteConditionAccepted)
	return verdictOf(routeParentEntry, findWritten(written, t), t, status, reason) != Differs &&
		verdictOf(routeParentEntry, findWritten(written, resolved.Type), resolved.Type, resolved.Status, resolved.Reason) != Differs
}

// parentNotCompared says why a parent's entry is not compared, or "": its
// Gateway or ListenerSet is behind its spec, so the controller may have
// decided the route against an older one.
func (v *View) parentNotCompared(p *analyze.ParentResult) string {
	g := parentGateway(p)
	if g == nil {
		return ""
	}
	if v.gateways[g].behind > 0 {
		return "the parent Gateway's status is behind its spec"
	}
	if p.ListenerSet != nil {
		if ls := v.listenerSets[p.ListenerSet]; ls != nil && ls.behind > 0 {
			return "the parent ListenerSet's status is behind its spec"
		}
	}
	return ""
}

// missingElsewhere says why an entry missing under a Gateway is reported
// elsewhere, and counts it there: no controller serves the Gateway's class,
// or the Gateway itself has no status. "" when it is reported here.
func (v *View) missingElsewhere(o *Object, g *analyze.GatewayResult) string {
	if g == nil {
		return ""
	}
	switch gs := v.gateways[g]; {
	case gs.unserved():
		o.underClass(gs.class)
		return "no entry written, and none is due: GatewayClass " + string(g.Gateway.Obj.Spec.GatewayClassName) + ": " + gs.class.unserved
	case gs.missing:
		o.underGateway(gs)
		return "no entry written: " + who(g.Controller) + " wrote no status for the Gateway either"
	}
	return ""
}

// orphanedParent reports written parent entry j when the spec no longer gives
// it: a selected controller's entry for a parentRef the route no longer has,
// or for a parent that belongs to another controller.
func (v *View) orphanedParent(o *Object, rr *analyze.RouteResult, j int) {
	r := rr.Route
	w := &r.Status.Parents[j]
	if !v.ours(w.ControllerName) {
		return // another controller's entry is its own
	}
	field := fmt.Sprintf("status.parents[%d]", j)
	for _, p := range rr.Parents {
		if !sameParent(&w.ParentRef, p.Ref, r.ObjectMeta.Namespace) {
			continue
		}
		if p.Written && p.Controller() != w.ControllerName && p.Controller() != analyze.AssumedController && p.Controller() != "" {
			o.add(rules.DriftOrphanedStatus, field, fmt.Sprintf("%s wrote an entry for spec.parentRefs[%d] (%s), whose GatewayClass's controller is %s",
				who(w.ControllerName), p.Index, parentName(p.Ref, r.ObjectMeta.Namespace), p.Controller()), orphanFix)
		}
		return // the spec names it; a parent no selected controller decides is not judged
	}
	o.add(rules.DriftOrphanedStatus, field, fmt.Sprintf("%s's entry for %s names a parent spec.parentRefs no longer has",
		who(w.ControllerName), parentName(&w.ParentRef, r.ObjectMeta.Namespace)), orphanFix)
	o.entry(&Entry{Part: field, Controller: w.ControllerName, NotCompared: "the spec no longer names this parent"})
}

const orphanFix = "the controller removes its entry when it processes the route; if it does not, check that it is running"

// findParent is the index of the written entry for a parent, by parentRef and
// controllerName (a Gateway whose class is not in the input takes any
// controller's entry but those of classes in the input); -1 when none.
func (v *View) findParent(written []gwv1.RouteParentStatus, routeNS string, p *analyze.ParentResult) int {
	for j := range written {
		w := &written[j]
		if w.ControllerName != p.Controller() && (p.Controller() != analyze.AssumedController || v.controllers[w.ControllerName] || v.others[w.ControllerName]) {
			continue
		}
		if sameParent(&w.ParentRef, p.Ref, routeNS) {
			return j
		}
	}
	return -1
}

// staleController is the controller of a route's first entry that is behind.
func (v *View) staleController(r *model.Route) gwv1.GatewayController {
	for _, p := range r.Status.Parents {
		if v.ours(p.ControllerName) && behind(p.Conditions, r.ObjectMeta.Generation) > 0 {
			return p.ControllerName
		}
	}
	return ""
}

// sameParent compares two parentRefs with their defaults applied (group and
// kind of ParentReference, the route's namespace).
func sameParent(a, b *gwv1.ParentReference, routeNS string) bool {
	return a.Name == b.Name && groupOf(a.Group) == groupOf(b.Group) && kindOf(a.Kind) == kindOf(b.Kind) &&
		namespaceOf(a.Namespace, routeNS) == namespaceOf(b.Namespace, routeNS) &&
		sectionOf(a.SectionName) == sectionOf(b.SectionName) && portOf(a.Port) == portOf(b.Port)
}

func sectionOf(s *gwv1.SectionName) gwv1.SectionName {
	if s == nil {
		return ""
	}
	return *s
}

func portOf(p *gwv1.PortNumber) gwv1.PortNumber {
	if p == nil {
		return 0
	}
	return *p
}

// parentName names a parentRef for people: "Gateway infra/edge, sectionName
// https".
func parentName(ref *gwv1.ParentReference, routeNS string) string {
	s := kindOf(ref.Kind) + " " + model.NamespacedName{Namespace: namespaceOf(ref.Namespace, routeNS), Name: string(ref.Name)}.String()
	if g := groupOf(ref.Group); g != gwv1.GroupName {
		s = g + "/" + s
	}
	if ref.SectionName != nil && *ref.SectionName != "" {
		s += ", sectionName " + string(*ref.SectionName)
	}
	if ref.Port != nil {
		s += fmt.Sprintf(", port %d", *ref.Port)
	}
	return s
}
