package serving_test

import (
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
)

// TestDecidePath: a request that names a path is decided down to the rule that
// takes it, by HTTPRouteRule.Matches' precedence: an Exact path, then the
// longest PathPrefix (matched element by element), then a method, header and
// query matches; the route with the more specific hostname first, and a less
// specific one's rules for what its rules do not take.
func TestDecidePath(t *testing.T) {
	table := serving.Build(analyzeYAML(t, class, services,
		gateway("", `{name: http, port: 80, protocol: HTTP}`),
		route("HTTPRoute", "shop", "", `{parentRefs: [{name: gw}], hostnames: [shop.example.com], rules: [
  {matches: [{path: {type: PathPrefix, value: /api}}], backendRefs: [{name: web, port: 8080}]},
  {matches: [{path: {type: Exact, value: /api/health}}], backendRefs: [{name: web, port: 8443}]},
  {matches: [{path: {type: PathPrefix, value: /api/v2/}}, {path: {value: /beta}, headers: [{name: x-beta, value: "1"}]}], backendRefs: [{name: web, port: 8443}]},
  {matches: [{path: {type: PathPrefix, value: /old}, method: POST}], backendRefs: [{name: web, port: 8443}]},
  {matches: [{path: {type: PathPrefix, value: /moved}}], filters: [{type: RequestRedirect, requestRedirect: {scheme: https, statusCode: 301}}]}]}`),
		route("HTTPRoute", "catchall", "", `{parentRefs: [{name: gw}], hostnames: ["*.example.com"], rules: [{backendRefs: [{name: web, port: 8080}]}]}`),
		route("HTTPRoute", "regex", "", `{parentRefs: [{name: gw}], hostnames: [re.example.org], rules: [{matches: [{path: {type: RegularExpression, value: "/v[0-9]+"}}], backendRefs: [{name: web, port: 8080}]}]}`),
		route("GRPCRoute", "grpc", "", `{parentRefs: [{name: gw}], hostnames: [grpc.example.org], rules: [{matches: [{method: {service: helloworld.Greeter, method: SayHello}}], backendRefs: [{name: web, port: 8080}]}]}`)))
	port := table.Gateway(model.NamespacedName{Namespace: "default", Name: "gw"}).Port(80)
	for _, c := range []struct {
		name        string
		req         serving.Request
		route       string
		rule        int // -1: none
		refusal     serving.Refusal
		redirect    bool
		regexDecide bool
	}{
		{"a PathPrefix takes its own path", serving.Request{Host: "shop.example.com", Path: "/api"}, "shop", 0, serving.Served, false, false},
		{"a PathPrefix takes the paths beneath it", serving.Request{Host: "shop.example.com", Path: "/api/orders"}, "shop", 0, serving.Served, false, false},
		{"an Exact path before a PathPrefix", serving.Request{Host: "shop.example.com", Path: "/api/health"}, "shop", 1, serving.Served, false, false},
		{"the longest PathPrefix wins; a trailing slash is ignored", serving.Request{Host: "shop.example.com", Path: "/api/v2"}, "shop", 2, serving.Served, false, false},
		{"a PathPrefix matches whole path elements: /api does not take /apis", serving.Request{Host: "shop.example.com", Path: "/apis"}, "catchall", 0, serving.Served, false, false},
		{"a match with a header condition does not take a request without the header", serving.Request{Host: "shop.example.com", Path: "/beta"}, "catchall", 0, serving.Served, false, false},
		{"a request carrying the header satisfies an Exact header match", serving.Request{Host: "shop.example.com", Path: "/beta", Header: serving.Header{Name: "X-Beta", Value: "1"}}, "shop", 2, serving.Served, false, false},
		{"another value of the header does not", serving.Request{Host: "shop.example.com", Path: "/beta", Header: serving.Header{Name: "X-Beta", Value: "2"}}, "catchall", 0, serving.Served, false, false},
		{"a method match takes that method only", serving.Request{Host: "shop.example.com", Path: "/old"}, "catchall", 0, serving.Served, false, false},
		{"a method match takes its method", serving.Request{Host: "shop.example.com", Path: "/old", Method: "POST"}, "shop", 3, serving.Served, false, false},
		{"a RequestRedirect rule answers with its redirect", serving.Request{Host: "shop.example.com", Path: "/moved/x"}, "shop", 4, serving.Served, true, false},
		{"a rule without matches takes every path", serving.Request{Host: "www.example.com", Path: "/anything"}, "catchall", 0, serving.Served, false, false},
		{"a RegularExpression is matched on the whole path, and says so", serving.Request{Host: "re.example.org", Path: "/v2"}, "regex", 0, serving.Served, false, true},
		{"a path no rule takes is HTTP 404", serving.Request{Host: "re.example.org", Path: "/v2/x"}, "", -1, serving.NoRuleForPath, false, true},
		{"a GRPCRoute method match takes the POST to /service/method", serving.Request{Host: "grpc.example.org", Path: "/helloworld.Greeter/SayHello", Method: "POST"}, "grpc", 0, serving.Served, false, false},
		{"and no other path", serving.Request{Host: "grpc.example.org", Path: "/helloworld.Greeter/SayHello/x", Method: "POST"}, "", -1, serving.NoRuleForPath, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := port.Decide(c.req)
			route, rule, redirect := "", -1, false
			if d.Rule != nil {
				route, rule, redirect = d.Rule.Route.Ref.Name, d.Rule.Index, d.Rule.Redirect.ToHTTPS()
			}
			if route != c.route || rule != c.rule || d.Refusal != c.refusal || redirect != c.redirect || d.RegexPath != c.regexDecide {
				t.Errorf("route %q rule %d refusal %v redirect %v regex %v; want %q %d %v %v %v", route, rule, d.Refusal, redirect, d.RegexPath,
					c.route, c.rule, c.refusal, c.redirect, c.regexDecide)
			}
			if d.Rule != nil && d.Route() != d.Rule.Route {
				t.Errorf("Route() is %v, not the rule's route", d.Route().Ref)
			}
		})
	}
	// A route whose rules only redirect answers requests: with its redirect.
	redirects := serving.Build(analyzeYAML(t, class, services,
		gateway("", `{name: http, port: 80, protocol: HTTP}`),
		route("HTTPRoute", "to-https", "", `{parentRefs: [{name: gw}], hostnames: [shop.example.com], rules: [{filters: [{type: RequestRedirect, requestRedirect: {scheme: https}}]}]}`)))
	if d := redirects.Gateways[0].Port(80).Decide(serving.Request{Host: "shop.example.com"}); d.Refusal != serving.Served {
		t.Errorf("a route that only redirects: refusal %v, want Served", d.Refusal)
	}
	// Without a path, a request is decided down to the routes, as simulate asks.
	if d := port.Decide(serving.Request{Host: "shop.example.com"}); d.Rule != nil || d.Route().Ref.Name != "shop" || d.Refusal != serving.Served {
		t.Errorf("no path: rule %v route %v refusal %v", d.Rule, d.Route().Ref, d.Refusal)
	}
}

