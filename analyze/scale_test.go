package analyze_test

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/render"
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

// TestParallelEngineIsDeterministic: Gateways and routes are decided on every
// core and the steps after routing run at once; the Result must not depend on
// how many cores there are. The whole status and findings report are compared,
// with the threshold for going parallel lowered so that every step does. It
// also compares namespace selectors decided per namespace with per route.
func TestParallelEngineIsDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 2,000 routes")
	}
	defer analyze.SetParallelMin(analyze.SetParallelMin(1))
	m := loadGenerated(t, t.TempDir(), "parallel", generate.Scaled(11, 2000))
	fingerprint := func(procs int) string {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		res := analyze.Analyze(m, analyze.Options{Now: benchNow})
		var b strings.Builder
		items, err := render.StatusItems(res)
		if err != nil {
			t.Fatal(err)
		}
		if err := render.StatusJSON(&b, items); err != nil {
			t.Fatal(err)
		}
		if err := json.NewEncoder(&b).Encode(render.NewReport(res)); err != nil {
			t.Fatal(err)
		}
		for _, g := range res.Gateways {
			for _, l := range g.Listeners {
				fmt.Fprintf(&b, "%s/%s %d:", g.Gateway.Obj.Name, l.Name(), l.AttachedRoutes())
				for _, a := range l.Attachments {
					fmt.Fprintf(&b, " %s%v", a.Route.Route.ObjectMeta.Name, a.Hostnames)
				}
				b.WriteString("\n")
			}
		}
		for _, c := range res.Certificates {
			fmt.Fprintf(&b, "%s %v %v %d\n", c.Secret.Obj.Name, c.Covered, c.Uncovered, len(c.Listeners))
		}
		return b.String()
	}
	one := fingerprint(1)
	for range 3 {
		if four := fingerprint(4); one != four {
			t.Fatal("the Result differs between 1 and 4 cores")
		}
	}
	// Namespace selectors decided once per namespace (the default) and once per
	// route give the same Result.
	direct := func() string {
		defer analyze.SetSelectorBudget(analyze.SetSelectorBudget(0))
		return fingerprint(4)
	}()
	if direct != one {
		t.Fatal("the Result differs between per-namespace selector tables and matching per route")
	}
}
