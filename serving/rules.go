package serving

import (
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/hostname"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// Rule is one rule of a route: the requests it takes and what answers them,
// its backends or a redirect.
type Rule struct {
	Route *Route
	// Index is the rule's position in spec.rules.
	Index int
	Name  string
	// Matches are the requests the rule takes, any one of them. A rule that
	// lists none takes every request: HTTPRouteRule.Matches defaults to a
	// PathPrefix match on "/" (GRPCRouteRule.Matches: "If no matches are
	// specified, the implementation MUST match every gRPC request").
	Matches []Match
	// Backends are the rule's backendRefs, as Route.Backends lists them.
	Backends []Backend
	// Redirect is the rule's RequestRedirect filter, nil when it has none: a
	// request the rule takes is answered with it, never forwarded.
	Redirect *Redirect
	// Rewrite is the rule's URLRewrite filter's path modifier, nil when it
	// has none.
	Rewrite *PathRewrite
}

// PathRewrite is a URLRewrite filter's path modifier (HTTPPathModifier): the
// whole path replaced, or the prefix the request matched.
type PathRewrite struct {
	Type  gwv1.HTTPPathModifierType
	Value string
}

// Apply is the path a backend receives for a request path that match took:
// ReplaceFullPath replaces it; ReplacePrefixMatch replaces the match's
// PathPrefix ("/foo" replaced by "/bar" makes "/foo/x" "/bar/x").
func (r *PathRewrite) Apply(m *Match, path string) string {
	if r == nil {
		return path
	}
	if r.Type == gwv1.FullPathHTTPPathModifier || m == nil || m.Path.Type != gwv1.PathMatchPathPrefix {
		return r.Value
	}
	out := strings.TrimSuffix(r.Value, "/") + strings.TrimPrefix(path, strings.TrimSuffix(m.Path.Value, "/"))
	if out == "" {
		return "/"
	}
	return out
}

// Match is one of a rule's matches, as a request path and the conditions
// beside it.
type Match struct {
	// Path is the path match; a GRPCRoute method match is read as the path
	// of the gRPC request it takes (/service/method, gRPC over HTTP/2).
	Path PathMatch
	// Method is the HTTP method the match requires, "" for any.
	Method string
	// Headers and QueryParams count the header and query parameter matches,
	// which order matches (HTTPRouteRule.Matches) and which a request with
	// none of those headers or parameters does not satisfy.
	Headers, QueryParams int
	// ExactHeaders are the header matches of type Exact, by canonical name: a
	// request carrying them all satisfies them. A match with other header
	// matches (RegularExpression, whose dialect is implementation-specific)
	// is satisfied by no request this package asks.
	ExactHeaders map[string]string
}

// exactHeaders are the Exact header matches of an HTTPRouteMatch or
// GRPCRouteMatch, by canonical name (header names are case-insensitive,
// HTTPHeaderName); nil when any is of another type.
func exactHeaders[T ~string](n int, at func(i int) (name T, value string, exact bool)) map[string]string {
	if n == 0 {
		return nil
	}
	out := make(map[string]string, n)
	for i := 0; i < n; i++ {
		name, value, exact := at(i)
		if !exact {
			return nil
		}
		out[http.CanonicalHeaderKey(string(name))] = value
	}
	return out
}

// PathMatch is how a match compares a request's path.
type PathMatch struct {
	// Type is Exact, PathPrefix or RegularExpression.
	Type  gwv1.PathMatchType
	Value string
}

// Redirect is a RequestRedirect filter (HTTPRequestRedirectFilter): fields
// left unset keep the request's.
type Redirect struct {
	Scheme   string
	Hostname string
	Port     int32
	// StatusCode defaults to 302 (HTTPRequestRedirectFilter.StatusCode).
	StatusCode int
}

// ToHTTPS reports whether the redirect sends a client to https.
func (r *Redirect) ToHTTPS() bool { return r != nil && r.Scheme == "https" }

// Rules are the route's rules, in spec order.
func (r *Route) Rules() []*Rule {
	r.rulesOnce.Do(func() { r.rules = rulesOf(r) })
	return r.rules
}

func rulesOf(r *Route) []*Rule {
	rr := r.Attachment.Route
	out := make([]*Rule, len(rr.Route.Rules))
	for i := range rr.Route.Rules {
		mr := &rr.Route.Rules[i]
		rule := &Rule{Route: r, Index: i, Name: mr.Name, Redirect: redirectOf(mr.Filters), Rewrite: rewriteOf(mr.Filters)}
		switch {
		case len(mr.Matches) > 0:
			for _, m := range mr.Matches {
				rule.Matches = append(rule.Matches, httpMatch(m))
			}
		case len(mr.GRPCMatches) > 0:
			for _, m := range mr.GRPCMatches {
				rule.Matches = append(rule.Matches, grpcMatch(m))
			}
		default:
			rule.Matches = []Match{{Path: PathMatch{Type: gwv1.PathMatchPathPrefix, Value: "/"}}}
		}
		out[i] = rule
	}
	for _, b := range rr.Backends {
		if b.Rule >= 0 && int(b.Rule) < len(out) {
			out[b.Rule].Backends = append(out[b.Rule].Backends, backend(b))
		}
	}
	return out
}

// httpMatch reads an HTTPRouteMatch with the API's defaults: a path match
// of type PathPrefix on "/" (HTTPRouteMatch.Path, HTTPPathMatch.Type).
func httpMatch(m gwv1.HTTPRouteMatch) Match {
	out := Match{Path: PathMatch{Type: gwv1.PathMatchPathPrefix, Value: "/"}, Headers: len(m.Headers), QueryParams: len(m.QueryParams)}
	out.ExactHeaders = exactHeaders(len(m.Headers), func(i int) (gwv1.HTTPHeaderName, string, bool) {
		h := m.Headers[i]
		return h.Name, h.Value, h.Type == nil || *h.Type == gwv1.HeaderMatchExact
	})
	if p := m.Path; p != nil {
		if p.Type != nil {
			out.Path.Type = *p.Type
		}
		if p.Value != nil {
			out.Path.Value = *p.Value
		}
	}
	if m.Method != nil {
		out.Method = string(*m.Method)
	}
	return out
}

// grpcMatch reads a GRPCRouteMatch as the path of the gRPC requests it takes:
// a gRPC request is a POST to /service/method (gRPC over HTTP/2, "Path").
// An exact service and method is that path; a service alone, every method of
// it; a method alone, or a RegularExpression match, a regular expression.
func grpcMatch(m gwv1.GRPCRouteMatch) Match {
	out := Match{Path: PathMatch{Type: gwv1.PathMatchPathPrefix, Value: "/"}, Method: "POST", Headers: len(m.Headers)}
	gm := m.Method
	if gm == nil {
		return out
	}
	service, method := "", ""
	if gm.Service != nil {
		service = *gm.Service
	}
	if gm.Method != nil {
		method = *gm.Method
	}
	regex := gm.Type != nil && *gm.Type == gwv1.GRPCMethodMatchRegularExpression
	switch {
	case !regex && service != "" && method != "":
		out.Path = PathMatch{Type: gwv1.PathMatchExact, Value: "/" + service + "/" + method}
	case !regex && service != "":
		out.Path = PathMatch{Type: gwv1.PathMatchPathPrefix, Value: "/" + service}
	default:
		s, m := regexp.QuoteMeta(service), regexp.QuoteMeta(method)
		if regex {
			s, m = service, method
		}
		if s == "" {
			s = "[^/]+"
		}
		if m == "" {
			m = "[^/]+"
		}
		out.Path = PathMatch{Type: gwv1.PathMatchRegularExpression, Value: "/" + s + "/" + m}
	}
	return out
}

// redirectOf is a rule's RequestRedirect filter, nil when it has none.
func redirectOf(fs []gwv1.HTTPRouteFilter) *Redirect {
	for _, f := range fs {
		if f.Type != gwv1.HTTPRouteFilterRequestRedirect || f.RequestRedirect == nil {
			continue
		}
		rr := f.RequestRedirect
		out := &Redirect{StatusCode: 302}
		if rr.Scheme != nil {
			out.Scheme = *rr.Scheme
		}
		if rr.Hostname != nil {
			out.Hostname = string(*rr.Hostname)
		}
		if rr.Port != nil {
			out.Port = int32(*rr.Port)
		}
		if rr.StatusCode != nil {
			out.StatusCode = *rr.StatusCode
		}
		return out
	}
	return nil
}

// rewriteOf is a rule's URLRewrite path modifier, nil when it has none.
func rewriteOf(fs []gwv1.HTTPRouteFilter) *PathRewrite {
	for _, f := range fs {
		if f.Type != gwv1.HTTPRouteFilterURLRewrite || f.URLRewrite == nil || f.URLRewrite.Path == nil {
			continue
		}
		p := f.URLRewrite.Path
		out := &PathRewrite{Type: p.Type}
		switch {
		case p.Type == gwv1.FullPathHTTPPathModifier && p.ReplaceFullPath != nil:
			out.Value = *p.ReplaceFullPath
		case p.Type == gwv1.PrefixMatchHTTPPathModifier && p.ReplacePrefixMatch != nil:
			out.Value = *p.ReplacePrefixMatch
		}
		return out
	}
	return nil
}

// matchRank orders the matches a request satisfies (HTTPRouteRule.Matches):
// an Exact path, then the longest PathPrefix, then a method, then the most
// header matches, then the most query parameter matches. The precedence of
// a RegularExpression path is implementation-specific; this ranks it after
// Exact and before every PathPrefix, as Envoy-based implementations order
// routes, and a Decision says when one decided.
type matchRank struct {
	kind, length, method, headers, query int
}

func rankOf(m *Match) matchRank {
	r := matchRank{length: len(m.Path.Value), headers: m.Headers, query: m.QueryParams}
	switch m.Path.Type {
	case gwv1.PathMatchExact:
		r.kind = 2
	case gwv1.PathMatchRegularExpression:
		r.kind, r.length = 1, 0
	}
	if m.Method != "" {
		r.method = 1
	}
	return r
}

func (a matchRank) better(b matchRank) bool {
	switch {
	case a.kind != b.kind:
		return a.kind > b.kind
	case a.length != b.length:
		return a.length > b.length
	case a.method != b.method:
		return a.method > b.method
	case a.headers != b.headers:
		return a.headers > b.headers
	}
	return a.query > b.query
}

// satisfies reports whether a request (its method, path and headers, and no
// query parameters) satisfies a match. ok is false for a RegularExpression
// that does not compile as RE2 (its syntax is implementation-specific).
func (m *Match) satisfies(req Request) (matched, ok bool) {
	if m.QueryParams > 0 || (m.Method != "" && m.Method != req.Method) || len(m.ExactHeaders) != m.Headers {
		return false, true
	}
	for name, value := range m.ExactHeaders {
		if name != req.Header.Name || value != req.Header.Value {
			return false, true
		}
	}
	path := req.Path
	switch m.Path.Type {
	case gwv1.PathMatchExact:
		return path == m.Path.Value, true
	case gwv1.PathMatchRegularExpression:
		// Whole-path matching, as Envoy's safe_regex matches a path: the
		// dialect and anchoring are implementation-specific.
		re, err := regexp.Compile(`^(?:` + m.Path.Value + `)$`)
		if err != nil {
			return false, false
		}
		return re.MatchString(path), true
	}
	return PathPrefixMatches(m.Path.Value, path), true
}

// PathPrefixMatches reports whether a PathPrefix match takes path: the prefix
// is a prefix of the path element by element, a trailing "/" ignored
// (HTTPPathMatch: "/abc" matches "/abc", "/abc/" and "/abc/def", not
// "/abcd"). An Ingress Prefix path matches the same way (networking/v1
// PathTypePrefix).
func PathPrefixMatches(prefix, path string) bool {
	prefix = strings.TrimSuffix(prefix, "/")
	if prefix == "" {
		return strings.HasPrefix(path, "/")
	}
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}

// ruleFor is the rule that takes a request for path, among the routes that
// take its hostname (in route precedence order), then the listener's other
// routes whose hostnames match it, less specific ones last: the rules of the
// route with the most specific hostname take precedence (HTTPRouteSpec.Hostnames),
// and among those the best match (HTTPRouteRule.Matches), then the oldest
// route, then the first rule. regex reports whether a RegularExpression path
// match took part in the choice.
func (l *Listener) ruleFor(routes []*Route, req Request, matches func(pattern, host string) bool) (rule *Rule, match *Match, regex bool) {
	name := req.Host
	if rule, match, regex = bestRule(routes, req); rule != nil {
		return rule, match, regex
	}
	// The listener's other routes that match the name, most specific first:
	// a rule of a less specific route takes what the more specific one's
	// rules do not.
	var others []*Route
	var hosts []string
	l.indexOnce.Do(func() { l.index = newRouteIndex(l.Routes) })
	for _, r := range l.index.candidates(name) {
		if containsRoute(routes, r) {
			continue
		}
		h, ok := mostSpecificMatch(r.Hostnames, name, matches)
		if !ok {
			continue
		}
		i := len(others)
		for i > 0 && hostname.Compare(h, hosts[i-1]) < 0 {
			i--
		}
		others = append(others[:i], append([]*Route{r}, others[i:]...)...)
		hosts = append(hosts[:i], append([]string{h}, hosts[i:]...)...)
	}
	for i := 0; i < len(others); {
		j := i + 1
		for j < len(others) && hosts[j] == hosts[i] {
			j++
		}
		group := byPrecedence(slices.Clone(others[i:j]))
		if rule, m, r := bestRule(group, req); rule != nil {
			return rule, m, r || regex
		}
		i = j
	}
	return nil, nil, regex
}

// bestRule is the rule of routes (in precedence order) whose match a request
// satisfies with the best rank; ties go to the earlier route, then the earlier
// rule. regex reports whether a RegularExpression match was considered.
func bestRule(routes []*Route, req Request) (best *Rule, bestMatch *Match, regex bool) {
	var bestRank matchRank
	for _, r := range routes {
		for _, rule := range r.Rules() {
			for i := range rule.Matches {
				m := &rule.Matches[i]
				if m.Path.Type == gwv1.PathMatchRegularExpression {
					regex = true
				}
				if ok, _ := m.satisfies(req); !ok {
					continue
				}
				if rk := rankOf(m); best == nil || rk.better(bestRank) {
					best, bestMatch, bestRank = rule, m, rk
				}
			}
		}
	}
	return best, bestMatch, regex
}

func containsRoute(routes []*Route, r *Route) bool {
	for _, x := range routes {
		if x == r || x.Attachment.Route == r.Attachment.Route {
			return true
		}
	}
	return false
}

// RuleRef names a route rule: the route and the rule's index.
type RuleRef struct {
	Route model.Ref
	Index int
}

// Ref names the rule.
func (r *Rule) Ref() RuleRef { return RuleRef{Route: r.Route.Ref, Index: r.Index} }

// Field is where the rule is in its route's spec.
func (r *Rule) Field() string { return "spec.rules[" + strconv.Itoa(r.Index) + "]" }

// ruleRefusal is Served when the rule redirects or one of its backendRefs
// resolves.
func ruleRefusal(rule *Rule) Refusal {
	if rule.Redirect != nil {
		return Served
	}
	bs := make([]*analyze.BackendResult, len(rule.Backends))
	for i := range rule.Backends {
		bs[i] = rule.Backends[i].Result
	}
	return backendsRefusal(bs)
}
