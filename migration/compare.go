package migration

import (
	"fmt"
	"math"
	"slices"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/ingress"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
)

// gatewaySide is what the Gateway API configuration does with a request: the
// decision of the Gateway that gets furthest with it.
type gatewaySide struct {
	serving.Decision
	// ports are the Gateways that have a listener on the port.
	ports int
	// port and req are the request asked.
	port int32
	req  serving.Request
}

// decide asks every Gateway with a listener on the port, and keeps the
// decision that serves the request, else the one that gets furthest: a
// client reaches whichever Gateway its DNS names, and the migration keeps a
// request when one of them serves it.
func (c *comparison) decide(port int32, req serving.Request) gatewaySide {
	out := gatewaySide{port: port, req: req}
	found := false
	for _, g := range c.gw.Gateways {
		p := g.Port(port)
		if p == nil {
			continue
		}
		out.ports++
		d := p.Decide(req)
		if !found || progress(d.Refusal) > progress(out.Refusal) {
			out.Decision, found = d, true
		}
	}
	if !found {
		out.Refusal = serving.NoListener
	}
	return out
}

// progress orders refusals by how far the request got: served last.
func progress(r serving.Refusal) int {
	return slices.Index([]serving.Refusal{serving.NoListener, serving.ListenerNotAccepted, serving.NoRouteForSNI, serving.NoRouteForHost,
		serving.NoCertificate, serving.NoRuleForPath, serving.NoBackendRefs, serving.NoBackendResolves, serving.Served}, r)
}

// hostLost reports whether the Gateway side does not serve the request's
// host at all (no listener takes it, or no route does), and says why.
func hostLost(g *gatewaySide, port int32) (bool, string) {
	switch g.Refusal {
	case serving.NoListener:
		if g.ports == 0 {
			return true, fmt.Sprintf("no Gateway has a listener on port %d", port)
		}
		return true, fmt.Sprintf("no listener on port %d has a hostname that takes it, for its protocol", port)
	case serving.ListenerNotAccepted:
		return true, fmt.Sprintf("the listener that takes it, %s, is not accepted", listenerLabel(g.Listener))
	case serving.NoRouteForSNI, serving.NoRouteForHost:
		return true, fmt.Sprintf("no route attached to listener %s has a hostname that takes it", listenerLabel(g.Listener))
	case serving.NoCertificate:
		return true, fmt.Sprintf("listener %s has no usable certificate to terminate TLS", listenerLabel(g.Listener))
	}
	return false, ""
}

func listenerLabel(l *serving.Listener) string {
	if l == nil {
		return ""
	}
	return fmt.Sprintf("%s of %s (%s)", l.Name, l.Owner, l.Result.Source())
}

// ruleLabel names a Gateway route rule and where it is.
func ruleLabel(r *serving.Rule) string {
	return fmt.Sprintf("%s %s (%s)", r.Route.Ref, r.Field(), r.Route.Attachment.Route.Route.Source)
}

// decider is what decides a request on the Gateway side, named for a
// message, and where it is.
type decider struct {
	label  string
	source model.Source
}

// sideOf is what decides the request on the Gateway side: the rule, else the
// route that takes the host, else the listener, else nothing.
func sideOf(g *gatewaySide) decider {
	switch {
	case g.Rule != nil:
		return decider{ruleLabel(g.Rule), g.Rule.Route.Attachment.Route.Route.Source}
	case g.Route() != nil:
		r := g.Route()
		return decider{fmt.Sprintf("%s (%s)", r.Ref, r.Attachment.Route.Route.Source), r.Attachment.Route.Route.Source}
	case g.Listener != nil:
		return decider{"listener " + listenerLabel(g.Listener), g.Listener.Result.Source()}
	}
	return decider{}
}

// listenerSide is a listener as what decides a request.
func listenerSide(l *serving.Listener) decider {
	return decider{listenerLabel(l), l.Result.Source()}
}