// TestRuleBackendsAndRedirect: a rule's backends are its own backendRefs, and
// a RequestRedirect's status code defaults to 302.
func TestRuleBackendsAndRedirect(t *testing.T) {
	table := serving.Build(analyzeYAML(t, class, services,
		gateway("", `{name: http, port: 80, protocol: HTTP}`),
		route("HTTPRoute", "r", "", `{parentRefs: [{name: gw}], rules: [
  {filters: [{type: RequestRedirect, requestRedirect: {scheme: https}}]},
  {matches: [{path: {value: /a}}], backendRefs: [{name: web, port: 8080, weight: 2}, {name: web, port: 8443}]}]}`)))
	rules := table.Gateways[0].Port(80).Listeners[0].Routes[0].Rules()
	if len(rules) != 2 {
		t.Fatalf("%d rules", len(rules))
	}
	if r := rules[0].Redirect; r == nil || r.Scheme != "https" || r.StatusCode != 302 || len(rules[0].Backends) != 0 {
		t.Errorf("rule 0: redirect %+v backends %v", r, rules[0].Backends)
	}
	if bs := rules[1].Backends; len(bs) != 2 || bs[0].Port != 8080 || bs[0].Weight != 2 || bs[1].Port != 8443 || rules[1].Redirect != nil {
		t.Errorf("rule 1: backends %+v", bs)
	}
}

// TestPathRewrite: a URLRewrite's ReplacePrefixMatch replaces the prefix the
// request matched, element-wise (HTTPPathModifier); ReplaceFullPath the path.
func TestPathRewrite(t *testing.T) {
	prefix := func(v string) *serving.Match {
		return &serving.Match{Path: serving.PathMatch{Type: "PathPrefix", Value: v}}
	}
	for _, c := range []struct {
		name    string
		rewrite *serving.PathRewrite
		match   *serving.Match
		path    string
		want    string
	}{
		{"no rewrite", nil, prefix("/foo"), "/foo/bar", "/foo/bar"},
		{"the prefix replaced", &serving.PathRewrite{Type: "ReplacePrefixMatch", Value: "/xyz"}, prefix("/foo"), "/foo/bar", "/xyz/bar"},
		{"the whole prefix replaced", &serving.PathRewrite{Type: "ReplacePrefixMatch", Value: "/xyz"}, prefix("/foo"), "/foo", "/xyz"},
		{"a trailing slash of the prefix", &serving.PathRewrite{Type: "ReplacePrefixMatch", Value: "/xyz/"}, prefix("/foo/"), "/foo/bar", "/xyz/bar"},
		{"replaced with /", &serving.PathRewrite{Type: "ReplacePrefixMatch", Value: "/"}, prefix("/foo"), "/foo/bar", "/bar"},
		{"replaced with / whole", &serving.PathRewrite{Type: "ReplacePrefixMatch", Value: "/"}, prefix("/foo"), "/foo", "/"},
		{"the full path", &serving.PathRewrite{Type: "ReplaceFullPath", Value: "/fixed"}, prefix("/foo"), "/foo/bar", "/fixed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.rewrite.Apply(c.match, c.path); got != c.want {
				t.Errorf("Apply(%q) = %q, want %q", c.path, got, c.want)
			}
		})
	}
}
