package gwtls

import (
	"os"
	"runtime"
	"runtime/metrics"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// collectBeforeAnalysis runs a garbage collection between loading and the
// engine when the analysis is large or a cycle would start during it anyway,
// and reports whether it did.
//
// Loading leaves its decode garbage behind: the files, the YAML converted to
// JSON, the typed objects the model was cut from. At 100k routes that is 160 MB
// or more (the heap is 240-300 MB when loading ends, 143 MB of it live), and the
// engine then allocates about 140 MB. Without a collection first, one of two
// things happened, depending on when the loader's last cycle ran:
//
//   - a cycle started in the middle of the analysis. It marked the whole model
//     while the engine ran (write barriers, mark assists, a quarter of the CPU),
//     and until it ended the engine's allocations took fresh pages from the
//     kernel instead of the loader's garbage;
//   - or no cycle ran, and every engine allocation took fresh pages (a minor
//     fault costs about 7 us per 4 KiB page on the 2-core VM we measure on).
//
// Either way the analysis took 0.52-0.67 s. Collected here, with both cores and
// nothing else running, the cycle takes about 65 ms and the analysis 0.41 s
// including it, and the output reuses the memory too (docs/performance.md). A
// small analysis (10k routes: 14 MB) gains nothing measurable, so it is left
// alone unless a cycle is due during it. A user who sets GOGC tunes the
// collector and is left alone too (as tuneGC in main does).
func collectBeforeAnalysis(m *model.Model) bool {
	if os.Getenv("GOGC") != "" {
		return false
	}
	samples := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(samples)
	for _, s := range samples {
		if s.Value.Kind() != metrics.KindUint64 {
			return false // a runtime without these metrics: leave the collector alone
		}
	}
	if !collectFirst(samples[1].Value.Uint64(), samples[0].Value.Uint64(), analyze.AllocationEstimate(m)) {
		return false
	}
	runtime.GC()
	return true
}

// largeAnalysis is the estimated engine allocation (about 50,000 objects) from
// which collecting first pays whether or not a cycle is due.
const largeAnalysis = 64 << 20

// collectFirst decides for a heap of heap bytes, a collector goal of goal bytes
// and an analysis that allocates need bytes: collect when the analysis is large
// or would take the heap to the goal.
func collectFirst(heap, goal, need uint64) bool {
	return need >= largeAnalysis || heap+need >= goal
}