// then is d followed by what decides the request it leads to (a redirect's):
// the first decides where the finding is.
func (d decider) then(next decider) decider {
	d.label += "; then " + dash(next.label)
	return d
}

// requestLabel is a request as a URL: scheme, host, port and path.
func requestLabel(row *ingress.Row) string {
	host := row.Request.Host
	scheme := "http"
	switch {
	case row.Passthrough:
		scheme, host = "tls", row.Request.SNI
	case row.TLS():
		scheme = "https"
	}
	s := fmt.Sprintf("%s://%s:%d%s", scheme, host, row.Port, row.Request.Path)
	if row.Request.Method == "POST" {
		s = "POST " + s
	}
	return s
}

// compare asks the Gateway side one Ingress row's request.
func (c *comparison) compare(decided *ingress.Row) {
	// The path that takes the request is what the Ingress does with it,
	// whichever path the request was sampled from.
	r := *decided
	r.Location = decided.Decision.Location
	row := &r
	g := c.decide(row.Port, row.Request)
	loc := row.Location
	ing := loc.Ingress
	req := requestLabel(row)
	who := row.Serving.Controller.Name()
	if lost, why := hostLost(&g, row.Port); lost {
		c.addAt(findingKey{rule: rules.MigrationHostNotServed.ID, ingress: ing.Ref, field: loc.Rule.Field, port: row.Port}, loc.Rule.Source(), rules.MigrationHostNotServed, req, decider{},
			fmt.Sprintf("%s serves host %s on port %d, but %s", who, displayHost(row.Hostname), row.Port, why),
			hostFix(row))
		return
	}
	switch {
	case row.Passthrough:
		c.passthrough(row, &g, req)
	case row.TLS():
		c.terminated(row, &g, req)
	default:
		c.plain(row, &g, req)
	}
}

// passthrough compares a host whose TLS connections the Ingress passes
// through: the Gateway must pass them through as well, to the same backend.
func (c *comparison) passthrough(row *ingress.Row, g *gatewaySide, req string) {
	ing := row.Location.Ingress
	if g.Listener.Mode != gwv1.TLSModePassthrough {
		how := fmt.Sprintf("terminates TLS on listener %s (%s %s)", listenerLabel(g.Listener), g.Listener.Protocol, g.Listener.Mode)
		c.add(ing.Ref, row.Location.Rule, rules.MigrationPassthroughLost, req, sideOf(g),
			fmt.Sprintf("the Ingress passes the host's TLS connections through to %s undecrypted; the Gateway %s", backendLabel(row.Location.Backend), how),
			fmt.Sprintf("add a listener on port %d with protocol TLS, tls.mode Passthrough and hostname %s, and a TLSRoute with hostnames [%s] and backendRefs [{name: %s, port: %d}]",
				row.Port, row.Hostname, row.Hostname, row.Location.Backend.Service.Name, row.Location.Backend.Port))
		return
	}
	c.backends(row, g, req, g.Route().Backends(), "")
}

