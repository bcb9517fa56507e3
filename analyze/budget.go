package analyze

import (
	"cmp"
	"fmt"
	"slices"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// DefaultMaxAttachmentChecks is the most attachment checks the engine makes
// for one input unless Options.MaxAttachmentChecks says otherwise.
//
// A check is one route hostname (at least one per route) against one listener
// a parentRef selects: the unit of attach's work, and an upper bound on the
// attachments it keeps. Every later step costs at most a bounded amount per
// attachment (its hostnames, conditions naming its listener, its entries in
// the serving table, the JSON report and the graph), so the bound is one on
// time and memory too. The default is about 3.5 times what the 100,000-route
// benchmark of docs/performance.md needs (1.13 million checks), and an input
// at the bound costs about what that benchmark costs. An API server admits a
// route that crosses 32 parents of 64 listeners with 16 hostnames (32,768
// checks): a few such routes fit, tens of thousands do not.
const DefaultMaxAttachmentChecks = 4_000_000

// maxAttachmentChecks is the bound in force.
func (o *Options) maxAttachmentChecks() int64 {
	if o.MaxAttachmentChecks <= 0 {
		return DefaultMaxAttachmentChecks
	}
	return o.MaxAttachmentChecks
}

// attachBudget is the decision of which routes the route step attaches when
// the input needs more checks than the bound: the cheapest first, in input
// order among equals, while they fit. The choice is made before any route is
// attached, from costs alone, so that it does not depend on how routes are
// spread over cores, and every route it keeps is decided exactly.
type attachBudget struct {
	limit  int64
	needed int64 // checks the whole input needs
	spent  int64 // checks of the routes kept
	kept   int   // routes kept
	// costs are each route's checks; skipped marks the routes not attached.
	// Both are nil when every route fits.
	costs   []int64
	skipped []bool
}

// planAttachments measures every route's cost and decides which routes fit.
func (e *engine) planAttachments(routes []*model.Route) attachBudget {
	b := attachBudget{limit: e.opts.maxAttachmentChecks()}
	costs := make([]int64, len(routes))
	forEach(len(routes), func(i int) { costs[i] = e.attachCost(routes[i]) })
	for _, c := range costs {
		b.needed += c
	}
	if b.needed <= b.limit {
		b.spent, b.kept = b.needed, len(routes)
		return b
	}
	order := make([]int32, len(routes))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(x, y int32) int {
		return cmp.Or(cmp.Compare(costs[x], costs[y]), cmp.Compare(x, y))
	})
	b.costs, b.skipped = costs, make([]bool, len(routes))
	for k, i := range order {
		if b.spent+costs[i] > b.limit {
			for _, j := range order[k:] {
				b.skipped[j] = true
			}
			break
		}
		b.spent += costs[i]
		b.kept++
	}
	return b
}

// skips reports whether route i is not attached.
func (b *attachBudget) skips(i int) bool { return b.skipped != nil && b.skipped[i] }

// attachCost is the number of checks attaching a route takes: for each
// parentRef, the listeners attach would check (those its sectionName or port
// selects, none when the parent is missing or not accepted), times the route's
// hostnames. It reads only the index, so it is cheap next to attaching.
func (e *engine) attachCost(r *model.Route) int64 {
	var listeners int64
	for i := range r.ParentRefs {
		listeners += int64(e.selectedListeners(r, &r.ParentRefs[i]))
	}
	return listeners * int64(max(1, len(r.Hostnames)))
}

// selectedListeners counts the listeners attach checks for one parentRef, as
// parentListeners, bySectionName and byPort select them.
func (e *engine) selectedListeners(r *model.Route, ref *gwv1.ParentReference) int {
	if written(ref.Group) != gwv1.GroupName {
		return 0
	}
	key := nn{Namespace: namespaceOr(ref.Namespace, r.ObjectMeta.Namespace), Name: string(ref.Name)}
	var views []listenerView
	switch written(ref.Kind) {
	case "Gateway":
		if g := e.ix.gateways[key]; g != nil && g.notAccepted == nil {
			views = g.views
		}
	case "ListenerSet":
		if ls := e.ix.listenerSets[key]; ls != nil && IsTrue(ls.Conditions, string(gwv1.ListenerSetConditionAccepted)) {
			views = ls.views
		}
	}
	switch {
	case len(views) == 0:
		return 0
	case ref.SectionName != nil && *ref.SectionName != "":
		return 1 // listener names are unique per parent
	case ref.Port != nil:
		n := 0
		for i := range views {
			if views[i].port == *ref.Port {
				n++
			}
		}
		return n
	}
	return len(views)
}

// skip decides a route the budget leaves out: every parentRef undecided and
// unwritten, and the route's finding (explain shows it for each parentRef).
func (e *engine) skip(rr *RouteResult, i int, b *attachBudget) {
	r := rr.Route
	p := rules.AnalysisWorkBounded.Problem(
		fmt.Sprintf("not attached: its parentRefs select listeners needing %d attachment checks (listeners x hostnames), and the engine makes at most %d for the whole input; "+
			"the %d cheaper routes took %d of them. Its parents' status, the listeners' attachedRoutes, simulate, probe and the plans leave this route out",
			b.costs[i], b.limit, b.kept, b.spent),
		fmt.Sprintf("give its parentRefs a sectionName or port, or raise --max-attachment-checks to %d (what the whole input needs)", b.needed))
	rr.Skipped = &p
	for k, pr := range rr.Parents {
		*pr = ParentResult{Route: rr, Index: int32(k), Ref: &r.ParentRefs[k]}
	}
}
