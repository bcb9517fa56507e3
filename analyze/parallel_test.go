package analyze

import (
	"cmp"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// TestSortStableOnEveryCore: sorted on 1 to 5 cores (an odd number of parts
// is merged over two rounds), a list with many equal keys comes out in the
// order one stable sort gives, equal elements in their input order.
func TestSortStableOnEveryCore(t *testing.T) {
	type item struct{ key, at int }
	byKey := func(a, b item) int { return cmp.Compare(a.key, b.key) }
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	rng := rand.New(rand.NewPCG(1, 2))
	for procs := 1; procs <= 5; procs++ {
		runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, parallelMin - 1, parallelMin, 1000, 4099} {
			in := make([]item, n)
			for i := range in {
				in[i] = item{rng.IntN(50), i}
			}
			want := slices.Clone(in)
			slices.SortStableFunc(want, byKey)
			got := slices.Clone(in)
			sortStable(got, byKey)
			if !slices.Equal(got, want) {
				t.Fatalf("%d cores, %d items: not the stable order", procs, n)
			}
		}
	}
}
