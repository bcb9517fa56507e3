package analyze

import (
	"fmt"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/hostname"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// Cross serving: an HTTPRoute and a GRPCRoute on one listener.
//
// GRPCRouteSpec.Hostnames: "If a Route (A) of type HTTPRoute or GRPCRoute is
// attached to a Listener and that listener already has another Route (B) of
// the other type attached and the intersection of the hostnames of A and B is
// non-empty, then the implementation MUST accept exactly one of these two
// routes, determined by the following criteria, in order: the oldest Route
// based on creation timestamp; the Route appearing first in alphabetical order
// by {namespace}/{name}. The rejected Route MUST raise an 'Accepted' condition
// with a status of 'False' in the corresponding RouteParentStatus."
//
// How this engine reads it (rules.RouteAcceptedHostnameConflict):
//   - A listener takes the two kinds' routes oldest first; each is refused
//     when its hostnames on the listener intersect those of a route of the
//     other kind the listener already took. A refused route blocks nothing.
//   - The hostnames are those the route has on the listener (its intersected
//     hostnames): a hostname the listener ignores is not served there. A route
//     with no hostnames has all of the listener's.
//   - A route is refused on that listener only. Its parentRef is rejected
//     when it is refused on every listener it selects; otherwise it stays
//     accepted, and counts in the refusing listener's attachedRoutes
//     (ListenerStatus.AttachedRoutes counts routes accepted through a
//     parentRef that selects the listener).

// Outranked is a route a listener refuses under the cross-serving rule.
type Outranked struct {
	Route *RouteResult
	// Hostnames are the route's intersected hostnames on the listener, as an
	// Attachment's.
	Hostnames []string
	// By is the attachment of the route of the other kind that the listener
	// took first.
	By *Attachment
	// Counted: the route stays accepted through a parentRef that selects the
	// listener, so it counts in the listener's attachedRoutes.
	Counted bool
}

// crossServing applies the cross-serving rule to every listener that took
// routes of both kinds. It runs after every route attached and before
// anything reads the attachments.
func (e *engine) crossServing(listeners []*ListenerResult) {
	type loss struct {
		l      *ListenerResult
		a, by  *Attachment
		chosen []*ParentResult // the route's parentRefs that attached to l
	}
	var losses []loss
	var order []*Attachment // one listener's routes of the two kinds, reused
	for _, l := range listeners {
		if !takesBothKinds(l.Attachments) {
			continue
		}
		order = order[:0]
		for _, a := range l.Attachments {
			if crossKind(a.Route.Route.Kind) >= 0 {
				order = append(order, a)
			}
		}
		slices.SortStableFunc(order, func(a, b *Attachment) int { return routeOrder(a.Route.Route, b.Route.Route) })
		var taken [2][]*Attachment // by crossKind
		for _, a := range order {
			k := crossKind(a.Route.Route.Kind)
			if by := meetingAny(a, taken[1-k]); by != nil {
				losses = append(losses, loss{l: l, a: a, by: by})
				continue
			}
			taken[k] = append(taken[k], a)
		}
	}
	if len(losses) == 0 {
		return
	}
	// First every refusal leaves the lists, then what stays decides the
	// parents: a route refused on two listeners is rejected only when no
	// listener is left to it.
	for i := range losses {
		x := &losses[i]
		x.l.Attachments = exact(slices.DeleteFunc(x.l.Attachments, func(a *Attachment) bool { return a.Route == x.a.Route }))
		for _, p := range x.a.Route.Parents {
			n := len(p.Attachments)
			p.Attachments = exact(slices.DeleteFunc(p.Attachments, func(a *Attachment) bool { return a.Listener == x.l }))
			if len(p.Attachments) < n {
				x.chosen = append(x.chosen, p)
			}
		}
	}
	var rejected []*ParentResult
	for _, x := range losses {
		rr, r := x.a.Route, x.a.Route.Route
		msg, fix := outrankedMessage(x.a, x.by)
		o := Outranked{Route: rr, Hostnames: x.a.Hostnames, By: x.by}
		for _, p := range x.chosen {
			if len(p.Attachments) > 0 {
				o.Counted = true
				stays := make([]*ListenerResult, len(p.Attachments))
				for i, a := range p.Attachments {
					stays[i] = a.Listener
				}
				e.crossFindings.add(rules.RouteHostnameConflictOnListener.Problem(msg+"; the parentRef stays accepted through listeners "+listenerNames(stays), fix),
					routeRef(r), e.referrerSource(routeRef(r), parentField(p), r.Source), parentField(p))
			} else if p.rejected == nil {
				p.rejected = problemOf(rules.RouteAcceptedHostnameConflict, msg, fix)
				e.rejectedFinding(&e.crossFindings, p)
				rejected = append(rejected, p)
			}
			if e.tracing(r.Kind, r.ObjectMeta.Namespace, r.ObjectMeta.Name) {
				p.rareOf().trace = append(p.Trace(), Step{Rule: "route.crossServing", Subject: "listener " + x.l.Name(), Detail: msg, Fix: fix})
			}
		}
		x.l.Outranked = append(x.l.Outranked, o)
	}
	for _, p := range rejected {
		uncountInactive(p)
	}
}

// uncountInactive takes a parentRef the rule rejected out of the counts of
// the listeners it would take if they were accepted: they count only routes
// with Accepted=True (ListenerStatus.AttachedRoutes), unless another accepted
// parentRef of the route counts it there too.
func uncountInactive(p *ParentResult) {
	if p.rare == nil {
		return
	}
	rr := p.Route
	for _, l := range p.rare.inactive {
		stays := false
		for _, q := range rr.Parents {
			if q != p && q.Accepted() && slices.Contains(q.inactive(), l) {
				stays = true
			}
		}
		if !stays {
			l.Inactive = slices.DeleteFunc(l.Inactive, func(r *RouteResult) bool { return r == rr })
			if len(l.Inactive) == 0 {
				l.Inactive = nil
			} else {
				l.Inactive = l.Inactive[:len(l.Inactive):len(l.Inactive)]
			}
		}
	}
	p.rare.inactive = nil
}

// exact is as with no room past its length, as every list of a Result is
// (nil when empty): a list shortened in place keeps none.
func exact(as []*Attachment) []*Attachment {
	if len(as) == 0 {
		return nil
	}
	return as[:len(as):len(as)]
}

// crossKind numbers the two kinds of the rule: 0 HTTPRoute, 1 GRPCRoute, -1
// any other.
func crossKind(kind string) int {
	switch kind {
	case model.KindHTTPRoute:
		return 0
	case model.KindGRPCRoute:
		return 1
	}
	return -1
}

// takesBothKinds reports whether a listener's attachments hold an HTTPRoute
// and a GRPCRoute: most listeners take one kind, and this is all they cost.
func takesBothKinds(as []*Attachment) bool {
	var seen [2]bool
	for _, a := range as {
		if k := crossKind(a.Route.Route.Kind); k >= 0 {
			seen[k] = true
			if seen[0] && seen[1] {
				return true
			}
		}
	}
	return false
}

// routeOrder orders routes as the rule does: the oldest first, then by
// "{namespace}/{name}", then by kind (GRPCRoute first), which the spec leaves
// open. A route with no creationTimestamp has not been created yet (a manifest
// not applied), so it is the newest.
func routeOrder(a, b *model.Route) int {
	if c := model.CreatedOrder(&a.ObjectMeta.CreationTimestamp, &b.ObjectMeta.CreationTimestamp); c != 0 {
		return c
	}
	if c := model.JoinedCompare(a.ObjectMeta.Namespace, a.ObjectMeta.Name, b.ObjectMeta.Namespace, b.ObjectMeta.Name); c != 0 {
		return c
	}
	return strings.Compare(a.Kind, b.Kind)
}

// meets reports whether two attachments to one listener serve a hostname in
// common there. A route with no hostnames serves all of the listener's, and
// the other's hostnames there are within them.
func meets(a, b *Attachment) bool {
	if len(a.Hostnames) == 0 || len(b.Hostnames) == 0 {
		return true
	}
	for _, x := range a.Hostnames {
		for _, y := range b.Hostnames {
			if hostname.Overlap(x, y) {
				return true
			}
		}
	}
	return false
}

// meetingAny is the first of taken that meets a, or nil.
func meetingAny(a *Attachment, taken []*Attachment) *Attachment {
	for _, t := range taken {
		if meets(a, t) {
			return t
		}
	}
	return nil
}

// sharedHostnames are the hostnames both attachments serve on the listener,
// for messages.
func sharedHostnames(a, b *Attachment) []string {
	served := func(a *Attachment) []string {
		if len(a.Hostnames) == 0 {
			return []string{a.Listener.Hostname()}
		}
		return a.Hostnames
	}
	var out []string
	for _, x := range served(a) {
		for _, y := range served(b) {
			if h, ok := hostname.Intersect(x, y); ok && !slices.Contains(out, h) {
				out = append(out, h)
			}
		}
	}
	return out
}

// crossFixes are the fixes of a refused route, by its crossKind.
var crossFixes = [2]string{
	"give the HTTPRoute hostnames the GRPCRoute does not serve, attach it to another listener, or serve these hostnames with one route kind",
	"give the GRPCRoute hostnames the HTTPRoute does not serve (a hostname of its own for gRPC), attach it to another listener, or serve these hostnames with one route kind",
}

// outrankedMessage says why a listener refused a route for the route it took,
// and how to fix it.
func outrankedMessage(a, by *Attachment) (msg, fix string) {
	r, w := a.Route.Route, by.Route.Route
	shared := sharedHostnames(a, by)
	for i, h := range shared {
		if hostname.IsMatchAll(h) {
			shared[i] = "any hostname"
		}
	}
	msg = fmt.Sprintf("listener %s takes %s %s, which also serves %s there and comes first (%s): of an HTTPRoute and a GRPCRoute with intersecting hostnames on one listener, only the first is accepted",
		a.Listener.Name(), w.Kind, model.NameOf(&w.ObjectMeta), strings.Join(shared, ", "), precedes(w, r))
	return msg, crossFixes[crossKind(r.Kind)]
}

// precedes says why route w comes before r: which criterion of the rule decided.
func precedes(w, r *model.Route) string {
	tw, tr := &w.ObjectMeta.CreationTimestamp, &r.ObjectMeta.CreationTimestamp
	stamp := func(t *metav1.Time) string { return t.UTC().Format(time.RFC3339) }
	switch {
	case !tw.Equal(tr) && tr.IsZero():
		return fmt.Sprintf("created %s; this route has no creationTimestamp, so it is not created yet", stamp(tw))
	case !tw.Equal(tr):
		return fmt.Sprintf("created %s, this route %s", stamp(tw), stamp(tr))
	case w.ObjectMeta.Namespace != r.ObjectMeta.Namespace || w.ObjectMeta.Name != r.ObjectMeta.Name:
		when := "created at the same time"
		if tw.IsZero() {
			when = "neither has a creationTimestamp"
		}
		return fmt.Sprintf("%s, and %s sorts first by namespace/name", when, model.NameOf(&w.ObjectMeta))
	}
	return "same creation time and name: GRPCRoute is taken first"
}
