package serving_test

import (
	"testing"
	"time"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
)

// digestResult is a Gateway with an HTTP, an HTTPS (two certificates) and a
// TLS listener on their ports, routes with backends on each.
func digestResult(t *testing.T) *analyze.Result {
	return analyzeYAML(t, class, services, secret("a-cert", "a.example.com"), secret("b-cert", "b.example.com"),
		gateway("",
			"{name: http, port: 80, protocol: HTTP, hostname: '*.example.com'}",
			"{name: https, port: 443, protocol: HTTPS, hostname: '*.example.com', tls: {certificateRefs: [{name: a-cert}, {name: b-cert}]}}",
			"{name: tls, port: 8443, protocol: TLS, hostname: '*.example.com', tls: {mode: Passthrough}}"),
		route("HTTPRoute", "a", "2025-01-01T00:00:00Z", "{parentRefs: [{name: gw, sectionName: http}, {name: gw, sectionName: https}], hostnames: [a.example.com], rules: [{backendRefs: [{name: web, port: 8080}]}]}"),
		route("HTTPRoute", "b", "2025-01-02T00:00:00Z", "{parentRefs: [{name: gw, sectionName: http}, {name: gw, sectionName: https}], hostnames: [a.example.com, b.example.com], rules: [{backendRefs: [{name: web, port: 8443, weight: 3}]}]}"),
		route("TLSRoute", "t", "", "{parentRefs: [{name: gw, sectionName: tls}], hostnames: [t.example.com], rules: [{backendRefs: [{name: web, port: 8443}]}]}"),
	)
}

