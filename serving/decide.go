package serving

import (
	"fmt"
	"slices"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/hostname"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// Request is what a client sends to a Gateway port.
type Request struct {
	// SNI is the TLS server name; empty for plain-text HTTP.
	SNI string
	// Host is the HTTP Host header after TLS is terminated; empty means the SNI.
	Host string
	// Path is the request's path. Empty, the request is decided down to the
	// routes that take its hostname; set, down to the rule that takes it
	// (Decision.Rule), which a TLS listener's routes do not have.
	Path string
	// Method is the HTTP method; empty means GET. It counts only with Path.
	Method string
	// Header is a header the request carries that rules may match on (the
	// X-Forwarded-Proto a load balancer in front adds), by canonical name;
	// the zero Header is none. It counts only with Path. One is all a
	// comparison asks, and keeps Request comparable.
	Header Header
}

// Header is an HTTP request header: a name (net/http.CanonicalHeaderKey) and
// its value.
type Header struct{ Name, Value string }

// Refusal is why a port does not serve a request; Served when it does.
type Refusal int

const (
	// Served: the request reaches a route with a resolved backend.
	Served Refusal = iota
	// NoListener: no listener on the port, for the request's protocol, has a
	// hostname that matches.
	NoListener
	// ListenerNotAccepted: the most specific listener is not accepted; the
	// request is not handed to a less specific one.
	ListenerNotAccepted
	// NoRouteForSNI: no attached route has an intersected hostname that matches
	// the SNI (RFC 2818: a wildcard matches one label).
	NoRouteForSNI
	// NoRouteForHost: no attached route matches the Host header (HTTP 404).
	NoRouteForHost
	// NoCertificate: a terminating listener has no usable certificate.
	NoCertificate
	// NoBackendRefs: the route has no backendRefs.
	NoBackendRefs
	// NoBackendResolves: none of the route's backendRefs resolves.
	NoBackendResolves
	// NoRuleForPath: routes take the hostname, but no rule of theirs matches
	// the request's path and method (HTTP 404: "When no rules matching a
	// request have been successfully attached to the parent a request is
	// coming from, a HTTP 404 status code MUST be returned").
	NoRuleForPath
)

func (r Refusal) String() string {
	switch r {
	case Served:
		return "Served"
	case NoListener:
		return "NoListener"
	case ListenerNotAccepted:
		return "ListenerNotAccepted"
	case NoRouteForSNI:
		return "NoRouteForSNI"
	case NoRouteForHost:
		return "NoRouteForHost"
	case NoCertificate:
		return "NoCertificate"
	case NoBackendRefs:
		return "NoBackendRefs"
	case NoBackendResolves:
		return "NoBackendResolves"
	case NoRuleForPath:
		return "NoRuleForPath"
	}
	return fmt.Sprintf("Refusal(%d)", int(r))
}

// Decision is what a port does with one request.
type Decision struct {
	Port *Port
	// Listener is the listener that takes the request; nil with NoListener.
	Listener *Listener
	// Hostname is the intersected hostname of Routes that matched the request.
	Hostname string
	// Routes are the routes whose intersected hostname is Hostname, oldest
	// first, then by namespace/name (Gateway API route precedence). Matching
	// rules would split requests among them; the model does not keep rules, so
	// Routes[0] takes the request. Decisions share the slice: do not change it.
	Routes []*Route
	// Certificate is what a terminating listener presents for the SNI, when the
	// handshake gets that far.
	Certificate *Certificate
	// Rule is the rule that takes a request with a Path, nil otherwise or when
	// none matches (NoRuleForPath). It may be of a route that takes the
	// hostname less specifically than Routes, when no rule of theirs matches.
	Rule *Rule
	// Match is the match of Rule that takes the request.
	Match *Match
	// RegexPath reports that a RegularExpression path match took part in
	// choosing Rule: its syntax, anchoring and precedence are
	// implementation-specific (HTTPPathMatch), so the choice is this
	// package's reading (whole-path RE2), not the specification's.
	RegexPath bool
	Refusal   Refusal
}

// Route is the route that takes the request, nil when none does: the Rule's,
// when the request was decided down to a rule.
func (d *Decision) Route() *Route {
	if d.Rule != nil {
		return d.Rule.Route
	}
	if len(d.Routes) == 0 {
		return nil
	}
	return d.Routes[0]
}

// Decide follows a request through the port as the spec orders it: the listener
// for the request's protocol whose hostname matches most specifically, the route
// whose intersected hostname matches the SNI (one label per wildcard) or the
// Host header (one or more), the certificate presented and the backends.
func (p *Port) Decide(req Request) Decision {
	if req.Host == "" {
		req.Host = req.SNI
	}
	d := Decision{Port: p}
	l := p.listenerFor(req)
	if l == nil {
		d.Refusal = NoListener
		return d
	}
	d.Listener = l
	if !l.Accepted {
		d.Refusal = ListenerNotAccepted
		return d
	}
	switch l.Protocol {
	case gwv1.TLSProtocolType:
		if d.Routes, d.Hostname = l.routesFor(req.SNI, hostname.MatchesSNI); d.Routes == nil {
			d.Refusal = NoRouteForSNI
			return d
		}
	case gwv1.HTTPSProtocolType:
		// The handshake completes before the Host header is read: a refusal
		// after it still presented the certificate.
		if sni, _ := l.routesFor(req.SNI, hostname.MatchesSNI); sni == nil {
			d.Certificate, d.Refusal = l.certificateFor(req.SNI), NoRouteForSNI
			return d
		}
		if d.Routes, d.Hostname = l.routesFor(req.Host, hostname.MatchesHost); d.Routes == nil {
			d.Certificate, d.Refusal = l.certificateFor(req.SNI), NoRouteForHost
			return d
		}
	default:
		if d.Routes, d.Hostname = l.routesFor(req.Host, hostname.MatchesHost); d.Routes == nil {
			d.Refusal = NoRouteForHost
			return d
		}
	}
	if l.Mode == gwv1.TLSModeTerminate {
		if d.Certificate = l.certificateFor(req.SNI); d.Certificate == nil {
			d.Refusal = NoCertificate
			return d
		}
	}
	if req.Path != "" && l.Protocol != gwv1.TLSProtocolType {
		if req.Method == "" {
			req.Method = "GET"
		}
		d.Rule, d.Match, d.RegexPath = l.ruleFor(d.Routes, req, hostname.MatchesHost)
		if d.Rule == nil {
			d.Refusal = NoRuleForPath
			return d
		}
		d.Refusal = ruleRefusal(d.Rule)
		return d
	}
	d.Refusal = routeRefusal(d.Route())
	return d
}

// routeRefusal is Served when a rule of the route answers requests: one of its
// backendRefs resolves, or a rule redirects (HTTPRequestRedirectFilter: the
// redirect is the response, and such a rule needs no backendRefs).
func routeRefusal(r *Route) Refusal {
	refusal := backendsRefusal(r.Attachment.Route.Backends)
	if refusal == Served {
		return refusal
	}
	for _, rule := range r.Rules() {
		if rule.Redirect != nil {
			return Served
		}
	}
	return refusal
}

// listenerFor is the listener that takes a request (spec 003 "Listener
// ordering": exact, then the most specific wildcard, then no hostname; the name
// is matched like a Host header, a wildcard covering one or more labels). Of
// listeners that share the winning hostname (a conflict), an accepted one is
// preferred, else the first. nil when none matches.
func (p *Port) listenerFor(req Request) *Listener {
	tls := req.SNI != ""
	name := req.Host
	if tls {
		name = req.SNI
	}
	var best *Listener
	for _, l := range p.Listeners {
		if !speaks(l.Protocol, tls) || !hostname.MatchesHost(l.Hostname, name) {
			continue
		}
		switch {
		case best == nil || hostname.Compare(l.Hostname, best.Hostname) < 0:
			best = l
		case l.Hostname == best.Hostname && l.Accepted && !best.Accepted:
			best = l
		}
	}
	return best
}

// speaks reports whether a listener's protocol takes a TLS (HTTPS, TLS) or a
// plain-text HTTP request.
func speaks(p gwv1.ProtocolType, tls bool) bool {
	if tls {
		return p == gwv1.HTTPSProtocolType || p == gwv1.TLSProtocolType
	}
	return p == gwv1.HTTPProtocolType
}

// routesFor are the attached routes whose intersected hostname most specifically
// matches name, in route precedence order, and that hostname; nil when none
// matches. The slice is the index's: read it, do not change it.
func (l *Listener) routesFor(name string, matches func(pattern, host string) bool) ([]*Route, string) {
	l.indexOnce.Do(func() { l.index = newRouteIndex(l.Routes) })
	return l.index.lookup(name, matches)
}

// mostSpecificMatch is hostname.MostSpecificMatch over a route's intersected
// hostnames, of which none means any.
func mostSpecificMatch(hostnames []string, name string, matches func(pattern, host string) bool) (string, bool) {
	if len(hostnames) == 0 {
		return "", matches("", name)
	}
	return hostname.MostSpecificMatch(hostnames, name, matches)
}

// byPrecedence sorts routes in precedence order, the oldest first, then by
// namespace/name (Gateway API route precedence), and lists once a route
// attached to the listener through two parentRefs. It sorts in place: sorting
// once is n log n where inserting each route in order is n², and one listener
// may take thousands of routes on one hostname.
func byPrecedence(routes []*Route) []*Route {
	slices.SortFunc(routes, func(a, b *Route) int {
		switch {
		case routeBefore(a, b):
			return -1
		case routeBefore(b, a):
			return 1
		}
		return 0
	})
	out := routes[:0]
	for _, r := range routes {
		// Only twins sort equal, so a twin is next to the route it repeats.
		if len(out) > 0 && out[len(out)-1].Attachment.Route == r.Attachment.Route {
			continue
		}
		out = append(out, r)
	}
	return out
}

// routeBefore orders routes by creation time (model.CreatedOrder: a route not
// created yet is the newest), then by "namespace/name".
func routeBefore(a, b *Route) bool {
	ma, mb := &a.Attachment.Route.Route.ObjectMeta, &b.Attachment.Route.Route.ObjectMeta
	if c := model.CreatedOrder(&ma.CreationTimestamp, &mb.CreationTimestamp); c != 0 {
		return c < 0
	}
	return model.JoinedCompare(ma.Namespace, ma.Name, mb.Namespace, mb.Name) < 0
}

// certificateFor is the certificate the listener presents to a client that sent
// sni, as the engine selects it (ListenerResult.CertificateFor); nil when no
// certificateRef is usable.
func (l *Listener) certificateFor(sni string) *Certificate {
	c, covers := l.Result.CertificateFor(sni)
	if c == nil {
		return nil
	}
	return &Certificate{Ref: c, Secret: model.NamespacedName{Namespace: c.Namespace, Name: string(c.Ref.Name)}, Covers: covers}
}

// backendsRefusal is Served when a backendRef resolves.
func backendsRefusal(bs []*analyze.BackendResult) Refusal {
	if len(bs) == 0 {
		return NoBackendRefs
	}
	for _, b := range bs {
		if b.Problem == nil {
			return Served
		}
	}
	return NoBackendResolves
}