// terminated compares a TLS request the Ingress terminates: the certificate
// the Gateway presents, then the path.
func (c *comparison) terminated(row *ingress.Row, g *gatewaySide, req string) {
	ing := row.Location.Ingress
	if g.Listener.Protocol == gwv1.TLSProtocolType {
		c.add(ing.Ref, row.Location.Rule, rules.MigrationPathNotServed, req, sideOf(g),
			fmt.Sprintf("the Ingress terminates TLS and routes by path; listener %s routes the TLS connection (%s) without reading its requests", listenerLabel(g.Listener), g.Listener.Mode),
			"serve the host from an HTTPS listener with tls.mode Terminate and an HTTPRoute with the Ingress's paths")
		return
	}
	tls := row.Server.TLS
	if gc, ic := g.Certificate, row.Certificate; gc != nil {
		field := tls.Entry.Field
		switch {
		case !gc.Covers && (ic == nil || ic.Covers):
			c.addAt(findingKey{rule: rules.MigrationCertificateNotCovering.ID, ingress: tls.Ingress.Ref, field: field, port: row.Port}, tls.Entry.Source(),
				rules.MigrationCertificateNotCovering, "", listenerSide(g.Listener),
				fmt.Sprintf("the Gateway presents Secret %s for %s, whose certificate does not cover it (%s); the Ingress presents %s", gc.Secret, row.Request.SNI, certNames(gc), certLabel(ic)),
				fmt.Sprintf("reference a Secret that covers %s in listener %s's tls.certificateRefs (the Ingress's: %s)", row.Request.SNI, g.Listener.Name, certLabel(ic)))
		case ic != nil && !sameCertificate(gc, ic):
			c.addAt(findingKey{rule: rules.MigrationCertificateChanged.ID, ingress: tls.Ingress.Ref, field: field, port: row.Port}, tls.Entry.Source(),
				rules.MigrationCertificateChanged, "", listenerSide(g.Listener),
				fmt.Sprintf("the Gateway presents %s for %s; the Ingress presents %s", certLabel(gc), row.Request.SNI, certLabel(ic)),
				"nothing, if the certificate is meant to change; otherwise reference the Ingress's Secret")
		}
	}
	c.forwarded(row, g, req, "")
}

// plain compares a plain HTTP request: the Ingress may answer it with a
// redirect to HTTPS, and so may the Gateway; a redirect the Gateway adds is
// followed, and the HTTPS request compared.
func (c *comparison) plain(row *ingress.Row, g *gatewaySide, req string) {
	loc := row.Location
	ing := loc.Ingress
	ir := row.Redirect
	var gr *serving.Redirect
	if g.Rule != nil {
		gr = g.Rule.Redirect
	}
	switch {
	case gr != nil && !gr.ToHTTPS():
		c.add(ing.Ref, loc.Place, rules.MigrationPathNotServed, req, sideOf(g),
			fmt.Sprintf("the Gateway answers it with a redirect (%d) elsewhere than to https; %s", gr.StatusCode, ingressOutcome(row)),
			"remove the RequestRedirect filter from the rule, or give it scheme: https")
	case gr != nil:
		switch {
		case ir == nil:
			c.add(ing.Ref, loc.Place, rules.MigrationRedirectAdded, req, sideOf(g),
				fmt.Sprintf("the Gateway redirects it to https (%d); the Ingress forwards it to %s", gr.StatusCode, backendLabel(loc.Backend)),
				"keep the redirect if plain HTTP should end; otherwise attach the route with the backends to the HTTP listener")
		case ir.ForwardedProto:
			c.add(ing.Ref, loc.Place, rules.MigrationRedirectChanged, req, sideOf(g),
				fmt.Sprintf("the Gateway redirects every plain HTTP request to https (%d); the Ingress redirects only those whose X-Forwarded-Proto is http (%s), and forwards the others to %s: behind a load balancer that terminates TLS and forwards plain HTTP, the Gateway's redirect loops",
					gr.StatusCode, ir.Key, backendLabel(loc.Backend)),
				"match the redirect rule on the header: matches: [{headers: [{name: X-Forwarded-Proto, value: http}]}], beside a rule that forwards to the backend")
		case ir.StatusCode != gr.StatusCode:
			c.add(ing.Ref, loc.Place, rules.MigrationRedirectChanged, req, sideOf(g),
				fmt.Sprintf("the Gateway redirects it to https with %d; the Ingress with %d (%s)", gr.StatusCode, ir.StatusCode, ir.Key),
				fmt.Sprintf("set the RequestRedirect filter's statusCode to %d", ir.StatusCode))
		}
		if ir == nil || ir.ForwardedProto {
			c.followRedirect(row, g, gr, req)
		}
	case ir != nil && !ir.ForwardedProto:
		what := "forwards it to " + gatewayBackendsLabel(g)
		if g.Refusal != serving.Served {
			what = "does not serve it over HTTP either (" + refusalText(g) + ")"
		}
		c.add(ing.Ref, loc.Place, rules.MigrationRedirectLost, req, sideOf(g),
			fmt.Sprintf("the Ingress redirects it to https (%d, %s); the Gateway %s", ir.StatusCode, ir.Key, what),
			redirectFix(row, g, ir.StatusCode))
	default:
		if ir != nil {
			c.forwardedProtoRedirect(row, ir, req)
		}
		c.forwarded(row, g, req, "")
	}
}

