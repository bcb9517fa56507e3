package change

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/hostname"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
)

// Hostname is one request, for a hostname on a Gateway port, that at least one
// side serves, and what the two sides do differently with it.
//
// A request is the unit so that rows with more to them slot in: when routes
// keep their matching rules, a request gains a path and method, its serving a
// redirect, and the comparison one more aspect.
type Hostname struct {
	Gateway string `json:"gateway"`
	Port    int32  `json:"port"`
	// Hostname is the intersected hostname (spec 003) the request stands for:
	// head's row's when head has one, else base's; "" means any hostname.
	Hostname string  `json:"hostname"`
	Request  Request `json:"request"`
	// Base and Head are what each side does with the request.
	Base    *Serving `json:"base"`
	Head    *Serving `json:"head"`
	Changes []Change `json:"changes"`
}

// Request is what a client sends for the hostname: the SNI to HTTPS and TLS
// listeners, the Host header to HTTP ones (a wildcard hostname is exercised
// with the label "test", as simulate --all does).
type Request struct {
	SNI  string `json:"sni,omitempty"`
	Host string `json:"host,omitempty"`
}

// rowKey identifies a request on a Gateway port, on either side.
type rowKey struct {
	gateway model.NamespacedName
	port    int32
	req     serving.Request
}

// decision is what one side does with a request.
type decision struct {
	serving.Decision
	// hostname is the side's row's hostname; "" when the side has no row.
	hostname string
	row      bool
	// port is false when the side's Gateway does not exist or has no listener
	// on the port; missing says which.
	port    bool
	missing string
	// state is what the side does, said once (serving) for the messages and
	// the entry that need it.
	state *Serving
}

// routed reports whether a route takes the request, served or refused after
// that (certificate, backends).
func (d *decision) routed() bool { return d.port && d.Route() != nil }

func (d *decision) served() bool { return d.port && d.Refusal == serving.Served }

// claimed reports whether the route that takes the request claims it: its
// intersected hostname is narrower than every name its listener serves. A
// route that names no hostname of its own, or its listener's, is the
// listener's default (a catch-all): that another route takes a name from it
// is how names are added beside one, not a takeover.
func (d *decision) claimed() bool {
	return d.Hostname != "" && d.Hostname != "*" && d.Hostname != d.Listener.Hostname
}

