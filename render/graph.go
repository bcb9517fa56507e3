package render

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// Graph is the topology of a Result: Gateways -> listeners -> routes -> backends,
// plus the route -> parent edges that were rejected. Node IDs and the order of
// nodes and edges are deterministic: same input, same bytes.
type Graph struct {
	Nodes []GraphNode
	Edges []GraphEdge
	// Admission names the CRDs the objects were held to; each format writes it
	// as its first comment (DOT's "// admission:", Mermaid's "%% admission:").
	Admission *Admission
}

// Node kinds of a Graph.
const (
	NodeGateway  = "gateway"
	NodeListener = "listener"
	NodeRoute    = "route"
	NodeBackend  = "backend"
	// NodeMissing is a parent a route names that is not in the analysis.
	NodeMissing = "missing"
)

// GraphNode is one box of the graph; Lines are its label, first line the title.
type GraphNode struct {
	ID    string
	Kind  string
	Lines []string
	// Bad marks a node that is not healthy (not accepted, conflicted, unresolved).
	Bad bool
}

// GraphEdge is one arrow; Rejected ones are drawn dashed and red.
type GraphEdge struct {
	From, To string
	Label    string
	Rejected bool
}

type graphBuilder struct {
	g      Graph
	ids    map[string]string // object key -> node ID
	counts map[string]int    // node ID prefix -> count
	edges  map[GraphEdge]bool
}

func (b *graphBuilder) node(key, prefix, kind string, bad bool, lines ...string) string {
	if id, ok := b.ids[key]; ok {
		return id
	}
	id := b.newID(prefix)
	b.ids[key] = id
	b.g.Nodes = append(b.g.Nodes, GraphNode{ID: id, Kind: kind, Lines: lines, Bad: bad})
	return id
}

// newID is the next node ID of a prefix: the prefix and its count.
func (b *graphBuilder) newID(prefix string) string {
	b.counts[prefix]++
	return prefix + strconv.Itoa(b.counts[prefix])
}

func (b *graphBuilder) edge(e GraphEdge) {
	if b.edges[e] {
		return
	}
	b.edges[e] = true
	b.g.Edges = append(b.g.Edges, e)
}

