// Package simulate answers "if a client connects with SNI x (and Host h) to port p,
// what happens?" from the engine's Result: the listener chosen, the route, the
// certificate served, the backends and their backend TLS, or why the connection is
// refused. It decides nothing the engine has not: it only queries the Result with
// the hostname package's matching rules (spec 003).
package simulate

import (
	"fmt"
	"sort"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/hostname"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// Request is one simulated connection.
type Request struct {
	// SNI is the TLS server name; empty means a plain-text HTTP request.
	SNI string `json:"sni,omitempty"`
	// Port is the Gateway port the client connects to.
	Port int32 `json:"port"`
	// Host is the HTTP Host header after TLS termination (default: SNI).
	Host string `json:"host,omitempty"`
	// Gateway narrows the simulation to one Gateway ("namespace/name").
	Gateway string `json:"gateway,omitempty"`
}

// Outcomes.
const (
	Routed  = "routed"
	Refused = "refused"
)

// Outcome is what happens to one request.
type Outcome struct {
	Outcome  string  `json:"outcome"`
	Request  Request `json:"request"`
	Gateway  string  `json:"gateway,omitempty"`
	Listener string  `json:"listener,omitempty"`
	// ListenerOwner is set when the listener comes from a ListenerSet.
	ListenerOwner *model.Ref `json:"listenerOwner,omitempty"`
	// Mode is Terminate, Passthrough, or empty for plain HTTP.
	Mode                string       `json:"mode,omitempty"`
	Route               *model.Ref   `json:"route,omitempty"`
	IntersectedHostname string       `json:"intersectedHostname,omitempty"`
	Certificate         *Certificate `json:"certificate,omitempty"`
	Backends            []Backend    `json:"backends,omitempty"`
	Reason              string       `json:"reason,omitempty"`
	// AlsoServedBy lists other Gateways listening on the port whose listeners match.
	AlsoServedBy []string `json:"alsoServedBy,omitempty"`
}

// Certificate is the certificate a terminating listener serves for the SNI.
type Certificate struct {
	Secret         string   `json:"secret"`
	DNSNames       []string `json:"dnsNames"`
	VerifiesForSNI bool     `json:"verifiesForSNI"`
	External       bool     `json:"external,omitempty"`
}

// Backend is one backendRef the route forwards to.
type Backend struct {
	Kind       string      `json:"kind,omitempty"`
	Namespace  string      `json:"namespace"`
	Name       string      `json:"name"`
	Port       int32       `json:"port,omitempty"`
	Weight     int32       `json:"weight"`
	Rule       int         `json:"rule"`
	Resolved   bool        `json:"resolved"`
	BackendTLS *BackendTLS `json:"backendTLS,omitempty"`
}

// BackendTLS is the BackendTLSPolicy that applies to a backend: the SNI the Gateway
// sends and what it trusts (GEP-1897).
type BackendTLS struct {
	Policy          string   `json:"policy"`
	Hostname        string   `json:"hostname"`
	CA              string   `json:"ca"`
	SubjectAltNames []string `json:"subjectAltNames,omitempty"`
}

// Simulator answers requests against one Result.
type Simulator struct {
	res      *analyze.Result
	gateways map[string]*analyze.GatewayResult
}

// New indexes a Result for simulation.
func New(res *analyze.Result) *Simulator {
	s := &Simulator{res: res, gateways: make(map[string]*analyze.GatewayResult, len(res.Gateways))}
	for _, g := range res.Gateways {
		s.gateways[gatewayName(g)] = g
	}
	return s
}

// listeners returns every listener of the Gateway configured on a port: its own and
// those of its admitted ListenerSets.
func listeners(g *analyze.GatewayResult, port int32) []*analyze.ListenerResult {
	var out []*analyze.ListenerResult
	for _, l := range g.Listeners {
		if int32(l.Listener.Port) == port {
			out = append(out, l)
		}
	}
	for _, ls := range g.ListenerSets {
		if !ls.Allowed || !analyze.IsTrue(ls.Conditions, "Accepted") {
			continue
		}
		for _, l := range ls.Listeners {
			if int32(l.Listener.Port) == port {
				out = append(out, l)
			}
		}
	}
	return out
}

func gatewayName(g *analyze.GatewayResult) string {
	return g.Gateway.Obj.Namespace + "/" + g.Gateway.Obj.Name
}

// Simulate decides one request.
func (s *Simulator) Simulate(req Request) Outcome {
	if req.Host == "" {
		req.Host = req.SNI
	}
	var outcomes []Outcome
	gateways := s.res.Gateways
	if req.Gateway != "" {
		gateways = nil
		if g := s.gateways[req.Gateway]; g != nil {
			gateways = []*analyze.GatewayResult{g}
		}
	}
	for _, g := range gateways {
		if o, ok := s.onGateway(g, req); ok {
			outcomes = append(outcomes, o)
		}
	}
	if len(outcomes) == 0 {
		what := "a TLS (HTTPS or TLS) listener"
		if req.SNI == "" {
			what = "an HTTP listener"
		}
		where := "no Gateway"
		if req.Gateway != "" {
			where = "Gateway " + req.Gateway
		}
		return Outcome{Outcome: Refused, Request: req, Gateway: req.Gateway,
			Reason: fmt.Sprintf("%s has %s on port %d whose hostname matches %q", where, what, req.Port, displayHost(req))}
	}
	// Prefer a Gateway that routes the request; report the others.
	sort.SliceStable(outcomes, func(i, j int) bool { return outcomes[i].Outcome == Routed && outcomes[j].Outcome != Routed })
	best := outcomes[0]
	for _, o := range outcomes[1:] {
		best.AlsoServedBy = append(best.AlsoServedBy, o.Gateway)
	}
	return best
}

func displayHost(req Request) string {
	if req.SNI != "" {
		return req.SNI
	}
	return req.Host
}

// onGateway selects the listener of one Gateway (spec 003 "Listener ordering": exact,
// then the most specific wildcard, then no hostname; the request hostname is matched
// like a Host header, a wildcard covering one or more labels). ok is false when no
// listener on the port could take the request.
func (s *Simulator) onGateway(g *analyze.GatewayResult, req Request) (Outcome, bool) {
	out := Outcome{Request: req, Gateway: gatewayName(g), Outcome: Refused}
	tls := req.SNI != ""
	var cands []*analyze.ListenerResult
	for _, l := range listeners(g, req.Port) {
		p := l.Listener.Protocol
		if tls && (p == gwv1.HTTPSProtocolType || p == gwv1.TLSProtocolType) || !tls && p == gwv1.HTTPProtocolType {
			cands = append(cands, l)
		}
	}
	patterns := make([]string, len(cands))
	for i, l := range cands {
		patterns[i] = l.Hostname()
	}
	name := displayHost(req)
	best, ok := hostname.MostSpecificMatch(patterns, name, hostname.MatchesHost)
	if !ok {
		return out, false
	}
	// Several listeners may share the winning hostname (a conflict): all are refused.
	var chosen []*analyze.ListenerResult
	for _, l := range cands {
		if l.Hostname() == best {
			chosen = append(chosen, l)
		}
	}
	l := chosen[0]
	for _, c := range chosen {
		if c.Accepted {
			l = c
			break
		}
	}
	out.Listener = l.Name()
	if l.ListenerSet != nil {
		o := l.Owner()
		out.ListenerOwner = &o
	}
	out.Mode = string(l.TLSMode())
	if !l.Accepted {
		c := analyze.Find(l.Conditions, "Accepted")
		out.Reason = fmt.Sprintf("listener %s is the most specific match but is not accepted (%s: %s)", l.Name(), c.Reason, c.Message)
		return out, true
	}

	// Route selection: for TLS, the SNI must match an intersected hostname by RFC 2818
	// (a wildcard covers exactly one label); for HTTP, the Host header must match
	// (one or more labels).
	var a *analyze.Attachment
	var inter string
	switch {
	case l.Listener.Protocol == gwv1.TLSProtocolType:
		a, inter = pickAttachment(l.Attachments, req.SNI, hostname.MatchesSNI)
		if a == nil {
			out.Reason = fmt.Sprintf("no route attached to listener %s has an intersected hostname matching SNI %q (RFC 2818: a wildcard matches exactly one label)", l.Name(), req.SNI)
			return out, true
		}
	case l.Listener.Protocol == gwv1.HTTPSProtocolType:
		if sa, _ := pickAttachment(l.Attachments, req.SNI, hostname.MatchesSNI); sa == nil {
			out.Reason = fmt.Sprintf("no route attached to listener %s has an intersected hostname matching SNI %q (RFC 2818: a wildcard matches exactly one label)", l.Name(), req.SNI)
			s.certificate(l, req, &out)
			return out, true
		}
		a, inter = pickAttachment(l.Attachments, req.Host, hostname.MatchesHost)
		if a == nil {
			out.Reason = fmt.Sprintf("TLS is accepted, but no route attached to listener %s matches Host %q (HTTP 404)", l.Name(), req.Host)
			s.certificate(l, req, &out)
			return out, true
		}
	default:
		a, inter = pickAttachment(l.Attachments, req.Host, hostname.MatchesHost)
		if a == nil {
			out.Reason = fmt.Sprintf("no route attached to listener %s matches Host %q (HTTP 404)", l.Name(), req.Host)
			return out, true
		}
	}
	r := a.Route.Route
	out.Route = &model.Ref{Kind: r.Kind, Namespace: r.ObjectMeta.Namespace, Name: r.ObjectMeta.Name}
	out.IntersectedHostname = inter
	if out.Mode == string(gwv1.TLSModeTerminate) {
		s.certificate(l, req, &out)
		if out.Certificate == nil {
			out.Reason = fmt.Sprintf("listener %s has no usable certificate to terminate TLS", l.Name())
			return out, true
		}
	}
	out.Backends = s.backends(a.Route)
	if len(out.Backends) == 0 {
		out.Reason = fmt.Sprintf("route %s/%s has no backendRefs", r.ObjectMeta.Namespace, r.ObjectMeta.Name)
		return out, true
	}
	resolved := false
	for _, b := range out.Backends {
		resolved = resolved || b.Resolved
	}
	if !resolved {
		out.Reason = fmt.Sprintf("no backendRef of route %s/%s resolves (%s)", r.ObjectMeta.Namespace, r.ObjectMeta.Name, a.Route.ResolvedRefs().Message)
		return out, true
	}
	out.Outcome = Routed
	return out, true
}

// pickAttachment chooses the route whose intersected hostname most specifically
// matches name; ties go to the oldest route, then namespace/name (the Gateway API's
// route precedence).
func pickAttachment(as []*analyze.Attachment, name string, matches func(pattern, host string) bool) (*analyze.Attachment, string) {
	var best *analyze.Attachment
	bestHost := ""
	for _, a := range as {
		hs := a.Hostnames
		if len(hs) == 0 {
			hs = []string{""}
		}
		h, ok := hostname.MostSpecificMatch(hs, name, matches)
		if !ok {
			continue
		}
		if best == nil || hostname.Compare(h, bestHost) < 0 || (hostname.Compare(h, bestHost) == 0 && routeBefore(a.Route.Route, best.Route.Route)) {
			best, bestHost = a, h
		}
	}
	return best, bestHost
}

func routeBefore(a, b *model.Route) bool {
	ta, tb := a.ObjectMeta.CreationTimestamp, b.ObjectMeta.CreationTimestamp
	if !ta.Equal(&tb) {
		return ta.Before(&tb)
	}
	return a.ObjectMeta.Namespace+"/"+a.ObjectMeta.Name < b.ObjectMeta.Namespace+"/"+b.ObjectMeta.Name
}

// certificate is the certificate the listener serves for the SNI, as the engine
// selects it (ListenerResult.CertificateFor).
func (s *Simulator) certificate(l *analyze.ListenerResult, req Request, out *Outcome) {
	if c, covers := l.CertificateFor(req.SNI); c != nil {
		out.Certificate = certOf(c, covers)
	}
}

func certOf(c *analyze.CertificateRef, verifies bool) *Certificate {
	names := c.DNSNames()
	if names == nil {
		names = []string{}
	}
	return &Certificate{Secret: c.Namespace + "/" + string(c.Ref.Name), DNSNames: names, VerifiesForSNI: verifies, External: c.External}
}

func (s *Simulator) backends(rr *analyze.RouteResult) []Backend {
	var out []Backend
	for _, b := range rr.Backends {
		be := Backend{Namespace: b.Namespace, Name: string(b.Ref.Name), Weight: 1, Rule: b.Rule, Resolved: b.Problem == nil}
		if b.Ref.Kind != nil && *b.Ref.Kind != "Service" {
			be.Kind = string(*b.Ref.Kind)
		}
		if b.Ref.Port != nil {
			be.Port = int32(*b.Ref.Port)
		}
		if b.Ref.Weight != nil {
			be.Weight = *b.Ref.Weight
		}
		be.BackendTLS = backendTLS(b)
		out = append(out, be)
	}
	return out
}

// backendTLS describes the BackendTLSPolicy the engine found for a backend.
func backendTLS(b *analyze.BackendResult) *BackendTLS {
	p := b.Policy
	if p == nil {
		return nil
	}
	v := p.Policy.Obj.Spec.Validation
	bt := &BackendTLS{Policy: p.Policy.Obj.Namespace + "/" + p.Policy.Obj.Name, Hostname: string(v.Hostname)}
	if v.WellKnownCACertificates != nil && *v.WellKnownCACertificates != "" {
		bt.CA = string(*v.WellKnownCACertificates)
	} else {
		var refs []string
		for _, r := range v.CACertificateRefs {
			refs = append(refs, fmt.Sprintf("%s %s/%s", r.Kind, p.Policy.Obj.Namespace, r.Name))
		}
		bt.CA = strings.Join(refs, ", ")
	}
	for _, san := range v.SubjectAltNames {
		if san.Hostname != "" {
			bt.SubjectAltNames = append(bt.SubjectAltNames, string(san.Hostname))
		} else {
			bt.SubjectAltNames = append(bt.SubjectAltNames, string(san.URI))
		}
	}
	return bt
}

// All simulates, for every accepted listener, a request for every intersected
// hostname of every attached route (a wildcard is exercised with its "test"
// label; "any hostname" with the listener's hostname or example.test).
func (s *Simulator) All() []Outcome {
	var out []Outcome
	seen := map[string]bool{}
	for _, g := range s.res.Gateways {
		ports := map[int32]bool{}
		var order []int32
		for _, l := range g.AllListeners() {
			if !ports[int32(l.Listener.Port)] {
				ports[int32(l.Listener.Port)] = true
				order = append(order, int32(l.Listener.Port))
			}
		}
		for _, port := range order {
			for _, l := range listeners(g, port) {
				if !l.Accepted {
					continue
				}
				p := l.Listener.Protocol
				if p == gwv1.TCPProtocolType || p == gwv1.UDPProtocolType {
					continue
				}
				for _, a := range l.Attachments {
					for _, h := range a.Hostnames {
						name := analyze.SampleSNI(h, l.Hostname())
						req := Request{Port: port, Gateway: gatewayName(g)}
						if p == gwv1.HTTPProtocolType {
							req.Host = name
						} else {
							req.SNI = name
						}
						key := fmt.Sprintf("%s|%d|%s|%s", req.Gateway, port, req.SNI, req.Host)
						if seen[key] {
							continue
						}
						seen[key] = true
						out = append(out, s.Simulate(req))
					}
				}
			}
		}
	}
	return out
}