// Two tables of one Result decide every request alike; a table with one
// field that a decision reads changed does not, for the requests on that
// port: the digests cover each field of the serving table's listeners and
// routes that Decide reads, not only the fields that change with others.
func TestDigestsCover(t *testing.T) {
	res := digestResult(t)
	gw := model.NamespacedName{Namespace: "default", Name: "gw"}
	requests := map[int32][]serving.Request{
		80:   {{Host: "a.example.com"}, {Host: "b.example.com"}},
		443:  {{SNI: "a.example.com"}, {SNI: "b.example.com"}},
		8443: {{SNI: "t.example.com"}},
	}
	base := serving.Build(res)
	bd := base.Digests()
	// same is whether the two tables decide the port's requests alike, by
	// SamePort and by SameDecision for each request: a change must show in
	// both.
	sameTables := func(a, b *serving.Table, port int32) bool {
		ad, od := a.Digests(), b.Digests()
		if serving.SamePort(ad, od, gw, port) {
			return true
		}
		for _, req := range requests[port] {
			if !serving.SameDecision(ad, od, gw, port, req) {
				return false
			}
		}
		return true
	}
	same := func(other *serving.Table, port int32) bool { return sameTables(base, other, port) }
	for port := range requests {
		if !same(serving.Build(res), port) {
			t.Fatalf("port %d: two tables of one Result do not decide alike", port)
		}
	}
	listener := func(tb *serving.Table, port int32, i int) *serving.Listener {
		return tb.Gateway(gw).Port(port).Listeners[i]
	}
	changes := []struct {
		name   string
		port   int32
		change func(tb *serving.Table)
	}{
		{"listener name", 80, func(tb *serving.Table) { listener(tb, 80, 0).Name = "other" }},
		{"listener owner", 80, func(tb *serving.Table) { listener(tb, 80, 0).Owner.Name = "other" }},
		{"listener protocol", 80, func(tb *serving.Table) { listener(tb, 80, 0).Protocol = gwv1.HTTPSProtocolType }},
		{"listener mode", 443, func(tb *serving.Table) { listener(tb, 443, 0).Mode = gwv1.TLSModePassthrough }},
		{"listener hostname", 443, func(tb *serving.Table) { listener(tb, 443, 0).Hostname = "a.example.com" }},
		{"listener accepted", 443, func(tb *serving.Table) { listener(tb, 443, 0).Accepted = false }},
		{"route hostnames", 80, func(tb *serving.Table) { listener(tb, 80, 0).Routes[0].Hostnames = []string{"c.example.com"} }},
		{"route name", 80, func(tb *serving.Table) { listener(tb, 80, 0).Routes[1].Ref.Name = "c" }},
		{"route order", 443, func(tb *serving.Table) {
			rs := listener(tb, 443, 0).Routes
			rs[0], rs[1] = rs[1], rs[0]
		}},
		{"route twin", 443, func(tb *serving.Table) {
			rs := listener(tb, 443, 0).Routes
			rs[1] = &serving.Route{Attachment: rs[0].Attachment, Ref: rs[1].Ref, Hostnames: rs[1].Hostnames}
		}},
		{"route attachment", 8443, func(tb *serving.Table) {
			rs := listener(tb, 8443, 0).Routes
			rs[0] = &serving.Route{Attachment: listener(tb, 80, 0).Routes[0].Attachment, Ref: rs[0].Ref, Hostnames: rs[0].Hostnames}
		}},
		{"certificate name", 443, func(tb *serving.Table) { certs(listener(tb, 443, 0))[1].Ref.Name = "c-cert" }},
		{"certificate namespace", 443, func(tb *serving.Table) { certs(listener(tb, 443, 0))[0].Namespace = "other" }},
		{"certificate problem", 443, func(tb *serving.Table) { certs(listener(tb, 443, 0))[0].Problem = "broken" }},
		{"certificate external", 443, func(tb *serving.Table) { certs(listener(tb, 443, 0))[0].External = true }},
		{"certificate chain", 443, func(tb *serving.Table) {
			cs := certs(listener(tb, 443, 0))
			cs[0].Chain = cs[1].Chain
		}},
		{"certificate order", 443, func(tb *serving.Table) {
			cs := certs(listener(tb, 443, 0))
			cs[0], cs[1] = cs[1], cs[0]
		}},
		{"route created", 80, func(tb *serving.Table) {
			rr := routeResult(listener(tb, 80, 0).Routes[0])
			mr := *rr.Route
			mr.ObjectMeta.CreationTimestamp.Time = mr.ObjectMeta.CreationTimestamp.Add(48 * time.Hour)
			rr.Route = &mr
		}},
		{"backend port", 80, func(tb *serving.Table) { backendRef(listener(tb, 80, 0).Routes[0]).Port = ptr(gwv1.PortNumber(9)) }},
		{"backend name", 80, func(tb *serving.Table) { backendRef(listener(tb, 80, 0).Routes[0]).Name = "other" }},
		{"backend kind", 80, func(tb *serving.Table) { backendRef(listener(tb, 80, 0).Routes[0]).Kind = ptr(gwv1.Kind("Other")) }},
		{"backend weight", 80, func(tb *serving.Table) { backendRef(listener(tb, 80, 0).Routes[1]).Weight = ptr(int32(4)) }},
		{"backend namespace", 80, func(tb *serving.Table) { backends(listener(tb, 80, 0).Routes[0])[0].Namespace = "other" }},
		{"backend rule", 80, func(tb *serving.Table) { backends(listener(tb, 80, 0).Routes[0])[0].Rule = 1 }},
		{"backend problem", 80, func(tb *serving.Table) {
			backends(listener(tb, 80, 0).Routes[0])[0].Problem = &analyze.Condition{}
		}},
		{"backend policy", 80, func(tb *serving.Table) {
			backends(listener(tb, 80, 0).Routes[0])[0].Policy = &analyze.PolicyResult{Policy: &model.BackendTLSPolicy{Obj: &gwv1.BackendTLSPolicy{}}}
		}},
		{"backends removed", 80, func(tb *serving.Table) { routeResult(listener(tb, 80, 0).Routes[0]).Backends = nil }},
		{"listener removed", 443, func(tb *serving.Table) {
			p := tb.Gateway(gw).Port(443)
			p.Listeners = p.Listeners[:0]
		}},
	}
	for _, c := range changes {
		other := serving.Build(res)
		c.change(other)
		if same(other, c.port) {
			t.Errorf("%s changed: port %d still digests as deciding every request alike", c.name, c.port)
		}
	}
	// The same route attached twice, against two routes equal in all but
	// being one: byPrecedence lists the first once.
	a, b := serving.Build(res), serving.Build(res)
	ra, rb := listener(a, 443, 0).Routes, listener(b, 443, 0).Routes
	ra[1] = &serving.Route{Attachment: ra[0].Attachment, Ref: ra[0].Ref, Hostnames: ra[0].Hostnames}
	rb[1] = &serving.Route{Attachment: rb[0].Attachment, Ref: rb[0].Ref, Hostnames: rb[0].Hostnames}
	routeResult(rb[1])
	if sameTables(a, b, 443) {
		t.Error("a route attached twice decides as two equal routes")
	}
	// A route whose backends do not resolve, with a rule that redirects and
	// without: routeRefusal reads the rules then.
	a, b = serving.Build(res), serving.Build(res)
	for _, tb := range []*serving.Table{a, b} {
		for _, be := range backends(listener(tb, 80, 0).Routes[0]) {
			be.Problem = &analyze.Condition{}
		}
	}
	rr := routeResult(listener(a, 80, 0).Routes[0])
	mr := *rr.Route
	mr.Rules = append([]model.RouteRule{}, mr.Rules...)
	mr.Rules[0].Filters = []gwv1.HTTPRouteFilter{{Type: gwv1.HTTPRouteFilterRequestRedirect, RequestRedirect: &gwv1.HTTPRequestRedirectFilter{Scheme: ptr("https")}}}
	rr.Route = &mr
	if sameTables(a, b, 80) {
		t.Error("a route that redirects decides as one that does not, both without a backend that resolves")
	}
	// A Gateway missing from one side, or twice in a table, is never alike.
	empty := serving.Build(&analyze.Result{})
	if serving.SameDecision(bd, empty.Digests(), gw, 80, requests[80][0]) {
		t.Error("a Gateway one side lacks decides alike")
	}
	twice := &analyze.Result{Gateways: append(append([]*analyze.GatewayResult{}, res.Gateways...), res.Gateways...)}
	if serving.SameDecision(bd, serving.Build(twice).Digests(), gw, 80, requests[80][0]) {
		t.Error("a Gateway held twice decides alike")
	}
	if serving.SameDecision(bd, serving.Build(res).Digests(), gw, 80, serving.Request{Host: "a.example.com", Path: "/"}) {
		t.Error("a request with a Path decides alike: its rules are not digested")
	}
}