// NewGraph builds the topology graph of a Result.
//
// The labels of routes, their backends and their rejected parents are worked
// out on every core (routeParts), one route each; nodes get their IDs and
// edges their places in one pass after, in the order below, so the graph is
// the same on any number of cores.
func NewGraph(res *analyze.Result) Graph {
	// The Gateways' and listeners' nodes and edges are sized here; the
	// routes', backends' and missing parents' once the routes' parts tell
	// how many there can be, so that a large graph's lists are not grown
	// (and copied) step by step.
	n, attached := len(res.Gateways), 0
	for _, g := range res.Gateways {
		for _, l := range g.AllListeners() {
			n++
			attached += len(l.Attachments)
		}
	}
	b := &graphBuilder{ids: make(map[string]string, n), counts: map[string]int{}, edges: make(map[GraphEdge]bool, n),
		g: Graph{Nodes: make([]GraphNode, 0, n), Edges: make([]GraphEdge, 0, n), Admission: NewAdmission(res.Model.Admission)}}
	// The routes' keys, order and parts do not depend on the Gateways:
	// they are worked out while the Gateways' nodes are built.
	var routes []*analyze.RouteResult
	var keys []string
	var parts []routeParts
	// The most nodes and edges the routes add: a node of each route, of
	// each of its backends and of each of its rejected parents, an edge to
	// each of those.
	var mostNodes, mostEdges atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		routes, keys = sortedRoutes(res.Routes)
		parts = make([]routeParts, len(routes))
		onEveryCore(len(routes), func(lo, hi int) {
			nodes, edges := 0, 0
			for i := lo; i < hi; i++ {
				if len(routes[i].Parents) > 0 {
					parts[i] = newRouteParts(routes[i])
					more := len(parts[i].backends) + len(parts[i].rejected)
					nodes += 1 + more
					edges += more
				}
			}
			mostNodes.Add(int64(nodes))
			mostEdges.Add(int64(edges))
		})
	}()
	gateways := append([]*analyze.GatewayResult(nil), res.Gateways...)
	sort.SliceStable(gateways, func(i, j int) bool {
		a, c := gateways[i].Gateway.Obj, gateways[j].Gateway.Obj
		return a.Namespace+"/"+a.Name < c.Namespace+"/"+c.Name
	})
	listenerIDs := make(map[*analyze.ListenerResult]string, n-len(gateways))
	attachments := make([]*analyze.Attachment, 0, attached)
	for _, g := range gateways {
		gw := g.Gateway.Obj
		status, bad := conditionsSummary(g.Conditions, gwv1.GatewayConditionAccepted)
		gid := b.node(model.Ref{Kind: "Gateway", Namespace: gw.Namespace, Name: gw.Name}.String(), "gw", NodeGateway, bad,
			"Gateway "+model.NameOf(gw).String(), "class "+string(gw.Spec.GatewayClassName)+" · "+status)
		add := func(l *analyze.ListenerResult) {
			title := l.Name()
			key := model.Ref{Kind: "Listener", Namespace: gw.Namespace, Name: gw.Name}.String() + "/" + title
			if l.ListenerSet != nil {
				owner := l.Owner()
				title = "ListenerSet " + owner.NamespacedName().String() + " · " + title
				key = owner.String() + "/" + l.Name()
			}
			lines := []string{title, ":" + strconv.Itoa(int(l.Listener.Port)) + " " + string(l.Listener.Protocol)}
			if m := l.TLSMode(); m != "" {
				lines[1] += " · TLS " + string(m)
			}
			host := l.Hostname()
			if host == "" {
				host = "(any hostname)"
			}
			lines = append(lines, host)
			status, bad := graphListenerStatus(l)
			lines = append(lines, status+" · "+strconv.Itoa(int(l.AttachedRoutes()))+" attached")
			lid := b.node(key, "l", NodeListener, bad, lines...)
			listenerIDs[l] = lid
			b.edge(GraphEdge{From: gid, To: lid})
			attachments = append(attachments, l.Attachments...)
		}
		for _, l := range g.AllListeners() {
			add(l)
		}
	}
	<-done
	b.g.Nodes = slices.Grow(b.g.Nodes, int(mostNodes.Load()))
	b.g.Edges = slices.Grow(b.g.Edges, len(attachments)+int(mostEdges.Load()))

	// Route nodes in order (kind, namespace, name), before any edge needs
	// them. Two results of one route are next to each other in that order,
	// and share the first one's node.
	routeIDs := make(map[*analyze.RouteResult]string, len(routes))
	ids := make([]string, len(routes))
	var lastKey, lastID string
	for i, r := range routes {
		if len(r.Parents) == 0 {
			continue
		}
		if lastID == "" || keys[i] != lastKey {
			lastKey, lastID = keys[i], b.newID("r")
			p := &parts[i]
			b.g.Nodes = append(b.g.Nodes, GraphNode{ID: lastID, Kind: NodeRoute, Lines: p.lines, Bad: p.bad})
		}
		ids[i] = lastID
		routeIDs[r] = lastID
	}
	// A listener lists a route once, so these edges are distinct, from each
	// other and from every other edge (none other goes from a listener to a
	// route): they skip the builder's set. Attachments of one route often
	// share their hostnames (analyze.Attachment), and then their label.
	var lastHosts []string
	var lastLabel string
	for _, a := range attachments {
		lid, ok := listenerIDs[a.Listener]
		if !ok {
			continue
		}
		if len(a.Hostnames) == 0 || len(lastHosts) != len(a.Hostnames) || &lastHosts[0] != &a.Hostnames[0] {
			lastHosts, lastLabel = a.Hostnames, hostnamesLabel(a.Hostnames)
		}
		rid, ok := routeIDs[a.Route]
		if !ok {
			rid = b.strayRouteNode(a.Route, keys, ids, routeIDs)
		}
		b.g.Edges = append(b.g.Edges, GraphEdge{From: lid, To: rid, Label: lastLabel})
	}
	// Backends, then the rejected parents. Edges from a route go only to
	// backends, Gateways and missing parents, and come only from the
	// results of that route (next to each other in the order): each is
	// told from the edges already drawn from the same node, not from the
	// builder's set.
	backendIDs := map[string]string{}
	var from edgesFrom
	for i, r := range routes {
		if len(r.Parents) == 0 {
			continue
		}
		rid := ids[i]
		from.start(rid, len(b.g.Edges))
		for k := range parts[i].backends {
			be := &parts[i].backends[k]
			bid, ok := backendIDs[be.title]
			if !ok {
				bid = b.newID("b")
				backendIDs[be.title] = bid
				b.g.Nodes = append(b.g.Nodes, GraphNode{ID: bid, Kind: NodeBackend, Lines: backendLines(r.Backends[k], be.title), Bad: be.bad})
			}
			from.add(b, GraphEdge{From: rid, To: bid, Label: be.label, Rejected: be.rejected})
		}
	}
	missingIDs := map[string]string{}
	for i := range routes {
		if len(parts[i].rejected) == 0 {
			continue
		}
		rid := ids[i]
		from.start(rid, len(b.g.Edges))
		for _, p := range parts[i].rejected {
			to := ""
			if p.gateway != "" {
				to = b.ids[p.gateway]
			}
			if to == "" {
				if to = missingIDs[p.missing]; to == "" {
					to = b.newID("m")
					missingIDs[p.missing] = to
					b.g.Nodes = append(b.g.Nodes, GraphNode{ID: to, Kind: NodeMissing, Lines: []string{p.missing, "(not in the analysis)"}, Bad: true})
				}
			}
			from.add(b, GraphEdge{From: rid, To: to, Label: p.label, Rejected: true})
		}
	}
	return b.g
}

