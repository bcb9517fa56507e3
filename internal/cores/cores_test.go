package cores

import (
	"runtime"
	"sync"
	"testing"
)

// TestPartsEveryItemOnce: every item of [0, n) is in exactly one part, of
// at most part items, whatever n, part and the number of cores; each
// goroutine makes its function once.
func TestPartsEveryItemOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 3, 16} {
		runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, 7, 8, 9, 64, 1000} {
			for _, part := range []int{1, 8, 100} {
				counts := make([]int, n)
				var mu sync.Mutex
				made, parts := 0, 0
				Parts(n, part, func() func(lo, hi int) {
					mu.Lock()
					made++
					mu.Unlock()
					return func(lo, hi int) {
						if lo >= hi || hi-lo > part {
							t.Errorf("procs %d n %d part %d: part [%d, %d)", procs, n, part, lo, hi)
						}
						mu.Lock()
						parts++
						mu.Unlock()
						for i := lo; i < hi; i++ {
							counts[i]++
						}
					}
				})
				for i, c := range counts {
					if c != 1 {
						t.Fatalf("procs %d n %d part %d: item %d taken %d times", procs, n, part, i, c)
					}
				}
				if wantMax := min(procs, 8, max(1, (n+part-1)/part)); made > wantMax {
					t.Errorf("procs %d n %d part %d: %d functions made, want at most %d", procs, n, part, made, wantMax)
				}
				if n > 0 && parts < (n+part-1)/part && procs > 1 && (n+part-1)/part > 1 {
					t.Errorf("procs %d n %d part %d: %d parts", procs, n, part, parts)
				}
			}
		}
	}
}
