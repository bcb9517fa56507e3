package analyze_test

import (
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

var benchNow = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// loadGenerated loads a generated configuration as the CLI would, from a file.
func loadGenerated(tb testing.TB, dir string, name string, c generate.Config) *model.Model {
	tb.Helper()
	in, err := generate.Load(dir, name, c)
	if err != nil {
		tb.Fatal(err)
	}
	return in.Model
}

// BenchmarkAnalyze measures the engine alone on a loaded model
// (docs/performance.md).
//
//	go test -run '^$' -bench 'Analyze/1k' -benchmem ./analyze
func BenchmarkAnalyze(b *testing.B) {
	dir := b.TempDir()
	for _, size := range generate.Sizes {
		b.Run(size.Name, func(b *testing.B) {
			if why := generate.SkipReason(size); why != "" {
				b.Skip(why)
			}
			m := loadGenerated(b, dir, size.Name, size.Config)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				analyze.Analyze(m, analyze.Options{Now: benchNow})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(m.Len()), "ns/object")
		})
	}
}
