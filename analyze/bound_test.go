package analyze_test

import (
	"bytes"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// loadCrossing loads the configuration c writes, as the CLI reads a file.
func loadCrossing(t *testing.T, c generate.Crossing) *model.Model {
	t.Helper()
	var b bytes.Buffer
	if err := generate.WriteCrossing(&b, c); err != nil {
		t.Fatal(err)
	}
	// A Gateway's CRD holds at most 64 listeners: the crossings past it are
	// read as written, as from a cluster that stored them.
	m, err := load.Files(load.FileOptions{Filenames: []string{"-"}, Stdin: &b, Admission: load.Admission{Off: true}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// attachment is one route's attachment as a user reads it: which listener,
// with which intersected hostnames.
func attachmentsOf(rr *analyze.RouteResult) []string {
	var out []string
	for _, p := range rr.Parents {
		for _, a := range p.Attachments {
			out = append(out, fmt.Sprintf("%s/%s %v", a.Listener.Gateway.Gateway.Obj.Name, a.Listener.Name(), a.Hostnames))
		}
		if c, ok := p.AcceptedCondition(); ok {
			out = append(out, c.Reason+": "+c.Message)
		}
	}
	return out
}

// TestAttachmentBoundKeepsWhatFitsExact: when the routes need more attachment
// checks than the bound, the cheapest routes are attached, exactly as without
// a bound, and every other route is left out with an analysis/WorkBounded
// finding that names the bound and what the input needs; listeners count only
// the routes attached.
func TestAttachmentBoundKeepsWhatFitsExact(t *testing.T) {
	// 4 Gateways x 10 listeners; each route names 2 Gateways (20 listeners)
	// with 3 hostnames: 60 checks a route, 12,000 for the 200.
	c := generate.Crossing{Gateways: 4, ListenersPerGateway: 10, Routes: 200, ParentRefs: 2, Hostnames: 3}
	m := loadCrossing(t, c)
	full := analyze.Analyze(m, analyze.Options{Now: benchNow})
	if full.Bounded != nil {
		t.Fatalf("12,000 checks passed the default bound: %+v", full.Bounded)
	}
	const limit = 3000
	bounded := analyze.Analyze(m, analyze.Options{Now: benchNow, MaxAttachmentChecks: limit})
	b := bounded.Bounded
	if b == nil || b.Limit != limit || b.Needed != 12000 || b.Skipped != 150 {
		t.Fatalf("Bounded = %+v, want limit %d, needed 12000, 150 routes skipped", b, limit)
	}

	var checks int64
	skipped := map[string]bool{}
	for i, rr := range bounded.Routes {
		name := rr.Route.ObjectMeta.Name
		if rr.Skipped != nil {
			skipped[name] = true
			if got := attachmentsOf(rr); len(got) > 0 {
				t.Errorf("%s was skipped but has %v", name, got)
			}
			continue
		}
		for _, p := range rr.Parents {
			for _, a := range p.Attachments {
				checks += int64(max(1, len(a.Hostnames)))
			}
		}
		if got, want := attachmentsOf(rr), attachmentsOf(full.Routes[i]); !slices.Equal(got, want) {
			t.Errorf("%s attached within the bound differs from the unbounded analysis:\n got %v\nwant %v", name, got, want)
		}
	}
	if checks > limit {
		t.Errorf("the routes attached took %d checks, past the bound of %d", checks, limit)
	}

	var findings int
	for _, f := range bounded.Findings {
		if f.Rule != rules.AnalysisWorkBounded {
			continue
		}
		findings++
		if !skipped[f.Object.Name] || f.Field != "spec.parentRefs" {
			t.Errorf("a WorkBounded finding on %s %s, which was not skipped", f.Object, f.Field)
		}
		for _, want := range []string{"needing 60 attachment checks", "at most 3000", "--max-attachment-checks to 12000"} {
			if !strings.Contains(f.Message+" "+f.Fix, want) {
				t.Errorf("finding %q / %q does not say %q", f.Message, f.Fix, want)
			}
		}
	}
	if findings != len(skipped) {
		t.Errorf("%d WorkBounded findings for %d skipped routes", findings, len(skipped))
	}

	// A listener counts the routes attached to it, not those left out.
	for gi, g := range bounded.Gateways {
		for li, l := range g.Listeners {
			want := 0
			for _, a := range full.Gateways[gi].Listeners[li].Attachments {
				if !skipped[a.Route.Route.ObjectMeta.Name] {
					want++
				}
			}
			if got := int(l.AttachedRoutes()); got != want {
				t.Errorf("%s/%s attachedRoutes %d, want %d", g.Gateway.Obj.Name, l.Name(), got, want)
			}
		}
	}
}

// TestAttachmentBoundHoldsMemory: routes crossed with listeners (10,000
// listeners of one Gateway, 2,000 routes that name it, 20 million checks) cost
// memory in proportion to the bound, not to the input's pairs: the Result's
// live heap stays under a few hundred bytes per check allowed.
func TestAttachmentBoundHoldsMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("analyzes 10,000 listeners")
	}
	m := loadCrossing(t, generate.Crossing{Gateways: 1, ListenersPerGateway: 10000, Routes: 2000, ParentRefs: 1, Hostnames: 1})
	live := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := live()
	const limit = 250_000
	res := analyze.Analyze(m, analyze.Options{Now: benchNow, MaxAttachmentChecks: limit})
	grown := int64(live()) - int64(before)
	t.Logf("the Result holds %d MiB for a bound of %d checks (%d bytes a check)", grown>>20, limit, grown/limit)
	if b := res.Bounded; b == nil || b.Needed != 20_000_000 || b.Skipped != 2000-25 {
		t.Fatalf("Bounded = %+v, want 20,000,000 checks needed and 1,975 routes skipped", b)
	}
	// An attachment, its share of a listener's list, the parent's lists and
	// the findings of the routes left out.
	if most := int64(400*limit + 16<<20); grown > most {
		t.Errorf("the Result holds %d MiB, want at most %d MiB for %d checks", grown>>20, most>>20, limit)
	}
	runtime.KeepAlive(res)
}