// strayRouteNode declares the node of a route an attachment names that is
// not among the routes with parents (a Result built by hand): after the
// others, or the node of another result of the same route.
func (b *graphBuilder) strayRouteNode(r *analyze.RouteResult, keys, ids []string, routeIDs map[*analyze.RouteResult]string) string {
	key := routeKey(r)
	if i, ok := slices.BinarySearch(keys, key); ok {
		for ; i < len(keys) && keys[i] == key; i++ {
			if ids[i] != "" {
				routeIDs[r] = ids[i]
				return ids[i]
			}
		}
	}
	p := newRouteParts(r)
	id := b.node(key, "r", NodeRoute, p.bad, p.lines...)
	routeIDs[r] = id
	return id
}

// edgesFrom tells whether an edge was already drawn from one node, among the
// edges drawn since start: a route draws a handful, told apart by looking
// at them, and a set only past that.
type edgesFrom struct {
	from  string
	first int
	set   map[GraphEdge]bool
}

// start begins the edges from node id, unless they are already begun.
func (f *edgesFrom) start(id string, next int) {
	if id == f.from {
		return
	}
	f.from, f.first = id, next
	clear(f.set)
}

// add draws e unless it is drawn already.
func (f *edgesFrom) add(b *graphBuilder, e GraphEdge) {
	drawn := b.g.Edges[f.first:]
	if len(drawn) < edgesLookedAt {
		if slices.Contains(drawn, e) {
			return
		}
	} else {
		if f.set == nil {
			f.set = map[GraphEdge]bool{}
		}
		if len(f.set) == 0 {
			for _, d := range drawn {
				f.set[d] = true
			}
		}
		if f.set[e] {
			return
		}
		f.set[e] = true
	}
	b.g.Edges = append(b.g.Edges, e)
}

// edgesLookedAt is how many edges from one node are compared one by one
// before a set is built of them.
const edgesLookedAt = 16

// routeParts is what a route adds to the graph, worked out from the route
// alone: its node's label, its backends' and its rejected parents' labels.
type routeParts struct {
	lines    []string
	bad      bool
	backends []backendPart
	rejected []rejectedPart
}

// backendPart is one backendRef of a route: the title that names its node,
// and the label of the edge to it.
type backendPart struct {
	title    string
	bad      bool
	label    string
	rejected bool
}