// forwardedProto is the header a load balancer that terminates TLS in front
// adds to the plain HTTP requests it forwards, saying what the client used.
var forwardedProto = serving.Header{Name: "X-Forwarded-Proto", Value: "http"}

// forwardedProtoRedirect compares a redirect the Ingress makes only for
// requests whose X-Forwarded-Proto is http: the Gateway must redirect the
// same request, carrying the header, to https, by a rule that matches it
// (HTTPHeaderMatch, Exact), while forwarding the others.
func (c *comparison) forwardedProtoRedirect(row *ingress.Row, ir *ingress.Redirect, req string) {
	ing := row.Location.Ingress
	withHeader := row.Request
	withHeader.Header = forwardedProto
	g := c.decide(row.Port, withHeader)
	var gr *serving.Redirect
	if g.Rule != nil {
		gr = g.Rule.Redirect
	}
	switch {
	case gr == nil || !gr.ToHTTPS():
		c.add(ing.Ref, row.Location.Place, rules.MigrationRedirectLost, req, sideOf(&g),
			fmt.Sprintf("the Ingress redirects it to https (%d, %s) when its X-Forwarded-Proto is http; the Gateway does not redirect it then", ir.StatusCode, ir.Key),
			"add a rule with matches: [{headers: [{name: X-Forwarded-Proto, value: http}]}] and a RequestRedirect filter with scheme: https")
	case gr.StatusCode != ir.StatusCode:
		c.add(ing.Ref, row.Location.Place, rules.MigrationRedirectChanged, req, sideOf(&g),
			fmt.Sprintf("with X-Forwarded-Proto http, the Gateway redirects it to https with %d; the Ingress with %d (%s)", gr.StatusCode, ir.StatusCode, ir.Key),
			fmt.Sprintf("set the RequestRedirect filter's statusCode to %d", ir.StatusCode))
	}
}

// followRedirect asks the Gateway the HTTPS request its redirect sends the
// client to, and compares it with what the Ingress did with the plain one.
func (c *comparison) followRedirect(row *ingress.Row, g *gatewaySide, r *serving.Redirect, req string) {
	port := r.Port
	if port == 0 {
		port = 443
	}
	host := r.Hostname
	if host == "" {
		host = row.Request.Host
	}
	next := serving.Request{SNI: host, Host: host, Path: row.Request.Path, Method: row.Request.Method}
	g2 := c.decide(port, next)
	after := fmt.Sprintf("after the Gateway's redirect to https on port %d, ", port)
	loc := row.Location
	if g2.Refusal != serving.Served {
		c.add(loc.Ingress.Ref, loc.Place, rules.MigrationPathNotServed, req, sideOf(g).then(sideOf(&g2)),
			after+"the Gateway does not serve it ("+refusalText(&g2)+"); the Ingress forwards it to "+backendLabel(loc.Backend),
			fmt.Sprintf("attach a route with the Ingress path to the Gateway's HTTPS listener on port %d (parentRefs sectionName), or forward the plain HTTP request instead of redirecting it", port))
		return
	}
	c.forwarded(row, &g2, req, after)
}

