// Package cores runs work on every core in parts that goroutines take in turn.
package cores

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Parts calls a worker's function on consecutive parts of [0, n) of at
// most part items each, on every core (at most 8) once n is more than a part:
// each goroutine makes its function once (worker), so it can keep room of its
// own, and takes the next part not yet taken until none is left. Parts are
// taken, not dealt, so a core that another process holds slows the others by
// one part at most. The function must only write what its items own: results
// go where each item's index says, and come out in order whatever the number
// of cores.
func Parts(n, part int, worker func() func(lo, hi int)) {
	workers := min(runtime.GOMAXPROCS(0), 8, (n+part-1)/part)
	if workers < 2 {
		if n > 0 {
			f := worker()
			for lo := 0; lo < n; lo += part {
				f(lo, min(lo+part, n))
			}
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			f := worker()
			for {
				hi := int(next.Add(int64(part)))
				lo := hi - part
				if lo >= n {
					return
				}
				f(lo, min(hi, n))
			}
		})
	}
	wg.Wait()
}