// rejectedPart is one parentRef of a route that was not accepted: the
// Gateway's node key when the engine found one, else the missing parent's
// title.
type rejectedPart struct {
	gateway, missing, label string
}

func newRouteParts(r *analyze.RouteResult) routeParts {
	rt := r.Route
	status, bad := graphRouteStatus(r)
	lines := make([]string, 1, 3)
	lines[0] = titled(rt.Kind, rt.ObjectMeta.Namespace, rt.ObjectMeta.Name, "")
	if len(rt.Hostnames) > 0 {
		var hs strings.Builder
		for i, h := range rt.Hostnames {
			if i > 0 {
				hs.WriteString(", ")
			}
			hs.WriteString(string(h))
		}
		lines = append(lines, hs.String())
	}
	lines = append(lines, status)
	p := routeParts{lines: lines, bad: bad}
	if len(r.Backends) > 0 {
		p.backends = make([]backendPart, len(r.Backends))
		for i, be := range r.Backends {
			kind := "Service"
			if be.Ref.Kind != nil && *be.Ref.Kind != "" {
				kind = string(*be.Ref.Kind)
			}
			port := ""
			if be.Ref.Port != nil {
				port = ":" + strconv.Itoa(int(*be.Ref.Port))
			}
			title := titled(kind, be.Namespace, string(be.Ref.Name), port)
			bp := backendPart{title: title, bad: be.Service == nil && !be.External() && be.Problem != nil}
			if be.Problem != nil {
				bp.label, bp.rejected = be.Problem.Type+"="+string(be.Problem.Status)+": "+be.Problem.Reason, true
			}
			p.backends[i] = bp
		}
	}
	for _, pr := range r.Parents {
		if !pr.Rejected() {
			continue
		}
		c, _ := pr.AcceptedCondition()
		var rp rejectedPart
		switch {
		case pr.Gateway != nil:
			gw := pr.Gateway.Gateway.Obj
			rp.gateway = "Gateway/" + gw.Namespace + "/" + gw.Name
		case pr.ListenerSet != nil && pr.ListenerSet.Parent != nil:
			gw := pr.ListenerSet.Parent.Gateway.Obj
			rp.gateway = "Gateway/" + gw.Namespace + "/" + gw.Name
		}
		ns := r.Route.ObjectMeta.Namespace
		if pr.Ref.Namespace != nil {
			ns = string(*pr.Ref.Namespace)
		}
		kind := "Gateway"
		if pr.Ref.Kind != nil {
			kind = string(*pr.Ref.Kind)
		}
		rp.missing = kind + " " + model.NamespacedName{Namespace: ns, Name: string(pr.Ref.Name)}.String()
		label := "Accepted=False: " + c.Reason
		var ref []string
		if pr.ListenerSet != nil {
			o := pr.ListenerSet.ListenerSet.Obj
			ref = append(ref, "ListenerSet "+o.Namespace+"/"+o.Name)
		}
		if pr.Ref.SectionName != nil {
			ref = append(ref, "sectionName "+string(*pr.Ref.SectionName))
		}
		if pr.Ref.Port != nil {
			ref = append(ref, "port "+strconv.Itoa(int(*pr.Ref.Port)))
		}
		if len(ref) > 0 {
			label += " (" + strings.Join(ref, ", ") + ")"
		}
		rp.label = label
		p.rejected = append(p.rejected, rp)
	}
	return p
}

// titled is "KIND NAMESPACE/NAME" (or "KIND NAME"), as kind + " " +
// model.NamespacedName.String() is, built at once.
func titled(kind, namespace, name, suffix string) string {
	if namespace == "" {
		return kind + " " + name + suffix
	}
	return kind + " " + namespace + "/" + name + suffix
}

// backendLines is the label of a backend's node, titled as the first route
// that names it does.
func backendLines(be *analyze.BackendResult, title string) []string {
	lines := []string{title}
	switch {
	case be.External():
		lines = append(lines, "(external, not verified)")
	case be.Service == nil && be.Problem != nil:
		lines = append(lines, "(unresolved)")
	}
	if p := be.Policy; p != nil {
		o := p.Policy.Obj
		lines = append(lines, "BackendTLSPolicy "+o.Namespace+"/"+o.Name, "TLS hostname "+string(o.Spec.Validation.Hostname))
	}
	return lines
}

