package serving

import (
	"github.com/kubectl-gwtls/kubectl-gwtls/hostname"
)

// routeIndex finds the routes of one listener that take a name without trying
// every route: a listener of a large configuration has hundreds, and every row,
// every simulated request and every proxied connection asks.
//
// It rests on one property of the matching rules (spec 003): a pattern can
// match a name only when it is the name itself, a wildcard `*.d` of one of the
// name's parent domains d, or match-all. The index looks those candidates up,
// most specific first (the order of hostname.Compare), and asks the hostname
// package whether each matches; the first that does is the answer a scan of
// every route gives. TestRouteIndexAgreesWithScan holds it to that scan.
type routeIndex struct {
	routes []*Route // every route, for names the index does not take
	// exact, wild and any hold each intersected hostname's routes in precedence
	// order: exact by precise hostname, wild by the domain d of `*.d`, any by
	// "*" and "". nil below indexFrom routes, where scanning is as fast.
	exact, wild map[string][]*Route
	any         map[string][]*Route
}

// indexFrom is the number of routes from which a listener indexes them.
const indexFrom = 4

func newRouteIndex(routes []*Route) routeIndex {
	ix := routeIndex{routes: routes}
	if len(routes) < indexFrom {
		return ix
	}
	ix.exact = map[string][]*Route{}
	for _, r := range routes {
		hs := r.Hostnames
		if len(hs) == 0 {
			hs = []string{""}
		}
		for _, h := range hs {
			m, key := &ix.exact, h
			switch {
			case hostname.IsMatchAll(h):
				m = &ix.any
			case hostname.IsWildcard(h):
				m, key = &ix.wild, h[2:]
			}
			if *m == nil {
				*m = map[string][]*Route{}
			}
			(*m)[key] = append((*m)[key], r)
		}
	}
	for _, m := range []map[string][]*Route{ix.exact, ix.wild, ix.any} {
		for key, rs := range m {
			m[key] = byPrecedence(rs)
		}
	}
	return ix
}

// lookup is the routes whose intersected hostname most specifically matches
// name, in precedence order, and that hostname; nil when none matches.
func (ix *routeIndex) lookup(name string, matches func(pattern, host string) bool) ([]*Route, string) {
	if ix.exact == nil || !lowercaseName(name) {
		return scanRoutes(ix.routes, name, matches)
	}
	if rs := ix.exact[name]; rs != nil && matches(name, name) {
		return rs, name
	}
	for i := 0; i < len(name); i++ {
		if name[i] != '.' {
			continue
		}
		if rs := ix.wild[name[i+1:]]; rs != nil {
			if p := "*" + name[i:]; matches(p, name) {
				return rs, p
			}
		}
	}
	for _, p := range []string{"*", ""} {
		if rs := ix.any[p]; rs != nil && matches(p, name) {
			return rs, p
		}
	}
	return nil, ""
}

// candidates are the routes that may take name, whatever the specificity:
// those with a hostname that is the name, a wildcard of one of its parent
// domains, or match-all (each once); every route when the index does not
// take the name.
func (ix *routeIndex) candidates(name string) []*Route {
	if ix.exact == nil || !lowercaseName(name) {
		return ix.routes
	}
	var out []*Route
	seen := map[*Route]bool{}
	add := func(rs []*Route) {
		for _, r := range rs {
			if !seen[r] {
				seen[r] = true
				out = append(out, r)
			}
		}
	}
	add(ix.exact[name])
	for i := 0; i < len(name); i++ {
		if name[i] == '.' {
			add(ix.wild[name[i+1:]])
		}
	}
	add(ix.any["*"])
	add(ix.any[""])
	return out
}

// lowercaseName reports whether name is made of lowercase letters, digits,
// hyphens and dots only: the form the index keys take. Other names (a port,
// capitals) are scanned, and the hostname package canonicalizes them.
func lowercaseName(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// scanRoutes tries every route: each route's most specifically matching
// hostname (hostname.MostSpecificMatch), the most specific of those, and every
// route that shares it in precedence order.
func scanRoutes(routes []*Route, name string, matches func(pattern, host string) bool) ([]*Route, string) {
	var out []*Route
	best := ""
	for _, r := range routes {
		h, ok := mostSpecificMatch(r.Hostnames, name, matches)
		if !ok {
			continue
		}
		switch c := hostname.Compare(h, best); {
		case out == nil || c < 0:
			out, best = append(out[:0], r), h
		case c == 0:
			out = append(out, r)
		}
	}
	return byPrecedence(out), best
}