// forwarded compares a request both sides forward: the path match, the
// backends and their protocol, the path the backend receives.
func (c *comparison) forwarded(row *ingress.Row, g *gatewaySide, req, context string) {
	loc := row.Location
	ing := loc.Ingress
	if g.Refusal != serving.Served {
		r := rules.MigrationPathNotServed
		why := fmt.Sprintf("%sthe Gateway does not serve it (%s); the Ingress forwards it to %s", context, refusalText(g), backendLabel(loc.Backend))
		if !row.Spec {
			r = rules.MigrationPathMatchNarrowed
			why = fmt.Sprintf("%sonly %s's matching of %s path %s (%s) takes it, and the Gateway does not (%s)", context, row.Serving.Controller.Name(), loc.PathType, loc.Path, loc.Match, refusalText(g))
		}
		fix := pathFix(row, g)
		if !row.Spec {
			fix = narrowedFix(row)
		}
		c.add(ing.Ref, loc.Place, r, req, sideOf(g), why, fix)
		return
	}
	if g.Match != nil && g.Match.Path.Type == gwv1.PathMatchRegularExpression {
		c.add(ing.Ref, loc.Place, rules.MigrationPathMatchUnverified, req, sideOf(g),
			fmt.Sprintf("%sthe Gateway takes it by RegularExpression %q, whose meaning is implementation-specific", context, g.Match.Path.Value),
			"check that the implementation supports RegularExpression path matches as "+row.Serving.Controller.Name()+" read the path, or use an Exact or PathPrefix match")
	}
	if g.Rule.Redirect != nil {
		return // a redirect on HTTPS: compared as the rule's outcome above
	}
	c.backends(row, g, req, g.Rule.Backends, context)
	c.canaryConditions(row, g, context)
	want := loc.UpstreamPath(row.Request.Path)
	got := g.Rule.Rewrite.Apply(g.Match, row.Request.Path)
	if want != got {
		fix := "remove the rule's URLRewrite filter"
		if want != row.Request.Path {
			fix = fmt.Sprintf("add a URLRewrite filter to the rule that sends %s as %s (ReplacePrefixMatch, or ReplaceFullPath for a fixed path)", row.Request.Path, want)
		}
		c.add(ing.Ref, loc.Place, rules.MigrationRewriteChanged, req, sideOf(g),
			fmt.Sprintf("%sthe backend receives path %s from the Gateway, %s from the Ingress%s", context, got, want, rewriteBy(loc)), fix)
	}
}

func rewriteBy(l *ingress.Location) string {
	if l.Rewrite == "" {
		return ""
	}
	return " (" + l.RewriteKey + ": " + l.Rewrite + ")"
}

// backends compares where both sides forward a request, and the protocol
// they speak to it.
func (c *comparison) backends(row *ingress.Row, g *gatewaySide, req string, gbs []serving.Backend, context string) {
	loc := row.Location
	ing := loc.Ingress
	want := ingressShares(loc, nil)
	got := gatewayShares(gbs)
	if !sameShares(want, got, loc.Backend) {
		c.add(ing.Ref, loc.Place, rules.MigrationBackendChanged, req, sideOf(g),
			fmt.Sprintf("%sthe Gateway forwards it to %s; the Ingress to %s", context, sharesLabel(got), sharesLabel(want)),
			fmt.Sprintf("set the rule's backendRefs to %s", sharesFix(want)))
		return
	}
	for _, b := range gbs {
		if b.Weight == 0 || b.Name != loc.Backend.Service {
			continue
		}
		c.backendTLS(row, g, req, b, context)
		if g.Rule != nil {
			c.backendProtocol(row, g, req, b, context)
		}
		break
	}
}

