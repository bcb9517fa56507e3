package render

// The graph as it was built and written before NewGraph worked on every core
// and the writers wrote straight to their buffers: the oracle
// TestGraphAsTheOracleBuildsIt holds them to.

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

type oracleGraphBuilder struct {
	g      Graph
	ids    map[string]string // object key -> node ID
	counts map[string]int    // node ID prefix -> count
	edges  map[GraphEdge]bool
}

func (b *oracleGraphBuilder) node(key, prefix, kind string, bad bool, lines ...string) string {
	if id, ok := b.ids[key]; ok {
		return id
	}
	b.counts[prefix]++
	id := fmt.Sprintf("%s%d", prefix, b.counts[prefix])
	b.ids[key] = id
	b.g.Nodes = append(b.g.Nodes, GraphNode{ID: id, Kind: kind, Lines: lines, Bad: bad})
	return id
}

func (b *oracleGraphBuilder) edge(e GraphEdge) {
	if b.edges[e] {
		return
	}
	b.edges[e] = true
	b.g.Edges = append(b.g.Edges, e)
}

// oracleNewGraph is NewGraph as it was written before it worked on every core:
// the oracle the faster one is held to.
func oracleNewGraph(res *analyze.Result) Graph {
	// Sized for about a node and two edges per route and listener, so that a large
	// graph does not grow its maps and lists step by step.
	n := len(res.Routes) + len(res.Gateways)
	for _, g := range res.Gateways {
		n += len(g.Listeners)
	}
	b := &oracleGraphBuilder{ids: make(map[string]string, n), counts: map[string]int{}, edges: make(map[GraphEdge]bool, 2*n),
		g: Graph{Nodes: make([]GraphNode, 0, n), Edges: make([]GraphEdge, 0, 2*n), Admission: NewAdmission(res.Model.Admission)}}
	gateways := append([]*analyze.GatewayResult(nil), res.Gateways...)
	sort.SliceStable(gateways, func(i, j int) bool {
		a, c := gateways[i].Gateway.Obj, gateways[j].Gateway.Obj
		return a.Namespace+"/"+a.Name < c.Namespace+"/"+c.Name
	})
	listenerIDs := map[*analyze.ListenerResult]string{}
	var attachments []*analyze.Attachment
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
			lines := []string{title, fmt.Sprintf(":%d %s", l.Listener.Port, l.Listener.Protocol)}
			if m := l.TLSMode(); m != "" {
				lines[1] += " · TLS " + string(m)
			}
			host := l.Hostname()
			if host == "" {
				host = "(any hostname)"
			}
			lines = append(lines, host)
			status, bad := graphListenerStatus(l)
			lines = append(lines, fmt.Sprintf("%s · %d attached", status, l.AttachedRoutes()))
			lid := b.node(key, "l", NodeListener, bad, lines...)
			listenerIDs[l] = lid
			b.edge(GraphEdge{From: gid, To: lid})
			attachments = append(attachments, l.Attachments...)
		}
		for _, l := range g.AllListeners() {
			add(l)
		}
	}

	// Routes in a stable order: kind, namespace, name.
	// The keys are built once, not twice per comparison.
	keyed := make([]keyedRoute, len(res.Routes))
	for i, r := range res.Routes {
		keyed[i] = keyedRoute{routeKey(r), r, i}
	}
	slices.SortFunc(keyed, func(a, c keyedRoute) int {
		if n := strings.Compare(a.key, c.key); n != 0 {
			return n
		}
		return a.i - c.i // stable: two results of one route keep the engine's order
	})
	routes := make([]*analyze.RouteResult, len(keyed))
	for i, k := range keyed {
		routes[i] = k.r
	}
	// A route's node ID is looked up once per route, not once per listener
	// it attaches to: a route may attach to thousands.
	routeIDs := make(map[*analyze.RouteResult]string, len(routes))
	routeNode := func(r *analyze.RouteResult) string {
		if id, ok := routeIDs[r]; ok {
			return id
		}
		rt := r.Route
		status, bad := graphRouteStatus(r)
		lines := []string{rt.Kind + " " + model.NameOf(&rt.ObjectMeta).String()}
		if len(rt.Hostnames) > 0 {
			hs := make([]string, len(rt.Hostnames))
			for i, h := range rt.Hostnames {
				hs[i] = string(h)
			}
			lines = append(lines, strings.Join(hs, ", "))
		}
		lines = append(lines, status)
		id := b.node(routeKey(r), "r", NodeRoute, bad, lines...)
		routeIDs[r] = id
		return id
	}
	// Declare route nodes in order before any edge needs them.
	for _, r := range routes {
		if len(r.Parents) > 0 {
			routeNode(r)
		}
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
		b.g.Edges = append(b.g.Edges, GraphEdge{From: lid, To: routeNode(a.Route), Label: lastLabel})
	}
	// Backends, then the rejected parents.
	for _, r := range routes {
		if len(r.Parents) == 0 {
			continue
		}
		rid := routeNode(r)
		for _, be := range r.Backends {
			kind := "Service"
			if be.Ref.Kind != nil && *be.Ref.Kind != "" {
				kind = string(*be.Ref.Kind)
			}
			port := ""
			if be.Ref.Port != nil {
				port = fmt.Sprintf(":%d", *be.Ref.Port)
			}
			title := kind + " " + be.NamespacedName().String() + port
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
			bid := b.node("Backend/"+title, "b", NodeBackend, be.Service == nil && !be.External() && be.Problem != nil, lines...)
			e := GraphEdge{From: rid, To: bid}
			if be.Problem != nil {
				e.Label, e.Rejected = be.Problem.Type+"="+string(be.Problem.Status)+": "+be.Problem.Reason, true
			}
			b.edge(e)
		}
	}
	for _, r := range routes {
		for _, p := range r.Parents {
			if !p.Rejected() {
				continue
			}
			c, _ := p.AcceptedCondition()
			var to string
			switch {
			case p.Gateway != nil:
				gw := p.Gateway.Gateway.Obj
				to = b.ids["Gateway/"+gw.Namespace+"/"+gw.Name]
			case p.ListenerSet != nil && p.ListenerSet.Parent != nil:
				gw := p.ListenerSet.Parent.Gateway.Obj
				to = b.ids["Gateway/"+gw.Namespace+"/"+gw.Name]
			}
			if to == "" {
				ns := r.Route.ObjectMeta.Namespace
				if p.Ref.Namespace != nil {
					ns = string(*p.Ref.Namespace)
				}
				kind := "Gateway"
				if p.Ref.Kind != nil {
					kind = string(*p.Ref.Kind)
				}
				ref := kind + " " + model.NamespacedName{Namespace: ns, Name: string(p.Ref.Name)}.String()
				to = b.node("Missing/"+ref, "m", NodeMissing, true, ref, "(not in the analysis)")
			}
			label := "Accepted=False: " + c.Reason
			var ref []string
			if p.ListenerSet != nil {
				o := p.ListenerSet.ListenerSet.Obj
				ref = append(ref, "ListenerSet "+o.Namespace+"/"+o.Name)
			}
			if p.Ref.SectionName != nil {
				ref = append(ref, "sectionName "+string(*p.Ref.SectionName))
			}
			if p.Ref.Port != nil {
				ref = append(ref, fmt.Sprintf("port %d", *p.Ref.Port))
			}
			if len(ref) > 0 {
				label += " (" + strings.Join(ref, ", ") + ")"
			}
			b.edge(GraphEdge{From: routeNode(r), To: to, Label: label, Rejected: true})
		}
	}
	return b.g
}

