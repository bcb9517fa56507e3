package analyze

import (
	"runtime"
	"slices"
	"sync"
)

// parallelMin is the number of items below which work stays on one goroutine:
// small inputs (every test, most manifests) are decided in order, as written.
var parallelMin = 256

// forEach calls fn(i) for every i in [0, n), on every core once n is large
// enough. fn must only write what belongs to item i; whatever depends on the
// order of items is done by the caller afterwards.
func forEach(n int, fn func(i int)) {
	forEachChunk(n, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			fn(i)
		}
	})
}

// chunks is how many contiguous ranges forEachChunk splits n items into.
func chunks(n int) int {
	workers := runtime.GOMAXPROCS(0)
	if n < parallelMin || workers < 2 {
		return 1
	}
	return workers
}

// forEachChunk splits [0, n) into chunks(n) contiguous ranges, in order, and
// calls fn(chunk, lo, hi) for each at once.
func forEachChunk(n int, fn func(chunk, lo, hi int)) {
	c := chunks(n)
	if c == 1 {
		fn(0, 0, n)
		return
	}
	var wg sync.WaitGroup
	size := (n + c - 1) / c
	for k := 0; k < c; k++ {
		lo, hi := min(k*size, n), min((k+1)*size, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(k, lo, hi)
		}()
	}
	wg.Wait()
}

// concurrently runs the steps at once and returns when all are done. The steps
// must not write anything another reads.
func concurrently(steps ...func()) {
	var wg sync.WaitGroup
	for _, s := range steps[1:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s()
		}()
	}
	steps[0]()
	wg.Wait()
}

// sortStable sorts s as slices.SortStableFunc does, on every core once s is
// large enough: each core sorts a contiguous part, and the parts are merged
// taking the earlier part's element of two equal ones, so that equal
// elements keep their order, whatever the number of cores.
func sortStable[T any](s []T, cmp func(a, b T) int) {
	c := chunks(len(s))
	if c == 1 {
		slices.SortStableFunc(s, cmp)
		return
	}
	bounds := make([]int, c+1)
	for k := range bounds {
		bounds[k] = k * len(s) / c
	}
	forEachChunk(c, func(_, lo, hi int) {
		for k := lo; k < hi; k++ {
			slices.SortStableFunc(s[bounds[k]:bounds[k+1]], cmp)
		}
	})
	// Merge the parts two at a time, until one is left.
	src, dst := s, make([]T, len(s))
	for len(bounds) > 2 {
		var next []int
		var wg sync.WaitGroup
		for k := 0; k+1 < len(bounds); k += 2 {
			lo := bounds[k]
			next = append(next, lo)
			if k+2 >= len(bounds) { // the odd part out is merged next round
				copy(dst[lo:], src[lo:])
				continue
			}
			mid, hi := bounds[k+1], bounds[k+2]
			wg.Add(1)
			go func() {
				defer wg.Done()
				mergeStable(dst[lo:hi], src[lo:mid], src[mid:hi], cmp)
			}()
		}
		wg.Wait()
		bounds = append(next, len(s))
		src, dst = dst, src
	}
	if &src[0] != &s[0] {
		copy(s, src)
	}
}

// mergeStable merges the sorted a and b into dst, which holds both, taking
// a's element first of two equal ones.
func mergeStable[T any](dst, a, b []T, cmp func(a, b T) int) {
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
