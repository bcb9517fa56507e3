package analyze

import (
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/hostname"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/suggest"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// parentDecision is the deciding of one parentRef of a route.
type parentDecision struct {
	pr    *ParentResult
	ref   *gwv1.ParentReference
	route *model.Route
	// parent names the parent the ref names, defaulted, for lookups.
	parent model.NamespacedName
	trace  tracer
}

// parentName is the parent for messages: "Gateway infra/edge".
func (d *parentDecision) parentName() string {
	return written(d.pr.Ref.Kind) + " " + d.parent.String()
}

// reject decides the parentRef: the parent does not accept the route (a
// route/Accepted rule).
func (d *parentDecision) reject(rule *rules.Rule, message, fix string) {
	d.pr.decided, d.pr.rejected = true, problemOf(rule, message, fix)
}

// attach decides one parentRef (Route "Attaching to Gateways",
// ParentReference): the parent it names, the listeners its sectionName and port
// select, then each of those (admit): the route attaches to every listener that
// admits it.
func (e *engine) attach(pr *ParentResult, rr *RouteResult, i int, ref *gwv1.ParentReference, nsID int32, a *arena) {
	r := rr.Route
	*pr = ParentResult{Route: rr, Index: int32(i), Ref: ref, Written: true}
	d := &parentDecision{pr: pr, ref: ref, route: r,
		parent: model.NamespacedName{Namespace: namespaceOr(ref.Namespace, r.ObjectMeta.Namespace), Name: string(ref.Name)},
		trace:  tracer{on: e.tracing(r.Kind, r.ObjectMeta.Namespace, r.ObjectMeta.Name)}}
	if d.trace.on {
		d.trace.steps, d.trace.subject = &pr.rareOf().trace, d.parentName()
	}
	candidates, ok := e.parentListeners(d)
	if !ok {
		return
	}
	if len(rr.invalidHostnames()) > 0 {
		msg := fmt.Sprintf("spec.hostnames has invalid hostnames: %s", strings.Join(rr.invalidHostnames(), ", "))
		fix := "use DNS names (no IP addresses; a wildcard only as the whole leftmost label, *.example.com)"
		d.trace.step("route.hostnames.valid", false, msg, fix, nil)
		d.reject(rules.RouteAcceptedUnsupportedValue, msg, fix)
		return
	}
	if candidates, ok = d.bySectionName(candidates); !ok {
		return
	}
	if candidates, ok = d.byPort(candidates); !ok {
		return
	}

	// The lists start in fixed arrays (they grow on the heap past 32 listeners):
	// this runs for every parentRef, and most attach to one or two listeners.
	var attachedBuf [32]*listenerView
	var hostsBuf [32][]string
	var inactiveBuf [32]*ListenerResult
	attached, hosts, inactive := attachedBuf[:0], hostsBuf[:0], inactiveBuf[:0]
	kind := bitOf(r.Kind)
	for i := range candidates {
		v := &candidates[i]
		verdict, hs := e.admit(v, r, kind, nsID, a.scratch)
		if d.trace.on {
			*d.trace.steps = append(*d.trace.steps, e.admitSteps(v, r, verdict, hs)...)
		}
		switch verdict {
		case admitted:
			attached, hosts = append(attached, v), append(hosts, a.hostnames(hs))
		case admittedInactive:
			inactive = append(inactive, v.l)
		}
	}
	if len(attached) == 0 {
		d.reject(e.notAttached(d, candidates, nsID))
		return
	}
	if len(inactive) > 0 {
		pr.rareOf().inactive = slices.Clone(inactive)
	}
	pr.Attachments = a.attachments(len(attached))
	for i, v := range attached {
		*pr.Attachments[i] = Attachment{Route: rr, Parent: pr, Listener: v.l, Hostnames: hosts[i]}
	}
	pr.decided = true // accepted: AcceptedCondition names the attached listeners
}

// parentListeners finds the parent a parentRef names and returns its
// listeners' views; ok is false when that decides the parentRef: the parent is
// missing or not accepted (rejected), or no controller in scope writes its
// status (undecided).
func (e *engine) parentListeners(d *parentDecision) (candidates []listenerView, ok bool) {
	pr := d.pr
	kind := written(pr.Ref.Kind)
	if written(pr.Ref.Group) != gwv1.GroupName || (kind != "Gateway" && kind != "ListenerSet") {
		// Not a parent a Gateway controller writes status for (for example a Service
		// in a mesh, GEP-1426).
		pr.Written = false
		return nil, false
	}
	var notAccepted *Condition
	switch kind {
	case "Gateway":
		gw := e.ix.gateways[d.parent]
		if gw == nil {
			e.parentMissing(d, e.ix.allGateways[d.parent])
			return nil, false
		}
		pr.Gateway = gw
		// A Gateway not accepted because none of its listeners is leaves the
		// decision to each listener (listenerSetTakesRoutes).
		if c := gw.notAccepted; c != nil && c.Reason != string(gwv1.GatewayReasonListenersNotValid) {
			notAccepted = c
		}
		candidates = gw.views // every Gateway in the index had its listeners decided
	case "ListenerSet":
		ls := e.ix.listenerSets[d.parent]
		if ls == nil {
			e.parentMissing(d, e.ix.allListenerSets[d.parent])
			return nil, false
		}
		pr.ListenerSet, pr.Gateway = ls, ls.Parent
		if c := Find(ls.Conditions, string(gwv1.ListenerSetConditionAccepted)); !listenerSetTakesRoutes(c) {
			notAccepted = c
		}
		candidates = ls.views // allowed by a Gateway whose listeners step built them
	}
	if c := notAccepted; c != nil {
		msg := fmt.Sprintf("%s is not accepted: %s", d.parentName(), c.Message)
		d.trace.step("route.parentRef.accepted", false, msg, c.Fix, nil)
		d.reject(rules.RouteAcceptedNoMatchingParent, msg, c.Fix)
		return nil, false
	}
	if d.trace.on {
		d.trace.step("route.parentRef.exists", true, d.parentName()+" found", "", nil)
	}
	return candidates, true
}

// listenerSetTakesRoutes reports whether routes may attach to a ListenerSet's
// listeners, given its Accepted condition: when it is accepted, and when it is
// not only because none of its listeners is valid (ListenersNotValid). Each
// listener then decides, as a Gateway's do when none is valid: a route
// attaches to one whose only problem is an unresolved certificate, as it
// would to a Gateway's listener in that state ("A Route MAY attach to a
// conflicted ListenerSet", GEP-1713; rules.ListenerSetAcceptedListenersNotValid),
// and a listener of an unsupported protocol does not allow it
// (rules.RouteAcceptedNotAllowedByListeners).
func listenerSetTakesRoutes(accepted *Condition) bool {
	return accepted != nil && (accepted.Status == metav1.ConditionTrue || accepted.Reason == string(gwv1.ListenerSetReasonListenersNotValid))
}

// parentMissing decides a parentRef whose parent is not among the objects in
// scope. No controller in scope writes its status either way; one that exists
// but belongs to a controller not selected is not reported, one that is not in
// the input at all is rejected, for findings and explain, with the API
// server's refusal when that is why it does not exist.
func (e *engine) parentMissing(d *parentDecision, outOfScope bool) {
	d.pr.Written = false
	if outOfScope {
		return
	}
	kind := written(d.pr.Ref.Kind)
	if why, refused := e.ix.refusal(kind, d.parent); refused {
		fix := refusalFix(kind)
		d.trace.step("route.parentRef.exists", false, why, fix, nil)
		d.reject(rules.RouteAcceptedNoMatchingParent, why, fix)
		return
	}
	fix := fmt.Sprintf("check parentRefs[].name and namespace, or include the %s in the input", kind)
	d.trace.step("route.parentRef.exists", false, fmt.Sprintf("%s is not in the input", d.parentName()), fix, nil)
	d.reject(rules.RouteAcceptedNoMatchingParent, fmt.Sprintf("%s not found", d.parentName()), fix)
}

// bySectionName keeps the listener the parentRef's sectionName names, if it
// sets one (ParentReference.SectionName); ok is false when none has that name,
// which rejects the parentRef.
func (d *parentDecision) bySectionName(candidates []listenerView) (kept []listenerView, ok bool) {
	if d.ref.SectionName == nil || *d.ref.SectionName == "" {
		return candidates, true
	}
	want := string(*d.ref.SectionName)
	for i := range candidates {
		if candidates[i].name == want {
			if d.trace.on {
				d.trace.step("route.parentRef.sectionName", true, fmt.Sprintf("listener %q selected", want), "", nil)
			}
			return candidates[i : i+1], true // names are unique per Gateway or ListenerSet
		}
	}
	names := make([]string, len(candidates))
	for i := range candidates {
		names[i] = candidates[i].name
	}
	fix := fmt.Sprintf("set sectionName to one of: %s", strings.Join(names, ", "))
	if s, dist := suggest.Closest(want, names); dist >= 0 && dist <= 2 {
		fix = fmt.Sprintf("did you mean sectionName %q?", s)
	}
	msg := fmt.Sprintf("%s has no listener named %q", d.parentName(), want)
	d.trace.step("route.parentRef.sectionName", false, msg, fix, map[string]string{"sectionName": want, "listeners": strings.Join(names, ",")})
	d.reject(rules.RouteAcceptedNoMatchingParent, msg, fix)
	return nil, false
}

// byPort keeps the listeners on the parentRef's port, if it sets one
// (ParentReference.Port); ok is false when none is on it, which rejects the
// parentRef.
func (d *parentDecision) byPort(candidates []listenerView) (kept []listenerView, ok bool) {
	if d.ref.Port == nil {
		return candidates, true
	}
	want := *d.ref.Port
	for _, v := range candidates {
		if v.port == want {
			kept = append(kept, v)
		}
	}
	if len(kept) > 0 {
		if d.trace.on {
			d.trace.step("route.parentRef.port", true, fmt.Sprintf("port %d selected", want), "", nil)
		}
		return kept, true
	}
	var ports []string
	for _, v := range candidates {
		ports = appendUnique(ports, fmt.Sprint(v.port))
	}
	msg := fmt.Sprintf("%s has no listener on port %d", d.parentName(), want)
	if d.ref.SectionName != nil {
		msg = fmt.Sprintf("listener %q of %s is not on port %d", *d.ref.SectionName, d.parentName(), want)
	}
	fix := fmt.Sprintf("set port to one of: %s, or remove it", strings.Join(ports, ", "))
	d.trace.step("route.parentRef.port", false, msg, fix, map[string]string{"port": fmt.Sprint(want)})
	d.reject(rules.RouteAcceptedNoMatchingParent, msg, fix)
	return nil, false
}

// verdict is what one listener decides about a route, in the order the checks
// run (ListenerStatus, AllowedRoutes; spec 003 "Hostname Intersection").
type verdict uint8

const (
	admitted         verdict = iota
	notConfigured            // the listener was never configured: nothing to check against
	kindNotAllowed           // allowedRoutes.kinds does not take the route's kind
	namespaceDenied          // allowedRoutes.namespaces does not admit the route's namespace
	noHostname               // the route's and the listener's hostnames do not intersect
	admittedInactive         // it would attach, but the listener is not accepted (conflicted)
)

// admit applies one listener's checks to a route whose namespace selectorTables
// numbers nsID; hosts are the intersected hostnames when the listener admits
// the route, or would, in buf when it is large enough. Nothing is formatted
// here: this runs for every route x listener pair of a parent.
func (e *engine) admit(v *listenerView, r *model.Route, kind kindSet, nsID int32, buf []string) (verdict, []string) {
	switch {
	case !v.configured:
		return notConfigured, nil
	case v.kinds&kind == 0:
		return kindNotAllowed, nil
	case !v.allows(e.ix, r.ObjectMeta.Namespace, nsID):
		return namespaceDenied, nil
	}
	var hosts []string
	if r.HasHostnames() && v.hostnames {
		hosts = hostname.AppendIntersectAllValid(buf, v.hostname, r.Hostnames) // both validated: invalid ones never get here
		if len(hosts) == 0 {
			return noHostname, nil
		}
	}
	if !v.accepted {
		// Conflicted: the route would attach, so it counts (AttachedRoutes), but no
		// traffic reaches it through this listener.
		return admittedInactive, hosts
	}
	return admitted, hosts
}

// unsupportedProtocol reports whether a listener is not accepted because the
// implementation does not support its protocol: it takes no route kind, so a
// route it would have carried is NotAllowedByListeners
// (rules.RouteAcceptedNotAllowedByListeners).
func unsupportedProtocol(l *ListenerResult) bool {
	return l.state != nil && l.state.notAccepted != nil && l.state.notAccepted.Rule == rules.ListenerAcceptedUnsupportedProtocol
}

// notAttached is why a parent whose listeners admit none of the route rejects
// it: a hostname that matches no listener first, then kinds and namespaces (a
// listener of an unsupported protocol takes no kind), then listeners that are
// not accepted.
func (e *engine) notAttached(d *parentDecision, candidates []listenerView, nsID int32) (*rules.Rule, string, string) {
	r := d.route
	routeNS := r.ObjectMeta.Namespace
	var notAccepted, protoFail, kindFail, nsFail, hostFail []*ListenerResult
	kind := bitOf(r.Kind)
	for i := range candidates {
		switch v, _ := e.admit(&candidates[i], r, kind, nsID, nil); v {
		case notConfigured:
			if l := candidates[i].l; unsupportedProtocol(l) {
				protoFail = append(protoFail, l)
			} else {
				notAccepted = append(notAccepted, l)
			}
		case admittedInactive:
			notAccepted = append(notAccepted, candidates[i].l)
		case kindNotAllowed:
			kindFail = append(kindFail, candidates[i].l)
		case namespaceDenied:
			nsFail = append(nsFail, candidates[i].l)
		case noHostname:
			hostFail = append(hostFail, candidates[i].l)
		}
	}
	switch {
	case len(hostFail) > 0:
		var ls []string
		for _, l := range hostFail {
			ls = append(ls, fmt.Sprintf("%s (%s)", l.Name(), l.Hostname()))
		}
		return rules.RouteAcceptedNoMatchingListenerHostname,
			fmt.Sprintf("route hostnames [%s] intersect no listener hostname: %s", strings.Join(hostStrings(r), ", "), strings.Join(ls, ", ")),
			hostnameFix("listener "+hostFail[0].Name(), hostFail[0].Hostname(), hostStrings(r))
	case len(protoFail)+len(kindFail)+len(nsFail) > 0:
		var parts []string
		fix := ""
		if len(protoFail) > 0 {
			parts = append(parts, fmt.Sprintf("listeners %s have a protocol this implementation does not support and take no route kind", listenerNames(protoFail)))
			fix = "attach the " + r.Kind + " to a listener of a supported protocol, or fix the listener's protocol"
		}
		if len(kindFail) > 0 {
			parts = append(parts, fmt.Sprintf("listeners %s do not take %s", listenerNames(kindFail), r.Kind))
			fix = kindFix(r.Kind)
		}
		if len(nsFail) > 0 {
			parts = append(parts, fmt.Sprintf("listeners %s do not allow routes from namespace %s", listenerNames(nsFail), routeNS))
			fix = namespaceFix(nsFail[0].routeNamespaces(), routeNS)
		}
		return rules.RouteAcceptedNotAllowedByListeners, strings.Join(parts, "; "), fix
	case len(notAccepted) > 0:
		return rules.RouteAcceptedNoMatchingParent, fmt.Sprintf("listeners %s are not accepted", listenerNames(notAccepted)), notAcceptedStep(notAccepted[0]).Fix
	}
	return rules.RouteAcceptedNoMatchingParent, d.parentName() + " has no listeners", "add a listener to the parent"
}