// oracleDOT is Graph.DOT before it wrote its parts straight to the buffer.
func oracleDOT(g Graph, w io.Writer) error {
	// Written as it is built: a graph of 100k routes is tens of megabytes.
	b := bufio.NewWriterSize(w, 64<<10)
	writeAdmissionComment(b, "//", g.Admission) // b's error is Flush's
	b.WriteString("digraph gwtls {\n")
	b.WriteString("  rankdir=LR;\n")
	b.WriteString("  node [fontname=\"Helvetica\", fontsize=10];\n")
	b.WriteString("  edge [fontname=\"Helvetica\", fontsize=9];\n")
	for _, n := range g.Nodes {
		attrs := []string{"label=" + oracleDOTQuote(n.Lines...)}
		switch n.Kind {
		case NodeGateway:
			attrs = append(attrs, "shape=box", "style=\"bold\"")
		case NodeListener:
			attrs = append(attrs, "shape=box", "style=\"rounded\"")
		case NodeRoute:
			attrs = append(attrs, "shape=ellipse")
		case NodeBackend:
			attrs = append(attrs, "shape=cylinder")
		case NodeMissing:
			attrs = append(attrs, "shape=box", "style=\"dashed\"")
		}
		if n.Bad {
			attrs = append(attrs, "color=\"#cc0000\"", "fontcolor=\"#cc0000\"")
		}
		fmt.Fprintf(b, "  %s [%s];\n", n.ID, strings.Join(attrs, ", "))
	}
	for _, e := range g.Edges {
		var attrs []string
		if e.Label != "" {
			attrs = append(attrs, "label="+oracleDOTQuote(e.Label))
		}
		if e.Rejected {
			attrs = append(attrs, "style=dashed", "color=\"#cc0000\"", "fontcolor=\"#cc0000\"", "constraint=false")
		}
		if len(attrs) == 0 {
			fmt.Fprintf(b, "  %s -> %s;\n", e.From, e.To)
		} else {
			fmt.Fprintf(b, "  %s -> %s [%s];\n", e.From, e.To, strings.Join(attrs, ", "))
		}
	}
	b.WriteString("}\n")
	return b.Flush()
}

