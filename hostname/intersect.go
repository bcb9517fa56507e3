package hostname

import (
	"slices"
	"strings"
)

// Intersect returns the intersected hostname of one Listener hostname and one
// Route hostname, and whether they intersect at all (spec 003 "Hostname
// Intersection"):
//
//   - two precise hostnames intersect when they are equal;
//   - a wildcard and a precise hostname intersect when the wildcard matches
//     the precise hostname, and the intersection is the precise hostname; the
//     wildcard matches one or more labels, so `*.example.com` and
//     `sub.domain.example.com` intersect, in either order;
//   - two wildcards intersect when they overlap, that is, when one's domain
//     is the other's or a subdomain of it, and the intersection is the more
//     specific wildcard (`*.com` and `*.example.com` give `*.example.com`);
//   - "" (no hostname) and `*` match any hostname, so the intersection is the
//     other side; when both sides match all, the result is `*` if either side
//     is spelled `*`, else "".
//
// Hostnames compare case-insensitively (RFC 4343) and the result is
// lowercase. A side that is neither match-all nor a valid Hostname (see
// Validate; IP addresses included) intersects with nothing. Intersect is
// symmetric: Intersect(a, b) == Intersect(b, a), as the rules of spec 003 are
// ("Multiple label wildcard match works in the other direction as well").
func Intersect(listener, route string) (string, bool) {
	l, ok := canonical(listener)
	if !ok {
		return "", false
	}
	r, ok := canonical(route)
	if !ok {
		return "", false
	}
	return intersectCanonical(l, r)
}

// intersectCanonical is Intersect for sides that are match-all or valid (and so
// lowercase) hostnames.
func intersectCanonical(l, r string) (string, bool) {
	switch lAll, rAll := IsMatchAll(l), IsMatchAll(r); {
	case lAll && rAll:
		if l == "*" || r == "*" {
			return "*", true
		}
		return "", true
	case lAll:
		return r, true
	case rAll:
		return l, true
	}
	switch lWild, rWild := IsWildcard(l), IsWildcard(r); {
	case !lWild && !rWild:
		if l == r {
			return l, true
		}
	case lWild && !rWild:
		if wildcardMatchesLabels(l, r) {
			return r, true
		}
	case !lWild && rWild:
		if wildcardMatchesLabels(r, l) {
			return l, true
		}
	default:
		// *.a.b and *.b overlap exactly when ".a.b" ends with ".b": every
		// name under the longer domain is also under the shorter one.
		if strings.HasSuffix(r[1:], l[1:]) {
			return r, true
		}
		if strings.HasSuffix(l[1:], r[1:]) {
			return l, true
		}
	}
	return "", false
}

// IntersectAll returns the intersected hostnames of a Route with one Listener
// (spec 003 "Hostname Intersection" and "Routes (HTTPRoute, GRPCRoute, and
// TLSRoute)"): routeHostnames is the Route's spec.hostnames, treated as an
// OR. A Route without hostnames matches any hostname, so it inherits the
// Listener's hostname; when neither has one the result is [""], meaning any
// hostname.
//
// The result keeps the order of routeHostnames, without duplicates, and is
// nil when nothing intersects: per spec 003 the Route then does not attach to
// the Listener, and integrations must ignore the pair ("Programmatic use of
// the hostname field").
func IntersectAll(listener string, routeHostnames []string) []string {
	return intersectAll(nil, listener, routeHostnames, Intersect)
}

// IntersectAllValid is IntersectAll for callers that have already validated
// both sides: listener and every route hostname must be match-all ("" or `*`)
// or pass Validate (which implies lowercase). It skips re-checking them for
// every pair, which is most of IntersectAll's cost when one Route is tried
// against every Listener of a Gateway. Other inputs give unspecified results.
// routeHostnames may be of any string type, such as a Route's []gwv1.Hostname.
func IntersectAllValid[S ~string](listener string, routeHostnames []S) []string {
	return intersectAll(nil, listener, routeHostnames, intersectCanonical)
}

// AppendIntersectAllValid appends IntersectAllValid's result to dst[:0] and
// returns it (nil when nothing intersects): a caller that keeps few results
// reuses one buffer instead of allocating one per pair.
func AppendIntersectAllValid[S ~string](dst []string, listener string, routeHostnames []S) []string {
	return intersectAll(dst[:0], listener, routeHostnames, intersectCanonical)
}

// intersectAll appends to out, which is empty.
func intersectAll[S ~string](out []string, listener string, routeHostnames []S, intersect func(l, r string) (string, bool)) []string {
	if len(routeHostnames) == 0 {
		h, ok := intersect(listener, "")
		if !ok {
			return nil
		}
		return append(out, h)
	}
	var seen map[string]bool // only for long lists; Routes allow at most 16 hostnames
	for _, r := range routeHostnames {
		h, ok := intersect(listener, string(r))
		if !ok {
			continue
		}
		if seen == nil && len(out) >= 16 {
			seen = make(map[string]bool, len(routeHostnames))
			for _, o := range out {
				seen[o] = true
			}
		}
		if seen != nil {
			if seen[h] {
				continue
			}
			seen[h] = true
		} else if slices.Contains(out, h) {
			continue
		}
		out = append(out, h)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// Overlap reports whether some hostname is matched by both a and b, that is,
// whether they intersect (spec 003 "Hostname Intersection": "they intersect
// as long as they overlap"). Two Listeners on one port whose hostnames
// overlap but are distinct are not in conflict: requests go to the more
// specific one (spec 003 "Listener ordering"); see Distinct and Compare.
func Overlap(a, b string) bool {
	_, ok := Intersect(a, b)
	return ok
}

// Distinct reports whether two Listener hostnames are different values, as
// Listeners that share a port and protocol must have (spec 003 "General notes
// for integrators": "hostname fields must be unique across all Listeners
// attached to a Gateway"; Gateway API ListenerSpec "Listeners that are
// distinct only by Hostname"). Comparison is case-insensitive, and "" and `*`
// are the same value (spec 003 "Hostname Intersection").
func Distinct(a, b string) bool {
	if IsMatchAll(a) || IsMatchAll(b) {
		return IsMatchAll(a) != IsMatchAll(b)
	}
	return toLowerASCII(a) != toLowerASCII(b)
}

// canonical lowercases h and reports whether it is match-all or a valid
// Hostname.
func canonical(h string) (string, bool) {
	if IsMatchAll(h) {
		return h, true
	}
	h = toLowerASCII(h)
	return h, Validate(h) == nil
}

// wildcardMatchesLabels reports whether the wildcard *.d matches the precise
// hostname host in the one-or-more-labels sense of spec 003 "Hostname
// wildcards": host ends with ".d" and has at least one label before it. Both
// arguments must be valid and lowercase.
func wildcardMatchesLabels(wildcard, host string) bool {
	suffix := wildcard[1:] // ".d"
	return len(host) > len(suffix) && strings.HasSuffix(host, suffix)
}

// wildcardMatchesOneLabel reports whether the wildcard *.d matches host in the
// single-label sense of RFC 2818 section 3.1 and RFC 6125 section 6.4.3: host
// is exactly one label followed by ".d". Both arguments must be valid and
// lowercase.
func wildcardMatchesOneLabel(wildcard, host string) bool {
	if !wildcardMatchesLabels(wildcard, host) {
		return false
	}
	first := host[:len(host)-len(wildcard)+1]
	return !strings.Contains(first, ".")
}
