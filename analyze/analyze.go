package analyze

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	"sigs.k8s.io/gateway-api/pkg/features"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// engine carries one analysis: the model, its index and the result being built.
type engine struct {
	opts  Options
	now   metav1.Time
	run   *runShared // shared by results that build what they keep on demand
	ix    *index
	res   *Result
	certs *certificateCache
	// selectors parses each distinct allowedRoutes namespace selector once.
	selectors selectorCache
	// routeFindings are the routes' own findings, one list per range of routes
	// the route step decided.
	routeFindings []findingList
	// crossFindings are the findings of parentRefs the cross-serving rule
	// rejected after their routes' own findings were collected.
	crossFindings findingList
	// targeted are the Services some BackendTLSPolicy targets, and
	// policyTargets the policies by target, in precedence order
	// (policyDecisions): resolving a backend reads them.
	targeted      map[*model.Service]bool
	policyTargets map[policyTarget][]*PolicyResult
}

// tracing reports whether the steps of the object kind namespace/name are
// recorded (Options.Trace, Options.TraceOnly).
func (e *engine) tracing(kind, namespace, name string) bool {
	if !e.opts.Trace {
		return false
	}
	o := e.opts.TraceOnly
	return o == nil || (o.Kind == kind && o.Namespace == namespace && o.Name == name)
}

// tracingListener reports whether a listener's steps are recorded: those of the
// Gateway it belongs to, or of its ListenerSet.
func (e *engine) tracingListener(l *ListenerResult) bool {
	if !e.opts.Trace {
		return false
	}
	if e.opts.TraceOnly == nil {
		return true
	}
	if ls := l.ListenerSet; ls != nil && e.tracing("ListenerSet", ls.ListenerSet.Obj.Namespace, ls.ListenerSet.Obj.Name) {
		return true
	}
	return l.Gateway != nil && e.tracing("Gateway", l.Gateway.Gateway.Obj.Namespace, l.Gateway.Gateway.Obj.Name)
}

// Analyze runs the engine over a model. It never fails: every problem in the input
// becomes a condition or a finding.
func Analyze(m *model.Model, opts Options) *Result {
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	e := &engine{
		opts:  opts,
		now:   metav1.NewTime(opts.Now.UTC().Truncate(time.Second)),
		ix:    newIndex(m),
		res:   &Result{Model: m, Now: opts.Now},
		certs: newCertificateCache(),
	}
	e.run = &runShared{now: metav1.Time{Time: e.now.Time}, controller: gwv1.GatewayController(opts.Controller)}
	e.classes()
	e.gateways()
	e.listenerSets()
	// Each Gateway's listeners and their ListenerSets' are decided from that
	// Gateway alone (conflicts are per Gateway), so Gateways go on every core;
	// BackendTLSPolicies, which routes' backends read, read no listener.
	concurrently(func() {
		forEach(len(e.res.Gateways), func(i int) {
			e.listeners(e.res.Gateways[i])
			e.gatewayStatus(e.res.Gateways[i])
		})
	}, e.policyDecisions)
	for _, ls := range e.res.ListenerSets {
		e.listenerSetStatus(ls)
	}
	for _, g := range e.res.Gateways {
		for _, ls := range g.ListenerSets {
			if IsTrue(ls.Conditions, string(gwv1.ListenerSetConditionAccepted)) {
				g.AttachedListenerSets++
			}
		}
	}
	e.routes()
	// Certificates write listener and certificate results, policyAncestors
	// policy results, ocg mesh results: none reads what another writes.
	// Annotations come after: a route's lints share the lazily made part of
	// its result (RouteResult.refs) that policyAncestors reads.
	concurrently(e.certificates, e.policyAncestors, e.ocg)
	e.annotations()
	e.findings()
	return e.res
}

func (e *engine) classes() {
	for _, c := range e.res.Model.GatewayClasses {
		cr := &GatewayClassResult{
			Class:   c,
			InScope: e.opts.Controller == "" || string(c.Obj.Spec.ControllerName) == e.opts.Controller,
		}
		switch {
		case e.opts.Features != nil:
			cr.Features = e.opts.Features
		case len(c.Obj.Status.SupportedFeatures) > 0:
			cr.Features = Features{}
			for _, f := range c.Obj.Status.SupportedFeatures {
				cr.Features[features.FeatureName(f.Name)] = true
			}
		}
		e.res.GatewayClasses = append(e.res.GatewayClasses, cr)
		e.ix.classes[c.Obj.Name] = cr
	}
}

// features is what the Gateway's implementation supports.
func (e *engine) features(g *GatewayResult) Features {
	if g.Class != nil {
		return g.Class.Features
	}
	return e.opts.Features
}

func (e *engine) gateways() {
	gws := e.res.Model.Gateways
	keys := e.ix.packed.keys(len(gws), func(i int) nn { return nn{Namespace: gws[i].Obj.Namespace, Name: gws[i].Obj.Name} })
	for i, g := range gws {
		gr := &GatewayResult{Gateway: g}
		className := string(g.Obj.Spec.GatewayClassName)
		if c := e.ix.classes[className]; c != nil {
			if !c.InScope {
				continue
			}
			gr.Class = c
			gr.Controller = c.Class.Obj.Spec.ControllerName
		} else {
			if e.opts.Controller != "" {
				// Another controller's class may own it; nothing in scope writes its status.
				continue
			}
			// App teams lint routes without the platform's GatewayClass: analyze the
			// Gateway as a conformant controller would, under a placeholder name, and
			// say so (gateway/GatewayClassNotFound).
			gr.ClassMissing = true
			gr.Controller = AssumedController
		}
		e.res.Gateways = append(e.res.Gateways, gr)
		e.ix.gateways[keys[i]] = gr
	}
}

// unverified reports whether a reference to kind namespace/name that is not in the
// model is to be taken on trust: the user declared it external (--external), or
// the loader could not read that kind there (a cluster identity without get/list
// on it). why says which, for findings.
func (e *engine) unverified(kind, namespace, name string) (ok bool, why string) {
	return unverifiedIn(&e.opts, e.res.Model, kind, namespace, name)
}

// unverifiedIn reports whether an object the input does not hold is assumed to
// exist: declared external (--external), or of a kind the loader could not read.
func unverifiedIn(opts *Options, m *model.Model, kind, namespace, name string) (ok bool, why string) {
	if opts.isExternal(kind, namespace, name) {
		return true, "declared external"
	}
	for _, u := range m.Unreadable {
		if u.Kind == kind && (u.Namespace == "" || u.Namespace == namespace) {
			return true, "not readable (" + u.Reason + ")"
		}
	}
	return false, ""
}

func (e *engine) isUnverified(kind, namespace, name string) bool {
	ok, _ := e.unverified(kind, namespace, name)
	return ok
}
