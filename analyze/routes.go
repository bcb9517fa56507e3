package analyze

import (
	"github.com/kubectl-gwtls/kubectl-gwtls/hostname"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// routes attaches every route to the listeners its parentRefs select and resolves
// its backendRefs. Each parentRef looks up its parent in an index and scans only
// that parent's listeners, so cost grows with parentRefs, not listeners x routes.
//
// Routes are decided on every core, in contiguous ranges: deciding one route
// reads the listeners, the index and the model, and writes only the route's own
// result and its range's lists. The caches those reads would fill lazily are
// filled first (listeners' parsed allowedRoutes by listeners, namespace label
// sets and selector tables here), and the listeners' attachment lists are
// joined afterwards in range order, which is route order, so the Result does
// not depend on scheduling.
func (e *engine) routes() {
	routes := e.res.Model.Routes
	// Number the routes' namespaces, so that listeners with a namespace selector
	// decide each namespace once instead of once per route.
	ids := make(map[string]int32)
	nsOf := make([]int32, len(routes))
	var namespaces []string
	for i, r := range routes {
		ns := r.ObjectMeta.Namespace
		id, ok := ids[ns]
		if !ok {
			id = int32(len(namespaces))
			ids[ns] = id
			namespaces = append(namespaces, ns)
			e.ix.namespaceLabelSet(ns)
		}
		nsOf[i] = id
	}
	e.selectorTables(namespaces, len(routes))

	// Each range of routes collects, on its own core, what attaches to which
	// listener (listeners are numbered for that); the lists are then joined per
	// listener in range order, which is route order.
	listeners := e.numberListeners()
	budget := e.planAttachments(routes)
	c := chunks(len(routes))
	attached := make([][][]*Attachment, c)
	inactive := make([][][]*RouteResult, c)
	results := make([]*RouteResult, len(routes))
	e.routeFindings = make([]findingList, c)
	forEachChunk(len(routes), func(k, lo, hi int) {
		var ar arena // this range's results
		att := make([][]*Attachment, len(listeners))
		ina := make([][]*RouteResult, len(listeners))
		// counted[l] is i+1 once route i counts on listener l: a mark per
		// listener rather than a list to search, as one route may attach to
		// thousands of listeners.
		counted := make([]int32, len(listeners))
		for i := lo; i < hi; i++ {
			rr := e.route(routes[i], nsOf[i], &ar, !budget.skips(i))
			if budget.skips(i) {
				e.skip(rr, i, &budget)
			}
			results[i] = rr
			e.ownRouteFindings(&e.routeFindings[k], rr) // while the route is in cache
			// A route counts once per listener: first where it attached, then where
			// it would attach if the listener were accepted
			// (ListenerStatus.AttachedRoutes).
			mark := int32(i + 1)
			for _, p := range rr.Parents {
				for _, a := range p.Attachments {
					if n := a.Listener.num; counted[n] != mark {
						att[n] = append(att[n], a)
						counted[n] = mark
					}
				}
			}
			for _, p := range rr.Parents {
				for _, l := range p.inactive() {
					if counted[l.num] != mark {
						ina[l.num] = append(ina[l.num], rr)
						counted[l.num] = mark
					}
				}
			}
		}
		attached[k], inactive[k] = att, ina
	})
	forEach(len(listeners), func(i int) {
		listeners[i].Attachments = join(attached, i)
		listeners[i].Inactive = join(inactive, i)
	})
	e.res.Routes = results
	if n := len(routes) - budget.kept; n > 0 {
		e.res.Bounded = &WorkBound{Limit: budget.limit, Needed: budget.needed, Skipped: n}
	}
}

// numberListeners numbers every listener routes can reach (ListenerResult.num)
// and returns them in that order.
func (e *engine) numberListeners() []*ListenerResult {
	var out []*ListenerResult
	add := func(ls []*ListenerResult) {
		for _, l := range ls {
			l.num = int32(len(out))
			out = append(out, l)
		}
	}
	for _, g := range e.res.Gateways {
		add(g.Listeners)
	}
	for _, ls := range e.res.ListenerSets {
		add(ls.Listeners)
	}
	return out
}

// join is the concatenation of parts[k][i] over k, nil when all are empty. A
// single non-empty part is returned as it is.
func join[T any](parts [][][]T, i int) []T {
	n, only := 0, -1
	for k := range parts {
		if len(parts[k][i]) > 0 {
			n += len(parts[k][i])
			only = k
		}
	}
	switch {
	case n == 0:
		return nil
	case n == len(parts[only][i]):
		return parts[only][i]
	}
	out := make([]T, 0, n)
	for k := range parts {
		out = append(out, parts[k][i]...)
	}
	return out
}

// route decides one route: hostnames, backends, then every parentRef unless
// attach is false (the caller decides its parents). nsID is the number
// selectorTables know the route's namespace by.
func (e *engine) route(r *model.Route, nsID int32, a *arena, attach bool) *RouteResult {
	rr := a.route()
	rr.Route, rr.now = r, e.nowp
	if r.HasHostnames() {
		for _, h := range r.Hostnames {
			if err := hostname.Validate(string(h)); err != nil {
				refs := rr.filterRefs()
				refs.invalidHostnames = append(refs.invalidHostnames, string(h))
			}
		}
	}
	e.resolveBackends(rr, a)
	if n := len(r.ParentRefs); n > 0 {
		rr.Parents = a.parentResults(n)
		if !attach {
			return rr
		}
		for i := range r.ParentRefs {
			e.attach(rr.Parents[i], rr, i, &r.ParentRefs[i], nsID, a)
		}
	}
	return rr
}
