package analyze

// arena hands out one worker's route results (RouteResult, ParentResult,
// BackendResult, Attachment) from blocks of a few hundred at a time rather
// than one allocation each: a route's results are the bulk of a large Result,
// and allocating them one by one was about a tenth of the engine's time at
// 100k routes (docs/performance.md). It is not safe for concurrent use: each
// worker of the route step has its own.
//
// Every result it hands out is zeroed, and every slice it hands out has its
// length as its capacity, so appending to one never writes a neighbour.
type arena struct {
	routes     []RouteResult
	parents    []ParentResult
	parentPs   []*ParentResult
	backends   []BackendResult
	backendPs  []*BackendResult
	attached   []Attachment
	attachedPs []*Attachment
}

// arenaBlock is how many results one block holds.
const arenaBlock = 256

// take returns n zeroed elements of a block, starting a new block when this one
// is full (or n is larger than a block).
func take[T any](block *[]T, n int) []T {
	if n > cap(*block)-len(*block) {
		*block = make([]T, 0, max(n, arenaBlock))
	}
	lo := len(*block)
	*block = (*block)[:lo+n]
	return (*block)[lo : lo+n : lo+n]
}

// pointers returns n pointers to n fresh elements, the pointers themselves
// from a block too.
func pointers[T any](block *[]T, ptrs *[]*T, n int) []*T {
	xs, ps := take(block, n), take(ptrs, n)
	for i := range xs {
		ps[i] = &xs[i]
	}
	return ps
}

func (a *arena) route() *RouteResult { return &take(&a.routes, 1)[0] }

func (a *arena) parentResults(n int) []*ParentResult {
	return pointers(&a.parents, &a.parentPs, n)
}

func (a *arena) backendResults(n int) []*BackendResult {
	return pointers(&a.backends, &a.backendPs, n)
}

func (a *arena) attachments(n int) []*Attachment {
	return pointers(&a.attached, &a.attachedPs, n)
}
