package analyze

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// The status a conformant controller would write for each object, built from
// the decisions: render status prints it, and drift compares what a
// controller wrote with it.

// Status is the Gateway's status. Addresses are assigned by the data plane, so
// the ones the input recorded are kept.
func (g *GatewayResult) Status() gwv1.GatewayStatus {
	st := gwv1.GatewayStatus{
		Addresses:  g.Gateway.Obj.Status.Addresses,
		Conditions: Plain(g.Conditions),
		Listeners:  make([]gwv1.ListenerStatus, 0, len(g.Listeners)),
	}
	for _, l := range g.Listeners {
		st.Listeners = append(st.Listeners, gwv1.ListenerStatus{
			Name:           l.Listener.Name,
			SupportedKinds: l.SupportedKinds,
			AttachedRoutes: l.AttachedRoutes(),
			Conditions:     Plain(l.Conditions),
		})
	}
	n := g.AttachedListenerSets
	st.AttachedListenerSets = &n
	return st
}

// Status is the ListenerSet's status: its listeners only once the parent
// Gateway admits it.
func (ls *ListenerSetResult) Status() gwv1.ListenerSetStatus {
	st := gwv1.ListenerSetStatus{Conditions: Plain(ls.Conditions)}
	if !ls.Allowed || ls.Parent == nil {
		return st
	}
	for _, l := range ls.Listeners {
		if l.Conditions == nil {
			continue
		}
		st.Listeners = append(st.Listeners, gwv1.ListenerEntryStatus{
			Name:           l.Listener.Name,
			SupportedKinds: l.SupportedKinds,
			AttachedRoutes: l.AttachedRoutes(),
			Conditions:     Plain(l.Conditions),
		})
	}
	return st
}

// Status is the route's status: one entry per parentRef a controller in scope
// writes (ParentResult.Written), keyed by parentRef and controllerName.
func (rr *RouteResult) Status() gwv1.RouteStatus {
	st := gwv1.RouteStatus{Parents: []gwv1.RouteParentStatus{}}
	for _, p := range rr.Parents {
		if !p.Written {
			continue
		}
		st.Parents = append(st.Parents, gwv1.RouteParentStatus{
			ParentRef:      *p.Ref,
			ControllerName: p.Controller(),
			Conditions:     Plain(p.Conditions()),
		})
	}
	return st
}

// Status is the BackendTLSPolicy's status: one entry per ancestor Gateway,
// keyed by ancestorRef and controllerName, each with the policy's conditions.
func (pr *PolicyResult) Status() gwv1.PolicyStatus {
	st := gwv1.PolicyStatus{Ancestors: []gwv1.PolicyAncestorStatus{}}
	for _, g := range pr.Ancestors {
		st.Ancestors = append(st.Ancestors, gwv1.PolicyAncestorStatus{
			AncestorRef:    AncestorRef(g),
			ControllerName: g.Controller,
			Conditions:     Plain(pr.Conditions),
		})
	}
	return st
}

// AncestorRef is how a policy's status names an ancestor Gateway: group, kind
// and namespace spelled out.
func AncestorRef(g *GatewayResult) gwv1.ParentReference {
	gw := g.Gateway.Obj
	group, kind, ns := gwv1.Group(gwv1.GroupName), gwv1.Kind("Gateway"), gwv1.Namespace(gw.Namespace)
	return gwv1.ParentReference{Group: &group, Kind: &kind, Namespace: &ns, Name: gwv1.ObjectName(gw.Name)}
}

// AcceptedStatus is the status and reason of the parent's Accepted condition,
// as AcceptedCondition writes it, without building its message (drift
// compares every parent of a large dump by these alone); ok is false when the
// parent has no conditions.
func (p *ParentResult) AcceptedStatus() (status metav1.ConditionStatus, reason string, ok bool) {
	switch {
	case !p.decided:
		return "", "", false
	case p.rejected != nil:
		rc := p.rejected.Rule.Condition
		return rc.Unhealthy(), rc.Reason, true
	}
	return metav1.ConditionTrue, string(gwv1.RouteReasonAccepted), true
}
