package analyze

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/hostname"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/suggest"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// routes attaches every route to the listeners its parentRefs select and resolves
// its backendRefs. Each parentRef looks up its parent in an index and scans only
// that parent's listeners, so cost grows with parentRefs, not listeners x routes.
//
// Routes are decided on every core, in contiguous ranges: deciding one route
// reads the listeners, the index and the model, and writes only the route's own
// result and its range's lists. The caches those reads would fill lazily are
// filled first (listeners' parsed allowedRoutes by listeners, namespace label
// sets and selector tables here), and the listeners' attachment lists are
// joined afterwards in range order, which is route order, so the Result does
// not depend on scheduling.
func (e *engine) routes() {
	routes := e.res.Model.Routes
	// Number the routes' namespaces, so that listeners with a namespace selector
	// decide each namespace once instead of once per route.
	ids := make(map[string]int32)
	nsOf := make([]int32, len(routes))
	var namespaces []string
	for i, r := range routes {
		ns := r.ObjectMeta.Namespace
		id, ok := ids[ns]
		if !ok {
			id = int32(len(namespaces))
			ids[ns] = id
			namespaces = append(namespaces, ns)
			e.ix.namespaceLabelSet(ns)
		}
		nsOf[i] = id
	}
	e.selectorTables(namespaces, len(routes))

	// Each range of routes collects, on its own core, what attaches to which
	// listener (listeners are numbered for that); the lists are then joined per
	// listener in range order, which is route order.
	listeners := e.numberListeners()
	c := chunks(len(routes))
	attached := make([][][]*Attachment, c)
	inactive := make([][][]*RouteResult, c)
	results := make([]*RouteResult, len(routes))
	e.routeFindings = make([]findingList, c)
	forEachChunk(len(routes), func(k, lo, hi int) {
		var s routeSlabs
		att := make([][]*Attachment, len(listeners))
		ina := make([][]*RouteResult, len(listeners))
		var seen []*ListenerResult // reused: listeners this route already counts on
		for i := lo; i < hi; i++ {
			rr := e.route(routes[i], nsOf[i], &s)
			results[i] = rr
			routeFindings(&e.routeFindings[k], rr) // while the route is in cache
			// A route counts once per listener: first where it attached, then where
			// it would attach if the listener were accepted
			// (ListenerStatus.AttachedRoutes).
			seen = seen[:0]
			for _, p := range rr.Parents {
				for _, a := range p.Attachments {
					if !slices.Contains(seen, a.Listener) {
						att[a.Listener.num] = append(att[a.Listener.num], a)
						seen = append(seen, a.Listener)
					}
				}
			}
			for _, p := range rr.Parents {
				for _, l := range p.inactive {
					if !slices.Contains(seen, l) {
						ina[l.num] = append(ina[l.num], rr)
						seen = append(seen, l)
					}
				}
			}
		}
		attached[k], inactive[k] = att, ina
	})
	forEach(len(listeners), func(i int) {
		listeners[i].Attachments = join(attached, i)
		listeners[i].Inactive = join(inactive, i)
	})
	e.res.Routes = results
}

// routeSlabs hands out one worker's route results from a few large allocations
// rather than several small ones per route: at 100k routes the allocator's
// per-object work was a tenth of the engine.
type routeSlabs struct {
	routes    []RouteResult
	parents   []ParentResult
	parentPs  []*ParentResult
	backends  []BackendResult
	backendPs []*BackendResult
	attached  []Attachment
	attachPs  []*Attachment
}

// slabSize is how many results one slab holds.
const slabSize = 256

// take returns n zeroed elements from the slab, starting a new one when it is
// full. The result's capacity is n: appending to it never reaches a neighbour.
func take[T any](slab *[]T, n int) []T {
	if n > cap(*slab)-len(*slab) {
		*slab = make([]T, 0, max(n, slabSize))
	}
	lo := len(*slab)
	*slab = (*slab)[:lo+n]
	return (*slab)[lo : lo+n : lo+n]
}

// numberListeners numbers every listener routes can reach (ListenerResult.num)
// and returns them in that order.
func (e *engine) numberListeners() []*ListenerResult {
	var out []*ListenerResult
	add := func(ls []*ListenerResult) {
		for _, l := range ls {
			l.num = int32(len(out))
			out = append(out, l)
		}
	}
	for _, g := range e.res.Gateways {
		add(g.Listeners)
	}
	for _, ls := range e.res.ListenerSets {
		add(ls.Listeners)
	}
	return out
}

