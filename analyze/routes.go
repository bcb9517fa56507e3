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

	// Each range of routes counts, on its own core, what attaches to which
	// listener (listeners are numbered for that). The listeners' lists are
	// then cut from one block, each its exact size, and each range writes its
	// routes into them, at the place its range has in route order: no list
	// grows by appending, and none is joined from the ranges' parts, which at
	// 100k routes were 6 MB of garbage the run does not collect before the
	// output.
	listeners := e.numberListeners()
	budget := e.planAttachments(routes)
	c := chunks(len(routes))
	counts := make([]listenerCounts, c)
	results := make([]*RouteResult, len(routes))
	e.routeFindings = make([]findingList, c)
	forEachChunk(len(routes), func(k, lo, hi int) {
		var ar arena // this range's results
		lc := newListenerCounts(len(listeners))
		for i := lo; i < hi; i++ {
			rr := e.route(routes[i], nsOf[i], &ar, !budget.skips(i))
			if budget.skips(i) {
				e.skip(rr, i, &budget)
			}
			results[i] = rr
			e.ownRouteFindings(&e.routeFindings[k], rr) // while the route is in cache
			lc.route(rr, int32(i+1), lc.count)
		}
		counts[k] = lc
	})
	attached, inactive := placeListenerLists(listeners, counts)
	if attached > 0 || inactive > 0 {
		forEachChunk(len(routes), func(k, lo, hi int) {
			lc := &counts[k]
			for i := lo; i < hi; i++ {
				// Marks below zero: counting left marks above it.
				lc.route(results[i], -int32(i+1), func(a *Attachment, rr *RouteResult, n int32) {
					if a != nil {
						listeners[n].Attachments[lc.att[n]] = a
						lc.att[n]++
					} else {
						listeners[n].Inactive[lc.ina[n]] = rr
						lc.ina[n]++
					}
				})
			}
		})
	}
	e.crossServing(listeners)
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

// listenerCounts is what one range of routes adds to each listener's lists:
// first how many attachments and inactive routes (counting), then where the
// next one goes in the listener's list (placing).
type listenerCounts struct {
	att, ina []int32
	// counted[l] is the mark of the last route that counted on listener l: a
	// mark per listener rather than a list to search, as one route may attach
	// to thousands of listeners.
	counted []int32
}

func newListenerCounts(listeners int) listenerCounts {
	return listenerCounts{att: make([]int32, listeners), ina: make([]int32, listeners), counted: make([]int32, listeners)}
}

// count counts an attachment (a non-nil) or an inactive route on listener n.
func (lc *listenerCounts) count(a *Attachment, _ *RouteResult, n int32) {
	if a != nil {
		lc.att[n]++
	} else {
		lc.ina[n]++
	}
}

// route calls fn for every listener the route counts on, once per listener:
// first where it attached (with the attachment), then where it would attach
// if the listener were accepted (ListenerStatus.AttachedRoutes). mark is the
// route's, different from every other route's in this pass and the other.
func (lc *listenerCounts) route(rr *RouteResult, mark int32, fn func(a *Attachment, rr *RouteResult, n int32)) {
	for _, p := range rr.Parents {
		for _, a := range p.Attachments {
			if n := a.Listener.num; lc.counted[n] != mark {
				fn(a, rr, n)
				lc.counted[n] = mark
			}
		}
	}
	for _, p := range rr.Parents {
		for _, l := range p.inactive() {
			if n := l.num; lc.counted[n] != mark {
				fn(nil, rr, n)
				lc.counted[n] = mark
			}
		}
	}
}

// placeListenerLists gives each listener its Attachments and Inactive, of the
// sizes the ranges counted, cut from one block each (nil when empty), and
// turns each range's counts into the place its first route goes in each
// list. It returns the total sizes.
func placeListenerLists(listeners []*ListenerResult, counts []listenerCounts) (attached, inactive int) {
	for n := range listeners {
		for k := range counts {
			attached += int(counts[k].att[n])
			inactive += int(counts[k].ina[n])
		}
	}
	var attBlock []*Attachment
	var inaBlock []*RouteResult
	if attached > 0 {
		attBlock = make([]*Attachment, attached)
	}
	if inactive > 0 {
		inaBlock = make([]*RouteResult, inactive)
	}
	attOff, inaOff := int32(0), int32(0)
	for n, l := range listeners {
		a0, i0 := attOff, inaOff
		for k := range counts {
			lc := &counts[k]
			lc.att[n], attOff = attOff-a0, attOff+lc.att[n]
			lc.ina[n], inaOff = inaOff-i0, inaOff+lc.ina[n]
		}
		if attOff > a0 {
			l.Attachments = attBlock[a0:attOff:attOff]
		}
		if inaOff > i0 {
			l.Inactive = inaBlock[i0:inaOff:inaOff]
		}
	}
	return attached, inactive
}

// route decides one route: hostnames, backends, then every parentRef unless
// attach is false (the caller decides its parents). nsID is the number
// selectorTables know the route's namespace by.
func (e *engine) route(r *model.Route, nsID int32, a *arena, attach bool) *RouteResult {
	rr := a.route()
	rr.Route, rr.run = r, e.run
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
