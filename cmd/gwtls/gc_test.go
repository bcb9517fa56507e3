package gwtls

import (
	"runtime"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

func TestCollectionDue(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		name             string
		heap, goal, need uint64
		want             bool
	}{
		{"the analysis fits under the goal (10k routes)", 31 * mb, 76 * mb, 14 * mb, false},
		{"the analysis passes the goal (100k routes)", 320 * mb, 381 * mb, 142 * mb, true},
		{"the heap is at the goal already", 381 * mb, 381 * mb, 0, true},
		{"GOGC=off without a limit: the goal is out of reach", 320 * mb, ^uint64(0), 142 * mb, false},
	} {
		if got := collectionDue(tc.heap, tc.goal, tc.need); got != tc.want {
			t.Errorf("%s: collectionDue(%d, %d, %d) = %v, want %v", tc.name, tc.heap, tc.goal, tc.need, got, tc.want)
		}
	}
}

// TestCollectBeforeAnalysis runs the real collector: a model whose analysis
// would pass the goal is collected for, a small one is not.
func TestCollectBeforeAnalysis(t *testing.T) {
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
	// 100k objects: the engine would allocate about 128 MB, far past a test's goal.
	if did, n := count(&model.Model{Namespaces: make([]*model.Namespace, 100_000)}); !did || n == 0 {
		t.Errorf("100k objects: collected %v, %d cycles; want a collection", did, n)
	}
}