// backendTLS compares the TLS the two sides speak to one backend: the
// Ingress's annotations against the BackendTLSPolicy that applies (GEP-1897).
func (c *comparison) backendTLS(row *ingress.Row, g *gatewaySide, req string, b serving.Backend, context string) {
	loc := row.Location
	ing := loc.Ingress
	be := loc.Backend
	p := b.Policy
	switch {
	case be.TLS && p == nil:
		c.add(ing.Ref, loc.Place, rules.MigrationBackendTLSLost, req, sideOf(g),
			fmt.Sprintf("%sthe Ingress speaks TLS to %s (%s); no accepted BackendTLSPolicy applies to it%s, so the Gateway speaks plain text",
				context, backendLabel(be), strings.Join(be.Keys, ", "), c.unacceptedPolicies(b)),
			fmt.Sprintf("add a BackendTLSPolicy with targetRefs [{group: \"\", kind: Service, name: %s}] and validation {hostname: <the name the backend's certificate is for>, caCertificateRefs or wellKnownCACertificates}", be.Service.Name))
	case !be.TLS && p != nil:
		c.add(ing.Ref, loc.Place, rules.MigrationBackendTLSAdded, req, sideOf(g),
			fmt.Sprintf("%sBackendTLSPolicy %s/%s (%s) makes the Gateway speak TLS to %s; the Ingress speaks plain text to it", context, p.Policy.Obj.Namespace, p.Policy.Obj.Name, p.Policy.Source, backendLabel(be)),
			"remove the BackendTLSPolicy, or make sure the backend serves TLS now")
	case be.TLS && p != nil:
		host := string(p.Policy.Obj.Spec.Validation.Hostname)
		switch {
		case !be.Verify:
			c.add(ing.Ref, loc.Place, rules.MigrationBackendTLSChanged, req, sideOf(g),
				fmt.Sprintf("%sBackendTLSPolicy %s/%s (%s) verifies %s's certificate against hostname %q; the Ingress does not verify it", context, p.Policy.Obj.Namespace, p.Policy.Obj.Name, p.Policy.Source, backendLabel(be), host),
				fmt.Sprintf("check that the backend's certificate is issued for %s by the CA the policy names", host))
		case be.VerifyName != "" && !strings.EqualFold(be.VerifyName, host):
			c.add(ing.Ref, loc.Place, rules.MigrationBackendTLSChanged, req, sideOf(g),
				fmt.Sprintf("%sBackendTLSPolicy %s/%s (%s) verifies %s against hostname %q; the Ingress against %q", context, p.Policy.Obj.Namespace, p.Policy.Obj.Name, p.Policy.Source, backendLabel(be), host, be.VerifyName),
				fmt.Sprintf("set the policy's validation.hostname to %s", be.VerifyName))
		}
	}
}

// share is a backend's part of a path's requests.
type share struct {
	key    string // namespace/name:port of a Service, or a resource
	name   string // namespace/name, for a port the Ingress names
	weight float64
}

// ingressShares are the backends a request of a location reaches: a request
// that carries a canary's deciding header or cookie (probe) goes to the
// canary or the main backend; any other is split between the main backend
// and the canaries by weight, whatever headers or cookies they also take
// (ingress-nginx: canary-by-header, then canary-by-cookie, then
// canary-weight).
func ingressShares(l *ingress.Location, probe *canaryProbe) []share {
	if probe != nil && probe.Decided {
		if probe.ToCanary {
			return []share{shareOf(probe.canary.Backend, 1)}
		}
		return []share{shareOf(l.Backend, 1)}
	}
	main := 1.0
	var out []share
	for _, c := range l.Canaries {
		if c.Weight == 0 || c.WeightTotal == 0 {
			continue
		}
		w := math.Min(float64(c.Weight)/float64(c.WeightTotal), 1)
		out = append(out, shareOf(c.Backend, w))
		main -= w
	}
	if main > 0 {
		out = append([]share{shareOf(l.Backend, main)}, out...)
	}
	return out
}

func shareOf(b ingress.Backend, w float64) share {
	if b.Resource != "" {
		return share{key: b.Resource, weight: w}
	}
	key := fmt.Sprintf("%s:%d", b.Service, b.Port)
	if b.Port == 0 {
		key = fmt.Sprintf("%s:%s", b.Service, b.PortName)
	}
	return share{key: key, name: b.Service.String(), weight: w}
}