// compareHostnames asks both sides about every request either serves.
func compareHostnames(b, h *side, opts Options) []Hostname {
	c := hostnameComparison{base: b, head: h, opts: opts, policyKeys: map[*analyze.PolicyResult]string{}}
	headRows := make(map[rowKey]*serving.Row, len(h.rows))
	for _, r := range h.rows {
		headRows[keyOf(r)] = r
	}
	out := []Hostname{}
	for _, r := range b.rows {
		k := keyOf(r)
		bd := decision{Decision: r.Decision, hostname: r.Hostname, row: true, port: true}
		var hd decision
		if hr := headRows[k]; hr != nil {
			hd = decision{Decision: hr.Decision, hostname: hr.Hostname, row: true, port: true}
			delete(headRows, k) // compared: what is left is head's alone
		} else {
			hd = h.decide(k)
		}
		if e, ok := c.compare(k, bd, hd); ok {
			out = append(out, e)
		}
	}
	for _, r := range h.rows {
		k := keyOf(r)
		if headRows[k] == nil {
			continue
		}
		hd := decision{Decision: r.Decision, hostname: r.Hostname, row: true, port: true}
		if e, ok := c.compare(k, b.decide(k), hd); ok {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(x, y Hostname) int {
		return cmp.Or(strings.Compare(x.Gateway, y.Gateway), cmp.Compare(x.Port, y.Port), strings.Compare(x.Hostname, y.Hostname),
			strings.Compare(x.Request.SNI, y.Request.SNI), strings.Compare(x.Request.Host, y.Request.Host))
	})
	return out
}

func keyOf(r *serving.Row) rowKey {
	return rowKey{gateway: r.Port.Gateway.Name, port: r.Port.Number, req: r.Request}
}

// decide is what the side does with a request it has no row for.
func (s *side) decide(k rowKey) decision {
	g := s.table.Gateway(k.gateway)
	if g == nil {
		return decision{missing: fmt.Sprintf("Gateway %s is not in the %s configuration, or not accepted", k.gateway, s.name)}
	}
	p := g.Port(k.port)
	if p == nil {
		return decision{missing: fmt.Sprintf("Gateway %s has no listener on port %d in the %s configuration", k.gateway, k.port, s.name)}
	}
	return decision{Decision: p.Decide(k.req), port: true}
}

type hostnameComparison struct {
	base, head *side
	opts       Options
	// policyKeys caches what identifies a BackendTLSPolicy's effect; a few
	// policies apply to many backends.
	policyKeys map[*analyze.PolicyResult]string
}

// compare says what differs between base's and head's handling of a request,
// aspect by aspect: whether a route takes it, which route, whether it is
// served, the listener, the certificate, the backends and their backend TLS.
func (c *hostnameComparison) compare(k rowKey, b, h decision) (Hostname, bool) {
	var changes []Change
	host := hostnameOf(k, b, h)
	where := place{k, host}
	switch {
	case !b.routed() && !h.routed():
		return Hostname{}, false
	case !b.routed():
		r := h.Route()
		msg := fmt.Sprintf("%s now serves %s", r.Ref, where)
		if !h.served() {
			msg += ", but refuses its requests: " + c.reason(k, &h)
		}
		changes = append(changes, newChange(HostnameAdded, msg, "", r.Ref.String(), c.route(r)))
	case !h.routed():
		r := b.Route()
		msg := fmt.Sprintf("no route serves %s any more (%s did); a client now gets: %s", where, r.Ref, c.reason(k, &h))
		changes = append(changes, newChange(HostnameRemoved, msg, r.Ref.String(), "", c.removedRoute(r)))
	default:
		changes = c.both(k, where, &b, &h)
	}
	if len(changes) == 0 {
		return Hostname{}, false
	}
	e := Hostname{Gateway: k.gateway.String(), Port: k.port, Hostname: host, Request: Request{SNI: k.req.SNI, Host: k.req.Host},
		Base: c.serving(k, &b), Head: c.serving(k, &h), Changes: changes}
	return e, true
}

// place is a request's hostname on a Gateway port, said only when a message
// needs it: most requests do not change.
type place struct {
	k    rowKey
	host string
}

func (p place) String() string {
	return fmt.Sprintf("%s on %s port %d", p.host, p.k.gateway, p.k.port)
}

// hostnameOf is the hostname a request stands for: head's row's, base's, or
// the hostname a route matched it with.
func hostnameOf(k rowKey, b, h decision) string {
	switch {
	case h.row:
		return h.hostname
	case b.row:
		return b.hostname
	}
	return k.req.SNI + k.req.Host
}

// both compares two sides that both route the request.
func (c *hostnameComparison) both(k rowKey, where place, b, h *decision) []Change {
	var out []Change
	br, hr := b.Route(), h.Route()
	if br.Ref != hr.Ref {
		var kind Kind
		var how string
		switch {
		case !b.claimed():
			kind, how = HostnameClaimed, fmt.Sprintf("%s took every name listener %s serves (%s), and claims none of its own", br.Ref, b.Listener.Name, displayHostname(b.Hostname))
		case br.Ref.Namespace != hr.Ref.Namespace:
			kind, how = Takeover, fmt.Sprintf("a route in namespace %s took it from namespace %s", hr.Ref.Namespace, br.Ref.Namespace)
		default:
			kind, how = RouteChanged, "another route of the same namespace"
		}
		out = append(out, newChange(kind, fmt.Sprintf("%s now takes %s instead of %s: %s; %s", hr.Ref, where, br.Ref, how, precedence(b, h)),
			br.Ref.String(), hr.Ref.String(), c.route(hr)))
	}
	servedChanged := b.served() != h.served()
	switch {
	case b.served() && !h.served():
		out = append(out, newChange(HostnameRefused, fmt.Sprintf("%s is refused now: %s", where, c.reason(k, h)), "served", "refused", c.refusal(h)))
	case !b.served() && h.served():
		out = append(out, newChange(HostnameRestored, fmt.Sprintf("%s is served again (it was refused: %s)", where, c.reason(k, b)), "refused", "served", c.route(hr)))
	}
	if !sameListener(b.Listener, h.Listener) {
		bl, hl := listenerOf(b.Listener), listenerOf(h.Listener)
		out = append(out, newChange(ListenerChanged, fmt.Sprintf("%s is taken by %s now, was %s", where, hl, bl), bl, hl, c.listener(h.Listener)))
	}
	out = append(out, c.certificates(where, b, h)...)
	out = append(out, c.backends(where, br, hr, servedChanged)...)
	return out
}

// precedence says why head's route takes the request (Gateway API: the most
// specific intersected hostname, then the oldest route, then namespace/name).
func precedence(b, h *decision) string {
	switch c := hostname.Compare(h.Hostname, b.Hostname); {
	case c < 0:
		return fmt.Sprintf("its hostname %s matches the request more specifically than %s", displayHostname(h.Hostname), displayHostname(b.Hostname))
	case c > 0:
		return fmt.Sprintf("no route claims %s any more, so the request falls to %s", displayHostname(b.Hostname), displayHostname(h.Hostname))
	}
	return fmt.Sprintf("both claim %s, and route precedence (oldest first, then namespace/name) picks it", displayHostname(h.Hostname))
}

func displayHostname(h string) string {
	if h == "" {
		return "any hostname"
	}
	return h
}

// sameListener: the same listener of the same Gateway or ListenerSet, with
// the same protocol and TLS mode.
func sameListener(a, b *serving.Listener) bool {
	return a.Name == b.Name && a.Owner == b.Owner && a.Protocol == b.Protocol && a.Mode == b.Mode
}

func listenerOf(l *serving.Listener) string {
	s := fmt.Sprintf("listener %s (%s", l.Name, l.Protocol)
	if l.Mode != "" {
		s += " " + string(l.Mode)
	}
	s += ")"
	if l.FromListenerSet() {
		s += " of " + l.Owner.String()
	}
	return s
}

// certificates compares the certificate presented for the request's SNI.
func (c *hostnameComparison) certificates(where place, b, h *decision) []Change {
	bc, hc := b.Certificate, h.Certificate
	if hc == nil {
		return nil // no certificate now: the request is refused (HostnameRefused) or not terminated (ListenerChanged)
	}
	at := c.certificate(hc, h.Listener)
	var out []Change
	if bc != nil {
		switch {
		case bc.Covers && !hc.Covers:
			out = append(out, newChange(CoverageLost, fmt.Sprintf("the certificate presented for %s (%s) does not cover it: clients reject the handshake (a wildcard SAN covers one label)", where, certNames(hc)),
				certLabel(bc)+" covers", certLabel(hc)+" does not cover", at))
		case !bc.Covers && hc.Covers:
			out = append(out, newChange(CoverageGained, fmt.Sprintf("the certificate presented for %s covers it now (%s)", where, certNames(hc)),
				certLabel(bc)+" does not cover", certLabel(hc)+" covers", at))
		}
		if !sameCertificate(bc, hc) {
			out = append(out, newChange(CertificateChanged, fmt.Sprintf("%s is presented another certificate: %s, was %s", where, certLabel(hc), certLabel(bc)),
				certLabel(bc), certLabel(hc), at))
		}
	}
	if c.expiring(hc) && (bc == nil || !c.expiring(bc)) {
		leaf := hc.Leaf()
		verb := "expires"
		if !leaf.NotAfter.After(c.opts.Now) {
			verb = "expired"
		}
		when := leaf.NotAfter.UTC().Format(time.RFC3339)
		out = append(out, newChange(CertificateExpiring, fmt.Sprintf("the certificate presented for %s (%s) %s at %s, within --warn-expiry (%s) of %s",
			where, certLabel(hc), verb, when, c.opts.WarnExpiry, c.opts.Now.UTC().Format(time.RFC3339)), "", verb+" "+when, at))
	}
	return out
}

func (c *hostnameComparison) expiring(cert *serving.Certificate) bool {
	leaf := cert.Leaf()
	return leaf != nil && leaf.NotAfter.Before(c.opts.Now.Add(c.opts.WarnExpiry))
}

// sameCertificate: the same Secret presenting the same leaf (compared whole,
// which is cheaper than hashing it for every row).
func sameCertificate(a, b *serving.Certificate) bool {
	if a.Secret != b.Secret {
		return false
	}
	al, bl := a.Leaf(), b.Leaf()
	if al == nil || bl == nil {
		return al == bl
	}
	return bytes.Equal(al.Raw, bl.Raw)
}

// certLabel is a certificate in a few words: the Secret and the start of the
// leaf's SHA-256 fingerprint.
func certLabel(c *serving.Certificate) string {
	fp := c.SHA256()
	if fp == "" {
		return c.Secret.String() + " (not read)"
	}
	return c.Secret.String() + " sha256:" + fp[:16]
}

func certNames(c *serving.Certificate) string {
	names := c.Ref.DNSNames()
	if len(names) == 0 {
		return "no DNS names"
	}
	return "DNS names " + strings.Join(names, ", ")
}

// backends compares the backends of the routes that take the request, and the
// BackendTLSPolicy of each backend both have.
//
// When the request went from served to refused or back, a backend that only
// started or stopped resolving is that change's cause, and said by it.
func (c *hostnameComparison) backends(where place, br, hr *serving.Route, servedChanged bool) []Change {
	bb, hb := br.Attachment.Route.Backends, hr.Attachment.Route.Backends
	var out []Change
	if !sameBackends(bb, hb, false) && (!servedChanged || !sameBackends(bb, hb, true)) {
		from, to := backendsLabel(bb), backendsLabel(hb)
		out = append(out, newChange(BackendsChanged, fmt.Sprintf("%s is forwarded to %s now, was %s", where, to, from), from, to, c.route(hr)))
	}
	for _, x := range hb {
		for _, y := range bb {
			if !sameTarget(x, y) {
				continue
			}
			if ch, ok := c.backendTLS(where, y, x); ok {
				out = append(out, ch)
			}
			break
		}
	}
	return out
}

// backendTLS compares the BackendTLSPolicy that applies to one backend.
func (c *hostnameComparison) backendTLS(where place, b, h *analyze.BackendResult) (Change, bool) {
	bk, hk := c.policyKey(b.Policy), c.policyKey(h.Policy)
	if bk == hk {
		return Change{}, false
	}
	target := backendLabel(h)
	if h.Policy == nil {
		at, why := c.removedPolicy(b.Policy)
		return newChange(BackendTLSRemoved, fmt.Sprintf("the Gateway connects to %s for %s without TLS now: %s", target, where, why),
			bk, "none", at), true
	}
	from := bk
	if from == "" {
		from = "none"
	}
	return newChange(BackendTLSChanged, fmt.Sprintf("the Gateway connects to %s for %s with %s, was %s", target, where, hk, from),
		from, hk, located{h.Policy.Policy.Source, Head}), true
}

// policyKey is what a BackendTLSPolicy makes the Gateway do: the policy, the
// SNI it sends and what it verifies the backend against (GEP-1897 validation).
func (c *hostnameComparison) policyKey(p *analyze.PolicyResult) string {
	if p == nil {
		return ""
	}
	if k, ok := c.policyKeys[p]; ok {
		return k
	}
	o := p.Policy.Obj
	v := o.Spec.Validation
	var b strings.Builder
	fmt.Fprintf(&b, "policy %s/%s (hostname %s", o.Namespace, o.Name, v.Hostname)
	if v.WellKnownCACertificates != nil && *v.WellKnownCACertificates != "" {
		fmt.Fprintf(&b, ", CA %s", *v.WellKnownCACertificates)
	}
	for _, r := range v.CACertificateRefs {
		fmt.Fprintf(&b, ", CA %s %s/%s", r.Kind, o.Namespace, r.Name)
	}
	for _, san := range v.SubjectAltNames {
		fmt.Fprintf(&b, ", SAN %s%s", san.Hostname, san.URI)
	}
	b.WriteString(")")
	k := b.String()
	c.policyKeys[p] = k
	return k
}

// sameBackends compares backendRefs as the engine resolved them, in order:
// rule, kind, Service, port, weight, and whether each resolves unless
// ignoreResolution.
func sameBackends(a, b []*analyze.BackendResult, ignoreResolution bool) bool {
	return slices.EqualFunc(a, b, func(x, y *analyze.BackendResult) bool {
		return x.Rule == y.Rule && sameTarget(x, y) && weight(x) == weight(y) && (ignoreResolution || (x.Problem == nil) == (y.Problem == nil))
	})
}

// sameTarget: the backendRefs name the same object and port.
func sameTarget(x, y *analyze.BackendResult) bool {
	return x.Namespace == y.Namespace && x.Ref.Name == y.Ref.Name && kind(x) == kind(y) && port(x) == port(y)
}

func kind(b *analyze.BackendResult) string {
	if b.Ref.Kind == nil {
		return "Service"
	}
	return string(*b.Ref.Kind)
}

func port(b *analyze.BackendResult) int32 {
	if b.Ref.Port == nil {
		return 0
	}
	return int32(*b.Ref.Port)
}

// weight is the backendRef's weight; 1 when unset (BackendRef.Weight default).
func weight(b *analyze.BackendResult) int32 {
	if b.Ref.Weight == nil {
		return 1
	}
	return *b.Ref.Weight
}

func backendLabel(b *analyze.BackendResult) string {
	s := fmt.Sprintf("%s/%s:%d", b.Namespace, b.Ref.Name, port(b))
	if k := kind(b); k != "Service" {
		s = k + " " + s
	}
	return s
}

func backendsLabel(bs []*analyze.BackendResult) string {
	if len(bs) == 0 {
		return "no backends"
	}
	parts := make([]string, len(bs))
	for i, b := range bs {
		parts[i] = fmt.Sprintf("rule %d %s weight %d", b.Rule, backendLabel(b), weight(b))
		if b.Problem != nil {
			parts[i] += " (unresolved)"
		}
	}
	return strings.Join(parts, ", ")
}
