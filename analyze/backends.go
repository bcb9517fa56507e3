package analyze

import (
	"fmt"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// serviceImportGroup is the Multi-Cluster Services API group, whose
// ServiceImport is an Extended backend kind (HTTPBackendRef, GRPCBackendRef,
// TLSRouteRule.BackendRefs: "Support: Extended for Kubernetes ServiceImport").
const serviceImportGroup = "multicluster.x-k8s.io"

// resolveBackends resolves every reference of a route's rules once: each
// rule's filters (RequestMirror backendRefs, ExtensionRefs), then its
// backendRefs and their filters. The first failing reference in that order
// decides the ResolvedRefs reason, and the message lists all (BackendRef,
// HTTPRequestMirrorFilter.BackendRef, HTTPRouteFilter).
func (e *engine) resolveBackends(rr *RouteResult, a *arena) {
	r := rr.Route
	n := 0
	for i := range r.Rules {
		n += len(r.Rules[i].BackendRefs)
	}
	if n > 0 {
		rr.Backends = a.backendResults(n)
	}
	var first *Condition
	var msgs []string
	note := func(c *Condition) {
		if c == nil {
			return
		}
		msgs = append(msgs, c.Message)
		if first == nil {
			first = c
		}
	}
	k := 0
	for ri := range r.Rules {
		rule := &r.Rules[ri]
		if len(rule.Filters) > 0 {
			e.resolveFilters(rr, ri, -1, rule.Filters, note)
		}
		for j := range rule.BackendRefs {
			br := rr.Backends[k]
			k++
			b := &rule.BackendRefs[j]
			e.resolveBackend(br, r, ri, &b.BackendRef, false)
			br.Index = int32(j)
			note(br.Problem)
			if len(b.Filters) > 0 {
				e.resolveFilters(rr, ri, int32(j), b.Filters, note)
			}
		}
	}
	if first != nil {
		refs := rr.routeRefs()
		refs.unresolved = *first
		refs.unresolved.Message = strings.Join(msgs, "; ")
	}
}

// resolveFilters resolves the references of a rule's filters (backend -1) or
// of one of its backendRef's: a RequestMirror's backendRef as a backendRef
// (HTTPRequestMirrorFilter.BackendRef), an ExtensionRef as an
// implementation's filter. A rule whose own ExtensionRef does not resolve is
// dropped (RouteResult.PartiallyInvalid).
func (e *engine) resolveFilters(rr *RouteResult, rule int, backend int32, fs []gwv1.HTTPRouteFilter, note func(*Condition)) {
	for i := range fs {
		f := &fs[i]
		switch {
		case f.Type == gwv1.HTTPRouteFilterRequestMirror && f.RequestMirror != nil:
			m := &MirrorResult{Filter: int32(i), Mirror: f.RequestMirror}
			e.resolveBackend(&m.BackendResult, rr.Route, rule, &gwv1.BackendRef{BackendObjectReference: f.RequestMirror.BackendRef}, true)
			m.Index = backend
			refs := rr.filterRefs()
			refs.mirrors = append(refs.mirrors, m)
			note(m.Problem)
		case f.Type == gwv1.HTTPRouteFilterExtensionRef && f.ExtensionRef != nil:
			x := &ExtensionResult{Rule: rule, Backend: backend, Filter: int32(i), Ref: f.ExtensionRef}
			e.resolveExtension(x, rr.Route)
			refs := rr.filterRefs()
			refs.extensions = append(refs.extensions, x)
			note(x.Problem)
			if d := refs.dropped; x.Problem != nil && backend < 0 && (len(d) == 0 || d[len(d)-1] != rule) {
				refs.dropped = append(d, rule)
			}
		}
	}
}

// resolveBackend fills br with the resolution of backendRef ref of rule
// number rule of route r, or of a RequestMirror filter's backendRef (mirror).
// The kinds it takes are a core Service and, for a backendRef of an HTTP, GRPC
// or TLS route, a ServiceImport; a mirror's is a Service ("Support: Extended
// for Kubernetes Service", implementation-specific for any other resource).
func (e *engine) resolveBackend(br *BackendResult, r *model.Route, rule int, ref *gwv1.BackendRef, mirror bool) {
	routeNS := r.ObjectMeta.Namespace
	group, kind := written(ref.Group), written(ref.Kind)
	*br = BackendResult{Rule: int32(rule), Ref: ref, Namespace: namespaceOr(ref.Namespace, routeNS)}
	target := br.NamespacedName()
	what := "backendRef"
	if mirror {
		what = "RequestMirror backendRef"
	}
	fail := func(c Condition) { br.Problem = &c }
	failWith := func(rule *rules.Rule, msg, fix string) {
		fail(failed(rule.Problem(msg, fix), r.ObjectMeta.Generation, e.now))
	}

	// Messages are joined rather than formatted: thousands of backendRefs may
	// fail, and each boxed argument of a Sprintf is an allocation.
	serviceImport := !mirror && group == serviceImportGroup && kind == "ServiceImport" && takesServiceImports(r.Kind)
	if (group != "" || kind != "Service") && !serviceImport {
		if ok, why := e.unverified(kind, target.Namespace, target.Name); ok {
			br.setUnverified(why)
			return
		}
		gk := groupKindString(group, kind)
		failWith(rules.RouteResolvedRefsInvalidKind, what+" "+gk+" "+target.String()+": kind "+gk+" is not supported",
			"reference a core Service (group \"\", kind Service)")
		return
	}
	grant := grantedRef{fromGroup: gwv1.GroupName, fromKind: r.Kind, fromNamespace: routeNS, toGroup: group, toKind: kind, to: target}
	if !e.ix.permits(grant) {
		failWith(rules.RouteResolvedRefsRefNotPermitted,
			what+" "+kind+" "+target.String()+" is not permitted: no ReferenceGrant in "+target.Namespace+" allows "+r.Kind+" from namespace "+routeNS,
			grant.fix())
		return
	}
	if serviceImport {
		if e.ix.serviceImports[target] == nil {
			e.backendMissing(br, r, what, kind, target)
		}
		return
	}
	svc := e.ix.services[target]
	if svc == nil {
		e.backendMissing(br, r, what, kind, target)
		return
	}
	br.Service = svc.obj
	if ref.Port != nil {
		if ok, declared := svc.hasPort(int32(*ref.Port), routeTransport(r.Kind)); !ok {
			fail(e.portNotFound(r, target, int32(*ref.Port), declared))
			return
		}
	}
	if e.targeted[svc.obj] {
		var unmet *PolicyResult
		br.Policy, unmet = e.backendPolicy(svc.obj, ref.Port)
		if unmet != nil {
			e.policyUnmet(br, r, what, target, unmet)
		}
	}
}

// policyUnmet fails a backendRef whose BackendTLSPolicy the implementation
// cannot meet (backendPolicy): the route is ResolvedRefs=False with the
// policy's own reason, and requests to the backend fail with a 5xx, never in
// plaintext (GEP-1897).
func (e *engine) policyUnmet(br *BackendResult, r *model.Route, what string, target model.NamespacedName, unmet *PolicyResult) {
	name := model.NameOf(unmet.Policy.Obj)
	c := Find(unmet.Conditions, string(gwv1.PolicyConditionAccepted))
	rule, msg, fix := rules.RouteResolvedRefsInvalid,
		fmt.Sprintf("%s Service %s: BackendTLSPolicy %s is invalid (%s): the implementation does not fall back to plaintext, so every request to this backend fails with a 5xx",
			what, target, name, c.Message),
		"correct BackendTLSPolicy "+name.String()+": "+c.Fix
	if c.Reason == string(gwv1.BackendTLSPolicyReasonNoValidCACertificate) {
		rule, msg, fix = rules.RouteResolvedRefsNoValidCACertificate,
			fmt.Sprintf("%s Service %s: BackendTLSPolicy %s has no usable CA certificate, so no connection to it can be verified and every request to it fails",
				what, target, name),
			fmt.Sprintf("fix the caCertificateRefs of BackendTLSPolicy %s", name)
	}
	p := failed(rule.Problem(msg, fix), r.ObjectMeta.Generation, e.now)
	br.Problem = &p
}

// backendMissing decides a backendRef to a Service or ServiceImport that is
// not in the input: taken on trust when declared external, else not found.
func (e *engine) backendMissing(br *BackendResult, r *model.Route, what, kind string, target model.NamespacedName) {
	if ok, why := e.unverified(kind, target.Namespace, target.Name); ok {
		br.setUnverified(why)
		return
	}
	t := target.String()
	c := failed(rules.RouteResolvedRefsBackendNotFound.Problem(what+" "+kind+" "+t+" does not exist",
		"create the "+kind+", fix the name, or declare it with --external "+kind+"/"+t), r.ObjectMeta.Generation, e.now)
	br.Problem = &c
}

// portNotFound is the ResolvedRefs condition of a backendRef whose Service has
// no port of that number for the route's transport: reason BackendNotFound,
// reported as route/BackendPortNotFound (rules.RouteBackendPortNotFound).
func (e *engine) portNotFound(r *model.Route, target model.NamespacedName, port int32, declared bool) Condition {
	msg := fmt.Sprintf("Service %s has no port %d; traffic to this backend fails", target, port)
	if declared {
		t := "TCP"
		if routeTransport(r.Kind) == udp {
			t = "UDP"
		}
		msg = fmt.Sprintf("Service %s has no %s port %d (%s carries %s); traffic to this backend fails", target, t, port, article(r.Kind), t)
	}
	c := cond(gwv1.RouteConditionResolvedRefs, false, gwv1.RouteReasonBackendNotFound, msg,
		"set backendRefs[].port to one of the Service's spec.ports[].port of the route's protocol", r.ObjectMeta.Generation, e.now)
	c.Rule = rules.RouteBackendPortNotFound
	return c
}

// routeTransport is the transport a route kind's traffic reaches its backends
// over: UDP for a UDPRoute, TCP for every other.
func routeTransport(kind string) transport {
	if kind == model.KindUDPRoute {
		return udp
	}
	return tcp
}

// takesServiceImports reports whether a route kind's backendRefs may name a
// ServiceImport (Extended support for HTTPRoute, GRPCRoute and TLSRoute).
func takesServiceImports(kind string) bool {
	switch kind {
	case model.KindHTTPRoute, model.KindGRPCRoute, model.KindTLSRoute:
		return true
	}
	return false
}

// resolveExtension resolves an ExtensionRef filter. Its kind is the
// implementation's; this tool knows it when declared with --external KIND (any
// object of it) or KIND/NAMESPACE/NAME (those objects). An unknown kind is
// InvalidKind, an object of a declared kind that was not declared is
// BackendNotFound; either way the filter "MUST NOT be skipped" and requests
// it would process receive an HTTP error (HTTPRouteFilter.Type).
func (e *engine) resolveExtension(x *ExtensionResult, r *model.Route) {
	ref, ns := x.Ref, r.ObjectMeta.Namespace
	kind, gk := string(ref.Kind), groupKindString(string(ref.Group), string(ref.Kind))
	target := model.NamespacedName{Namespace: ns, Name: string(ref.Name)}
	if ok, why := e.unverified(kind, ns, target.Name); ok {
		x.External, x.Unverified = true, why
		return
	}
	var c Condition
	if e.opts.declaresKind(kind) {
		c = failed(rules.RouteResolvedRefsBackendNotFound.Problem(
			fmt.Sprintf("ExtensionRef filter %s %s is not among the declared %s objects; requests this filter would process receive an HTTP error", gk, target, kind),
			fmt.Sprintf("fix the name, or declare it with --external %s/%s", kind, target)), r.ObjectMeta.Generation, e.now)
	} else {
		c = failed(rules.RouteResolvedRefsInvalidKind.Problem(
			fmt.Sprintf("ExtensionRef filter %s %s: kind %s is not known to the implementation; requests this filter would process receive an HTTP error", gk, target, gk),
			fmt.Sprintf("declare the implementation's filter kind with --external %s (or the object with --external %s/%s), or remove the filter", kind, kind, target)),
			r.ObjectMeta.Generation, e.now)
	}
	x.Problem = &c
}
