package analyze

import (
	"fmt"
	"slices"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	"sigs.k8s.io/gateway-api/pkg/features"

	"github.com/kubectl-gwtls/kubectl-gwtls/hostname"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// listenerState is the engine's working state for one listener. Its problems
// are kept until conflicts are known and the conditions are written.
type listenerState struct {
	notAccepted *rules.Problem // protocol, TLS mode or hostname unsupported
	conflict    *rules.Problem
	unresolved  []rules.Problem // ResolvedRefs problems, most important first
	certInvalid bool            // no usable certificate: not programmed
	noValidCA   bool            // every frontend CA ref is invalid (Accepted False)
	overlaps    []string        // listeners whose hostnames overlap this one's (OverlappingTLSConfig)
	namespaces  *routeNamespaces
	kinds       kindSet // SupportedKinds, for the per-route check
	// unsupportedMix: conflicted because the implementation cannot serve the
	// listener's TLS mode beside its neighbour's on one port; it then takes no
	// route kind (ListenerStatus.SupportedKinds).
	unsupportedMix bool
}

// listenerView is what deciding a parentRef reads of one listener. A parent's
// views sit in one slice, so a route's pass over its parent's listeners reads a
// few contiguous cache lines instead of chasing each ListenerResult, its state,
// its allowedRoutes and the strings they point into: the pass runs for every
// route x listener pair of a parent.
type listenerView struct {
	l        *ListenerResult
	name     string
	hostname string // "" when unset
	ns       routeNamespaces
	port     gwv1.PortNumber
	kinds    kindSet
	// configured is false for listeners routes are never checked against: not
	// validated (a ListenerSet the Gateway does not allow), not acceptable, or
	// in a TLS mode the implementation cannot serve beside its neighbour's.
	configured bool
	accepted   bool // ListenerResult.Accepted: false when conflicted
	hostnames  bool // the protocol matches on hostnames
	// selected is the namespace selector's decision per route namespace number
	// (selectorTables); nil when not computed.
	selected []bool
}

// allows applies the view's AllowedRoutes.Namespaces to a route in routeNS,
// numbered nsID.
func (v *listenerView) allows(ix *index, routeNS string, nsID int32) bool {
	if v.selected != nil {
		return v.selected[nsID]
	}
	return v.ns.allows(ix, routeNS)
}

// viewsOf returns listeners' views, in order, their names and hostnames copied
// side by side (arena). It reads what listeners decided, so it runs after
// their conditions are written.
func viewsOf(ls []*ListenerResult, text *arena) []listenerView {
	size := 0
	for _, l := range ls {
		size += len(l.Name()) + len(l.Hostname())
	}
	text.reserveText(size)
	vs := make([]listenerView, len(ls))
	for i, l := range ls {
		v := &vs[i]
		v.l, v.name, v.hostname, v.port = l, text.str(l.Name()), text.str(l.Hostname()), l.Listener.Port
		v.accepted, v.hostnames = l.Accepted, carriesHostnames(l)
		if l.state != nil && l.state.notAccepted == nil && !l.state.unsupportedMix {
			v.configured, v.kinds, v.ns = true, l.state.kinds, *l.routeNamespaces()
		}
	}
	return vs
}

// carriesHostnames reports whether the listener's protocol matches on hostnames.
func carriesHostnames(l *ListenerResult) bool {
	switch l.Listener.Protocol {
	case gwv1.HTTPProtocolType, gwv1.HTTPSProtocolType, gwv1.TLSProtocolType:
		return true
	}
	return false
}

// kindSet is a set of the route kinds this tool knows, one bit each.
type kindSet uint8

// bitOf is a route kind's bit; an unknown kind has none.
func bitOf(kind string) kindSet {
	switch kind {
	case "HTTPRoute":
		return 1
	case "GRPCRoute":
		return 2
	case "TLSRoute":
		return 4
	case "TCPRoute":
		return 8
	case "UDPRoute":
		return 16
	}
	return 0
}

// routeKindsFor lists the route kinds a protocol (and TLS mode) carries, as the
// Listener API documents them; TLS listeners never carry TCPRoute here.
func routeKindsFor(l *ListenerResult, f Features) []string {
	var kinds []string
	switch l.Listener.Protocol {
	case gwv1.HTTPProtocolType, gwv1.HTTPSProtocolType:
		kinds = append(kinds, "HTTPRoute")
		if f.Supports(features.SupportGRPCRoute) {
			kinds = append(kinds, "GRPCRoute")
		}
	case gwv1.TLSProtocolType:
		if f.Supports(features.SupportTLSRoute) {
			kinds = append(kinds, "TLSRoute")
		}
	case gwv1.TCPProtocolType:
		if f.Supports(features.SupportTCPRoute) {
			kinds = append(kinds, "TCPRoute")
		}
	case gwv1.UDPProtocolType:
		if f.Supports(features.SupportUDPRoute) {
			kinds = append(kinds, "UDPRoute")
		}
	}
	return kinds
}

// listeners builds a Gateway's listener results and validates them and those of
// its admitted ListenerSets, then resolves conflicts across the merged set. It
// runs for each Gateway on every core, so the Gateway's own listeners are
// created here rather than in gateways.
func (e *engine) listeners(g *GatewayResult) {
	if n := len(g.Gateway.Obj.Spec.Listeners); n > 0 {
		lrs := make([]ListenerResult, n) // one allocation for the Gateway's listeners
		g.Listeners = make([]*ListenerResult, n)
		for i, l := range g.Gateway.Obj.Spec.Listeners {
			lrs[i] = ListenerResult{Gateway: g, Listener: l, Index: i}
			g.Listeners[i] = &lrs[i]
		}
	}
	g.merged = mergedListeners(g)
	f := e.features(g)
	g.paramsProblem = e.parametersProblem(g)
	// One allocation for the merged listeners' states.
	states := make([]listenerState, len(g.merged))
	for i, r := range g.merged {
		// Only the Gateway's listeners and those of ListenerSets it admits are
		// configured; the others keep no state.
		r.l.state = &states[i]
		e.validateListener(g, r.l, f)
	}
	e.conflicts(g)
	var groups conditionGroups
	for _, r := range g.merged {
		e.listenerConditions(r.l, &groups)
		r.l.state.namespaces = newRouteNamespaces(r.l, e.selectors.parse)
	}
	var text arena // the views' names and hostnames, per Gateway: Gateways are decided at once
	g.views = viewsOf(g.Listeners, &text)
	for _, ls := range g.ListenerSets {
		if ls.Allowed {
			ls.views = viewsOf(ls.Listeners, &text)
		}
	}
}

func (e *engine) validateListener(g *GatewayResult, l *ListenerResult, f Features) {
	st := l.state
	li := l.Listener
	proto := li.Protocol
	trace := tracer{on: e.tracingListener(l), steps: &l.Trace}
	if trace.on {
		trace.subject = "listener " + l.Name()
	}

	// Protocol (Listener.Protocol; Core: HTTP, HTTPS; Extended: TLS, TCP, UDP).
	supported := false
	switch proto {
	case gwv1.HTTPProtocolType, gwv1.HTTPSProtocolType:
		supported = true
	case gwv1.TLSProtocolType:
		supported = f.Supports(features.SupportTLSRoute)
	case gwv1.TCPProtocolType:
		supported = f.Supports(features.SupportTCPRoute)
	case gwv1.UDPProtocolType:
		supported = f.Supports(features.SupportUDPRoute)
	}
	if !supported {
		st.notAccepted = problemOf(rules.ListenerAcceptedUnsupportedProtocol,
			fmt.Sprintf("protocol %q is not supported", proto),
			"use one of HTTP, HTTPS, TLS, TCP, UDP"+closestProtocol(string(proto)))
		trace.step("listener.protocol", false, st.notAccepted.Message, st.notAccepted.Fix, nil)
	} else if trace.on {
		trace.step("listener.protocol", true, "protocol "+string(proto)+" is supported", "", nil)
	}

	// TLS settings (Listener CEL rules and ListenerTLSConfig; GEP-2643 for TLS modes).
	if supported {
		if p := tlsSettingsProblem(l, f); p != nil {
			st.notAccepted = p
			trace.step("listener.tls", false, p.Message, p.Fix, nil)
		} else if p := ignoredCertificateRefs(l); p != nil && trace.on {
			trace.step("listener.tls.certificateRefs", true, p.Message, p.Fix, nil)
		}
	}

	// Hostname (spec 003: valid DNS name, wildcard only as the leftmost label).
	if st.notAccepted == nil && li.Hostname != nil && *li.Hostname != "" {
		switch proto {
		case gwv1.TCPProtocolType, gwv1.UDPProtocolType:
			st.notAccepted = problemOf(rules.ListenerAcceptedUnsupportedValue,
				fmt.Sprintf("hostname must not be set for protocol %s", proto), "remove spec.listeners[].hostname")
		default:
			if err := hostname.Validate(string(*li.Hostname)); err != nil {
				st.notAccepted = problemOf(rules.ListenerAcceptedUnsupportedValue, err.Error(),
					"use a DNS name such as app.example.com or a wildcard such as *.example.com")
			}
		}
		if st.notAccepted != nil {
			trace.step("listener.hostname", false, st.notAccepted.Message, st.notAccepted.Fix, nil)
		}
	}

	// Route kinds (AllowedRoutes.Kinds; ResolvedRefs/InvalidRouteKinds).
	kinds := routeKindsFor(l, f)
	if st.notAccepted != nil {
		kinds = nil // a listener that is never configured carries no route kind
	}
	l.SupportedKinds = []gwv1.RouteGroupKind{}
	if li.AllowedRoutes == nil || len(li.AllowedRoutes.Kinds) == 0 {
		for _, k := range kinds {
			l.SupportedKinds = append(l.SupportedKinds, routeGroupKind(k))
		}
	} else {
		var invalid []string
		for _, rk := range li.AllowedRoutes.Kinds {
			group := written(rk.Group)
			if group == gwv1.GroupName && slices.Contains(kinds, string(rk.Kind)) {
				l.SupportedKinds = append(l.SupportedKinds, routeGroupKind(string(rk.Kind)))
			} else {
				invalid = append(invalid, groupKindString(group, string(rk.Kind)))
			}
		}
		if len(invalid) > 0 && st.notAccepted == nil {
			p := rules.ListenerResolvedRefsInvalidRouteKinds.Problem(
				fmt.Sprintf("route kinds %s are not supported on %s listener", strings.Join(invalid, ", "), article(protocolLabel(l))),
				fmt.Sprintf("remove them from allowedRoutes.kinds; %s listener takes %s", article(protocolLabel(l)), orNone(kinds)))
			st.unresolved = append(st.unresolved, p)
			trace.step("listener.allowedRoutes.kinds", false, p.Message, p.Fix, nil)
		}
	}

	for _, k := range l.SupportedKinds {
		st.kinds |= bitOf(string(k.Kind))
	}

	// Certificates (ListenerTLSConfig.CertificateRefs) for terminating listeners.
	if supported && st.notAccepted == nil && l.TLSMode() == gwv1.TLSModeTerminate {
		e.resolveCertificates(l)
	}
	// Frontend client-certificate validation (GatewayTLSConfig.Frontend), HTTPS only.
	if supported && st.notAccepted == nil && proto == gwv1.HTTPSProtocolType {
		e.resolveFrontendValidation(g, l)
	}
}

// tlsSettingsProblem applies the Listener's TLS rules: HTTPS terminates and needs
// certificates; TLS needs a mode; Terminate on a TLS listener is Extended
// (TLSRouteModeTerminate); HTTP, TCP and UDP take no tls.
func tlsSettingsProblem(l *ListenerResult, f Features) *rules.Problem {
	li := l.Listener
	unsupported := rules.ListenerAcceptedUnsupportedValue
	switch li.Protocol {
	case gwv1.HTTPProtocolType, gwv1.TCPProtocolType, gwv1.UDPProtocolType:
		if li.TLS != nil {
			return problemOf(unsupported, fmt.Sprintf("tls must not be set for protocol %s", li.Protocol),
				"remove tls, or use protocol HTTPS (or TLS) to terminate TLS")
		}
	case gwv1.HTTPSProtocolType:
		if li.TLS != nil && li.TLS.Mode != nil && *li.TLS.Mode == gwv1.TLSModePassthrough {
			return problemOf(unsupported, "tls mode must be Terminate for protocol HTTPS",
				"use protocol TLS with mode Passthrough to pass TLS through, or remove tls.mode")
		}
	case gwv1.TLSProtocolType:
		switch {
		case li.TLS == nil:
			return problemOf(unsupported, "tls must be set for protocol TLS",
				"add tls with mode Passthrough (route on SNI, backend terminates) or Terminate (with certificateRefs)")
		case l.TLSMode() == gwv1.TLSModeTerminate && !f.Supports(features.SupportTLSRouteModeTerminate):
			return problemOf(unsupported, "tls.mode Terminate on a TLS listener is not supported by this implementation (feature TLSRouteModeTerminate)",
				"use tls.mode Passthrough, or an HTTPS listener with an HTTPRoute")
		}
	}
	return nil
}

// ignoredCertificateRefs warns about certificateRefs on a Passthrough listener:
// ListenerTLSConfig.Mode says "The certificateRefs field is ignored in this
// mode", so the listener is accepted and the refs do nothing. It changes no
// condition, so nothing keeps it: findings ask again.
func ignoredCertificateRefs(l *ListenerResult) *rules.Problem {
	if l.TLSMode() != gwv1.TLSModePassthrough || len(l.Listener.TLS.CertificateRefs) == 0 {
		return nil
	}
	return problemOf(rules.ListenerCertificateRefsIgnored,
		"tls.certificateRefs are ignored in Passthrough mode: the backend presents its own certificate, and the certificates listed are never served",
		"remove tls.certificateRefs, or use tls.mode Terminate if the Gateway should terminate TLS")
}

func protocolLabel(l *ListenerResult) string {
	if m := l.TLSMode(); m != "" && l.Listener.Protocol == gwv1.TLSProtocolType {
		return fmt.Sprintf("%s/%s", l.Listener.Protocol, m)
	}
	return string(l.Listener.Protocol)
}

// article prefixes a protocol with "a" or "an" as it is spoken (an HTTP, a TLS).
func article(word string) string {
	if word != "" && strings.ContainsRune("AEFHILMNORSX", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

func orNone(kinds []string) string {
	if len(kinds) == 0 {
		return "no route kinds"
	}
	return strings.Join(kinds, " and ")
}

func routeGroupKind(kind string) gwv1.RouteGroupKind {
	g := gwv1.Group(gwv1.GroupName)
	return gwv1.RouteGroupKind{Group: &g, Kind: gwv1.Kind(kind)}
}

func groupKindString(group, kind string) string {
	if group == "" {
		return kind
	}
	return kind + "." + group
}

// closestProtocol suggests the standard protocol a mistyped one was meant to be.
func closestProtocol(p string) string {
	up := strings.ToUpper(p)
	for _, want := range []string{"HTTPS", "HTTP", "TLS", "TCP", "UDP"} {
		if up == want || strings.HasPrefix(up, want) {
			return fmt.Sprintf(" (did you mean %q?)", want)
		}
	}
	return ""
}
