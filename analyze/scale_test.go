package analyze_test

import (
	"fmt"
	"runtime"
	"strings"
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

// TestParallelRoutesAreDeterministic: routes are decided on every core; the Result
// must not depend on how many there are (listeners' attachment lists, counts and
// every finding in the same order).
func TestParallelRoutesAreDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 2,000 routes")
	}
	m := loadGenerated(t, t.TempDir(), "parallel", generate.Scaled(11, 2000))
	fingerprint := func(procs int) string {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		res := analyze.Analyze(m, analyze.Options{Now: benchNow})
		var b strings.Builder
		for _, g := range res.Gateways {
			for _, l := range g.Listeners {
				fmt.Fprintf(&b, "%s/%s %d:", g.Gateway.Obj.Name, l.Name(), l.AttachedRoutes())
				for _, a := range l.Attachments {
					fmt.Fprintf(&b, " %s%v", a.Route.Route.ObjectMeta.Name, a.Hostnames)
				}
				b.WriteString("\n")
			}
		}
		for _, f := range res.Findings {
			fmt.Fprintf(&b, "%s %s %s\n", f.Rule, f.Object, f.Message)
		}
		return b.String()
	}
	one, four := fingerprint(1), fingerprint(4)
	if one != four {
		t.Error("the Result differs between 1 and 4 cores")
	}
}
