package render_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/render"
)

// TestReportBuildsListenersWhenWritten: NewReport holds a pointer pair per
// listener, not a summary with a copy of every attachment, at two sizes, so
// that a large report does not keep a second copy of the analysis while it is
// written (at 100k routes the summaries were 14 MB live at the run's peak;
// docs/performance.md, "Peak memory against the input").
func TestReportBuildsListenersWhenWritten(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, routes := range []int{1000, 3000} {
		in, err := generate.Load(t.TempDir(), "in", generate.Scaled(1, routes))
		if err != nil {
			t.Fatal(err)
		}
		res := analyze.Analyze(in.Model, analyze.Options{Now: now})
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r := render.NewReport(res)
		runtime.ReadMemStats(&after)
		n := r.Listeners.Len()
		if n < routes/100*20 {
			t.Fatalf("%d routes: %d listeners, want at least %d", routes, n, routes/100*20)
		}
		if perListener := float64(after.TotalAlloc-before.TotalAlloc) / float64(n); perListener > 64 {
			t.Errorf("%d routes: NewReport allocated %.0f bytes per listener, want at most 64 (a pointer pair each)", routes, perListener)
		}
		attached := 0
		for i := range n {
			l := r.Listeners.At(i)
			attached += int(l.AttachedRoutes)
			if len(l.Routes) != len(res.Gateways[0].AllListeners()[0].Attachments) && i == 0 {
				t.Errorf("%d routes: listener 0 lists %d routes, its result %d", routes, len(l.Routes), len(res.Gateways[0].AllListeners()[0].Attachments))
			}
		}
		if attached < routes {
			t.Errorf("%d routes: the listeners count %d attached routes, want at least one per route", routes, attached)
		}
	}
}
