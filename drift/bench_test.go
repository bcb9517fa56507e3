package drift_test

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/drift"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
)

var now = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// dumped analyzes a generated configuration and gives every object the
// status the engine computed for it, as a conformant controller's cluster
// would hold it (render status's output), its class accepted: a status dump
// drift finds clean. The engine reads no status it writes, so the analysis
// stands.
func dumped(tb testing.TB, size generate.Size) *analyze.Result {
	tb.Helper()
	in, err := generate.Load(tb.TempDir(), size.Name, size.Config)
	if err != nil {
		tb.Fatal(err)
	}
	res := analyze.Analyze(in.Model, analyze.Options{Now: now})
	for _, c := range in.Model.GatewayClasses {
		c.Obj.Status.Conditions = []metav1.Condition{{Type: string(gwv1.GatewayClassConditionStatusAccepted), Status: metav1.ConditionTrue,
			Reason: string(gwv1.GatewayClassReasonAccepted), LastTransitionTime: metav1.NewTime(now)}}
	}
	for _, g := range res.Gateways {
		g.Gateway.Obj.Status = g.Status()
	}
	for _, ls := range res.ListenerSets {
		ls.ListenerSet.Obj.Status = ls.Status()
	}
	for _, rr := range res.Routes {
		rr.Route.Status = rr.Status()
	}
	for _, pr := range res.BackendTLSPolicies {
		pr.Policy.Obj.Status = pr.Status()
	}
	return res
}

// A generated configuration, every object carrying its computed status, is
// clean: drift reports nothing.
func TestComputedStatusIsClean(t *testing.T) {
	res := dumped(t, generate.Sizes[0])
	if !drift.Carried(res.Model) {
		t.Fatal("the dump carries no status")
	}
	if fs := drift.Findings(res); len(fs) != 0 {
		t.Errorf("%d drift findings on a dump of computed statuses, the first: %+v", len(fs), fs[0])
	}
}

// BenchmarkDrift measures drift on a status dump whose every object carries
// status, beside the engine on the same model: "drift" over "analyze" is
// what drift adds to the analysis (docs/performance.md).
//
//	go test -run '^$' -bench 'Drift/10k' -benchmem ./drift
func BenchmarkDrift(b *testing.B) {
	for _, size := range generate.Sizes {
		b.Run(size.Name, func(b *testing.B) {
			if why := generate.SkipReason(size); why != "" {
				b.Skip(why)
			}
			res := dumped(b, size)
			objects := float64(res.Model.Len())
			b.Run("analyze", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					analyze.Analyze(res.Model, analyze.Options{Now: now})
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/objects, "ns/object")
			})
			b.Run("drift", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if fs := drift.Findings(res); len(fs) != 0 {
						b.Fatalf("%d drift findings on a clean dump", len(fs))
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/objects, "ns/object")
			})
		})
	}
}
