package render_test

import (
	"bytes"
	"encoding/json"
	"io"
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

// TestReportWritesListenersInOneSummary: JSON and YAML build every listener
// into one summary reused from listener to listener (Listeners.into), so
// writing a report allocates no summary and no route list per listener: the
// run's collector does not run between the analysis and the end of the
// output, so each of those was peak memory (docs/performance.md, "A smaller
// Result"). What is written is what At builds for each listener, with no
// route left over from the listener before.
func TestReportWritesListenersInOneSummary(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	in, err := generate.Load(t.TempDir(), "in", generate.Scaled(1, 2000))
	if err != nil {
		t.Fatal(err)
	}
	res := analyze.Analyze(in.Model, analyze.Options{Now: now})
	r := render.NewReport(res)
	written := writtenListeners(t, r)
	attachments, shrank := 0, false
	for i, got := range written {
		l := r.Listeners.At(i)
		attachments += len(l.Routes)
		if i > 0 && len(l.Routes) < len(r.Listeners.At(i-1).Routes) {
			shrank = true
		}
		want, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("listener %d written as\n%s\nwant\n%s", i, got, want)
		}
	}
	if !shrank {
		t.Fatal("no listener lists fewer routes than the one before: the input does not show a summary reused")
	}
	if raceEnabled {
		t.Log("race detector: the allocation budget is not checked")
		return
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := r.JSON(io.Discard); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	// A RouteOnSNI is 72 bytes, and a summary per listener, boxed, and a
	// finding copied into an interface add to it: 192 bytes per attached route
	// in all at 2,000 routes with a summary per listener, 49 with one reused
	// (the rest is the findings' own text).
	if perAttachment := float64(after.TotalAlloc-before.TotalAlloc) / float64(attachments); perAttachment > 96 {
		t.Errorf("writing the report allocated %.0f bytes per attached route, want at most 96", perAttachment)
	}
	t.Logf("%d listeners, %d attachments: %d bytes allocated", len(written), attachments, after.TotalAlloc-before.TotalAlloc)
}
