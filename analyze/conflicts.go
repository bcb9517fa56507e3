package analyze

import (
	"fmt"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	"sigs.k8s.io/gateway-api/pkg/features"

	"github.com/kubectl-gwtls/kubectl-gwtls/hostname"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// merged is the Gateway's listeners followed by those of its admitted ListenerSets,
// in the precedence ListenerSetSpec.Listeners defines: the Gateway, then ListenerSets
// oldest first, then by namespace/name. rank is the position of the owner.
type ranked struct {
	l    *ListenerResult
	rank int
}

// It is built once, when the Gateway's listeners are decided (which ListenerSets
// are allowed is known by then), and read by every later step.
func mergedListeners(g *GatewayResult) []ranked {
	if g.merged != nil {
		return g.merged
	}
	n := len(g.Listeners)
	for _, ls := range g.ListenerSets {
		if ls.Allowed {
			n += len(ls.Listeners)
		}
	}
	out := make([]ranked, 0, n)
	for _, l := range g.Listeners {
		out = append(out, ranked{l, 0})
	}
	for i, ls := range g.ListenerSets {
		if !ls.Allowed {
			continue
		}
		for _, l := range ls.Listeners {
			out = append(out, ranked{l, i + 1})
		}
	}
	return out
}

// conflicts marks listeners that are not distinct (Gateway spec "Distinct
// Listeners"; GEP-2643 for TLS/Passthrough beside HTTPS on one port) and listeners
// whose TLS configuration overlaps on one port (OverlappingTLSConfig).
func (e *engine) conflicts(g *GatewayResult) {
	f := e.features(g)
	byPort := map[gwv1.PortNumber][]ranked{}
	var ports []gwv1.PortNumber
	for _, r := range mergedListeners(g) {
		if r.l.state.notAccepted != nil {
			continue // never configured, so it conflicts with nothing
		}
		p := r.l.Listener.Port
		if _, ok := byPort[p]; !ok {
			ports = append(ports, p)
		}
		byPort[p] = append(byPort[p], r)
	}
	for _, p := range ports {
		group := byPort[p]
		for i := range group {
			for j := i + 1; j < len(group); j++ {
				a, b := group[i], group[j]
				rule, why := conflictBetween(a.l, b.l, f)
				if rule == nil {
					continue
				}
				// Within one owner every indistinct listener is conflicted (no winner);
				// across owners the one of higher precedence keeps its place.
				if a.rank == b.rank {
					e.markConflict(a.l, b.l, rule, why)
				}
				e.markConflict(b.l, a.l, rule, why)
			}
		}
		for i := range group {
			for j := i + 1; j < len(group); j++ {
				overlapping(group[i].l, group[j].l)
			}
		}
	}
}

// conflictBetween returns the rule two listeners on one port conflict by, and
// why; nil when they are distinct.
func conflictBetween(a, b *ListenerResult, f Features) (*rules.Rule, string) {
	pa, pb := a.Listener.Protocol, b.Listener.Protocol
	port := a.Listener.Port
	hostnameConflict := rules.ListenerAcceptedHostnameConflict
	protocolConflict := rules.ListenerAcceptedProtocolConflict
	sameHost := !hostname.Distinct(a.Hostname(), b.Hostname())
	hostDesc := func() string {
		if a.Hostname() == "" {
			return "no hostname"
		}
		return fmt.Sprintf("hostname %s", a.Hostname())
	}
	if pa == pb {
		switch pa {
		case gwv1.TCPProtocolType, gwv1.UDPProtocolType:
			return protocolConflict, fmt.Sprintf("two %s listeners on port %d cannot be told apart", pa, port)
		case gwv1.TLSProtocolType:
			if a.TLSMode() != b.TLSMode() && !f.Supports(features.SupportTLSRouteModeMixed) {
				return protocolConflict, fmt.Sprintf("TLS/%s and TLS/%s on port %d need mixed termination (feature TLSRouteModeMixed), which this implementation does not support", a.TLSMode(), b.TLSMode(), port)
			}
		}
		if sameHost {
			return hostnameConflict, fmt.Sprintf("both are %s on port %d with %s", pa, port, hostDesc())
		}
		return nil, ""
	}
	tlsPair := func(x, y gwv1.ProtocolType) bool { return (pa == x && pb == y) || (pa == y && pb == x) }
	switch {
	case tlsPair(gwv1.HTTPSProtocolType, gwv1.TLSProtocolType):
		// DESIGN.md reads GEP-2643's "TLS/Passthrough and HTTPS/Terminate" conflict row
		// per port: on different ports the two are distinct, as every Gateway API
		// distinctness rule is scoped to a port.
		tls := a
		if pb == gwv1.TLSProtocolType {
			tls = b
		}
		if tls.TLSMode() == gwv1.TLSModePassthrough {
			// GEP-2643 "Conflict management": TLS/Passthrough beside HTTPS/Terminate.
			return protocolConflict, fmt.Sprintf("TLS/Passthrough and HTTPS share port %d; a port either passes TLS through or terminates it for HTTPS (GEP-2643)", port)
		}
		if sameHost {
			return hostnameConflict, fmt.Sprintf("HTTPS and TLS/Terminate on port %d both serve %s", port, hostDesc())
		}
		return nil, ""
	case tlsPair(gwv1.TCPProtocolType, gwv1.UDPProtocolType),
		pa == gwv1.UDPProtocolType, pb == gwv1.UDPProtocolType:
		return nil, "" // different transports share a port number
	}
	return protocolConflict, fmt.Sprintf("%s and %s cannot share port %d", pa, pb, port)
}

func (e *engine) markConflict(l, other *ListenerResult, rule *rules.Rule, why string) {
	if l.state.conflict != nil && l.state.conflict.Rule == rules.ListenerAcceptedProtocolConflict {
		return // the protocol conflict is the more fundamental one; keep it
	}
	where := "listener " + other.Name()
	if other.ListenerSet != nil {
		where += " of ListenerSet " + other.Owner().NamespacedName().String()
	}
	fix := "give it another port"
	if rule == rules.ListenerAcceptedHostnameConflict {
		fix = "give it a distinct hostname or another port"
	}
	l.state.conflict = problemOf(rule, fmt.Sprintf("conflicts with %s: %s", where, why), fix)
	l.Conflicted = true
	if e.tracingListener(l) {
		l.Trace = append(l.Trace, Step{Rule: "listener.distinct", Subject: "listener " + l.Name(), Detail: l.state.conflict.Message, Fix: fix})
	}
}

// overlapping marks two terminating listeners on one port whose hostnames overlap
// without being equal (OverlappingTLSConfig, reason OverlappingHostnames). Equal
// hostnames are a conflict instead.
func overlapping(a, b *ListenerResult) {
	if a.TLSMode() != gwv1.TLSModeTerminate || b.TLSMode() != gwv1.TLSModeTerminate || !hostname.Distinct(a.Hostname(), b.Hostname()) {
		return
	}
	if a.state.conflict != nil || b.state.conflict != nil {
		return
	}
	if !hostname.Overlap(a.Hostname(), b.Hostname()) {
		return
	}
	for _, pair := range [][2]*ListenerResult{{a, b}, {b, a}} {
		l, other := pair[0], pair[1]
		l.state.overlaps = append(l.state.overlaps, other.Name())
	}
}
