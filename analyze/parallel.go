package analyze

import (
	"runtime"
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
