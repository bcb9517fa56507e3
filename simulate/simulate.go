// Package simulate answers "if a client connects with SNI x (and Host h) to port p,
// what happens?" from the configuration's serving table: the listener chosen, the
// route, the certificate served, the backends and their backend TLS, or why the
// connection is refused. It decides nothing itself: the serving package answers,
// and this package says it in the user's terms.
package simulate

import (
	"fmt"
	"sort"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/cores"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
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

// Outcome is what happens to one request. Outcomes of one simulation share
// the values their pointers and slices reach (a certificate, a route's
// backends, references): read them, never edit them.
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
	// Mirrors are where the route's RequestMirror filters copy requests to;
	// their responses are ignored, so their weight is 0.
	Mirrors []Backend `json:"mirrors,omitempty"`
	Reason  string    `json:"reason,omitempty"`
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

// CountRefused is the number of outcomes that are refusals: simulate's exit status
// counts them.
func CountRefused(outs []Outcome) int {
	n := 0
	for _, o := range outs {
		if o.Outcome != Routed {
			n++
		}
	}
	return n
}

// Simulator answers requests against one serving table.
type Simulator struct {
	table *serving.Table
}

// New builds the serving table of a Result and simulates on it.
func New(res *analyze.Result) *Simulator { return ForTable(serving.Build(res)) }

// ForTable simulates on a serving table already built.
func ForTable(t *serving.Table) *Simulator { return &Simulator{table: t} }

// Simulate decides one request: on every Gateway (or the one asked for) that has a
// listener for it on the port, preferring a Gateway that routes it and naming the
// others.
func (s *Simulator) Simulate(req Request) Outcome {
	if req.Host == "" {
		req.Host = req.SNI
	}
	gateways := s.table.Gateways
	if req.Gateway != "" {
		ns, name, _ := strings.Cut(req.Gateway, "/")
		g := s.table.Gateway(model.NamespacedName{Namespace: ns, Name: name})
		if g == nil {
			return Outcome{Outcome: Refused, Request: req, Gateway: req.Gateway,
				Reason: fmt.Sprintf("the configuration has no Gateway %s", req.Gateway)}
		}
		gateways = []*serving.Gateway{g}
	}
	var outcomes []Outcome
	for _, g := range gateways {
		p := g.Port(req.Port)
		if p == nil {
			continue
		}
		d := p.Decide(serving.Request{SNI: req.SNI, Host: req.Host})
		if d.Refusal == serving.NoListener {
			continue
		}
		outcomes = append(outcomes, outcome(g.Name.String(), req, d, nil))
	}
	if len(outcomes) == 0 {
		return noListener(req)
	}
	sort.SliceStable(outcomes, func(i, j int) bool { return outcomes[i].Outcome == Routed && outcomes[j].Outcome != Routed })
	best := outcomes[0]
	for _, o := range outcomes[1:] {
		best.AlsoServedBy = append(best.AlsoServedBy, o.Gateway)
	}
	return best
}

// OutcomeOf says a Gateway port's decision about a request (Port and Gateway
// name where the decision was made), as Simulate says it.
func OutcomeOf(req Request, d serving.Decision) Outcome {
	if req.Host == "" {
		req.Host = req.SNI
	}
	if d.Refusal == serving.NoListener {
		return noListener(req)
	}
	return outcome(d.Port.Gateway.Name.String(), req, d, nil)
}

// noListener is the refusal of a request no listener takes.
func noListener(req Request) Outcome {
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

func displayHost(req Request) string {
	if req.SNI != "" {
		return req.SNI
	}
	return req.Host
}

// room is what one core reuses from outcome to outcome of simulate --all:
// the backends of the last route said and the last certificate, which the
// rows that follow often share (a route's hostnames are consecutive rows, as
// are a listener's), and references allocated a block at a time. A nil room
// reuses nothing.
type room struct {
	route             *analyze.RouteResult
	backends, mirrors []Backend
	cert              *serving.Certificate
	said              *Certificate
	refs              []model.Ref
}

// ref is a copy of r, in a block when there is room.
func (rm *room) ref(r model.Ref) *model.Ref {
	if rm == nil {
		return &r
	}
	if len(rm.refs) == cap(rm.refs) {
		rm.refs = make([]model.Ref, 0, 256)
	}
	rm.refs = append(rm.refs, r)
	return &rm.refs[len(rm.refs)-1]
}

// certificate is c as simulate says it: the last one said when it is the
// same certificate, covering the name or not.
func (rm *room) certificate(c *serving.Certificate) *Certificate {
	if rm == nil {
		return certificate(c)
	}
	if rm.cert == nil || rm.cert.Ref != c.Ref || rm.cert.Covers != c.Covers {
		rm.cert, rm.said = c, certificate(c)
	}
	return rm.said
}

// outcome says a Gateway port's decision.
func outcome(gateway string, req Request, d serving.Decision, rm *room) Outcome {
	out := Outcome{Request: req, Gateway: gateway, Outcome: Refused}
	l := d.Listener
	out.Listener = l.Name
	if l.FromListenerSet() {
		out.ListenerOwner = rm.ref(l.Owner)
	}
	out.Mode = string(l.Mode)
	if d.Certificate != nil {
		out.Certificate = rm.certificate(d.Certificate)
	}
	r := d.Route()
	if r != nil {
		out.Route = rm.ref(r.Ref)
		out.IntersectedHostname = d.Hostname
	}
	switch d.Refusal {
	case serving.ListenerNotAccepted:
		c := analyze.Find(l.Result.Conditions, string(gwv1.ListenerConditionAccepted))
		out.Reason = fmt.Sprintf("listener %s is the most specific match but is not accepted (%s: %s)", l.Name, c.Reason, c.Message)
		return out
	case serving.NoRouteForSNI:
		out.Reason = fmt.Sprintf("no route attached to listener %s has an intersected hostname matching SNI %q (RFC 2818: a wildcard matches exactly one label)", l.Name, req.SNI)
		return out
	case serving.NoRouteForHost:
		if l.Protocol == gwv1.HTTPSProtocolType {
			out.Reason = fmt.Sprintf("TLS is accepted, but no route attached to listener %s matches Host %q (HTTP 404)", l.Name, req.Host)
		} else {
			out.Reason = fmt.Sprintf("no route attached to listener %s matches Host %q (HTTP 404)", l.Name, req.Host)
		}
		return out
	case serving.NoCertificate:
		out.Reason = fmt.Sprintf("listener %s has no usable certificate to terminate TLS", l.Name)
		return out
	}
	out.Backends, out.Mirrors = rm.backendsOf(r)
	switch d.Refusal {
	case serving.NoBackendRefs:
		out.Reason = fmt.Sprintf("route %s/%s has no backendRefs", r.Ref.Namespace, r.Ref.Name)
	case serving.NoBackendResolves:
		out.Reason = fmt.Sprintf("no backendRef of route %s/%s resolves (%s)", r.Ref.Namespace, r.Ref.Name, r.Attachment.Route.ResolvedRefs().Message)
	default:
		out.Outcome = Routed
	}
	return out
}

func certificate(c *serving.Certificate) *Certificate {
	names := c.Ref.DNSNames()
	if names == nil {
		names = []string{}
	}
	return &Certificate{Secret: c.Secret.String(), DNSNames: names, VerifiesForSNI: c.Covers, External: c.Ref.External}
}

// backendsOf are a route's backendRefs and mirrors as simulate prints them:
// the last route's when it is the same route.
func (rm *room) backendsOf(r *serving.Route) (backends, mirrors []Backend) {
	if rm == nil {
		return simulated(r.Backends()), simulated(r.Mirrors())
	}
	if rm.route != r.Attachment.Route {
		rm.route, rm.backends, rm.mirrors = r.Attachment.Route, simulated(r.Backends()), simulated(r.Mirrors())
	}
	return rm.backends, rm.mirrors
}

func simulated(bs []serving.Backend) []Backend {
	if len(bs) == 0 {
		return nil
	}
	out := make([]Backend, 0, len(bs))
	for _, b := range bs {
		out = append(out, Backend{Kind: b.Kind, Namespace: b.Name.Namespace, Name: b.Name.Name, Port: b.Port, Weight: b.Weight,
			Rule: b.Rule, Resolved: b.Resolved, BackendTLS: backendTLS(b.Policy)})
	}
	return out
}

// backendTLS describes the BackendTLSPolicy the engine found for a backend.
func backendTLS(p *analyze.PolicyResult) *BackendTLS {
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

// All is every row of the serving table: for every Gateway port, a request for
// every intersected hostname of every route attached to an accepted listener (a
// wildcard exercised with its "test" label; "any hostname" with the listener's
// hostname or example.test).
func (s *Simulator) All() []Outcome { return outcomes(s.table.Rows()) }

// AllOf is All for one Gateway's ports; nil when the table has no Gateway of
// that name.
func (s *Simulator) AllOf(gateway model.NamespacedName) []Outcome {
	g := s.table.Gateway(gateway)
	if g == nil {
		return nil
	}
	var rows []*serving.Row
	for _, p := range g.Ports {
		rows = append(rows, p.Rows()...)
	}
	return outcomes(rows)
}

// outcomes says serving table rows, in order, on every core: each core says
// parts of the rows into their places, in room of its own.
func outcomes(rows []*serving.Row) []Outcome {
	if len(rows) == 0 {
		return nil
	}
	out := make([]Outcome, len(rows))
	cores.Parts(len(rows), rowsPerPart, func() func(lo, hi int) {
		rm := &room{}
		var g *serving.Gateway
		var name string
		return func(lo, hi int) {
			for i := lo; i < hi; i++ {
				r := rows[i]
				if r.Port.Gateway != g {
					g, name = r.Port.Gateway, r.Port.Gateway.Name.String()
				}
				req := Request{Port: r.Port.Number, Gateway: name, SNI: r.Request.SNI, Host: r.Request.Host}
				if req.Host == "" {
					req.Host = req.SNI
				}
				if r.Refusal == serving.NoListener {
					out[i] = noListener(req)
					continue
				}
				out[i] = outcome(name, req, r.Decision, rm)
			}
		}
	})
	return out
}

// rowsPerPart is how many rows a core says at a time.
const rowsPerPart = 256