// certs gives the listener a copy of its certificateRefs to change.
func certs(l *serving.Listener) []*analyze.CertificateRef {
	lr := *l.Result
	lr.Certificates = make([]*analyze.CertificateRef, len(l.Result.Certificates))
	for i, c := range l.Result.Certificates {
		cc := *c
		lr.Certificates[i] = &cc
	}
	l.Result = &lr
	return lr.Certificates
}

// routeResult gives the route a copy of its RouteResult to change.
func routeResult(r *serving.Route) *analyze.RouteResult {
	a := *r.Attachment
	rr := *a.Route
	a.Route = &rr
	r.Attachment = &a
	return &rr
}

// backends gives the route a copy of its backends to change.
func backends(r *serving.Route) []*analyze.BackendResult {
	rr := routeResult(r)
	bs := make([]*analyze.BackendResult, len(rr.Backends))
	for i, b := range rr.Backends {
		bb := *b
		bs[i] = &bb
	}
	rr.Backends = bs
	return bs
}

// backendRef gives the route's first backend a copy of its backendRef to change.
func backendRef(r *serving.Route) *gwv1.BackendRef {
	b := backends(r)[0]
	ref := *b.Ref
	b.Ref = &ref
	return &ref
}

func ptr[T any](v T) *T { return &v }
