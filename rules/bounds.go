package rules

// Rules about what the engine did not decide: the bounds it keeps on its own
// work, so that a hostile or generated input ends in a report rather than in
// exhausted memory, and says what it left out.

var AnalysisWorkBounded = register(&Rule{
	ID:       "analysis/WorkBounded",
	Severity: Error,
	Summary:  "The engine did not attach a route: the input needs more attachment checks than its bound allows.",
	Help: "Attaching a route checks every listener its parentRefs select (all of a parent's listeners when a parentRef sets no sectionName or port), " +
		"and on each intersects the listener's hostname with every one of the route's hostnames. " +
		"One check is one route hostname (at least one per route) against one listener. " +
		"The engine makes at most --max-attachment-checks checks for the whole input: it attaches routes cheapest first while they fit, " +
		"and does not attach the rest. A route it did not attach has no parent status, counts in no listener's attachedRoutes, " +
		"is served by nothing in simulate, probe and the plans, and gets this finding; everything else is exact. " +
		"Only an input that crosses thousands of listeners with thousands of routes reaches the bound.",
	Fix:  "Give the route's parentRefs a sectionName or port, so that each selects the listeners it needs, or raise --max-attachment-checks to the number the finding names.",
	Spec: []Spec{{Document: "kubectl-gwtls", Section: "docs/security.md, what it bounds: analyze --max-attachment-checks"}, hostnames("Hostname Intersection")},
})
