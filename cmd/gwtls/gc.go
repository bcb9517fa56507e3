package gwtls

import (
	"runtime"
	"runtime/metrics"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// collectBeforeAnalysis runs a garbage collection between loading and the
// engine when the engine's own allocations would start one anyway, and reports
// whether it did.
//
// Loading leaves its decode garbage behind: the files, the YAML converted to
// JSON, the typed objects the model was cut from (at 100k routes, about 75 MB
// since the last cycle). When the heap plus what the engine allocates passes the
// collector's goal, a cycle starts in the middle of the analysis. It then marks
// the whole model while the engine runs, slows the engine with write barriers
// and mark assists, and until it ends the engine's allocations take fresh pages
// from the kernel instead of reusing the loader's garbage. Run here, the cycle
// has both cores to itself, and the engine and the output reuse the memory it
// frees (docs/performance.md has the numbers). When no cycle is due, as with
// 10k routes, collecting would only cost time, so nothing happens.
func collectBeforeAnalysis(m *model.Model) bool {
	samples := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(samples)
	for _, s := range samples {
		if s.Value.Kind() != metrics.KindUint64 {
			return false // a runtime without these metrics: leave the collector alone
		}
	}
	if !collectionDue(samples[1].Value.Uint64(), samples[0].Value.Uint64(), analyze.AllocationEstimate(m)) {
		return false
	}
	runtime.GC()
	return true
}

// collectionDue reports whether a heap of heap bytes that grows by need bytes
// reaches the collector's goal. With GOGC=off and no memory limit the goal is
// out of reach and nothing is due.
func collectionDue(heap, goal, need uint64) bool {
	return heap+need >= goal
}
