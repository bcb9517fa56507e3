package hostname

import (
	"cmp"
	"slices"
	"strings"
)

// Compare orders hostnames from most to least specific, the order in which a
// Gateway tries Listeners (and their intersected hostnames) that share a port
// and protocol. It returns a negative number when a is more specific than b
// and so sorts first, a positive number when b is, and 0 only when a == b.
//
// The rules, in order (spec 003 "Listener ordering" and "Where and how can you
// configure a hostname?"; Gateway API ListenerSpec "Listeners that are
// distinct only by Hostname"):
//
//  1. Precise hostnames before wildcards, wildcards before match-all ("" or
//     `*`): "exact matches, most specific wildcard match, general wildcard
//     match", and "a Listener with a hostname that contains a wildcard is less
//     precise and less specific than one that only contains a precise
//     hostname".
//  2. More labels that are not the wildcard first: "a hostname is more
//     specific if it has more labels that do not contain a wildcard", so
//     `*.example.com` (2) before `*.com` (1) before `*` (0), and
//     `sub.domain.example.com` before `www.example.com`.
//  3. Then more characters first (a tie-break spec 003 does not define,
//     taken from the "characters in a matching hostname" rule of Gateway API
//     route precedence).
//  4. Then byte-wise lexicographic order, so that sorting is deterministic.
//
// Compare does not validate or lowercase its arguments; pass canonical
// hostnames such as those Intersect returns.
func Compare(a, b string) int {
	if a == b {
		return 0
	}
	if c := cmp.Compare(class(a), class(b)); c != 0 {
		return c
	}
	if c := cmp.Compare(specificLabels(b), specificLabels(a)); c != 0 {
		return c
	}
	if c := cmp.Compare(len(b), len(a)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// MoreSpecific reports whether a is strictly more specific than b, that is,
// sorts before it in the order of Compare (spec 003 "Listener ordering").
func MoreSpecific(a, b string) bool { return Compare(a, b) < 0 }

// SortBySpecificity sorts hostnames in place from most to least specific, in
// the order of Compare (spec 003 "Listener ordering").
func SortBySpecificity(hostnames []string) { slices.SortFunc(hostnames, Compare) }

// MostSpecificMatch returns the most specific of patterns that matches host
// according to matches, and whether any does. This is Listener selection as
// spec 003 "Listener ordering" describes it ("the Gateway is expected to send
// traffic that could match multiple Listeners to the most specific
// Listener"), with the protocol's matching rule passed in: MatchesHost for the
// Host header, MatchesSNI for a ClientHello.
func MostSpecificMatch(patterns []string, host string, matches func(pattern, host string) bool) (string, bool) {
	best, found := "", false
	for _, p := range patterns {
		if !matches(p, host) {
			continue
		}
		if !found || Compare(p, best) < 0 {
			best, found = p, true
		}
	}
	return best, found
}

// Specificity classes, in order of precedence (spec 003 "Listener ordering").
const (
	classPrecise = iota
	classWildcard
	classMatchAll
)

func class(h string) int {
	switch {
	case IsMatchAll(h):
		return classMatchAll
	case IsWildcard(h):
		return classWildcard
	default:
		return classPrecise
	}
}

// specificLabels counts the labels of h that are not the wildcard (spec 003
// "Listener ordering": `www.example.com` has 3, `*.example.com` 2, `*` 0).
func specificLabels(h string) int {
	if IsMatchAll(h) {
		return 0
	}
	n := strings.Count(h, ".") + 1
	if IsWildcard(h) {
		n--
	}
	return n
}
