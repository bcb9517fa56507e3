package gwtls

import (
	"runtime"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

func TestCollectFirst(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		name             string
		heap, goal, need uint64
		want             bool
	}{
		{"10k routes, the analysis fits under the goal", 31 * mb, 76 * mb, 14 * mb, false},
		{"10k routes, the analysis would reach the goal", 70 * mb, 76 * mb, 14 * mb, true},
		{"the heap is at the goal already", 76 * mb, 76 * mb, 0, true},
		{"100k routes, the analysis would reach the goal", 303 * mb, 382 * mb, 138 * mb, true},
		{"100k routes, far under the goal: large anyway", 239 * mb, 632 * mb, 138 * mb, true},
		{"no goal in reach (a memory limit only), small", 31 * mb, ^uint64(0), 14 * mb, false},
		{"no goal in reach, large", 239 * mb, ^uint64(0), 138 * mb, true},
	} {
		if got := collectFirst(tc.heap, tc.goal, tc.need); got != tc.want {
			t.Errorf("%s: collectFirst(%d, %d, %d) = %v, want %v", tc.name, tc.heap, tc.goal, tc.need, got, tc.want)
		}
	}
}

// TestCollectBeforeAnalysis runs the real collector: a large model is
// collected for, a small one is not.
func TestCollectBeforeAnalysis(t *testing.T) {
	t.Setenv("GOGC", "") // as when the user leaves it unset
	count := func(m *model.Model) (bool, uint32) {
		runtime.GC() // start from a fresh goal, far above the heap
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		did := collectBeforeAnalysis(m)
		runtime.ReadMemStats(&after)
		return did, after.NumGC - before.NumGC
	}
	if did, n := count(&model.Model{Namespaces: make([]*model.Namespace, 1)}); did || n != 0 {
		t.Errorf("one object: collected %v, %d cycles; want no collection", did, n)
	}
	// 100k objects: the engine would allocate about 128 MB.
	large := &model.Model{Namespaces: make([]*model.Namespace, 100_000)}
	if did, n := count(large); !did || n == 0 {
		t.Errorf("100k objects: collected %v, %d cycles; want a collection", did, n)
	}
	// A user's GOGC wins, as in tuneGC.
	t.Setenv("GOGC", "off")
	if did, n := count(large); did || n != 0 {
		t.Errorf("100k objects with GOGC=off: collected %v, %d cycles; want no collection", did, n)
	}
}
