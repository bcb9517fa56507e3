package analyze_test

import (
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
)

// TestAttachedRoutesCountsRoutesNotParentRefs: a route whose two parentRefs
// select one listener counts once in its attachedRoutes
// (ListenerStatus.AttachedRoutes counts Routes). The API server refuses such a
// route (HTTPRoute's CEL rule wants both refs to the same parent to set the
// same of sectionName and port, and then they select different listeners),
// so the golden input route-attached-routes-count shows the refusal and this
// holds the engine's own count, with admission off.
func TestAttachedRoutesCountsRoutesNotParentRefs(t *testing.T) {
	const in = "../testdata/golden/route-attached-routes-count.yaml"
	for _, tc := range []struct {
		name string
		off  bool
		want int32 // listener alt: whole-gateway, and two-refs-same-listener once
	}{{"admission off: the route counts once", true, 2}, {"admission on: the route is refused", false, 1}} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := load.Files(load.FileOptions{Filenames: []string{in}, Admission: load.Admission{Off: tc.off}})
			if err != nil {
				t.Fatal(err)
			}
			res := analyze.Analyze(m, analyze.Options{Now: now})
			var alt *analyze.ListenerResult
			for _, l := range res.Gateways[0].Listeners {
				if l.Name() == "alt" {
					alt = l
				}
			}
			if alt == nil {
				t.Fatal("no listener alt")
			}
			if got := alt.AttachedRoutes(); got != tc.want {
				t.Errorf("attachedRoutes = %d, want %d", got, tc.want)
			}
		})
	}
}
