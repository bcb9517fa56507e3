package rules

import (
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// registered holds every rule in the order the package declares them; the
// package's variables add themselves as they are initialized.
var registered []*Rule

func register(r *Rule) *Rule {
	registered = append(registered, r)
	return r
}

// byID indexes the registry once every variable has registered itself.
var byID map[ID]*Rule

func init() {
	byID = make(map[ID]*Rule, len(registered))
	for _, r := range registered {
		byID[r.ID] = r
	}
}

// All is every rule, sorted by ID.
func All() []*Rule {
	out := slices.Clone(registered)
	slices.SortFunc(out, func(a, b *Rule) int { return strings.Compare(string(a.ID), string(b.ID)) })
	return out
}

// Lookup is the rule with an ID.
func Lookup(id ID) (*Rule, bool) {
	r, ok := byID[id]
	return r, ok
}

// Match is every rule whose ID matches a pattern, sorted by ID: an ID, or a
// glob where '*' stands for any run of characters, '/' included
// (certificate/*, route/*, */ResolvedRefs/*). A pattern that matches no rule
// is an error: a configuration that names a rule that does not exist is a
// mistake.
func Match(pattern string) ([]*Rule, error) {
	var out []*Rule
	for _, r := range All() {
		if globMatch(pattern, string(r.ID)) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no rule matches %q", pattern)
	}
	return out, nil
}

// globMatch reports whether s matches pattern, where '*' matches any run of
// characters (none included) and every other character matches itself.
func globMatch(pattern, s string) bool {
	star, next := -1, 0 // the last '*' seen, and where in s its run ends
	p, i := 0, 0
	for i < len(s) {
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, next = p, i
			p++
		case p < len(pattern) && pattern[p] == s[i]:
			p++
			i++
		case star >= 0:
			next++
			p, i = star+1, next
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// Healthy is the status of a condition type the engine writes when all is well:
// True for Accepted, Programmed and ResolvedRefs; False for Conflicted and
// OverlappingTLSConfig (which is only written when True). The types are
// gateway-api's; the values are the same for every object that has them.
func Healthy(conditionType string) (status metav1.ConditionStatus, known bool) {
	switch conditionType {
	case string(gwv1.GatewayConditionAccepted), string(gwv1.GatewayConditionProgrammed), string(gwv1.GatewayConditionResolvedRefs):
		return metav1.ConditionTrue, true
	case string(gwv1.ListenerConditionConflicted), string(gwv1.ListenerConditionOverlappingTLSConfig):
		return metav1.ConditionFalse, true
	}
	return "", false
}