// sortedRoutes is the routes in a stable order, kind, namespace, name, with
// their keys. The keys are built once, not twice per comparison, and both are
// done on every core.
func sortedRoutes(rs []*analyze.RouteResult) ([]*analyze.RouteResult, []string) {
	keyed := make([]keyedRoute, len(rs))
	onEveryCore(len(rs), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			keyed[i] = keyedRoute{routeKey(rs[i]), rs[i], i}
		}
	})
	sortOnEveryCore(keyed, func(a, c keyedRoute) int {
		if n := strings.Compare(a.key, c.key); n != 0 {
			return n
		}
		return a.i - c.i // stable: two results of one route keep the engine's order
	})
	routes := make([]*analyze.RouteResult, len(keyed))
	keys := make([]string, len(keyed))
	for i, k := range keyed {
		routes[i], keys[i] = k.r, k.key
	}
	return routes, keys
}

// keyedRoute is a route with the key it is sorted by and its place in the
// engine's order.
type keyedRoute struct {
	key string
	r   *analyze.RouteResult
	i   int
}

func routeKey(r *analyze.RouteResult) string {
	return model.Ref{Kind: r.Route.Kind, Namespace: r.Route.ObjectMeta.Namespace, Name: r.Route.ObjectMeta.Name}.String()
}

func hostnamesLabel(hs []string) string {
	if len(hs) == 0 || len(hs) == 1 && hs[0] == "" {
		return "(any hostname)"
	}
	return strings.Join(hs, ", ")
}

func findCondition(cs []analyze.Condition, t string) *analyze.Condition {
	for i := range cs {
		if cs[i].Type == t {
			return &cs[i]
		}
	}
	return nil
}

// unhealthy reports a condition in its abnormal state: True for the
// negative-polarity Conflicted and OverlappingTLSConfig, False for the others.
func unhealthy(c analyze.Condition) bool { return !healthy(c.Type, c.Status) }

// healthy reports whether a condition is in its healthy state, by the
// registry's polarity (True for Accepted, False for Conflicted); a type of
// unknown polarity is healthy when True.
func healthy(conditionType string, status metav1.ConditionStatus) bool {
	want, known := rules.Healthy(conditionType)
	if !known {
		want = metav1.ConditionTrue
	}
	return status == want
}

// conditionsSummary is the main condition's type when it is True, else the first
// unhealthy condition as Type=Status (Reason).
func conditionsSummary(cs []analyze.Condition, main gwv1.GatewayConditionType) (string, bool) {
	for _, c := range cs {
		if unhealthy(c) {
			return c.Type + "=" + string(c.Status) + " (" + c.Reason + ")", true
		}
	}
	if c := findCondition(cs, string(main)); c != nil {
		return c.Type, false
	}
	return "no status", false
}

func graphListenerStatus(l *analyze.ListenerResult) (string, bool) {
	if l.Conflicted {
		if c := findCondition(l.Conditions, string(gwv1.ListenerConditionConflicted)); c != nil {
			return "Conflicted (" + c.Reason + ")", true
		}
		return string(gwv1.ListenerConditionConflicted), true
	}
	for _, c := range l.Conditions {
		if unhealthy(c) {
			return c.Type + "=" + string(c.Status) + " (" + c.Reason + ")", true
		}
	}
	if !l.Accepted {
		return "not accepted", true
	}
	return string(gwv1.ListenerConditionAccepted), false
}

func graphRouteStatus(r *analyze.RouteResult) (string, bool) {
	accepted, rejected := 0, 0
	for _, p := range r.Parents {
		if p.Rejected() {
			rejected++
		} else {
			accepted++
		}
	}
	status := strconv.Itoa(accepted) + "/" + strconv.Itoa(accepted+rejected) + " parents accepted"
	bad := rejected > 0
	if rr := r.ResolvedRefs(); rr.Status == metav1.ConditionFalse {
		status += " · ResolvedRefs=False (" + rr.Reason + ")"
		bad = true
	}
	return status, bad
}

