package drift

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// View is the drift view of one Result: what each object in scope is, as far
// as its written status goes (served, missing, behind), decided once so that
// an object's comparison can say why a part that depends on another is not
// compared.
type View struct {
	res *analyze.Result
	// controllers are the selected classes' controllers: their entries in a
	// route's or policy's status are compared, others' are theirs.
	controllers map[gwv1.GatewayController]bool
	// others are the controllers of classes in the input that are not
	// selected; assumed is set when a Gateway's class is not in the input,
	// so that any other controller may be its.
	others  map[gwv1.GatewayController]bool
	assumed bool

	classes        map[*analyze.GatewayClassResult]*classState
	gateways       map[*analyze.GatewayResult]*gatewayState
	gatewaysByName map[model.NamespacedName]*analyze.GatewayResult
	listenerSets   map[*analyze.ListenerSetResult]*gatewayState
	staleRoutes    map[*analyze.RouteResult]int64
}

// classState is what a class's written status says about its controller.
type classState struct {
	// unserved says why no status is due under the class: no controller wrote
	// the class's own, or its controller did not accept it. "" when served.
	unserved string
	// gateways, listenerSets, routes and policies count the objects under an
	// unserved class that carry no status from it either.
	gateways, listenerSets, routes, policies int
}

// gatewayState is what a Gateway's or ListenerSet's written status says.
type gatewayState struct {
	class *classState // the Gateway's class; nil when not in the input
	// missing: no status at all, or only the API server's defaults.
	missing bool
	// behind is the observedGeneration its controller last processed, when
	// that is older than metadata.generation; 0 when it is not behind.
	behind int64
	// routesBehind: a route that names the Gateway is behind, so the routes
	// the controller counts may be those of an older spec; or the engine did
	// not attach one (analysis/WorkBounded), so the spec's counts leave it out.
	routesBehind bool
	// routes, listenerSets and policies count the objects that name a Gateway
	// whose status is missing and carry no status from it either.
	routes, listenerSets, policies int
}

func (s *gatewayState) unserved() bool { return s.class != nil && s.class.unserved != "" }

// New builds the drift view of a Result.
func New(res *analyze.Result) *View {
	v := &View{
		res:            res,
		controllers:    map[gwv1.GatewayController]bool{},
		others:         map[gwv1.GatewayController]bool{},
		classes:        map[*analyze.GatewayClassResult]*classState{},
		gateways:       make(map[*analyze.GatewayResult]*gatewayState, len(res.Gateways)),
		gatewaysByName: make(map[model.NamespacedName]*analyze.GatewayResult, len(res.Gateways)),
		listenerSets:   map[*analyze.ListenerSetResult]*gatewayState{},
		staleRoutes:    map[*analyze.RouteResult]int64{},
	}
	for _, c := range res.GatewayClasses {
		ctrl := c.Class.Obj.Spec.ControllerName
		if !c.InScope {
			v.others[ctrl] = true
			continue
		}
		v.controllers[ctrl] = true
		v.classes[c] = &classState{unserved: unserved(c.Class)}
	}
	for ctrl := range v.controllers {
		delete(v.others, ctrl)
	}
	for _, g := range res.Gateways {
		o := g.Gateway.Obj
		st := &gatewayState{class: v.classes[g.Class], missing: noStatus(o.Status.Conditions, len(o.Status.Listeners))}
		st.behind = behind(o.Status.Conditions, o.Generation)
		for _, l := range o.Status.Listeners {
			st.behind = oldest(st.behind, behind(l.Conditions, o.Generation))
		}
		if g.ClassMissing {
			v.assumed = true
		}
		v.gateways[g] = st
		v.gatewaysByName[model.NameOf(o)] = g
	}
	for _, ls := range res.ListenerSets {
		if ls.Parent == nil {
			continue
		}
		o := ls.ListenerSet.Obj
		st := &gatewayState{class: v.gateways[ls.Parent].class, missing: noStatus(o.Status.Conditions, len(o.Status.Listeners))}
		st.behind = behind(o.Status.Conditions, o.Generation)
		for _, l := range o.Status.Listeners {
			st.behind = oldest(st.behind, behind(l.Conditions, o.Generation))
		}
		v.listenerSets[ls] = st
	}
	for _, rr := range res.Routes {
		v.noteStaleRoute(rr)
		v.noteSkippedRoute(rr)
	}
	return v
}

