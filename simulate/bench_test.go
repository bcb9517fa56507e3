package simulate_test

import (
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
	"github.com/kubectl-gwtls/kubectl-gwtls/simulate"
)

// BenchmarkAll builds the serving table of an analyzed configuration and says
// every row, as simulate --all does before it writes (docs/performance.md
// sizes; 100k on request):
//
//	go test -run '^$' -bench 'All/100k' -benchmem ./simulate
func BenchmarkAll(b *testing.B) {
	dir := b.TempDir()
	for _, size := range generate.Sizes {
		b.Run(size.Name, func(b *testing.B) {
			if why := generate.SkipReason(size); why != "" {
				b.Skip(why)
			}
			in, err := generate.Load(dir, size.Name, size.Config)
			if err != nil {
				b.Fatal(err)
			}
			res := analyze.Analyze(in.Model, analyze.Options{Now: now})
			rows := len(simulate.ForTable(serving.Build(res)).All())
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				simulate.ForTable(serving.Build(res)).All()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rows), "ns/row")
			b.ReportMetric(float64(rows), "rows")
		})
	}
}
