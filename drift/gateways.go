package drift

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// missingFix is the fix of a status that is due and missing.
const missingFix = "check that the controller for the class's controllerName is running; its logs say why it skips the object"

// compareGateway compares a Gateway's conditions, its listeners' conditions,
// attachedRoutes and supportedKinds, and its attachedListenerSets.
func (v *View) compareGateway(g *analyze.GatewayResult, keep bool) *Object {
	gw := g.Gateway
	o := &Object{Ref: model.Ref{Kind: "Gateway", Namespace: gw.Obj.Namespace, Name: gw.Obj.Name}, Source: gw.Source, keep: keep}
	st, written := v.gateways[g], gw.Obj.Status
	ctrl := who(g.Controller)
	switch {
	case st.missing && st.unserved():
		o.underClass(st.class)
		o.entry(&Entry{Part: ObjectPart, Controller: g.Controller, NotCompared: fmt.Sprintf("no status written, and none is due: GatewayClass %s: %s", gw.Obj.Spec.GatewayClassName, st.class.unserved)})
		return o
	case st.missing:
		// Reported by gatewayMissingFindings, with the objects it takes along.
		o.entry(&Entry{Part: ObjectPart, Controller: g.Controller, NotCompared: ctrl + " wrote no status for the Gateway"})
		return o
	case st.behind > 0:
		o.add(rules.DriftStaleGeneration, "status", behindMessage(ctrl, "Gateway", st.behind, gw.Obj.Generation), behindFix)
		o.entry(&Entry{Part: ObjectPart, Controller: g.Controller, NotCompared: behindMessage(ctrl, "Gateway", st.behind, gw.Obj.Generation)})
		return o
	}
	top := o.compareEntry(gatewayEntry, statusPart, "", g.Controller, written.Conditions, g.Conditions)
	o.compareListeners(listenerEntry, g.Controller, g.Listeners, written.Listeners, st.routesBehind)
	if w := written.AttachedListenerSets; w != nil {
		differs := *w != g.AttachedListenerSets && !v.listenerSetsBehind(g)
		if top != nil {
			top.Counts = append(top.Counts, Count{Field: "attachedListenerSets", Spec: strconv.Itoa(int(g.AttachedListenerSets)), Written: strconv.Itoa(int(*w)), Differs: differs})
		}
		if differs {
			o.add(rules.DriftAttachedRoutesMismatch, "status.attachedListenerSets",
				fmt.Sprintf("%s counts %s attached to the Gateway; the spec counts %d (the accepted ListenerSets whose parentRef names it: %s)",
					ctrl, countOf(int(*w), "ListenerSet"), g.AttachedListenerSets, acceptedListenerSets(g)), explainFix(o.Ref))
		}
	}
	return o
}

// statusPart names the object's own part of its status, for compareEntry.
func statusPart() string { return ObjectPart }

// listenerSetsBehind reports whether a ListenerSet of the Gateway is behind
// its spec, so the controller's count may be of an older one.
func (v *View) listenerSetsBehind(g *analyze.GatewayResult) bool {
	for _, ls := range g.ListenerSets {
		if st := v.listenerSets[ls]; st != nil && st.behind > 0 {
			return true
		}
	}
	return false
}