// DOT writes the graph in Graphviz's language (dot -Tsvg renders it).
func (g Graph) DOT(w io.Writer) error {
	// Written as it is built: a graph of 100k routes is tens of megabytes.
	b := bufio.NewWriterSize(w, 64<<10)
	writeAdmissionComment(b, "//", g.Admission) // b's error is Flush's
	b.WriteString("digraph gwtls {\n")
	b.WriteString("  rankdir=LR;\n")
	b.WriteString("  node [fontname=\"Helvetica\", fontsize=10];\n")
	b.WriteString("  edge [fontname=\"Helvetica\", fontsize=9];\n")
	writeOnEveryCore(b, len(g.Nodes), func(dst []byte, lo, hi int) []byte {
		for _, n := range g.Nodes[lo:hi] {
			dst = append(dst, "  "...)
			dst = append(dst, n.ID...)
			dst = append(dst, " [label="...)
			dst = appendDOTQuoted(dst, n.Lines)
			switch n.Kind {
			case NodeGateway:
				dst = append(dst, ", shape=box, style=\"bold\""...)
			case NodeListener:
				dst = append(dst, ", shape=box, style=\"rounded\""...)
			case NodeRoute:
				dst = append(dst, ", shape=ellipse"...)
			case NodeBackend:
				dst = append(dst, ", shape=cylinder"...)
			case NodeMissing:
				dst = append(dst, ", shape=box, style=\"dashed\""...)
			}
			if n.Bad {
				dst = append(dst, ", color=\"#cc0000\", fontcolor=\"#cc0000\""...)
			}
			dst = append(dst, "];\n"...)
		}
		return dst
	})
	writeOnEveryCore(b, len(g.Edges), func(dst []byte, lo, hi int) []byte {
		for _, e := range g.Edges[lo:hi] {
			dst = append(dst, "  "...)
			dst = append(dst, e.From...)
			dst = append(dst, " -> "...)
			dst = append(dst, e.To...)
			if e.Label == "" && !e.Rejected {
				dst = append(dst, ";\n"...)
				continue
			}
			dst = append(dst, " ["...)
			if e.Label != "" {
				dst = append(dst, "label="...)
				dst = appendDOTQuoted(dst, []string{e.Label})
				if e.Rejected {
					dst = append(dst, ", "...)
				}
			}
			if e.Rejected {
				dst = append(dst, "style=dashed, color=\"#cc0000\", fontcolor=\"#cc0000\", constraint=false"...)
			}
			dst = append(dst, "];\n"...)
		}
		return dst
	})
	b.WriteString("}\n")
	return b.Flush()
}

// dotQuote quotes lines as a DOT string: backslashes and quotes escaped, the
// lines joined with \n, and controls within a line as TerminalText writes them
// (a graph is read in a terminal as often as Graphviz draws it).
func dotQuote(lines ...string) string {
	return string(appendDOTQuoted(nil, lines))
}

// appendDOTQuoted appends lines as dotQuote returns them.
func appendDOTQuoted(dst []byte, lines []string) []byte {
	dst = append(dst, '"')
	for i, l := range lines {
		if i > 0 {
			dst = append(dst, `\n`...)
		}
		if dotPlain.all(l) {
			dst = append(dst, l...)
		} else {
			dst = append(dst, dotEscape.Replace(TerminalText(l))...)
		}
	}
	return append(dst, '"')
}

// The replacers are built once, not per label: a graph has a label per object.
var (
	dotEscape     = strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	mermaidEscape = strings.NewReplacer(
		"#", "#35;", `"`, "#quot;", "<", "#lt;", ">", "#gt;", "|", "#124;",
		"[", "#91;", "]", "#93;", "{", "#123;", "}", "#125;",
		"`", "#96;")
	// dotPlain and mermaidPlain are the bytes each format writes as they
	// are: printable ASCII that its replacer leaves alone.
	dotPlain     = plainBytes(`\"`)
	mermaidPlain = plainBytes("#\"<>|[]{}`")
)

