// Package serving is the table of what a configuration serves, built once from
// the engine's Result: for every Gateway (and its addresses) and port, every
// hostname it serves, the listener that takes it, the routes, the certificate
// presented and the backends with their BackendTLSPolicy. simulate prints it,
// and probe's proxy routes on it.
//
// It decides nothing the engine has not decided. Attachments, intersected
// hostnames, listener acceptance, certificate resolution and backend resolution
// are the Result's; this package only indexes them, and answers a request with
// the hostname package's matching and ordering rules (spec 003 "Listener
// ordering", "SNI matching", "Host header matching").
//
// A row lists every route that takes a hostname, with its backends and the
// targets its RequestMirror filters copy requests to. Each route's rules say
// which requests they take (path, method, header and query matches) and what
// answers them (their backends, or a RequestRedirect such as HTTP to HTTPS);
// a request that names a path is decided down to the rule (Request.Path).
package serving

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"sync"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/cores"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// Table is what one configuration serves. It is safe for concurrent use.
type Table struct {
	// Gateways are in the Result's order.
	Gateways []*Gateway
	byName   map[model.NamespacedName]*Gateway
	// rowsOnce decides every port's rows on first use: a single request (a
	// simulate, a proxied connection) needs only Decide.
	rowsOnce sync.Once
}

// Gateway is one Gateway's serving: its addresses and its ports.
type Gateway struct {
	Table  *Table
	Name   model.NamespacedName
	Result *analyze.GatewayResult
	// Addresses are where clients reach the Gateway: status.addresses (what the
	// data plane got), else spec.addresses (what was asked for).
	Addresses []Address
	// Ports are the ports of the Gateway's listeners (its own and those of the
	// ListenerSets it admits), in order of first appearance.
	Ports  []*Port
	byPort map[int32]*Port
}

// Address is one address of a Gateway.
type Address struct {
	Type  gwv1.AddressType
	Value string
}

// Port is one port of a Gateway: the listeners configured on it and the
// hostnames they serve.
type Port struct {
	Gateway *Gateway
	Number  int32
	// Listeners are those that serve the port: the Gateway's own, then those of
	// the ListenerSets it admits and accepts, in precedence order. Listeners
	// that are not accepted are kept, because a request that matches one most
	// specifically is refused rather than sent to another.
	Listeners []*Listener
	rows      []Row
}

// Listener is one listener of a port.
type Listener struct {
	Result *analyze.ListenerResult
	Port   *Port
	Name   string
	// Owner is the Gateway or ListenerSet that declares the listener.
	Owner    model.Ref
	Protocol gwv1.ProtocolType
	// Mode is Terminate or Passthrough for HTTPS and TLS, empty otherwise.
	Mode     gwv1.TLSModeType
	Hostname string
	Accepted bool
	// Routes are the routes attached to the listener, in the Result's order.
	Routes []*Route
	// index finds Routes by name; built on the first request, as most
	// listeners of a large table are never asked.
	index     routeIndex
	indexOnce sync.Once
}

// FromListenerSet reports whether a ListenerSet declares the listener.
func (l *Listener) FromListenerSet() bool { return l.Result.ListenerSet != nil }

// Route is a route attached to one listener.
type Route struct {
	Attachment *analyze.Attachment
	Ref        model.Ref
	// Hostnames are the intersected hostnames (spec 003) the route serves on the
	// listener; a single "" means any.
	Hostnames []string
	// rules are Rules, read on first use: most rows never ask which rule takes
	// a path.
	rules     []*Rule
	rulesOnce sync.Once
}

// Backends are the route's backendRefs in rule order, read with the API's
// defaults (kind Service, weight 1).
func (r *Route) Backends() []Backend {
	brs := r.Attachment.Route.Backends
	if len(brs) == 0 {
		return nil
	}
	out := make([]Backend, len(brs))
	for i, br := range brs {
		out[i] = backend(br)
	}
	return out
}

// Mirrors are the backendRefs of the route's RequestMirror filters, in rule
// order: each receives a copy of the requests its rule (or backendRef) takes,
// and its responses are ignored (HTTPRequestMirrorFilter), so their Weight is
// 0 and a mirror that does not resolve refuses no request.
func (r *Route) Mirrors() []Backend {
	ms := r.Attachment.Route.Mirrors()
	if len(ms) == 0 {
		return nil
	}
	out := make([]Backend, len(ms))
	for i, m := range ms {
		out[i] = backend(&m.BackendResult)
		out[i].Weight, out[i].Mirror = 0, true
	}
	return out
}

// Backend is one backendRef of a route, or of one of its RequestMirror
// filters, as the engine resolved it.
type Backend struct {
	Result *analyze.BackendResult
	// Kind is empty for a Service, the default kind of a backendRef.
	Kind   string
	Name   model.NamespacedName
	Port   int32
	Weight int32
	// Rule is the index of the route rule the backendRef is in.
	Rule     int
	Resolved bool
	// Policy is the BackendTLSPolicy that applies (GEP-1897), nil when none does.
	Policy *analyze.PolicyResult
	// Mirror marks a RequestMirror filter's backend (Route.Mirrors).
	Mirror bool
}

// Certificate is the certificate a terminating listener presents for a name.
type Certificate struct {
	Ref    *analyze.CertificateRef
	Secret model.NamespacedName
	// Covers is whether a client that sent the name accepts the certificate
	// (RFC 6125 by hostname.CertificateCovers, as CertificateRef.Covers).
	Covers bool
}