// join is the concatenation of parts[k][i] over k, nil when all are empty. A
// single non-empty part is returned as it is.
func join[T any](parts [][][]T, i int) []T {
	n, only := 0, -1
	for k := range parts {
		if len(parts[k][i]) > 0 {
			n += len(parts[k][i])
			only = k
		}
	}
	switch {
	case n == 0:
		return nil
	case n == len(parts[only][i]):
		return parts[only][i]
	}
	out := make([]T, 0, n)
	for k := range parts {
		out = append(out, parts[k][i]...)
	}
	return out
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

// route decides one route: hostnames, backends, then every parentRef. nsID is
// the number selectorTables know the route's namespace by.
func (e *engine) route(r *model.Route, nsID int32, s *routeSlabs) *RouteResult {
	rr := &take(&s.routes, 1)[0]
	rr.Route, rr.now = r, e.nowp
	if r.HasHostnames() {
		for _, h := range r.Hostnames {
			if err := hostname.Validate(string(h)); err != nil {
				rr.InvalidHostnames = append(rr.InvalidHostnames, string(h))
			}
		}
	}
	e.resolveBackends(rr, s)
	if n := len(r.ParentRefs); n > 0 {
		prs := take(&s.parents, n)
		rr.Parents = take(&s.parentPs, n)
		for i := range r.ParentRefs {
			rr.Parents[i] = e.attach(&prs[i], rr, i, &r.ParentRefs[i], nsID, s)
		}
	}
	return rr
}

// parentEcho is the parentRef as the API server stores it (group and kind
// defaulted), which is how status.parents[].parentRef is written. The loader
// defaults them as the API server does, so this is the model's parentRef; a
// copy is made only for a model built otherwise. Defaults point at shared
// values: nothing writes through a ParentResult's Ref.
func parentEcho(ref *gwv1.ParentReference) *gwv1.ParentReference {
	if ref.Group != nil && ref.Kind != nil && *ref.Kind != "" {
		return ref
	}
	out := *ref
	if out.Group == nil {
		out.Group = &defaultParentGroup
	}
	if out.Kind == nil || *out.Kind == "" {
		out.Kind = &defaultParentKind
	}
	return &out
}

var (
	defaultParentGroup = gwv1.Group(gwv1.GroupName)
	defaultParentKind  = gwv1.Kind("Gateway")
)

// attach decides one parentRef (Route "Attaching to Gateways", ParentReference):
// parent, sectionName and port, then per listener: accepted, kind, namespace,
// hostname.
func (e *engine) attach(pr *ParentResult, rr *RouteResult, i int, ref *gwv1.ParentReference, nsID int32, s *routeSlabs) *ParentResult {
	r := rr.Route
	*pr = ParentResult{Route: rr, Index: i, Ref: parentEcho(ref), Written: true, Controller: gwv1.GatewayController(e.opts.Controller)}
	trace := e.tracing(r.Kind, r.ObjectMeta.Namespace, r.ObjectMeta.Name)
	routeNS := r.ObjectMeta.Namespace
	group, kind := string(*pr.Ref.Group), string(*pr.Ref.Kind)
	ns := namespaceOr(ref.Namespace, routeNS)
	pname := func() string { return kind + " " + ns + "/" + string(ref.Name) } // for messages only
	step := func(rule string, passed bool, detail, fix string, inputs map[string]string) {
		if !trace {
			return
		}
		if passed {
			fix = ""
		}
		pr.Trace = append(pr.Trace, Step{Rule: rule, Subject: pname(), Passed: passed, Detail: detail, Fix: fix, Inputs: inputs})
	}
	reject := func(rule *rules.Rule, msg, fix string) *ParentResult {
		pr.decided, pr.rejected = true, problemOf(rule, msg, fix)
		return pr
	}

	var candidates []listenerView
	switch {
	case group == gwv1.GroupName && kind == "Gateway":
		gw := e.ix.gateways[nn{Namespace: ns, Name: string(ref.Name)}]
		if gw == nil {
			if e.inScopeElsewhere(ns, string(ref.Name)) {
				pr.Written = false
				return pr
			}
			// No controller would know of this parent, so none writes its status; the
			// condition stays for findings and explain.
			pr.Written = false
			fix := "check parentRefs[].name and namespace, or include the Gateway in the input"
			step("route.parentRef.exists", false, fmt.Sprintf("%s is not in the input", pname()), fix, nil)
			return reject(rules.RouteAcceptedNoMatchingParent, fmt.Sprintf("%s not found", pname()), fix)
		}
		pr.Gateway, pr.Controller = gw, gw.Controller
		if c := gw.notAccepted; c != nil {
			step("route.parentRef.accepted", false, fmt.Sprintf("%s is not accepted: %s", pname(), c.Message), c.Fix, nil)
			return reject(rules.RouteAcceptedNoMatchingParent, fmt.Sprintf("%s is not accepted: %s", pname(), c.Message), c.Fix)
		}
		candidates = gw.views // every Gateway in the index had its listeners decided
	case group == gwv1.GroupName && kind == "ListenerSet":
		ls := e.ix.listenerSets[nn{Namespace: ns, Name: string(ref.Name)}]
		if ls == nil {
			if e.listenerSetOutOfScope(ns, string(ref.Name)) {
				pr.Written = false
				return pr
			}
			pr.Written = false
			fix := "check parentRefs[].name and namespace, or include the ListenerSet in the input"
			step("route.parentRef.exists", false, fmt.Sprintf("%s is not in the input", pname()), fix, nil)
			return reject(rules.RouteAcceptedNoMatchingParent, fmt.Sprintf("%s not found", pname()), fix)
		}
		pr.ListenerSet, pr.Gateway = ls, ls.Parent
		if ls.Parent != nil {
			pr.Controller = ls.Parent.Controller
		}
		if !IsTrue(ls.Conditions, "Accepted") {
			c := Find(ls.Conditions, "Accepted")
			step("route.parentRef.accepted", false, fmt.Sprintf("%s is not accepted: %s", pname(), c.Message), c.Fix, nil)
			return reject(rules.RouteAcceptedNoMatchingParent, fmt.Sprintf("%s is not accepted: %s", pname(), c.Message), c.Fix)
		}
		candidates = ls.views // accepted: allowed by a Gateway whose listeners step built them
	default:
		// Not a parent a Gateway controller writes status for (for example a Service
		// in a mesh, GEP-1426).
		pr.Written = false
		return pr
	}
	if trace {
		step("route.parentRef.exists", true, pname()+" found", "", nil)
	}

	if len(rr.InvalidHostnames) > 0 {
		msg := fmt.Sprintf("spec.hostnames has invalid hostnames: %s", strings.Join(rr.InvalidHostnames, ", "))
		fix := "use DNS names (no IP addresses; a wildcard only as the whole leftmost label, *.example.com)"
		step("route.hostnames.valid", false, msg, fix, nil)
		return reject(rules.RouteAcceptedUnsupportedValue, msg, fix)
	}

	// sectionName and port select listeners by name and port (ParentReference).
	if ref.SectionName != nil && *ref.SectionName != "" {
		want := string(*ref.SectionName)
		var kept []listenerView
		for i := range candidates {
			if candidates[i].name == want {
				kept = candidates[i : i+1] // names are unique per Gateway or ListenerSet
				break
			}
		}
		if len(kept) == 0 {
			names := make([]string, len(candidates))
			for i := range candidates {
				names[i] = candidates[i].name
			}
			fix := fmt.Sprintf("set sectionName to one of: %s", strings.Join(names, ", "))
			if s, d := suggest.Closest(want, names); d >= 0 && d <= 2 {
				fix = fmt.Sprintf("did you mean sectionName %q?", s)
			}
			msg := fmt.Sprintf("%s has no listener named %q", pname(), want)
			step("route.parentRef.sectionName", false, msg, fix, map[string]string{"sectionName": want, "listeners": strings.Join(names, ",")})
			return reject(rules.RouteAcceptedNoMatchingParent, msg, fix)
		}
		if trace {
			step("route.parentRef.sectionName", true, fmt.Sprintf("listener %q selected", want), "", nil)
		}
		candidates = kept
	}
	if ref.Port != nil {
		want := *ref.Port
		var ports []string
		var kept []listenerView
		for _, v := range candidates {
			ports = append(ports, fmt.Sprint(v.port))
			if v.port == want {
				kept = append(kept, v)
			}
		}
		if len(kept) == 0 {
			msg := fmt.Sprintf("%s has no listener on port %d", pname(), want)
			if ref.SectionName != nil {
				msg = fmt.Sprintf("listener %q of %s is not on port %d", *ref.SectionName, pname(), want)
			}
			fix := fmt.Sprintf("set port to one of: %s, or remove it", strings.Join(uniq(ports), ", "))
			step("route.parentRef.port", false, msg, fix, map[string]string{"port": fmt.Sprint(want)})
			return reject(rules.RouteAcceptedNoMatchingParent, msg, fix)
		}
		if trace {
			step("route.parentRef.port", true, fmt.Sprintf("port %d selected", want), "", nil)
		}
		candidates = kept
	}

	// Per listener: accepted, kind, namespace, hostname. Nothing is formatted on
	// this path unless tracing: at scale it runs for every route x listener pair of
	// a parent, and only failures that decide the outcome need words.
	// The lists start in fixed arrays (they grow on the heap past 32 listeners) so
	// that deciding a parentRef does not allocate them.
	var naBuf, kindBuf, nsBuf, hostBuf, inBuf [32]*ListenerResult
	var okBuf [32]*listenerView
	var hostsBuf [32][]string
	notAccepted, kindFail, nsFail, hostFail, inactive := naBuf[:0], kindBuf[:0], nsBuf[:0], hostBuf[:0], inBuf[:0]
	attached, attachedHosts := okBuf[:0], hostsBuf[:0]
	kindBit := bitOf(r.Kind)
	for i := range candidates {
		v := &candidates[i]
		l := v.l
		if !v.configured {
			notAccepted = append(notAccepted, l) // never configured: nothing to check against
			if trace {
				pr.Trace = append(pr.Trace, notAcceptedStep(l))
			}
			continue
		}
		if v.kinds&kindBit == 0 {
			kindFail = append(kindFail, l)
			if trace {
				pr.Trace = append(pr.Trace, kindStep(l, r.Kind))
			}
			continue
		}
		if !v.allows(e.ix, routeNS, nsID) {
			nsFail = append(nsFail, l)
			if trace {
				pr.Trace = append(pr.Trace, e.namespaceStep(l, routeNS))
			}
			continue
		}
		if trace {
			pr.Trace = append(pr.Trace, e.namespaceStep(l, routeNS))
		}
		var hosts []string
		if r.HasHostnames() && v.hostnames {
			hosts = hostname.IntersectAllValid(v.hostname, r.Hostnames) // both validated: invalid ones never get here
			if len(hosts) == 0 {
				hostFail = append(hostFail, l)
				if trace {
					pr.Trace = append(pr.Trace, hostnameStep(l, hostStrings(r), nil))
				}
				continue
			}
			if trace {
				pr.Trace = append(pr.Trace, hostnameStep(l, hostStrings(r), hosts))
			}
		}
		if !v.accepted {
			// Conflicted: the route would attach, so it counts (AttachedRoutes), but
			// no traffic reaches it through this listener.
			notAccepted = append(notAccepted, l)
			inactive = append(inactive, l)
			if trace {
				pr.Trace = append(pr.Trace, notAcceptedStep(l))
			}
			continue
		}
		attached = append(attached, v)
		attachedHosts = append(attachedHosts, hosts)
	}

	if len(attached) > 0 {
		if len(inactive) > 0 {
			pr.inactive = slices.Clone(inactive)
		}
		as := take(&s.attached, len(attached))
		pr.Attachments = take(&s.attachPs, len(attached))
		for i, v := range attached {
			as[i] = Attachment{Route: rr, Parent: pr, Listener: v.l, Hostnames: attachedHosts[i]}
			pr.Attachments[i] = &as[i]
		}
		pr.decided = true // accepted: AcceptedCondition names the attached listeners
		return pr
	}
	switch {
	case len(hostFail) > 0:
		var ls []string
		for _, l := range hostFail {
			ls = append(ls, fmt.Sprintf("%s (%s)", l.Name(), l.Hostname()))
		}
		return reject(rules.RouteAcceptedNoMatchingListenerHostname,
			fmt.Sprintf("route hostnames [%s] intersect no listener hostname: %s", strings.Join(hostStrings(r), ", "), strings.Join(ls, ", ")),
			hostnameFix("listener "+hostFail[0].Name(), hostFail[0].Hostname(), hostStrings(r)))
	case len(kindFail)+len(nsFail) > 0:
		var parts []string
		fix := ""
		if len(kindFail) > 0 {
			parts = append(parts, fmt.Sprintf("listeners %s do not take %s", listenerNames(kindFail), r.Kind))
			fix = kindFix(r.Kind)
		}
		if len(nsFail) > 0 {
			parts = append(parts, fmt.Sprintf("listeners %s do not allow routes from namespace %s", listenerNames(nsFail), routeNS))
			fix = namespaceFix(nsFail[0].routeNamespaces(), routeNS)
		}
		return reject(rules.RouteAcceptedNotAllowedByListeners, strings.Join(parts, "; "), fix)
	case len(notAccepted) > 0:
		return reject(rules.RouteAcceptedNoMatchingParent, fmt.Sprintf("listeners %s are not accepted", listenerNames(notAccepted)), notAcceptedStep(notAccepted[0]).Fix)
	}
	return reject(rules.RouteAcceptedNoMatchingParent, pname()+" has no listeners", "add a listener to the parent")
}

// hostStrings is a route's spec.hostnames as strings, for messages.
func hostStrings(r *model.Route) []string {
	out := make([]string, len(r.Hostnames))
	for i, h := range r.Hostnames {
		out[i] = string(h)
	}
	return out
}

func listenerNames(ls []*ListenerResult) string {
	names := make([]string, len(ls))
	for i, l := range ls {
		names[i] = l.Name()
	}
	return strings.Join(names, ", ")
}

func notAcceptedStep(l *ListenerResult) Step {
	msg, fix := "not evaluated", ""
	if c := Find(l.Conditions, "Accepted"); c != nil {
		msg, fix = c.Reason+": "+c.Message, c.Fix
	}
	return Step{Rule: "listener.accepted", Subject: "listener " + l.Name(), Detail: "listener is not accepted: " + msg, Fix: fix}
}

func kindStep(l *ListenerResult, kind string) Step {
	kinds := make([]string, len(l.SupportedKinds))
	for i, k := range l.SupportedKinds {
		kinds[i] = string(k.Kind)
	}
	ln := "listener " + l.Name()
	return Step{Rule: "listener.allowedRoutes.kinds", Subject: ln,
		Inputs: map[string]string{"routeKind": kind, "supportedKinds": strings.Join(kinds, ",")},
		Detail: fmt.Sprintf("%s %s takes %s, not %s", ln, protocolLabel(l), orNone(kinds), kind),
		Fix:    kindFix(kind)}
}

// kindFix is how to attach a route of a kind a listener does not take.
func kindFix(kind string) string {
	return "attach the " + kind + " to a listener that takes it, or add " + kind + " to the listener's allowedRoutes.kinds if its protocol carries it"
}

func hostnameStep(l *ListenerResult, routeHosts, intersected []string) Step {
	ln := "listener " + l.Name()
	in := map[string]string{"listenerHostname": l.Hostname(), "routeHostnames": strings.Join(routeHosts, ",")}
	if len(intersected) == 0 {
		return Step{Rule: "hostname.intersect", Subject: ln, Inputs: in,
			Detail: fmt.Sprintf("listener hostname %q and route hostnames [%s] do not intersect", l.Hostname(), strings.Join(routeHosts, ", ")),
			Fix:    hostnameFix(ln, l.Hostname(), routeHosts)}
	}
	in["intersected"] = strings.Join(intersected, ",")
	return Step{Rule: "hostname.intersect", Subject: ln, Inputs: in, Passed: true, Detail: "intersected hostnames: " + describeHosts(intersected)}
}

func (e *engine) listenerSetOutOfScope(namespace, name string) bool {
	return e.ix.allListenerSets[nn{Namespace: namespace, Name: name}]
}

// carriesHostnames reports whether the listener's protocol matches on hostnames.
func carriesHostnames(l *ListenerResult) bool {
	switch l.Listener.Protocol {
	case gwv1.HTTPProtocolType, gwv1.HTTPSProtocolType, gwv1.TLSProtocolType:
		return true
	}
	return false
}

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
	rn := &routeNamespaces{from: gwv1.NamespacesFromSame, ownerNS: l.Owner().Namespace}
	if ar := l.Listener.AllowedRoutes; ar != nil && ar.Namespaces != nil {
		if ar.Namespaces.From != nil {
			rn.from = *ar.Namespaces.From
		}
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
	keys := make([]string, 0, len(sel.MatchLabels))
	for k := range sel.MatchLabels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + sel.MatchLabels[k]
	}
	return "kubectl label namespace " + ns + " " + strings.Join(parts, " ")
}

