package gwtls

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// The CLI's garbage collector policy (docs/performance.md, "Where the engine's
// time goes"). A large input leaves the loader's decode garbage (files, YAML
// converted to JSON, the typed objects the model was cut from) on a heap the
// engine then allocates on, so:
//
//   - collect less often than the default: with GOGC=100 a large analysis
//     spends a third of its CPU collecting garbage it would never reuse, so
//     GOGC is 300, with a soft limit of 768 MiB that keeps the peak well under
//     1 GiB;
//   - collect once between loading and a large analysis: a cycle that starts
//     during the analysis marks the whole model while the engine runs, and
//     without one the engine's allocations take fresh pages instead of the
//     loader's garbage. At 100k routes this saves about a tenth of a second
//     and 20-40 MB end to end; below about 50,000 objects it gains nothing
//     measurable.
//
// A user who sets GOGC or GOMEMLIMIT tunes the collector and is left alone.

// TuneGC sets the collector for one run of the CLI; main calls it first.
func TuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(300)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}

// memoryLimit is the soft limit for a command that holds one configuration.
const memoryLimit = 768 << 20

// holdConfigurations raises the soft limit for a command that holds n
// configurations at once (diff: two) unless the user set GOMEMLIMIT, and
// returns what restores it. Held at the limit for one, the collector would
// run without end while the second is analyzed.
func holdConfigurations(n int) (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	prev := debug.SetMemoryLimit(-1)
	if prev < math.MaxInt64/int64(n) {
		debug.SetMemoryLimit(int64(n) * prev)
	}
	return func() { debug.SetMemoryLimit(prev) }
}

// largeModel is the number of objects from which a collection before the
// analysis pays.
const largeModel = 50_000

// collectBeforeAnalysis collects the loader's garbage before a large analysis
// and reports whether it did.
func collectBeforeAnalysis(m *model.Model) bool {
	if os.Getenv("GOGC") != "" || m.Len() < largeModel {
		return false
	}
	runtime.GC()
	return true
}