// oracleDOTQuote is dotQuote before its quick path: quotes lines as a DOT string: backslashes and quotes escaped, the
// lines joined with \n, and controls within a line as TerminalText writes them
// (a graph is read in a terminal as often as Graphviz draws it).
func oracleDOTQuote(lines ...string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = dotEscape.Replace(oracleTerminalText(l))
	}
	return `"` + strings.Join(out, `\n`) + `"`
}

// oracleMermaid is Graph.Mermaid before it wrote its parts straight to the buffer.
func oracleMermaid(g Graph, w io.Writer) error {
	// Written as it is built: a graph of 100k routes is tens of megabytes.
	b := bufio.NewWriterSize(w, 64<<10)
	b.WriteString("flowchart LR\n")
	// After the diagram's type, where every Mermaid version takes a comment.
	writeAdmissionComment(b, "%%", g.Admission)
	var bad []string
	for _, n := range g.Nodes {
		label := oracleMermaidText(n.Lines...)
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
		fmt.Fprintf(b, "  %s%s\"%s\"%s\n", n.ID, open, label, close)
		if n.Bad {
			bad = append(bad, n.ID)
		}
	}
	var rejected []string
	for i, e := range g.Edges {
		arrow := "-->"
		if e.Rejected {
			arrow = "-.->"
			rejected = append(rejected, fmt.Sprint(i))
		}
		if e.Label != "" {
			fmt.Fprintf(b, "  %s %s|\"%s\"| %s\n", e.From, arrow, oracleMermaidText(e.Label), e.To)
		} else {
			fmt.Fprintf(b, "  %s %s %s\n", e.From, arrow, e.To)
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

// oracleMermaidText is mermaidText before its quick path: it escapes text for a quoted Mermaid label: quotes, square and curly
// brackets, pipes, angle brackets and '#' as entity codes (which Mermaid decodes;
// parentheses are safe inside quotes), lines joined with <br>.
func oracleMermaidText(lines ...string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = mermaidEscape.Replace(oracleTerminalText(l))
	}
	return strings.Join(out, "<br>")
}

// oracleTerminalText is TerminalText before its quick path.
func oracleTerminalText(s string) string {
	if strings.IndexFunc(s, obeyed) < 0 && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case obeyed(r):
			b.WriteString(escapeRune(r))
		default:
			b.WriteString(s[:size])
		}
		s = s[size:]
	}
	return b.String()
}

// oracleTerminalLines is TerminalLines before its quick path: TerminalText for text of several lines (a fix, an
// explanation): its own line breaks (\n, or \r\n) stay, everything else is
// escaped.
func oracleTerminalLines(s string) string {
	if strings.IndexFunc(s, obeyed) < 0 && utf8.ValidString(s) {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if i < len(lines)-1 && strings.HasSuffix(l, "\r") {
			lines[i] = oracleTerminalText(l[:len(l)-1]) + "\r"
			continue
		}
		lines[i] = oracleTerminalText(l)
	}
	return strings.Join(lines, "\n")
}