// noteSkippedRoute marks the Gateways a route the engine did not attach
// names in its spec: the routes the spec counts on them leave it out.
func (v *View) noteSkippedRoute(rr *analyze.RouteResult) {
	if rr.Skipped == nil {
		return
	}
	r := rr.Route
	for _, ref := range r.ParentRefs {
		if groupOf(ref.Group) == gwv1.GroupName && kindOf(ref.Kind) == "Gateway" {
			if g := v.gatewaysByName[model.NamespacedName{Namespace: namespaceOf(ref.Namespace, r.ObjectMeta.Namespace), Name: string(ref.Name)}]; g != nil {
				v.gateways[g].routesBehind = true
			}
		}
	}
}

// ours reports whether a controller's entries in a route's or policy's status
// are compared: a selected class's controller, or, when a Gateway's class is
// not in the input, any controller whose class is not another's.
func (v *View) ours(c gwv1.GatewayController) bool {
	return v.controllers[c] || v.assumed && !v.others[c]
}

// noteStaleRoute records a route whose written parents are behind its spec,
// and marks the Gateways it names (in its spec and in its status): the routes
// their controller counts may be those of the older spec.
func (v *View) noteStaleRoute(rr *analyze.RouteResult) {
	r := rr.Route
	var gen int64
	for _, p := range r.Status.Parents {
		if v.ours(p.ControllerName) {
			gen = oldest(gen, behind(p.Conditions, r.ObjectMeta.Generation))
		}
	}
	if gen == 0 {
		return
	}
	v.staleRoutes[rr] = gen
	for _, p := range rr.Parents {
		if g := parentGateway(p); g != nil {
			v.gateways[g].routesBehind = true
		}
	}
	for _, p := range r.Status.Parents {
		if ref := p.ParentRef; groupOf(ref.Group) == gwv1.GroupName && kindOf(ref.Kind) == "Gateway" {
			if g := v.gatewaysByName[model.NamespacedName{Namespace: namespaceOf(ref.Namespace, r.ObjectMeta.Namespace), Name: string(ref.Name)}]; g != nil {
				v.gateways[g].routesBehind = true
			}
		}
	}
}

// parentGateway is the Gateway a route parent resolved to, through a
// ListenerSet if it names one.
func parentGateway(p *analyze.ParentResult) *analyze.GatewayResult {
	if p.Gateway != nil {
		return p.Gateway
	}
	if p.ListenerSet != nil {
		return p.ListenerSet.Parent
	}
	return nil
}

// unserved says why a class's written status shows that no status is due
// under it, or "". A class without status is not judged: the input did not
// record it (a manifest); a cluster always has one, the CRD's default at
// least.
func unserved(c *model.GatewayClass) string {
	cs := c.Obj.Status.Conditions
	if len(cs) == 0 {
		return ""
	}
	if waiting(cs) {
		return "no controller has written its status: it holds only the API server's default (Accepted=Unknown, reason Pending)"
	}
	if a := meta.FindStatusCondition(cs, string(gwv1.GatewayClassConditionStatusAccepted)); a != nil && a.Status == metav1.ConditionFalse {
		return fmt.Sprintf("its controller did not accept it (Accepted=False, reason %s)", a.Reason)
	}
	return ""
}

// waiting reports whether conditions are only the defaults the API server
// writes before any controller does (the CRDs' status default: each Unknown,
// reason Pending, "Waiting for controller").
func waiting(cs []metav1.Condition) bool {
	if len(cs) == 0 {
		return false
	}
	for _, c := range cs {
		if c.Status != metav1.ConditionUnknown || c.Reason != string(gwv1.GatewayReasonPending) {
			return false
		}
	}
	return true
}

// noStatus reports whether a Gateway's or ListenerSet's written status shows
// that no controller processed it: no listeners, and no conditions or only
// the API server's defaults.
func noStatus(cs []metav1.Condition, listeners int) bool {
	return listeners == 0 && (len(cs) == 0 || waiting(cs))
}

// behind returns the oldest observedGeneration among conditions written
// about an older spec than generation, or 0 when none is. A generation or
// observedGeneration of 0 was not recorded (a file without it) and is never
// behind.
func behind(cs []metav1.Condition, generation int64) int64 {
	var gen int64
	for _, c := range cs {
		if c.ObservedGeneration > 0 && c.ObservedGeneration < generation {
			gen = oldest(gen, c.ObservedGeneration)
		}
	}
	return gen
}

// oldest is the older of two generations, 0 standing for none.
func oldest(a, b int64) int64 {
	if a == 0 || b != 0 && b < a {
		return b
	}
	return a
}

func groupOf(g *gwv1.Group) string {
	if g == nil {
		return gwv1.GroupName
	}
	return string(*g)
}

func kindOf(k *gwv1.Kind) string {
	if k == nil {
		return "Gateway"
	}
	return string(*k)
}

func namespaceOf(ns *gwv1.Namespace, def string) string {
	if ns == nil || *ns == "" {
		return def
	}
	return string(*ns)
}
