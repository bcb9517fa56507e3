package migration

import (
	"fmt"

	"github.com/kubectl-gwtls/kubectl-gwtls/ingress"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
)

// canaryProbe is a request header that exercises a canary's condition, with
// the canary.
type canaryProbe struct {
	ingress.CanaryProbe
	canary *ingress.Canary
}

// canaryConditions asks the Gateway the requests that carry a canary's
// deciding header or cookie (ingress.CanaryBy.Probes), as the request g
// answered, and compares where each goes: the Gateway keeps a canary by
// header only with a rule whose header match takes the same request
// (HTTPHeaderMatch, Exact), and has no cookie match at all.
func (c *comparison) canaryConditions(row *ingress.Row, g *gatewaySide, context string) {
	loc := row.Location
	for i := range loc.Canaries {
		cn := &loc.Canaries[i]
		if cn.By.PatternOnly() {
			c.add(loc.Ingress.Ref, loc.Place, rules.MigrationCanaryUnverified, requestLabel(row), sideOf(g),
				fmt.Sprintf("%s%s sends requests whose %s matches the regular expression %q (%s) to %s; no request the comparison sends is known to match it, so they are not compared",
					context, row.Serving.Controller.Name(), cn.By.Header, cn.By.HeaderPattern, cn.Ingress.Ref, backendLabel(cn.Backend)),
				fmt.Sprintf("check that a rule with matches [{headers: [{name: %s, type: RegularExpression, value: %q}]}] forwards to %s, and that the implementation reads the expression as PCRE", cn.By.Header, cn.By.HeaderPattern, cn.Backend.Service.Name))
		}
		for _, p := range cn.By.Probes() {
			probe := &canaryProbe{p, cn}
			req := g.req
			req.Header = p.Header
			g2 := c.decide(g.port, req)
			c.probes++
			label := fmt.Sprintf("%s with %s: %s", requestLabel(row), p.Header.Name, p.Header.Value)
			want := ingressShares(loc, probe)
			if g2.Refusal != serving.Served || g2.Rule.Redirect != nil {
				what := "does not serve it (" + refusalText(&g2) + ")"
				if g2.Refusal == serving.Served {
					what = fmt.Sprintf("answers it with a redirect (%d)", g2.Rule.Redirect.StatusCode)
				}
				c.add(loc.Ingress.Ref, loc.Place, rules.MigrationBackendChanged, label, sideOf(&g2),
					fmt.Sprintf("%sthe Gateway %s; the Ingress forwards it to %s (%s)", context, what, sharesLabel(want), p.Key),
					canaryFix(probe, loc, want))
				continue
			}
			if got := gatewayShares(g2.Rule.Backends); !sameShares(want, got, loc.Backend) {
				c.add(loc.Ingress.Ref, loc.Place, rules.MigrationBackendChanged, label, sideOf(&g2),
					fmt.Sprintf("%sthe Gateway forwards it to %s; the Ingress to %s (%s: %s)", context, sharesLabel(got), sharesLabel(want), p.Key, probeMeaning(probe)),
					canaryFix(probe, loc, want))
			}
		}
	}
}

// probeMeaning says what the controller does with a probe's request.
func probeMeaning(p *canaryProbe) string {
	switch {
	case p.ToCanary:
		return "this value sends every request to the canary"
	case p.Decided:
		return "this value keeps every request off the canary"
	}
	return "this value falls through to the canary's weight"
}

// canaryFix is the rule that sends a probe's requests where the Ingress
// does. Gateway API matches headers, not cookies (HTTPRouteMatch has no
// cookie match): a cookie canary is kept only by matching the whole Cookie
// header, or by an implementation's own extension.
func canaryFix(p *canaryProbe, l *ingress.Location, want []share) string {
	pm := ingress.PathMatchFor(l)
	if p.Header.Name == "Cookie" {
		return fmt.Sprintf("Gateway API has no cookie match: move the canary to a header (canary-by-header) and add a rule {matches: [{path: {type: %s, value: %s}, headers: [{name: <the header>, value: %q}]}], backendRefs: %s}, or use the implementation's own cookie match; an Exact match on the whole Cookie header (%s) takes only requests that carry no other cookie",
			pm.Type, pm.Value, p.canary.By.CookieAlways, sharesFix(want), p.Header.Value)
	}
	return fmt.Sprintf("add a rule to the HTTPRoute that takes the host: {matches: [{path: {type: %s, value: %s}, headers: [{name: %s, value: %q}]}], backendRefs: %s} (a header match ranks above the rule without one)",
		pm.Type, pm.Value, p.Header.Name, p.Header.Value, sharesFix(want))
}
