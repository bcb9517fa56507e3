package drift

import (
	"cmp"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// Pair is one object's status as written and as the spec says, each reduced
// to what drift compares, for a person to diff: conditions without message
// and lastTransitionTime, sorted by type; listeners by name; route parents
// and policy ancestors of the selected controllers only, their refs with the
// defaults filled in, sorted; supportedKinds with their group.
type Pair struct {
	Ref      model.Ref
	Source   model.Source
	Written  any
	Computed any
}

// Shown is a condition as a Pair shows it.
type Shown struct {
	Type               string                 `json:"type"`
	Status             metav1.ConditionStatus `json:"status"`
	Reason             string                 `json:"reason"`
	ObservedGeneration int64                  `json:"observedGeneration,omitempty"`
}

// ShownListener is a listener's status entry as a Pair shows it.
type ShownListener struct {
	Name           gwv1.SectionName `json:"name"`
	AttachedRoutes int32            `json:"attachedRoutes"`
	SupportedKinds []string         `json:"supportedKinds"`
	Conditions     []Shown          `json:"conditions"`
}

// ShownGateway is a Gateway's or ListenerSet's status as a Pair shows it.
type ShownGateway struct {
	AttachedListenerSets *int32          `json:"attachedListenerSets,omitempty"`
	Conditions           []Shown         `json:"conditions"`
	Listeners            []ShownListener `json:"listeners"`
}

// ShownEntry is a route's parent or a policy's ancestor entry as a Pair
// shows it.
type ShownEntry struct {
	Ref            gwv1.ParentReference   `json:"ref"`
	ControllerName gwv1.GatewayController `json:"controllerName"`
	Conditions     []Shown                `json:"conditions"`
}

// ShownEntries is a route's or policy's status as a Pair shows it.
type ShownEntries struct {
	Entries []ShownEntry `json:"entries"`
}

// Pairs is every object in scope, in render status's order: Gateways,
// ListenerSets, routes, BackendTLSPolicies.
func (v *View) Pairs() []Pair {
	var out []Pair
	for _, g := range v.res.Gateways {
		o := g.Gateway.Obj
		var n *int32
		if g.Gateway.Obj.Status.AttachedListenerSets != nil {
			n = &g.AttachedListenerSets // shown when the controller wrote it
		}
		out = append(out, Pair{
			Ref: model.Ref{Kind: "Gateway", Namespace: o.Namespace, Name: o.Name}, Source: g.Gateway.Source,
			Written:  ShownGateway{AttachedListenerSets: o.Status.AttachedListenerSets, Conditions: shownWritten(o.Status.Conditions), Listeners: shownListeners(o.Status.Listeners)},
			Computed: ShownGateway{AttachedListenerSets: n, Conditions: shownComputed(g.Conditions), Listeners: computedListeners(g.Listeners)},
		})
	}
	for _, ls := range v.res.ListenerSets {
		if ls.Parent == nil {
			continue
		}
		o := ls.ListenerSet.Obj
		written := make([]gwv1.ListenerStatus, len(o.Status.Listeners))
		for i, l := range o.Status.Listeners {
			written[i] = gwv1.ListenerStatus(l)
		}
		var computed []*analyze.ListenerResult
		if ls.Allowed {
			computed = ls.Listeners
		}
		out = append(out, Pair{
			Ref: model.Ref{Kind: "ListenerSet", Namespace: o.Namespace, Name: o.Name}, Source: ls.ListenerSet.Source,
			Written:  ShownGateway{Conditions: shownWritten(o.Status.Conditions), Listeners: shownListeners(written)},
			Computed: ShownGateway{Conditions: shownComputed(ls.Conditions), Listeners: computedListeners(computed)},
		})
	}
	for _, rr := range v.res.Routes {
		r := rr.Route
		ns := r.ObjectMeta.Namespace
		written := ShownEntries{Entries: []ShownEntry{}}
		for _, p := range r.Status.Parents {
			if v.ours(p.ControllerName) {
				written.Entries = append(written.Entries, ShownEntry{Ref: withDefaults(p.ParentRef, ns), ControllerName: p.ControllerName, Conditions: shownWritten(p.Conditions)})
			}
		}
		computed := ShownEntries{Entries: []ShownEntry{}}
		for _, p := range rr.Parents {
			if p.Written {
				computed.Entries = append(computed.Entries, ShownEntry{Ref: withDefaults(*p.Ref, ns), ControllerName: p.Controller(), Conditions: shownComputed(p.Conditions())})
			}
		}
		if len(written.Entries) == 0 && len(computed.Entries) == 0 {
			continue // no selected controller writes this route's status
		}
		sortEntries(written.Entries)
		sortEntries(computed.Entries)
		out = append(out, Pair{Ref: model.Ref{Kind: r.Kind, Namespace: ns, Name: r.ObjectMeta.Name}, Source: r.Source, Written: written, Computed: computed})
	}
	for _, pr := range v.res.BackendTLSPolicies {
		p := pr.Policy
		ns := p.Obj.Namespace
		written := ShownEntries{Entries: []ShownEntry{}}
		for _, a := range p.Obj.Status.Ancestors {
			if v.ours(a.ControllerName) {
				written.Entries = append(written.Entries, ShownEntry{Ref: withDefaults(a.AncestorRef, ns), ControllerName: a.ControllerName, Conditions: shownWritten(a.Conditions)})
			}
		}
		computed := ShownEntries{Entries: []ShownEntry{}}
		for _, g := range pr.Ancestors {
			computed.Entries = append(computed.Entries, ShownEntry{Ref: withDefaults(analyze.AncestorRef(g), ns), ControllerName: g.Controller, Conditions: shownComputed(pr.Conditions)})
		}
		sortEntries(written.Entries)
		sortEntries(computed.Entries)
		out = append(out, Pair{Ref: model.Ref{Kind: "BackendTLSPolicy", Namespace: ns, Name: p.Obj.Name}, Source: p.Source, Written: written, Computed: computed})
	}
	return out
}

func shownWritten(cs []metav1.Condition) []Shown {
	out := make([]Shown, len(cs))
	for i, c := range cs {
		out[i] = Shown{Type: c.Type, Status: c.Status, Reason: c.Reason, ObservedGeneration: c.ObservedGeneration}
	}
	slices.SortStableFunc(out, func(a, b Shown) int { return cmp.Compare(a.Type, b.Type) })
	return out
}

func shownComputed(cs []analyze.Condition) []Shown {
	return shownWritten(analyze.Plain(cs))
}

func shownListeners(ls []gwv1.ListenerStatus) []ShownListener {
	out := make([]ShownListener, len(ls))
	for i, l := range ls {
		out[i] = ShownListener{Name: l.Name, AttachedRoutes: l.AttachedRoutes, SupportedKinds: kindSet(l.SupportedKinds), Conditions: shownWritten(l.Conditions)}
	}
	slices.SortStableFunc(out, func(a, b ShownListener) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

func computedListeners(ls []*analyze.ListenerResult) []ShownListener {
	out := make([]ShownListener, 0, len(ls))
	for _, l := range ls {
		if l.Conditions == nil {
			continue
		}
		out = append(out, ShownListener{Name: l.Listener.Name, AttachedRoutes: l.AttachedRoutes(), SupportedKinds: kindSet(l.SupportedKinds), Conditions: shownComputed(l.Conditions)})
	}
	slices.SortStableFunc(out, func(a, b ShownListener) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// withDefaults is a parentRef or ancestorRef with group, kind and namespace
// spelled out.
func withDefaults(ref gwv1.ParentReference, ns string) gwv1.ParentReference {
	group, kind, namespace := gwv1.Group(groupOf(ref.Group)), gwv1.Kind(kindOf(ref.Kind)), gwv1.Namespace(namespaceOf(ref.Namespace, ns))
	ref.Group, ref.Kind, ref.Namespace = &group, &kind, &namespace
	if ref.SectionName != nil && *ref.SectionName == "" {
		ref.SectionName = nil
	}
	return ref
}

func sortEntries(es []ShownEntry) {
	slices.SortStableFunc(es, func(a, b ShownEntry) int {
		if c := cmp.Compare(parentName(&a.Ref, ""), parentName(&b.Ref, "")); c != 0 {
			return c
		}
		return cmp.Compare(a.ControllerName, b.ControllerName)
	})
}