// gatewayShares are a rule's backends by weight (BackendRef.Weight: a weight
// of 0 takes no request).
func gatewayShares(bs []serving.Backend) []share {
	total := 0
	for _, b := range bs {
		total += int(b.Weight)
	}
	var out []share
	for _, b := range bs {
		if b.Weight == 0 || total == 0 {
			continue
		}
		key := fmt.Sprintf("%s:%d", b.Name, b.Port)
		if b.Kind != "" {
			key = b.Kind + " " + key
		}
		out = append(out, share{key: key, name: b.Name.String(), weight: float64(b.Weight) / float64(total)})
	}
	return out
}

// sameShares compares two splits of requests. A port the Ingress names and
// the input holds no Service for is compared by Service alone.
func sameShares(want, got []share, main ingress.Backend) bool {
	sum := func(ss []share, key func(share) string) map[string]float64 {
		m := map[string]float64{}
		for _, s := range ss {
			m[key(s)] += s.weight
		}
		return m
	}
	key := func(s share) string { return s.key }
	if main.Port == 0 && main.PortName != "" {
		key = func(s share) string {
			if s.name != "" {
				return s.name
			}
			return s.key
		}
	}
	w, g := sum(want, key), sum(got, key)
	if len(w) != len(g) {
		return false
	}
	for k, v := range w {
		if math.Abs(g[k]-v) > 0.005 {
			return false
		}
	}
	return true
}

func sharesLabel(ss []share) string {
	if len(ss) == 0 {
		return "no backend"
	}
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = s.key
		if len(ss) > 1 {
			parts[i] += fmt.Sprintf(" (%.0f%%)", s.weight*100)
		}
	}
	return strings.Join(parts, ", ")
}

func sharesFix(ss []share) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		name, port, _ := strings.Cut(s.key, ":")
		_, name, _ = strings.Cut(name, "/")
		parts[i] = fmt.Sprintf("{name: %s, port: %s", name, port)
		if len(ss) > 1 {
			parts[i] += fmt.Sprintf(", weight: %.0f", s.weight*100)
		}
		parts[i] += "}"
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func backendLabel(b ingress.Backend) string {
	s := shareOf(b, 1).key
	if b.TLS {
		s += " (TLS)"
	}
	return s
}

func gatewayBackendsLabel(g *gatewaySide) string {
	if g.Rule == nil {
		return "its backends"
	}
	return sharesLabel(gatewayShares(g.Rule.Backends))
}

// ingressOutcome is what the Ingress does with a row's request, in words.
func ingressOutcome(row *ingress.Row) string {
	if r := row.Redirect; r != nil && !r.ForwardedProto {
		return fmt.Sprintf("the Ingress redirects it to https (%d)", r.StatusCode)
	}
	return "the Ingress forwards it to " + backendLabel(row.Location.Backend)
}

// refusalText says why the Gateway does not serve a request.
func refusalText(g *gatewaySide) string {
	switch g.Refusal {
	case serving.NoRuleForPath:
		return "no rule of the routes that take the host matches the path: HTTP 404"
	case serving.NoBackendRefs:
		return "the rule has no backendRefs"
	case serving.NoBackendResolves:
		return "no backendRef of the rule resolves"
	}
	if lost, why := hostLost(g, 0); lost {
		return why
	}
	return g.Refusal.String()
}