// Leaf is the certificate's leaf; nil for a Secret declared external, which
// was not read.
func (c *Certificate) Leaf() *x509.Certificate {
	if len(c.Ref.Chain) == 0 {
		return nil
	}
	return c.Ref.Chain[0]
}

// SHA256 is the fingerprint of the leaf, empty when it was not read. It is what
// a client sees, so a probe can tell the Secret's certificate from a stale one.
func (c *Certificate) SHA256() string {
	if leaf := c.Leaf(); leaf != nil {
		return Fingerprint(leaf)
	}
	return ""
}

// Fingerprint is the SHA-256 of a certificate's DER encoding, in hex.
func Fingerprint(c *x509.Certificate) string {
	sum := sha256.Sum256(c.Raw)
	return hex.EncodeToString(sum[:])
}

// Build indexes a Result into its serving table.
// Gateways are indexed on every core: each Gateway's serving is its own.
func Build(res *analyze.Result) *Table {
	t := &Table{Gateways: make([]*Gateway, len(res.Gateways)), byName: make(map[model.NamespacedName]*Gateway, len(res.Gateways))}
	cores.Parts(len(res.Gateways), gatewaysPerPart, func() func(lo, hi int) {
		return func(lo, hi int) {
			for i := lo; i < hi; i++ {
				t.Gateways[i] = gateway(t, res.Gateways[i])
			}
		}
	})
	for _, gw := range t.Gateways {
		t.byName[gw.Name] = gw
	}
	return t
}

// gatewaysPerPart is how many Gateways a core indexes at a time: a
// generated Gateway of 100 routes takes about 0.1 ms.
const gatewaysPerPart = 16

// Gateway is the named Gateway's serving, nil when the Result has none by that
// name.
func (t *Table) Gateway(name model.NamespacedName) *Gateway { return t.byName[name] }

// Port is the Gateway's port number n, nil when no listener is on it.
func (g *Gateway) Port(n int32) *Port { return g.byPort[n] }

func gateway(t *Table, g *analyze.GatewayResult) *Gateway {
	obj := g.Gateway.Obj
	gw := &Gateway{Table: t, Name: model.NamespacedName{Namespace: obj.Namespace, Name: obj.Name}, Result: g,
		Addresses: addresses(obj), byPort: map[int32]*Port{}}
	// Ports come in the order of every listener the Gateway serves, listeners
	// in the order a port lists them (own, then admitted ListenerSets').
	for _, l := range g.AllListeners() {
		n := int32(l.Listener.Port)
		if gw.byPort[n] == nil {
			p := &Port{Gateway: gw, Number: n}
			gw.byPort[n] = p
			gw.Ports = append(gw.Ports, p)
		}
	}
	for _, l := range g.Listeners {
		listener(gw.byPort[int32(l.Listener.Port)], l)
	}
	for _, ls := range g.ListenerSets {
		if !servesListenerSet(ls) {
			continue
		}
		for _, l := range ls.Listeners {
			listener(gw.byPort[int32(l.Listener.Port)], l)
		}
	}
	return gw
}

// servesListenerSet reports whether a Gateway serves a ListenerSet's listeners:
// it admits the set (allowedListeners) and accepted it (GEP-1713).
func servesListenerSet(ls *analyze.ListenerSetResult) bool {
	return ls.Allowed && analyze.IsTrue(ls.Conditions, string(gwv1.ListenerSetConditionAccepted))
}

func listener(p *Port, l *analyze.ListenerResult) {
	if p == nil {
		return // a listener of a ListenerSet the Gateway does not list (not admitted)
	}
	sl := &Listener{Result: l, Port: p, Name: l.Name(), Owner: l.Owner(), Protocol: l.Listener.Protocol,
		Mode: l.TLSMode(), Hostname: l.Hostname(), Accepted: l.Accepted}
	if n := len(l.Attachments); n > 0 {
		routes := make([]Route, n)
		sl.Routes = make([]*Route, n)
		for i, a := range l.Attachments {
			r := a.Route.Route
			routes[i] = Route{Attachment: a, Ref: model.Ref{Kind: r.Kind, Namespace: r.ObjectMeta.Namespace, Name: r.ObjectMeta.Name},
				Hostnames: a.Hostnames}
			sl.Routes[i] = &routes[i]
		}
	}
	p.Listeners = append(p.Listeners, sl)
}

// backend reads a backendRef with the API's defaults: kind Service, weight 1.
func backend(br *analyze.BackendResult) Backend {
	be := Backend{Result: br, Name: model.NamespacedName{Namespace: br.Namespace, Name: string(br.Ref.Name)},
		Weight: 1, Rule: int(br.Rule), Resolved: br.Problem == nil, Policy: br.Policy}
	if k := br.Ref.Kind; k != nil && *k != "Service" {
		be.Kind = string(*k)
	}
	if br.Ref.Port != nil {
		be.Port = int32(*br.Ref.Port)
	}
	if br.Ref.Weight != nil {
		be.Weight = *br.Ref.Weight
	}
	return be
}

// addresses are the Gateway's status.addresses, else its spec.addresses; an
// address without a type is an IPAddress (GatewayStatusAddress.Type default).
func addresses(gw *gwv1.Gateway) []Address {
	var out []Address
	for _, a := range gw.Status.Addresses {
		out = append(out, Address{Type: addressType(a.Type), Value: a.Value})
	}
	if len(out) > 0 {
		return out
	}
	for _, a := range gw.Spec.Addresses {
		out = append(out, Address{Type: addressType(a.Type), Value: a.Value})
	}
	return out
}

func addressType(t *gwv1.AddressType) gwv1.AddressType {
	if t == nil {
		return gwv1.IPAddressType
	}
	return *t
}
