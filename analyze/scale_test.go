package analyze_test

import (
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
)

// TestEngineScalesLinearly guards DESIGN.md "Performance": the engine indexes
// rather than crossing listeners with routes, so 4x the input (routes, Gateways,
// listeners, namespaces in the same ratio) costs about 4x the allocations. A
// quadratic step (for example a scan of every route per route) pushes the ratio
// well past 5.5. Allocations, not wall time, so the test is stable on a busy CI.
func TestEngineScalesLinearly(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 5,000 routes")
	}
	dir := t.TempDir()
	allocs := func(routes int) float64 {
		m := loadGenerated(t, dir, "scale", generate.Scaled(7, routes))
		return testing.AllocsPerRun(2, func() {
			analyze.Analyze(m, analyze.Options{Now: benchNow})
		})
	}
	small, large := allocs(1000), allocs(4000)
	ratio := large / small
	t.Logf("engine allocations: 1k routes %.0f, 4k routes %.0f, ratio %.2f", small, large, ratio)
	if ratio > 5.5 {
		t.Errorf("engine allocations grew %.2fx for 4x the input (1k routes: %.0f, 4k: %.0f); want at most 5.5x: something crosses objects with objects (DESIGN.md Performance)", ratio, small, large)
	}
}
