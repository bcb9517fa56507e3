package analyze

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// A listener's AllowedRoutes.Namespaces (Same, All, Selector, None) decides
// which namespaces its routes may come from. It is decided once per listener
// (the policy, the owner's namespace, the parsed selector) and applied per
// route namespace.

// routeNamespaces is a listener's AllowedRoutes.Namespaces, decided once per
// listener: its policy as a small enum (comparing the from string reads it from
// the decoded input on every route), the namespace "Same" means, and its
// selector parsed.
type routeNamespaces struct {
	from     gwv1.FromNamespaces
	policy   nsPolicy
	ownerNS  string // the namespace of the listener's Gateway or ListenerSet
	selector *metav1.LabelSelector
	parsed   labels.Selector // nil when the selector is missing or invalid
	key      string          // parsed's canonical form (String)
}

// nsPolicy is AllowedRoutes.Namespaces.From (default Same); nsNone is None and
// any value the API does not define.
type nsPolicy uint8

const (
	nsSame nsPolicy = iota
	nsAll
	nsSelector
	nsNone
)

// routeNamespaces is the listener's AllowedRoutes.Namespaces, decided once by
// the listeners step for every listener of a Gateway (with the engine's
// selector cache); routes only read it.
func (l *ListenerResult) routeNamespaces() *routeNamespaces { return l.state.namespaces }

func newRouteNamespaces(l *ListenerResult, parse func(*metav1.LabelSelector) (labels.Selector, string)) *routeNamespaces {
	rn := &routeNamespaces{ownerNS: l.Owner().Namespace}
	if ar := l.Listener.AllowedRoutes; ar != nil && ar.Namespaces != nil {
		// The CRD defaults allowedRoutes to namespaces from: Same
		// (load.Admission); unset, it allows none (written).
		rn.from = gwv1.FromNamespaces(written(ar.Namespaces.From))
		rn.selector = ar.Namespaces.Selector
	}
	switch rn.from {
	case gwv1.NamespacesFromSame:
		rn.policy = nsSame
	case gwv1.NamespacesFromAll:
		rn.policy = nsAll
	case gwv1.NamespacesFromSelector:
		rn.policy = nsSelector
	default:
		rn.policy = nsNone
	}
	if rn.policy == nsSelector && rn.selector != nil {
		rn.parsed, rn.key = parse(rn.selector)
	}
	return rn
}

// parseSelector parses a namespace selector; key is its canonical form (nil and
// "" when it is invalid).
func parseSelector(ls *metav1.LabelSelector) (sel labels.Selector, key string) {
	sel, err := metav1.LabelSelectorAsSelector(ls)
	if err != nil {
		return nil, ""
	}
	return sel, sel.String()
}

// selectorCache parses each distinct namespace selector once: listeners of
// thousands of Gateways often share one (env=prod), and parsing costs
// microseconds. Safe for concurrent use; the parsed selectors are only read.
type selectorCache struct {
	mu sync.Mutex
	m  map[string]parsedSelector
}

type parsedSelector struct {
	sel labels.Selector
	key string
}

func (c *selectorCache) parse(ls *metav1.LabelSelector) (labels.Selector, string) {
	id := selectorID(ls)
	c.mu.Lock()
	p, ok := c.m[id]
	c.mu.Unlock()
	if !ok {
		p.sel, p.key = parseSelector(ls)
		c.mu.Lock()
		if c.m == nil {
			c.m = map[string]parsedSelector{}
		}
		c.m[id] = p
		c.mu.Unlock()
	}
	return p.sel, p.key
}

// selectorID is an unambiguous encoding of a selector as written: each label
// key and value, expression key, operator and value is length-prefixed.
func selectorID(ls *metav1.LabelSelector) string {
	field := func(b []byte, s string) []byte {
		b = strconv.AppendInt(b, int64(len(s)), 10)
		return append(append(b, ':'), s...)
	}
	var b []byte
	for _, k := range slices.Sorted(maps.Keys(ls.MatchLabels)) {
		b = field(field(b, k), ls.MatchLabels[k])
	}
	b = append(b, '|')
	for _, r := range ls.MatchExpressions {
		b = field(field(b, r.Key), string(r.Operator))
		b = append(strconv.AppendInt(b, int64(len(r.Values)), 10), ';')
		for _, v := range r.Values {
			b = field(b, v)
		}
	}
	return string(b)
}