func acceptedListenerSets(g *analyze.GatewayResult) string {
	var names []string
	for _, ls := range g.ListenerSets {
		if analyze.IsTrue(ls.Conditions, string(gwv1.ListenerSetConditionAccepted)) {
			names = append(names, model.NameOf(ls.ListenerSet.Obj).String())
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// compareListeners compares a Gateway's or ListenerSet's written listeners
// with the spec's, by name.
func (o *Object) compareListeners(k entryKind, controller gwv1.GatewayController, computed []*analyze.ListenerResult, written []gwv1.ListenerStatus, routesBehind bool) {
	for _, l := range computed {
		if l.Conditions == nil {
			continue // not decided: the ListenerSet is not admitted
		}
		j := slices.IndexFunc(written, func(w gwv1.ListenerStatus) bool { return w.Name == l.Listener.Name })
		if j < 0 {
			part := ListenerPart(l.Name())
			o.add(rules.DriftStatusMissing, part, fmt.Sprintf("%s wrote no status.listeners entry for listener %s", who(controller), l.Name()), missingFix)
			o.entry(&Entry{Part: part, Controller: controller, NotCompared: "no status.listeners entry written", kind: k})
			continue
		}
		w := &written[j]
		n := l.AttachedRoutes()
		attachedDiffer := w.AttachedRoutes != n && !routesBehind
		kindsDiffer := !sameKinds(w.SupportedKinds, l.SupportedKinds)
		e := o.compareEntry(k, func() string { return ListenerPart(l.Name()) }, "", controller, w.Conditions, l.Conditions)
		if e != nil && o.keep {
			e.Counts = []Count{
				{Field: "attachedRoutes", Spec: strconv.Itoa(int(n)), Written: strconv.Itoa(int(w.AttachedRoutes)), Differs: attachedDiffer},
				{Field: "supportedKinds", Spec: kindList(l.SupportedKinds), Written: kindList(w.SupportedKinds), Differs: kindsDiffer},
			}
		}
		if attachedDiffer {
			o.add(rules.DriftAttachedRoutesMismatch, ListenerPart(l.Name()),
				fmt.Sprintf("%s counts %s attached to listener %s; the spec counts %d (%s)", who(controller), countOf(int(w.AttachedRoutes), "route"), l.Name(), n, attachedRoutes(l)),
				explainFix(o.Ref, listenerArgs(o.Ref, l)...))
		}
		if kindsDiffer {
			o.add(rules.DriftSupportedKindsMismatch, ListenerPart(l.Name()),
				fmt.Sprintf("%s lists supportedKinds [%s] for listener %s; the spec says [%s] for protocol %s", who(controller), kindList(w.SupportedKinds), l.Name(), kindList(l.SupportedKinds), l.Listener.Protocol),
				"set allowedRoutes.kinds to the kinds the listener should take, or report the controller's list to its maintainers")
		}
	}
	for _, w := range written {
		if !slices.ContainsFunc(computed, func(l *analyze.ListenerResult) bool { return l.Listener.Name == w.Name }) {
			o.add(rules.DriftOrphanedStatus, ListenerPart(string(w.Name)),
				fmt.Sprintf("status.listeners has an entry for listener %s, which the %s's spec no longer declares", w.Name, o.Ref.Kind),
				"the controller removes the entry when it processes the object; if it does not, check that it is running")
		}
	}
}

// attachedRoutes names the routes the spec attaches to a listener, for a
// count that differs.
func attachedRoutes(l *analyze.ListenerResult) string {
	var names []string
	for _, a := range l.Attachments {
		names = append(names, a.Route.Route.Kind+" "+a.Route.Route.Key().String())
	}
	for _, rr := range l.Inactive {
		names = append(names, rr.Route.Kind+" "+rr.Route.Key().String())
	}
	for _, o := range l.Outranked {
		if o.Counted {
			names = append(names, o.Route.Route.Kind+" "+o.Route.Route.Key().String())
		}
	}
	switch {
	case len(names) == 0:
		return "no route attaches"
	case len(names) > 5:
		return strings.Join(names[:5], ", ") + fmt.Sprintf(" and %d more", len(names)-5)
	}
	return strings.Join(names, ", ")
}

// sameKinds compares supportedKinds as sets, an unset group being the
// Gateway API's (RouteGroupKind.Group's default). The lists are short (at
// most 8): each is looked up in the other.
func sameKinds(a, b []gwv1.RouteGroupKind) bool {
	return subsetKinds(a, b) && subsetKinds(b, a)
}

func subsetKinds(a, b []gwv1.RouteGroupKind) bool {
	for _, x := range a {
		if !slices.ContainsFunc(b, func(y gwv1.RouteGroupKind) bool { return x.Kind == y.Kind && groupOf(x.Group) == groupOf(y.Group) }) {
			return false
		}
	}
	return true
}

// kindSet is supportedKinds as sorted group/kind strings, without repeats.
func kindSet(ks []gwv1.RouteGroupKind) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = groupOf(k.Group) + "/" + string(k.Kind)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func kindList(ks []gwv1.RouteGroupKind) string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = string(k.Kind)
		if g := groupOf(k.Group); g != gwv1.GroupName {
			out[i] = g + "/" + out[i]
		}
	}
	return strings.Join(out, ", ")
}

// compareListenerSet compares a ListenerSet's conditions and, once its parent
// admits it, its listeners'. nil: not in scope (no parent Gateway in scope).
func (v *View) compareListenerSet(ls *analyze.ListenerSetResult, keep bool) *Object {
	if ls.Parent == nil {
		return nil
	}
	o := &Object{Ref: model.Ref{Kind: "ListenerSet", Namespace: ls.ListenerSet.Obj.Namespace, Name: ls.ListenerSet.Obj.Name}, Source: ls.ListenerSet.Source, keep: keep}
	st, parent, written := v.listenerSets[ls], v.gateways[ls.Parent], ls.ListenerSet.Obj.Status
	controller := ls.Parent.Controller
	ctrl := who(controller)
	notCompared := func(why string) *Object {
		o.entry(&Entry{Part: ObjectPart, Controller: controller, NotCompared: why})
		return o
	}
	gen := ls.ListenerSet.Obj.Generation
	switch {
	case parent.behind > 0:
		return notCompared("its parent Gateway's status is behind its spec")
	case st.missing && st.unserved():
		o.underClass(st.class)
		return notCompared("no status written, and none is due: GatewayClass " + string(ls.Parent.Gateway.Obj.Spec.GatewayClassName) + ": " + st.class.unserved)
	case st.missing && parent.missing:
		o.underGateway(parent)
		return notCompared(ctrl + " wrote no status for it, nor for its parent Gateway")
	case st.missing:
		o.add(rules.DriftStatusMissing, "status", fmt.Sprintf("%s wrote no status for the ListenerSet; %s", ctrl, existed(ls.ListenerSet.Obj.CreationTimestamp, v.res.Now)), missingFix)
		return notCompared(ctrl + " wrote no status for it")
	case st.behind > 0:
		msg := behindMessage(ctrl, "ListenerSet", st.behind, gen)
		o.add(rules.DriftStaleGeneration, "status", msg, behindFix)
		return notCompared(msg)
	}
	o.compareEntry(listenerSetEntry, statusPart, "", controller, written.Conditions, ls.Conditions)
	if ls.Allowed {
		ws := make([]gwv1.ListenerStatus, len(written.Listeners))
		for i, w := range written.Listeners {
			ws[i] = gwv1.ListenerStatus(w)
		}
		o.compareListeners(listenerSetListenerEntry, controller, ls.Listeners, ws, parent.routesBehind)
	}
	return o
}

// behindFix is the fix of a status that is behind its spec.
const behindFix = "wait for the controller to catch up; if it does not, check that it is running and read its logs about this object"

func behindMessage(ctrl, what string, observed, generation int64) string {
	return fmt.Sprintf("%s last processed generation %d of the %s; metadata.generation is %d: its status describes an older spec, and is compared once the controller catches up",
		ctrl, observed, what, generation)
}

// gatewayMissingFindings reports a Gateway whose status is due and missing,
// with the objects that name it and carry no status from it either.
func (v *View) gatewayMissingFindings(g *analyze.GatewayResult) []analyze.Finding {
	st := v.gateways[g]
	if !st.missing || st.unserved() {
		return nil // not missing, or counted at the class
	}
	gw := g.Gateway
	o := &Object{Ref: model.Ref{Kind: "Gateway", Namespace: gw.Obj.Namespace, Name: gw.Obj.Name}, Source: gw.Source}
	what := "wrote no status for the Gateway"
	if waiting(gw.Obj.Status.Conditions) {
		what = "wrote no status for the Gateway: it holds only the API server's default (Accepted=Unknown, reason Pending)"
	}
	msg := fmt.Sprintf("%s %s; %s", who(g.Controller), what, existed(gw.Obj.CreationTimestamp, v.res.Now))
	if n := counted(count{st.listenerSets, "ListenerSet"}, count{st.routes, "route"}, count{st.policies, "BackendTLSPolicy"}); n != "" {
		msg += "; " + n + " depend on it and carry no status from its controller either"
	}
	o.add(rules.DriftStatusMissing, "status", msg, missingFix)
	return o.findings
}

type count struct {
	n    int
	noun string
}

// counted writes the counts that are not zero: "2 routes and 1 BackendTLSPolicy".
func counted(cs ...count) string {
	var parts []string
	for _, c := range cs {
		switch {
		case c.n == 1:
			parts = append(parts, "1 "+c.noun)
		case c.n > 1:
			parts = append(parts, fmt.Sprintf("%d %s", c.n, plural(c.noun)))
		}
	}
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// countOf writes a count with its noun, zero included: "0 routes", "1 route".
func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %s", n, plural(noun))
}

func plural(noun string) string {
	if base, ok := strings.CutSuffix(noun, "y"); ok {
		return base + "ies"
	}
	return noun + "s"
}

// listenerArgs are explain's arguments that narrow a Gateway's explanation to
// one listener.
func listenerArgs(ref model.Ref, l *analyze.ListenerResult) []string {
	if ref.Kind != "Gateway" {
		return nil
	}
	return []string{"--listener", l.Name()}
}
