// Package analyze is the one engine of kubectl-gwtls: from a model it computes what
// a conformant Gateway API controller would decide for every object (conditions,
// attachments, intersected hostnames), the findings a user must act on, and the
// trace of every decision. Every command reads its Result; none recomputes it.
package analyze

import (
	"crypto/x509"
	"fmt"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// Result is everything the engine decided about one model.
type Result struct {
	Model              *model.Model
	Now                time.Time
	GatewayClasses     []*GatewayClassResult
	Gateways           []*GatewayResult
	ListenerSets       []*ListenerSetResult
	Routes             []*RouteResult
	BackendTLSPolicies []*PolicyResult
	// Meshes are the provisional GEP-3792 Mesh objects with spec.ocg.
	Meshes []*MeshResult
	// Certificates are the Secrets terminating listeners serve, in listener order.
	Certificates []*CertificateResult
	// Findings are the findings to report. After triage (package triage) the
	// findings of disabled rules are gone, and those suppressed in the manifest
	// or known from a baseline are in Suppressed and Baseline instead.
	Findings []Finding
	// Suppressed are the findings the manifest suppresses, each with its
	// Suppression.
	Suppressed []Finding
	// Baseline is the comparison with a baseline; nil without one.
	Baseline *BaselineComparison
	// Bounded says what the engine left out to stay within its work bound;
	// nil when it decided everything.
	Bounded *WorkBound
}

// WorkBound is what the engine did not decide to stay within
// Options.MaxAttachmentChecks.
type WorkBound struct {
	// Limit is the bound; Needed is the attachment checks the whole input needs.
	Limit, Needed int64
	// Skipped is the number of routes not attached (RouteResult.Skipped).
	Skipped int
}

// Condition is a status condition as a controller writes it, plus the fix this tool
// suggests when it is not the healthy state.
type Condition struct {
	metav1.Condition
	Fix string
	// Rule is the rule the condition reports, set on the unhealthy conditions a
	// finding is due for; nil on healthy ones and on those that only follow
	// another (Programmed follows Accepted, Conflicted the conflict reason).
	Rule *rules.Rule
}

// GatewayClassResult is the decision about one GatewayClass.
type GatewayClassResult struct {
	Class    *model.GatewayClass
	InScope  bool
	Features Features
}

// GatewayResult is the decision about one Gateway and its listeners.
type GatewayResult struct {
	Gateway    *model.Gateway
	Class      *GatewayClassResult // nil when the class is not in the input
	Controller gwv1.GatewayController
	Conditions []Condition
	// Listeners are the Gateway's own listeners in spec order.
	Listeners []*ListenerResult
	// ListenerSets are the ListenerSets whose parentRef names this Gateway, in
	// precedence order (oldest first, then namespace/name).
	ListenerSets         []*ListenerSetResult
	AttachedListenerSets int32
	Trace                []Step
	// Mesh is the Gateway's provisional GEP-3792 spec.mesh, when set.
	Mesh *MeshResult
	// ClassMissing is set when the GatewayClass is not in the input: the Gateway is
	// analyzed as a conformant controller would treat it, under AssumedController.
	ClassMissing bool

	paramsProblem *rules.Problem
	notAccepted   *Condition     // Conditions' Accepted when not True, for routes
	views         []listenerView // Listeners' views, for routes
	merged        []ranked       // mergedListeners, once the listeners are decided
}

// AllListeners is the Gateway's own listeners followed by those of the
// ListenerSets it admits, in precedence order: every listener the Gateway serves.
func (g *GatewayResult) AllListeners() []*ListenerResult {
	merged := mergedListeners(g)
	out := make([]*ListenerResult, len(merged))
	for i, r := range merged {
		out[i] = r.l
	}
	return out
}

// AssumedController is the controllerName written for Gateways whose class is not in
// the input (and no --controller was given).
const AssumedController gwv1.GatewayController = "gwtls.kubectl.dev/assumed-controller"

// ListenerSetResult is the decision about one ListenerSet.
type ListenerSetResult struct {
	ListenerSet *model.ListenerSet
	Parent      *GatewayResult // nil when the parent Gateway is not in the input or out of scope
	Allowed     bool
	Conditions  []Condition
	Listeners   []*ListenerResult
	Trace       []Step

	views []listenerView // Listeners' views, for routes; nil unless Allowed
}

// ListenerResult is the decision about one listener, of a Gateway or a ListenerSet.
type ListenerResult struct {
	Gateway     *GatewayResult
	ListenerSet *ListenerSetResult // nil for the Gateway's own listeners
	Listener    gwv1.Listener
	// Index is the listener's position in its owner's spec.listeners.
	Index int
	// Accepted is whether routes may attach: protocol and TLS settings are supported
	// and the listener is not conflicted.
	Accepted       bool
	Conflicted     bool
	SupportedKinds []gwv1.RouteGroupKind
	Attachments    []*Attachment
	// Inactive are routes accepted through other listeners that this listener
	// would take if it were accepted; they count in attachedRoutes only.
	Inactive []*RouteResult
	// Outranked are routes the listener refuses because it took a route of
	// the other kind with intersecting hostnames first (HTTPRoute and
	// GRPCRoute, rules.RouteAcceptedHostnameConflict); nil on most listeners.
	Outranked  []Outranked
	Conditions []Condition
	Trace      []Step
	// Certificates are the resolved certificateRefs, in order (TLS terminate only).
	Certificates []*CertificateRef

	state *listenerState
	num   int32 // the listener's number while routes attach (numberListeners)
}

// Name is the listener's name.
func (l *ListenerResult) Name() string { return string(l.Listener.Name) }

// Source is where the listener is written: its own line when the loader knows
// it, else its Gateway's or ListenerSet's.
func (l *ListenerResult) Source() model.Source {
	meta := &l.Gateway.Gateway.Meta
	if l.ListenerSet != nil {
		meta = &l.ListenerSet.ListenerSet.Meta
	}
	src := meta.Source
	if l.Index < len(meta.ListenerLines) {
		src.Line = meta.ListenerLines[l.Index]
	}
	return src
}

// Hostname is the listener's hostname, "" when unset.
func (l *ListenerResult) Hostname() string {
	if l.Listener.Hostname == nil {
		return ""
	}
	return string(*l.Listener.Hostname)
}

// Owner is the object that declares the listener: its Gateway or ListenerSet.
func (l *ListenerResult) Owner() model.Ref {
	if l.ListenerSet != nil {
		return refOf("ListenerSet", l.ListenerSet.ListenerSet.Obj.ObjectMeta)
	}
	return refOf("Gateway", l.Gateway.Gateway.Obj.ObjectMeta)
}

// TLSMode is the listener's TLS mode, "" for protocols without TLS and for a
// TLS listener without tls (invalid: it needs a mode). The CRD defaults
// tls.mode to Terminate where tls is written (load.Admission).
func (l *ListenerResult) TLSMode() gwv1.TLSModeType {
	tls := l.Listener.TLS
	switch l.Listener.Protocol {
	case gwv1.HTTPSProtocolType:
		if tls == nil || written(tls.Mode) == "" {
			// ProtocolType: HTTPS is HTTP over TLS the Gateway terminates,
			// whether or not tls is written (v1.6.3 admits an HTTPS listener
			// without it: its certificate may come from elsewhere).
			return gwv1.TLSModeTerminate
		}
		return *tls.Mode
	case gwv1.TLSProtocolType:
		if tls == nil {
			return ""
		}
		return gwv1.TLSModeType(written(tls.Mode))
	}
	return ""
}

// AttachedRoutes is the number of routes attached to the listener. Routes a
// listener would take count even while the listener itself is not accepted
// (ListenerStatus.AttachedRoutes: "the AttachedRoutes field count MUST be set for
// Listeners, even if the Accepted condition of an individual Listener is set to
// False"), and so do routes it refuses under the cross-serving rule that stay
// accepted through another listener of the parentRef ("the number of Routes
// with the Accepted condition set to True that have been attached"); only
// Attachments carry traffic.
func (l *ListenerResult) AttachedRoutes() int32 {
	n := len(l.Attachments) + len(l.Inactive)
	for _, o := range l.Outranked {
		if o.Counted {
			n++
		}
	}
	return int32(n)
}

// RouteResult is the decision about one route, per parentRef.
type RouteResult struct {
	Route    *model.Route
	Parents  []*ParentResult
	Backends []*BackendResult
	// Skipped is why the route was not attached (analysis/WorkBounded): its
	// parents are undecided and unwritten. nil for every route the engine
	// attached.
	Skipped *rules.Problem

	run *runShared // the analysis time and controller, for what is built on demand
	// refs is what most routes do not have: a reference that does not resolve,
	// a RequestMirror or ExtensionRef filter, an invalid hostname, a problem
	// of its annotations; nil when there is none.
	refs *routeRefs
}

// runShared is what every route result of one analysis shares: one pointer in
// each instead of a copy of each field.
type runShared struct {
	now        metav1.Time // the analysis time, for conditions built on demand
	controller gwv1.GatewayController
}

// routeRefs are a route's unresolved references and its filters' references.
// It is the size of the Condition it holds, rounded to the allocator's class:
// the filters, invalid hostnames and lints, rarer still, are behind a pointer.
type routeRefs struct {
	// unresolved is ResolvedRefs when False; its Type is "" when every
	// reference resolved.
	unresolved Condition
	filters    *filterRefs
}

// filterRefs are the references of a route's filters, resolved, and what
// fewer routes still have: invalid hostnames and problems of its annotations.
// They were two slices in every RouteResult, 48 of its 128 bytes.
type filterRefs struct {
	// invalidHostnames are route hostnames that are not valid Gateway API
	// hostnames.
	invalidHostnames []string
	// lints are problems of the route's implementation-specific annotations.
	lints []rules.Problem

	mirrors    []*MirrorResult
	extensions []*ExtensionResult
	// dropped are the rules whose own ExtensionRef filter does not resolve:
	// requests they match receive an HTTP error (HTTPRouteFilter).
	dropped []int
}

// routeRefs returns the route's routeRefs, made on first use.
func (rr *RouteResult) routeRefs() *routeRefs {
	if rr.refs == nil {
		rr.refs = &routeRefs{}
	}
	return rr.refs
}

// invalidHostnames are the route's hostnames that are not valid Gateway API
// hostnames.
func (rr *RouteResult) invalidHostnames() []string {
	if f := rr.filterRefsOrNil(); f != nil {
		return f.invalidHostnames
	}
	return nil
}

// lints are the problems of the route's implementation-specific annotations.
func (rr *RouteResult) lints() []rules.Problem {
	if f := rr.filterRefsOrNil(); f != nil {
		return f.lints
	}
	return nil
}

// filterRefs returns the route's filterRefs, made on first use.
func (rr *RouteResult) filterRefs() *filterRefs {
	refs := rr.routeRefs()
	if refs.filters == nil {
		refs.filters = &filterRefs{}
	}
	return refs.filters
}

// filterRefsOrNil is the route's filterRefs, nil when it has none.
func (rr *RouteResult) filterRefsOrNil() *filterRefs {
	if rr.refs == nil {
		return nil
	}
	return rr.refs.filters
}

// Mirrors are the backendRefs of the route's RequestMirror filters (of its
// rules and of its backendRefs), resolved as backendRefs are, in rule order.
func (rr *RouteResult) Mirrors() []*MirrorResult {
	if f := rr.filterRefsOrNil(); f != nil {
		return f.mirrors
	}
	return nil
}

// Extensions are the route's ExtensionRef filters, resolved, in rule order.
func (rr *RouteResult) Extensions() []*ExtensionResult {
	if f := rr.filterRefsOrNil(); f != nil {
		return f.extensions
	}
	return nil
}

// ResolvedRefs is the route's reference resolution, the same for every parent.
// The healthy condition is built on each call, the unhealthy one is kept.
func (rr *RouteResult) ResolvedRefs() Condition {
	if rr.refs != nil && rr.refs.unresolved.Type != "" {
		return rr.refs.unresolved
	}
	return cond(gwv1.RouteConditionResolvedRefs, true, gwv1.RouteReasonResolvedRefs, "all backendRefs resolved", "", rr.Route.ObjectMeta.Generation, rr.run.now)
}

// PartiallyInvalid is the route's PartiallyInvalid condition when some, but not
// all, of its rules are dropped (RouteConditionPartiallyInvalid: "Dropped
// Rule" approach); ok is false when it has none to write, which is also the
// case for a route that is fully valid or fully invalid.
func (rr *RouteResult) PartiallyInvalid() (c Condition, ok bool) {
	f := rr.filterRefsOrNil()
	if f == nil || len(f.dropped) == 0 || len(f.dropped) == len(rr.Route.Rules) {
		return Condition{}, false
	}
	dropped := f.dropped
	var msg strings.Builder
	msg.WriteString("Dropped Rule")
	if len(dropped) > 1 {
		msg.WriteString("s")
	}
	for i, ri := range dropped {
		if i > 0 {
			msg.WriteString(",")
		}
		fmt.Fprintf(&msg, " %d", ri)
		if name := rr.Route.Rules[ri].Name; name != "" {
			fmt.Fprintf(&msg, " (%s)", name)
		}
	}
	if len(dropped) > 1 {
		msg.WriteString(": each has an ExtensionRef filter that does not resolve, and an unresolved filter is not skipped: requests they match receive an HTTP error response")
	} else {
		msg.WriteString(": its ExtensionRef filter does not resolve, and an unresolved filter is not skipped: requests it matches receive an HTTP error response")
	}
	return cond(gwv1.RouteConditionPartiallyInvalid, true, gwv1.RouteReasonUnsupportedValue, msg.String(),
		"see the route's ResolvedRefs condition", rr.Route.ObjectMeta.Generation, rr.run.now), true
}

// ParentResult is the decision about one parentRef of a route.
type ParentResult struct {
	Route *RouteResult
	// Ref is the parentRef with group and kind defaulted, as status echoes it: in
	// the model (not a copy) for routes the loader read.
	Ref *gwv1.ParentReference
	// Gateway and ListenerSet are the parent the ref resolved to, if any.
	Gateway     *GatewayResult
	ListenerSet *ListenerSetResult
	Attachments []*Attachment
	// rare holds what few parents have (the trace, listeners that would take
	// the route if accepted); nil when there is neither. A large Result has a
	// ParentResult per parentRef, and the two slices were a third of its size.
	rare *parentRare
	// rejected is why the parent does not accept the route (a route/Accepted
	// rule); nil when it does, or when nothing decided (see decided).
	rejected *rules.Problem
	// decided is false for a parent no controller in scope knows of and that is
	// not reported missing (another controller's Gateway, a mesh Service): it has
	// no conditions.
	decided bool
	// Written is false when no controller in scope would write this parent's status:
	// the parent belongs to another controller, is not a Gateway API parent, or is
	// not in the input (then Conditions still say why, for findings and explain).
	Written bool
	// Index is the parentRef's position in the route's spec.parentRefs. An
	// int32 beside the two bools: a large Result has a ParentResult per
	// parentRef, and it is 80 bytes rather than 88.
	Index int32
}

// Controller is the controller that decides the parent: its Gateway's (for a
// ListenerSet, its parent Gateway's), else the one the analysis is for
// (Options.Controller). It is not kept: a large Result has a ParentResult per
// parentRef, and the controller's name was 16 of its 104 bytes.
func (p *ParentResult) Controller() gwv1.GatewayController {
	if p.Gateway != nil {
		return p.Gateway.Controller
	}
	return p.Route.run.controller
}

// parentRare is what few ParentResults have.
type parentRare struct {
	trace []Step
	// inactive are listeners the route would attach to if they were accepted; they
	// count the route in attachedRoutes when the parent is accepted.
	inactive []*ListenerResult
}

// rareOf returns p's parentRare, made on first use.
func (p *ParentResult) rareOf() *parentRare {
	if p.rare == nil {
		p.rare = &parentRare{}
	}
	return p.rare
}

// Trace is the steps that decided the parent, when the analysis recorded
// them (Options.Trace).
func (p *ParentResult) Trace() []Step {
	if p.rare == nil {
		return nil
	}
	return p.rare.trace
}

// inactive are listeners the route would attach to if they were accepted.
func (p *ParentResult) inactive() []*ListenerResult {
	if p.rare == nil {
		return nil
	}
	return p.rare.inactive
}

// Accepted reports whether the parent accepts the route (Accepted=True).
func (p *ParentResult) Accepted() bool { return p.decided && p.rejected == nil }

// Rejected reports whether the parent has Accepted=False.
func (p *ParentResult) Rejected() bool { return p.rejected != nil }

// AcceptedCondition is the parent's Accepted condition as a controller writes
// it; ok is false when the parent has no conditions.
func (p *ParentResult) AcceptedCondition() (c Condition, ok bool) {
	if !p.decided {
		return Condition{}, false
	}
	rr := p.Route
	gen, now := rr.Route.ObjectMeta.Generation, rr.run.now
	if p.rejected != nil {
		return failed(*p.rejected, gen, now), true
	}
	var msg strings.Builder
	msg.WriteString("accepted by listeners ")
	for i, a := range p.Attachments {
		if i > 0 {
			msg.WriteString(", ")
		}
		msg.WriteString(a.Listener.Name())
	}
	return cond(gwv1.RouteConditionAccepted, true, gwv1.RouteReasonAccepted, msg.String(), "", gen, now), true
}

// Conditions are the parent's Accepted and ResolvedRefs conditions, in that
// order, then PartiallyInvalid when the parent accepts a route some of whose
// rules are dropped ("This condition MUST NOT be set if a Route is ... not
// accepted"); nil when it has none. They are built on each call from the
// decision (ResolvedRefs is the route's): stored per parent, they would be a
// large share of a Result's memory, and most commands only need Accepted.
func (p *ParentResult) Conditions() []Condition {
	accepted, ok := p.AcceptedCondition()
	if !ok {
		return nil
	}
	cs := []Condition{accepted, p.Route.ResolvedRefs()}
	if pi, ok := p.Route.PartiallyInvalid(); ok && p.Accepted() {
		cs = append(cs, pi)
	}
	return cs
}

// Attachment is a route attached to a listener through one parentRef, with the
// hostnames the pair serves.
type Attachment struct {
	Route    *RouteResult
	Parent   *ParentResult
	Listener *ListenerResult
	// Hostnames are the intersected hostnames (spec 003); a single "" means any.
	// Attachments with equal hostnames may share one slice: read it, do not
	// change it.
	Hostnames []string
}

// BackendResult is one backendRef of a route, resolved. A large Result has
// one per backendRef: it is 64 bytes (it was 80), External and Unverified
// are read from one pointer and the two positions are int32s.
type BackendResult struct {
	// Ref is the backendRef as written, in the model (not a copy: a route's
	// backends are the bulk of a large Result).
	Ref       *gwv1.BackendRef
	Namespace string
	Service   *model.Service // nil when not a Service or not found
	Problem   *Condition     // nil when it resolved
	// Policy is the accepted BackendTLSPolicy that applies to this backend (one
	// naming the Service port by sectionName wins over one on the whole Service).
	Policy *PolicyResult
	// unverified is why an external backend was not checked; nil when it was.
	unverified *string
	// Rule is the index of the backendRef's rule.
	Rule int32
	// Index is the backendRef's position in its rule; for a mirror, the
	// position of the backendRef whose filter it is, -1 for a rule's filter.
	Index int32
}

// External reports whether the backend is declared external or of a kind
// that could not be read: not verified.
func (b *BackendResult) External() bool { return b.unverified != nil }

// Unverified says why an External backend was not checked; "" when it was.
func (b *BackendResult) Unverified() string {
	if b.unverified == nil {
		return ""
	}
	return *b.unverified
}

// setUnverified marks the backend External, for why.
func (b *BackendResult) setUnverified(why string) { b.unverified = &why }

// NamespacedName is the object the backendRef names, its namespace defaulted.
func (b *BackendResult) NamespacedName() model.NamespacedName {
	return model.NamespacedName{Namespace: b.Namespace, Name: string(b.Ref.Name)}
}

// Field is where the backendRef is in the route's spec, for findings: it is
// formatted only for findings, not for every backendRef.
func (b *BackendResult) Field() string {
	return fmt.Sprintf("spec.rules[%d].backendRefs[%d]", b.Rule, b.Index)
}

// MirrorResult is the backendRef of one RequestMirror filter of a route,
// resolved as a backendRef is (HTTPRequestMirrorFilter.BackendRef). Its Ref is
// a BackendRef made of the filter's BackendObjectReference, and its Index is
// the backendRef whose filter it is, -1 for a rule's filter.
type MirrorResult struct {
	BackendResult
	// Filter is the filter's position among its filters.
	Filter int32
	// Mirror is the filter, in the model (its percent or fraction).
	Mirror *gwv1.HTTPRequestMirrorFilter
}

// Field is where the mirror's backendRef is in the route's spec, for findings.
func (m *MirrorResult) Field() string {
	return filterField(int(m.Rule), m.Index, m.Filter) + ".requestMirror.backendRef"
}

// filterField is the field of filter number filter of a rule (backend -1) or
// of its backendRef number backend.
func filterField(rule int, backend, filter int32) string {
	if backend < 0 {
		return fmt.Sprintf("spec.rules[%d].filters[%d]", rule, filter)
	}
	return fmt.Sprintf("spec.rules[%d].backendRefs[%d].filters[%d]", rule, backend, filter)
}

// ExtensionResult is one ExtensionRef filter of a route, resolved: an
// implementation's filter, a kind it must know (HTTPRouteFilter.ExtensionRef).
type ExtensionResult struct {
	Rule int
	// Backend is the position of the backendRef whose filter it is, -1 for a
	// rule's filter; Filter its position among its filters.
	Backend, Filter int32
	// Ref is the filter's extensionRef, in the model; the object is in the
	// route's namespace.
	Ref      *gwv1.LocalObjectReference
	External bool // declared with --external: taken on trust
	// Unverified says why an External filter was not checked.
	Unverified string
	Problem    *Condition // nil when it resolved
}

// Field is where the filter is in the route's spec, for findings.
func (x *ExtensionResult) Field() string {
	return filterField(x.Rule, x.Backend, x.Filter) + ".extensionRef"
}

// CertificateRef is one resolved certificateRef of a listener.
type CertificateRef struct {
	Ref       gwv1.SecretObjectReference
	Namespace string
	Secret    *model.Secret
	External  bool
	// Unverified says why an External certificate was not checked.
	Unverified string
	Problem    string
	// Chain is the parsed tls.crt, leaf first, when the Secret holds a usable key pair.
	Chain []*x509.Certificate
}

// NamespacedName is the Secret the ref names, its namespace defaulted.
func (c *CertificateRef) NamespacedName() model.NamespacedName {
	return model.NamespacedName{Namespace: c.Namespace, Name: string(c.Ref.Name)}
}

// Usable reports whether the certificate can be served (or is declared external).
func (c *CertificateRef) Usable() bool { return c.Problem == "" && (c.External || len(c.Chain) > 0) }

// DNSNames are the leaf's DNS SANs.
func (c *CertificateRef) DNSNames() []string {
	if len(c.Chain) == 0 {
		return nil
	}
	return c.Chain[0].DNSNames
}

// Step is one decision of the engine, recorded for explain: the rule applied, what
// it looked at, what it decided, and what would change the outcome.
type Step struct {
	Rule    string            `json:"rule"`
	Subject string            `json:"subject,omitempty"`
	Inputs  map[string]string `json:"inputs,omitempty"`
	Passed  bool              `json:"passed"`
	Detail  string            `json:"detail"`
	Fix     string            `json:"fix,omitempty"`
}
