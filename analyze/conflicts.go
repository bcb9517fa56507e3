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
	// The listeners that keep their place on a port, and those of one owner:
	// scratch for portConflicts, reused from port to port.
	var keptBuf, stayBuf [32]*ListenerResult
	kept, stay := keptBuf[:0], stayBuf[:0]
	for _, p := range ports {
		group := byPort[p]
		kept, stay = e.portConflicts(group, f, kept[:0], stay[:0])
		for i := range group {
			for j := i + 1; j < len(group); j++ {
				overlapping(group[i].l, group[j].l)
			}
		}
	}
}

// portConflicts decides the conflicts among one port's listeners, which come
// in precedence order (mergedListeners). Each owner's listeners (the
// Gateway's, then each ListenerSet's) are checked first against the listeners
// of the owners before it that kept their place: one that is not distinct from
// any of them is conflicted and drops out, knocking out neither its siblings
// nor any later listener (ListenerSetSpec.Listeners precedence; the upstream
// tests ListenerSetHostnameConflict and ListenerSetProtocolConflict). The
// owner's other listeners are then checked against each other, and there no
// listener wins: "The implementation MUST NOT pick one conflicting Listener as
// the winner. ALL indistinct Listeners must not be accepted" (GatewaySpec.Listeners).
// Those keep their place for later owners too: a ListenerSet listener
// indistinct from them is conflicted as well.
//
// kept and stay are empty scratch slices; they are returned for reuse.
func (e *engine) portConflicts(group []ranked, f Features, kept, stay []*ListenerResult) ([]*ListenerResult, []*ListenerResult) {
	for lo := 0; lo < len(group); {
		hi := lo + 1
		for hi < len(group) && group[hi].rank == group[lo].rank {
			hi++
		}
		stay = stay[:0]
		for _, r := range group[lo:hi] {
			lost := false
			for _, k := range kept {
				if c := conflictBetween(k, r.l, f, e.opts.AllowMixedTermination); c.rule != nil {
					e.markConflict(r.l, k, c)
					lost = true
				}
			}
			if !lost {
				stay = append(stay, r.l)
			}
		}
		for i := range stay {
			for j := i + 1; j < len(stay); j++ {
				if c := conflictBetween(stay[i], stay[j], f, e.opts.AllowMixedTermination); c.rule != nil {
					e.markConflict(stay[i], stay[j], c)
					e.markConflict(stay[j], stay[i], c)
				}
			}
		}
		kept = append(kept, stay...)
		lo = hi
	}
	return kept, stay
}

// conflict is why two listeners on one port are not distinct.
type conflict struct {
	rule *rules.Rule // nil when they are distinct
	why  string
	fix  string
	// unsupported: the implementation cannot serve the two listeners' TLS
	// modes on one port (TLSRouteModeMixed, --allow-mixed-termination), so it
	// takes no route kind on either (rules.ListenerAcceptedProtocolConflict).
	unsupported bool
}

// conflictBetween is how two listeners on one port conflict; its rule is nil
// when they are distinct. mixedTermination says the implementation serves
// HTTPS (Terminate) and TLS Passthrough listeners on one port.
func conflictBetween(a, b *ListenerResult, f Features, mixedTermination bool) conflict {
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
			return conflict{rule: protocolConflict, why: fmt.Sprintf("two %s listeners on port %d cannot be told apart", pa, port), fix: "give it another port"}
		case gwv1.TLSProtocolType:
			if a.TLSMode() != b.TLSMode() && !f.Supports(features.SupportTLSRouteModeMixed) {
				return conflict{rule: protocolConflict, unsupported: true,
					why: fmt.Sprintf("TLS/%s and TLS/%s on port %d need mixed termination (feature TLSRouteModeMixed), which this implementation does not support", a.TLSMode(), b.TLSMode(), port),
					fix: "give it another port, or use an implementation that supports TLSRouteModeMixed"}
			}
		}
		if sameHost {
			return conflict{rule: hostnameConflict, why: fmt.Sprintf("both are %s on port %d with %s", pa, port, hostDesc()), fix: "give it a distinct hostname or another port"}
		}
		return conflict{}
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
		if tls.TLSMode() == gwv1.TLSModePassthrough && !mixedTermination {
			// GEP-2643 "Conflict management": TLS/Passthrough beside HTTPS/Terminate.
			return conflict{rule: protocolConflict, unsupported: true,
				why: fmt.Sprintf("TLS/Passthrough and HTTPS share port %d; a port either passes TLS through or terminates it for HTTPS (GEP-2643)", port),
				fix: "give it another port, or pass --allow-mixed-termination if the implementation routes HTTPS and TLS Passthrough on one port by SNI"}
		}
		if sameHost {
			return conflict{rule: hostnameConflict, why: fmt.Sprintf("HTTPS and TLS/%s on port %d both serve %s", tls.TLSMode(), port, hostDesc()), fix: "give it a distinct hostname or another port"}
		}
		return conflict{}
	case tlsPair(gwv1.TCPProtocolType, gwv1.UDPProtocolType),
		pa == gwv1.UDPProtocolType, pb == gwv1.UDPProtocolType:
		return conflict{} // different transports share a port number
	}
	return conflict{rule: protocolConflict, why: fmt.Sprintf("%s and %s cannot share port %d", pa, pb, port), fix: "give it another port"}
}

// markConflict conflicts l with other. A listener whose TLS mode the
// implementation cannot serve beside other's takes no route kind.
func (e *engine) markConflict(l, other *ListenerResult, c conflict) {
	l.Conflicted = true
	if c.unsupported && !l.state.unsupportedMix {
		l.state.unsupportedMix = true
		l.SupportedKinds = []gwv1.RouteGroupKind{}
		l.state.kinds = 0
	}
	if l.state.conflict != nil && l.state.conflict.Rule == rules.ListenerAcceptedProtocolConflict {
		return // the protocol conflict is the more fundamental one; keep it
	}
	where := "listener " + other.Name()
	if other.ListenerSet != nil {
		where += " of ListenerSet " + other.Owner().NamespacedName().String()
	}
	l.state.conflict = problemOf(c.rule, fmt.Sprintf("conflicts with %s: %s", where, c.why), c.fix)
	if e.tracingListener(l) {
		l.Trace = append(l.Trace, Step{Rule: "listener.distinct", Subject: "listener " + l.Name(), Detail: l.state.conflict.Message, Fix: c.fix})
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