// byteSet is a set of bytes.
type byteSet [256]bool

// plainBytes is printable ASCII but the bytes of escaped.
func plainBytes(escaped string) *byteSet {
	var s byteSet
	for c := ' '; c <= '~'; c++ {
		s[c] = !strings.ContainsRune(escaped, c)
	}
	return &s
}

// all reports whether every byte of s is in the set.
func (set *byteSet) all(s string) bool {
	for i := 0; i < len(s); i++ {
		if !set[s[i]] {
			return false
		}
	}
	return true
}

// Mermaid writes the graph as a Mermaid flowchart, which GitHub renders in
// Markdown (a ```mermaid block in a pull-request comment). render report
// embeds it as it is: its "%% admission:" comment is not drawn, and the
// report says the same in its Admission line.
func (g Graph) Mermaid(w io.Writer) error {
	// Written as it is built: a graph of 100k routes is tens of megabytes.
	b := bufio.NewWriterSize(w, 64<<10)
	b.WriteString("flowchart LR\n")
	// After the diagram's type, where every Mermaid version takes a comment.
	writeAdmissionComment(b, "%%", g.Admission)
	writeOnEveryCore(b, len(g.Nodes), func(dst []byte, lo, hi int) []byte {
		for _, n := range g.Nodes[lo:hi] {
			open, close := "[", "]"
			switch n.Kind {
			case NodeListener:
				open, close = "(", ")"
			case NodeRoute:
				open, close = "([", "])"
			case NodeBackend:
				open, close = "[(", ")]"
			case NodeMissing:
				open, close = "[/", "/]"
			}
			dst = append(dst, "  "...)
			dst = append(dst, n.ID...)
			dst = append(dst, open...)
			dst = append(dst, '"')
			dst = appendMermaidText(dst, n.Lines)
			dst = append(dst, '"')
			dst = append(dst, close...)
			dst = append(dst, '\n')
		}
		return dst
	})
	writeOnEveryCore(b, len(g.Edges), func(dst []byte, lo, hi int) []byte {
		for _, e := range g.Edges[lo:hi] {
			arrow := "-->"
			if e.Rejected {
				arrow = "-.->"
			}
			dst = append(dst, "  "...)
			dst = append(dst, e.From...)
			dst = append(dst, ' ')
			dst = append(dst, arrow...)
			if e.Label != "" {
				dst = append(dst, `|"`...)
				dst = appendMermaidText(dst, []string{e.Label})
				dst = append(dst, `"|`...)
			}
			dst = append(dst, ' ')
			dst = append(dst, e.To...)
			dst = append(dst, '\n')
		}
		return dst
	})
	var bad, rejected []string
	for _, n := range g.Nodes {
		if n.Bad {
			bad = append(bad, n.ID)
		}
	}
	for i, e := range g.Edges {
		if e.Rejected {
			rejected = append(rejected, strconv.Itoa(i))
		}
	}
	if len(bad) > 0 {
		b.WriteString("  classDef bad stroke:#cc0000,stroke-width:2px,color:#cc0000\n")
		fmt.Fprintf(b, "  class %s bad\n", strings.Join(bad, ","))
	}
	if len(rejected) > 0 {
		fmt.Fprintf(b, "  linkStyle %s stroke:#cc0000,color:#cc0000\n", strings.Join(rejected, ","))
	}
	return b.Flush()
}

// mermaidText escapes text for a quoted Mermaid label: quotes, square and curly
// brackets, pipes, angle brackets and '#' as entity codes (which Mermaid decodes;
// parentheses are safe inside quotes), lines joined with <br>.
func mermaidText(lines ...string) string {
	return string(appendMermaidText(nil, lines))
}

// appendMermaidText appends lines as mermaidText returns them.
func appendMermaidText(dst []byte, lines []string) []byte {
	for i, l := range lines {
		if i > 0 {
			dst = append(dst, "<br>"...)
		}
		if mermaidPlain.all(l) {
			dst = append(dst, l...)
		} else {
			dst = append(dst, mermaidEscape.Replace(TerminalText(l))...)
		}
	}
	return dst
}