// allows applies the policy to a route's namespace.
func (rn *routeNamespaces) allows(ix *index, routeNS string) bool {
	switch rn.policy {
	case nsAll:
		return true
	case nsSame:
		return routeNS == rn.ownerNS
	case nsSelector:
		return rn.parsed != nil && rn.parsed.Matches(ix.namespaceLabelSet(routeNS))
	}
	return false
}

// namespaceStep explains a listener's AllowedRoutes.Namespaces decision for a
// route's namespace, with the fix.
func (e *engine) namespaceStep(l *ListenerResult, routeNS string) Step {
	rn := l.routeNamespaces()
	owner := l.Owner()
	st := Step{Rule: "listener.allowedRoutes.namespaces", Subject: "listener " + l.Name(), Passed: rn.allows(e.ix, routeNS),
		Inputs: map[string]string{"from": string(rn.from), "routeNamespace": routeNS}}
	switch rn.policy {
	case nsAll:
		st.Detail = "listener allows routes from all namespaces"
	case nsSame:
		st.Detail = fmt.Sprintf("listener allows routes from namespace %s only (from: Same, the namespace of %s %s)", owner.Namespace, owner.Kind, owner.Name)
	case nsSelector:
		if rn.parsed == nil {
			st.Detail = "allowedRoutes.namespaces.selector is missing or invalid"
			break
		}
		nsLabels, known := e.ix.namespaceLabels(routeNS)
		set := labels.Set(nsLabels).String()
		st.Inputs["selector"] = rn.parsed.String()
		st.Inputs["namespaceLabels"] = set
		st.Detail = fmt.Sprintf("namespace %s labels {%s} against selector %s", routeNS, set, rn.parsed.String())
		if !known {
			st.Detail += " (namespace not in the input: only its kubernetes.io/metadata.name label is known)"
		}
	default:
		st.Detail = "listener allows no routes (from: None)"
	}
	if !st.Passed {
		st.Fix = namespaceFix(rn, routeNS)
	}
	return st
}

// namespaceFix is how to let a route in routeNS through a listener's
// AllowedRoutes.Namespaces.
func namespaceFix(rn *routeNamespaces, routeNS string) string {
	switch rn.policy {
	case nsAll:
		return ""
	case nsSame:
		return fmt.Sprintf("set allowedRoutes.namespaces.from: All (or Selector) on the listener, or move the route to namespace %s", rn.ownerNS)
	case nsSelector:
		if rn.parsed == nil {
			return "give allowedRoutes.namespaces a valid selector"
		}
		return fmt.Sprintf("label namespace %s to match %s: %s", routeNS, rn.parsed.String(), labelCommand(routeNS, rn.selector))
	}
	return "set allowedRoutes.namespaces.from to Same, All or Selector"
}

// labelCommand is the kubectl command that makes a namespace match a selector's
// matchLabels (expressions are left to the user).
func labelCommand(ns string, sel *metav1.LabelSelector) string {
	if sel == nil || len(sel.MatchLabels) == 0 {
		return "kubectl label namespace " + ns + " KEY=VALUE"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(sel.MatchLabels)) {
		parts = append(parts, k+"="+sel.MatchLabels[k])
	}
	return "kubectl label namespace " + ns + " " + strings.Join(parts, " ")
}

// selectorBudget is how many selector matches per route selectorTables may
// spend on tables.
var selectorBudget = 2

// selectorTables gives every listener view whose allowedRoutes selects
// namespaces by label the decision for each of the routes' namespaces, by
// namespace number. Listeners with the same selector share one table. Tables
// stop once they would cost more matches than deciding each route directly
// (views without one keep matching per route).
func (e *engine) selectorTables(namespaces []string, routes int) {
	tables := map[string][]bool{}
	budget := selectorBudget * routes
	fill := func(views []listenerView) {
		for i := range views {
			v := &views[i]
			if !v.configured || v.ns.policy != nsSelector || v.ns.parsed == nil {
				continue
			}
			key := v.ns.key
			t, ok := tables[key]
			if !ok {
				if budget < len(namespaces) {
					continue
				}
				budget -= len(namespaces)
				t = make([]bool, len(namespaces))
				for id, ns := range namespaces {
					t[id] = v.ns.parsed.Matches(e.ix.namespaceLabelSet(ns))
				}
				tables[key] = t
			}
			v.selected = t
		}
	}
	for _, g := range e.res.Gateways {
		fill(g.views)
		for _, ls := range g.ListenerSets {
			fill(ls.views)
		}
	}
}
