package render

import (
	"bufio"
	"runtime"
	"slices"
	"sync"
)

// coreShare is the least work worth a goroutine of its own: below it a
// loop runs on the caller's core.
const coreShare = 2048

// cores is how many parts work of n items is cut into: one per core, at
// least coreShare items each.
func cores(n int) int {
	return max(1, min(runtime.GOMAXPROCS(0), 8, n/coreShare))
}

// onEveryCore calls f on consecutive parts of [0, n), one per core, and
// returns when every call has. f must only write what its part owns.
func onEveryCore(n int, f func(lo, hi int)) {
	k := cores(n)
	if k == 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for w := range k {
		wg.Go(func() { f(w*n/k, (w+1)*n/k) })
	}
	wg.Wait()
}

// sortOnEveryCore sorts s by cmp, each core sorting a part and the parts then
// merged pairwise. cmp must be a total order (no two elements equal): then the
// result is the one slices.SortFunc gives, whatever the number of cores.
func sortOnEveryCore[T any](s []T, cmp func(a, b T) int) {
	k := cores(len(s))
	if k == 1 {
		slices.SortFunc(s, cmp)
		return
	}
	// bounds[w] is where part w starts; the last is len(s).
	bounds := make([]int, k+1)
	for w := range bounds {
		bounds[w] = w * len(s) / k
	}
	var wg sync.WaitGroup
	for w := range k {
		wg.Go(func() { slices.SortFunc(s[bounds[w]:bounds[w+1]], cmp) })
	}
	wg.Wait()
	src, dst := s, make([]T, len(s))
	for len(bounds) > 2 {
		next := []int{}
		for w := 0; w+1 < len(bounds); w += 2 {
			lo := bounds[w]
			next = append(next, lo)
			if w+2 >= len(bounds) { // the odd part out waits for the next round
				copy(dst[lo:], src[lo:])
				continue
			}
			mid, hi := bounds[w+1], bounds[w+2]
			wg.Go(func() { mergeSorted(dst[lo:hi], src[lo:mid], src[mid:hi], cmp) })
		}
		wg.Wait()
		bounds = append(next, len(s))
		src, dst = dst, src
	}
	if &src[0] != &s[0] {
		copy(s, src)
	}
}

// mergeSorted merges the sorted a and b into dst, which holds both.
func mergeSorted[T any](dst, a, b []T, cmp func(a, b T) int) {
	i, j, k := 0, 0, 0
	for i < len(a) && j < len(b) {
		if cmp(b[j], a[i]) < 0 {
			dst[k] = b[j]
			j++
		} else {
			dst[k] = a[i]
			i++
		}
		k++
	}
	k += copy(dst[k:], a[i:])
	copy(dst[k:], b[j:])
}

// graphChunk is how many nodes or edges of a graph a core writes at a time.
const graphChunk = 1024

// writeOnEveryCore writes the n items of a list to b in order,
// appendItems(dst, lo, hi) appending items lo to hi-1 to dst: on every core
// in rounds of a chunk of graphChunk items per core, one round written while
// the next is appended, so that the buffers hold two rounds at most; on the
// caller's core, a chunk at a time, when n is small. appendItems must only
// read what items share.
func writeOnEveryCore(b *bufio.Writer, n int, appendItems func(dst []byte, lo, hi int) []byte) {
	k := cores(n)
	if k == 1 {
		var buf []byte
		for lo := 0; lo < n; lo += graphChunk {
			buf = appendItems(buf[:0], lo, min(lo+graphChunk, n))
			b.Write(buf)
		}
		return
	}
	rounds := [2][][]byte{make([][]byte, k), make([][]byte, k)}
	write := func(round [][]byte) {
		for w := range round {
			b.Write(round[w])
			round[w] = round[w][:0]
		}
	}
	step := k * graphChunk
	for r, start := 0, 0; start < n; r, start = r+1, start+step {
		round := rounds[r%2]
		var wg sync.WaitGroup
		for w := range k {
			lo := start + w*graphChunk
			if lo >= n { // the last round's chunks end early (its buffers are empty: written)
				break
			}
			wg.Go(func() { round[w] = appendItems(round[w][:0], lo, min(lo+graphChunk, n)) })
		}
		write(rounds[(r+1)%2]) // the round before, if any
		wg.Wait()
	}
	write(rounds[((n+step-1)/step-1)%2])
}
