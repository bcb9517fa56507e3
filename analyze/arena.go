package analyze

import (
	"slices"
	"strings"
)

// arena places what the engine's hot loops read and write: at scale the engine
// is bound by memory latency more than by its own work (docs/performance.md),
// so the data a loop touches is laid out to be read contiguously.
//
//   - Results: a worker of the route step takes its RouteResults,
//     ParentResults, BackendResults and Attachments from blocks of a few hundred
//     rather than one allocation each; they are the bulk of a large Result.
//   - Text: strings the loops compare (index keys, listener names and
//     hostnames) are copied side by side. A map lookup compares the looked-up
//     key with the stored one byte by byte, and a sectionName is compared with
//     each listener's name; copied, those bytes are a few contiguous kilobytes
//     instead of a cache miss each in objects scattered over the model.
//   - Numbers: the Services' ports, side by side for the same reason.
//
// Everything it hands out is zeroed (or a copy), and every slice has its
// length as its capacity, so appending to one never writes a neighbour. An
// arena is not safe for concurrent use: each worker has its own.
type arena struct {
	routes     []RouteResult
	parents    []ParentResult
	parentPs   []*ParentResult
	backends   []BackendResult
	backendPs  []*BackendResult
	attached   []Attachment
	attachedPs []*Attachment
	portBlock  []int32
	text       strings.Builder
	// hostBlock holds attachments' intersected hostnames; lastHosts are the
	// ones handed out last, and scratch is where admit computes them.
	hostBlock []string
	lastHosts []string
	scratch   []string
}

// arenaBlock is how many results one block holds.
const arenaBlock = 256

// textBlock is the most text one block holds unless reserve asks for more.
const textBlock = 64 << 10

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

// reserve makes room for n more elements in the current block, so that a
// batch of known size is taken from one allocation.
func reserve[T any](block *[]T, n int) {
	if n > cap(*block)-len(*block) {
		*block = make([]T, 0, n)
	}
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

// hostnames keeps an attachment's intersected hostnames, computed in scratch:
// the previous attachment's when they are equal, else a copy in a block. A
// route's hostnames intersect the same way every listener whose hostname is
// unset or wider than all of them, so a route attached to many listeners
// shares one list instead of holding one per listener.
func (a *arena) hostnames(hs []string) []string {
	if cap(hs) > cap(a.scratch) {
		a.scratch = hs[:0] // grown by admit: keep the larger buffer
	}
	switch {
	case hs == nil:
		return nil
	case slices.Equal(hs, a.lastHosts):
		return a.lastHosts
	}
	out := take(&a.hostBlock, len(hs))
	copy(out, hs)
	a.lastHosts = out
	return out
}

// ports returns n zeroed numbers for Services' ports; reservePorts first
// to take a batch from one allocation.
func (a *arena) ports(n int) []int32 { return take(&a.portBlock, n) }

func (a *arena) reservePorts(n int) { reserve(&a.portBlock, n) }

// reserveText makes room for n more bytes of text in the current block, so
// that the strings of one batch (a Gateway's listeners, the keys of one map)
// are copied into one allocation.
func (a *arena) reserveText(n int) {
	if a.text.Cap()-a.text.Len() < n {
		a.text = strings.Builder{}
		a.text.Grow(n)
	}
}

// str is a copy of s in the arena's text, beside the strings copied before it.
// A strings.Builder never changes the bytes it has written, so the copies stay
// valid as the block fills.
func (a *arena) str(s string) string {
	if s == "" {
		return ""
	}
	if a.text.Cap()-a.text.Len() < len(s) {
		grown := min(2*a.text.Cap(), textBlock)
		a.text = strings.Builder{}
		a.text.Grow(max(len(s), grown, 256))
	}
	lo := a.text.Len()
	a.text.WriteString(s)
	return a.text.String()[lo:]
}

// keys returns n index keys copied into the arena's text, in one block.
func (a *arena) keys(n int, key func(i int) nn) []nn {
	size := 0
	for i := range n {
		k := key(i)
		size += len(k.Namespace) + len(k.Name)
	}
	a.reserveText(size)
	out := make([]nn, n)
	for i := range n {
		k := key(i)
		out[i] = nn{Namespace: a.str(k.Namespace), Name: a.str(k.Name)}
	}
	return out
}