// hostnameFix says how to make a listener and a route's hostnames intersect, naming
// the apex case spec 003 warns about (*.example.com does not match example.com).
func hostnameFix(listenerName, listenerHost string, routeHosts []string) string {
	if base, ok := strings.CutPrefix(listenerHost, "*."); ok {
		for _, h := range routeHosts {
			if strings.EqualFold(h, base) {
				return fmt.Sprintf("%s's wildcard %s needs at least one label before %s, so it does not match the apex %s: add a listener with hostname %s (or a route hostname under it, such as %s)",
					listenerName, listenerHost, base, h, h, exampleHost(listenerHost))
			}
		}
	}
	return fmt.Sprintf("add a route hostname that %s matches (for example %s), or change the listener hostname", listenerName, exampleHost(listenerHost))
}

func exampleHost(listenerHost string) string {
	switch {
	case listenerHost == "":
		return "any hostname"
	case strings.HasPrefix(listenerHost, "*."):
		return "app." + listenerHost[2:]
	}
	return listenerHost
}

func describeHosts(hs []string) string {
	if len(hs) == 1 && hs[0] == "" {
		return "any (neither side names a hostname)"
	}
	return strings.Join(hs, ", ")
}

func uniq(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// resolveBackends resolves every backendRef of a route once (BackendRef:
// InvalidKind, RefNotPermitted, BackendNotFound); the first failing ref in rule
// order decides the reason, and the message lists all.
func (e *engine) resolveBackends(rr *RouteResult, s *routeSlabs) {
	r := rr.Route
	routeNS := r.ObjectMeta.Namespace
	gen := r.ObjectMeta.Generation
	var first *Condition
	var msgs []string
	n := 0
	for _, rule := range r.Rules {
		n += len(rule.BackendRefs)
	}
	if n == 0 {
		return
	}
	rr.Backends = take(&s.backendPs, n)[:0]
	brs := take(&s.backends, n)
	for ri, rule := range r.Rules {
		for j := range rule.BackendRefs {
			br := &brs[len(rr.Backends)]
			e.resolveBackend(br, r, ri, &rule.BackendRefs[j], routeNS, gen)
			rr.Backends = append(rr.Backends, br)
			if br.Problem != nil {
				msgs = append(msgs, br.Problem.Message)
				if first == nil {
					first = br.Problem
				}
			}
		}
	}
	if first != nil {
		c := *first
		c.Message = strings.Join(msgs, "; ")
		rr.unresolved = &c
	}
}

// resolveBackend fills br with one backendRef's resolution.
func (e *engine) resolveBackend(br *BackendResult, r *model.Route, rule int, ref *gwv1.BackendRef, routeNS string, gen int64) {
	group, kind := groupOr(ref.Group, ""), kindOr(ref.Kind, "Service")
	ns := namespaceOr(ref.Namespace, routeNS)
	*br = BackendResult{Rule: rule, Ref: ref, Namespace: ns}
	fail := func(rule *rules.Rule, msg, fix string) {
		c := failed(rule.Problem(msg, fix), gen, e.now)
		br.Problem = &c
	}
	name := string(ref.Name)
	grant := grantedRef{fromGroup: gwv1.GroupName, fromKind: r.Kind, fromNamespace: routeNS, toKind: "Service", to: model.NamespacedName{Namespace: ns, Name: name}}
	switch {
	case group != "" || kind != "Service":
		if ok, why := e.unverified(kind, ns, name); ok {
			br.External, br.Unverified = true, why
			return
		}
		fail(rules.RouteResolvedRefsInvalidKind, fmt.Sprintf("backendRef %s %s/%s: kind %s is not supported", groupKindString(group, kind), ns, name, groupKindString(group, kind)),
			"reference a core Service (group \"\", kind Service)")
		return
	case !e.ix.permits(grant):
		fail(rules.RouteResolvedRefsRefNotPermitted,
			fmt.Sprintf("backendRef Service %s is not permitted: no ReferenceGrant in %s allows %s from namespace %s", grant.to, ns, r.Kind, routeNS),
			grant.fix())
		return
	}
	svc := e.ix.services[nn{Namespace: ns, Name: name}]
	if svc == nil {
		if ok, why := e.unverified("Service", ns, name); ok {
			br.External, br.Unverified = true, why
			return
		}
		fail(rules.RouteResolvedRefsBackendNotFound, fmt.Sprintf("backendRef Service %s/%s does not exist", ns, name),
			fmt.Sprintf("create the Service, fix the name, or declare it with --external Service/%s/%s", ns, name))
		return
	}
	br.Service = svc.obj
	br.portMissing = ref.Port != nil && !svc.hasPort(int32(*ref.Port))
}
