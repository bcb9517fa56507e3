package analyze

import (
	"fmt"
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// listenerSets resolves every ListenerSet's parent and whether the parent's
// allowedListeners admits it (GEP-1713, apis/v1 listenerset_types.go).
func (e *engine) listenerSets() {
	for _, ls := range e.res.Model.ListenerSets {
		lr := &ListenerSetResult{ListenerSet: ls}
		o := ls.Obj
		ref := o.Spec.ParentRef
		group, kind := written(ref.Group), written(ref.Kind)
		ns := namespaceOr(ref.Namespace, o.Namespace)
		for i, l := range o.Spec.Listeners {
			lr.Listeners = append(lr.Listeners, &ListenerResult{ListenerSet: lr, Listener: gwv1.Listener(l), Index: i})
		}
		if group != gwv1.GroupName || kind != "Gateway" {
			lr.Trace = append(lr.Trace, Step{Rule: "listenerset.parentRef", Detail: fmt.Sprintf("parentRef names %s/%s, not a Gateway", group, kind),
				Fix: "set spec.parentRef.kind to Gateway (group gateway.networking.k8s.io)"})
			e.res.ListenerSets = append(e.res.ListenerSets, lr)
			continue
		}
		parent := model.NamespacedName{Namespace: ns, Name: string(ref.Name)}
		gw := e.ix.gateways[parent]
		if gw == nil {
			if e.ix.allGateways[parent] {
				continue // the parent belongs to another controller
			}
			step := Step{Rule: "listenerset.parentRef", Inputs: map[string]string{"parentRef": parent.String()},
				Detail: fmt.Sprintf("Gateway %s is not in the input", parent),
				Fix:    "check spec.parentRef.name and namespace, or include the Gateway in the input"}
			if why, refused := e.ix.refusal("Gateway", parent); refused {
				step.Detail, step.Fix = why, refusalFix("Gateway")
			}
			lr.Trace = append(lr.Trace, step)
			e.res.ListenerSets = append(e.res.ListenerSets, lr)
			e.ix.listenerSets[model.NameOf(o)] = lr
			continue
		}
		lr.Parent = gw
		for _, l := range lr.Listeners {
			l.Gateway = gw
		}
		lr.Allowed, lr.Trace = e.listenerSetAllowed(gw, lr)
		gw.ListenerSets = append(gw.ListenerSets, lr)
		e.res.ListenerSets = append(e.res.ListenerSets, lr)
		e.ix.listenerSets[model.NameOf(o)] = lr
	}
	for _, g := range e.res.Gateways {
		sort.SliceStable(g.ListenerSets, func(i, j int) bool {
			return listenerSetBefore(g.ListenerSets[i], g.ListenerSets[j])
		})
	}
}

// listenerSetBefore orders ListenerSets by the merge precedence of
// ListenerSetSpec.Listeners: creation time (oldest first, a set not created
// yet last: model.CreatedOrder), then namespace/name.
func listenerSetBefore(a, b *ListenerSetResult) bool {
	if c := model.CreatedOrder(&a.ListenerSet.Obj.CreationTimestamp, &b.ListenerSet.Obj.CreationTimestamp); c != 0 {
		return c < 0
	}
	return model.NameOf(a.ListenerSet.Obj).String() < model.NameOf(b.ListenerSet.Obj).String()
}

// listenerSetAllowed applies the parent Gateway's spec.allowedListeners (default
// from: None).
func (e *engine) listenerSetAllowed(gw *GatewayResult, ls *ListenerSetResult) (bool, []Step) {
	g := gw.Gateway.Obj
	from := gwv1.NamespacesFromNone
	var selector *metav1.LabelSelector
	if al := g.Spec.AllowedListeners; al != nil && al.Namespaces != nil {
		if al.Namespaces.From != nil {
			from = *al.Namespaces.From
		}
		selector = al.Namespaces.Selector
	}
	lsNS := ls.ListenerSet.Obj.Namespace
	step := Step{Rule: "gateway.allowedListeners", Subject: "Gateway " + model.NameOf(g).String(),
		Inputs: map[string]string{"from": string(from), "listenerSetNamespace": lsNS}}
	switch from {
	case gwv1.NamespacesFromAll:
		step.Passed, step.Detail = true, "the Gateway allows ListenerSets from all namespaces"
	case gwv1.NamespacesFromSame:
		step.Passed = lsNS == g.Namespace
		step.Detail = fmt.Sprintf("the Gateway allows ListenerSets from its own namespace %q only", g.Namespace)
		step.Fix = fmt.Sprintf("move the ListenerSet to namespace %s, or set spec.allowedListeners.namespaces.from: All (or Selector) on the Gateway", g.Namespace)
	case gwv1.NamespacesFromSelector:
		nsLabels, _ := e.ix.namespaceLabels(lsNS)
		sel, err := metav1.LabelSelectorAsSelector(selector)
		if selector == nil || err != nil {
			step.Detail = "spec.allowedListeners.namespaces.selector is missing or invalid"
			step.Fix = "give spec.allowedListeners.namespaces a valid selector"
			break
		}
		step.Inputs["selector"] = sel.String()
		step.Inputs["namespaceLabels"] = labels.Set(nsLabels).String()
		step.Passed = sel.Matches(labels.Set(nsLabels))
		step.Detail = fmt.Sprintf("namespace %s labels {%s} against selector %s", lsNS, labels.Set(nsLabels).String(), sel.String())
		step.Fix = fmt.Sprintf("label namespace %s so that it matches %s", lsNS, sel.String())
	default: // None
		step.Detail = "the Gateway does not allow ListenerSets (spec.allowedListeners.namespaces.from defaults to None)"
		step.Fix = "set spec.allowedListeners.namespaces.from on the Gateway to Same, All or Selector"
	}
	if step.Passed {
		step.Fix = ""
	}
	return step.Passed, []Step{step}
}