func displayHost(h string) string {
	if h == "" {
		return "(any host)"
	}
	return h
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func certLabel(c *serving.Certificate) string {
	if c == nil {
		return "no certificate"
	}
	fp := c.SHA256()
	if fp == "" {
		return "Secret " + c.Secret.String() + " (not read)"
	}
	return "Secret " + c.Secret.String() + " sha256:" + fp[:16]
}

func certNames(c *serving.Certificate) string {
	if names := c.Ref.DNSNames(); len(names) > 0 {
		return "DNS names " + strings.Join(names, ", ")
	}
	return "no DNS names"
}

func sameCertificate(a, b *serving.Certificate) bool {
	if a.Secret != b.Secret {
		return false
	}
	return a.SHA256() == b.SHA256()
}

// hostFix says how to serve a host that is lost.
func hostFix(row *ingress.Row) string {
	host := row.Hostname
	if host == "" {
		host = "(none: any)"
	}
	switch {
	case row.Passthrough:
		return fmt.Sprintf("add a listener on port %d with protocol TLS, tls.mode Passthrough and hostname %s, and a TLSRoute with the host and the backend", row.Port, host)
	case row.TLS():
		secret := "the Ingress's TLS Secret"
		if t := row.Server.TLS; t != nil && t.Secret.Name != "" {
			secret = "Secret " + t.Secret.String()
		}
		return fmt.Sprintf("add an HTTPS listener on port %d with hostname %s and tls.certificateRefs [%s], and attach an HTTPRoute with hostnames [%s]", row.Port, host, secret, host)
	}
	return fmt.Sprintf("add an HTTP listener on port %d with hostname %s, and attach an HTTPRoute with hostnames [%s]", row.Port, host, host)
}

// pathFix is a rule to add for a path the Gateway does not serve.
func pathFix(row *ingress.Row, g *gatewaySide) string {
	pm := ingress.PathMatchFor(row.Location)
	where := "to the HTTPRoute that takes the host"
	if r := g.Route(); r != nil {
		where = fmt.Sprintf("to %s (%s)", r.Ref, r.Attachment.Route.Route.Source)
	}
	be := row.Location.Backend
	return fmt.Sprintf("add a rule %s: {matches: [{path: {type: %s, value: %s}}], backendRefs: [{name: %s, port: %d}]}", where, pm.Type, pm.Value, be.Service.Name, be.Port)
}

// narrowedFix is how to keep requests only the controller's matching took.
func narrowedFix(row *ingress.Row) string {
	l := row.Location
	if l.Match == "string-prefix" {
		return fmt.Sprintf("if clients send paths that extend %s's last element (such as %s), add a rule for them: a PathPrefix per such path, or a RegularExpression %s.* where the implementation supports one", l.Path, row.Request.Path, l.Path)
	}
	return fmt.Sprintf("if clients send paths beneath what %s matches (such as %s), add a rule for them (a PathPrefix, or a RegularExpression where the implementation supports one)", l.Path, row.Request.Path)
}

// redirectFix is how to redirect a host's plain HTTP requests.
func redirectFix(row *ingress.Row, g *gatewaySide, code int) string {
	listener := "the HTTP listener"
	if g.Listener != nil {
		listener = "listener " + g.Listener.Name
	}
	return fmt.Sprintf("attach to %s (parentRefs sectionName) an HTTPRoute with hostnames [%s] whose rule has filters [{type: RequestRedirect, requestRedirect: {scheme: https, statusCode: %d}}], and attach the route with the backends to the HTTPS listener only",
		listener, row.Hostname, code)
}

// unacceptedPolicies names the BackendTLSPolicies that target a backend's
// Service but are not accepted, and why, for a backend the Gateway speaks
// plain text to.
func (c *comparison) unacceptedPolicies(b serving.Backend) string {
	var out []string
	for _, p := range c.res.BackendTLSPolicies {
		o := p.Policy.Obj
		if o.Namespace != b.Name.Namespace || analyze.IsTrue(p.Conditions, string(gwv1.PolicyConditionAccepted)) {
			continue
		}
		for _, t := range o.Spec.TargetRefs {
			if string(t.Name) == b.Name.Name && t.Kind == "Service" {
				cond := analyze.Find(p.Conditions, string(gwv1.PolicyConditionAccepted))
				why := "not accepted"
				if cond != nil {
					why = fmt.Sprintf("not accepted: %s: %s", cond.Reason, cond.Message)
				}
				out = append(out, fmt.Sprintf("BackendTLSPolicy %s/%s (%s) targets it but is %s", o.Namespace, o.Name, p.Policy.Source, why))
				break
			}
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " (" + strings.Join(out, "; ") + ")"
}
