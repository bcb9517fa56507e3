package change_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/change"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
)

// BenchmarkCompare compares two analyzed configurations of every size: a
// generated one and a copy of it after a change (generate.Mutated). It measures
// what diff adds to analyzing both sides: serving tables, plans and the
// comparison (docs/performance.md; 100k on request):
//
//	go test -run '^$' -bench 'Compare/100k' -benchmem ./change
func BenchmarkCompare(b *testing.B) {
	dir := b.TempDir()
	for _, size := range generate.Sizes {
		b.Run(size.Name, func(b *testing.B) {
			if why := generate.SkipReason(size); why != "" {
				b.Skip(why)
			}
			base, head := mutatedPair(b, dir, size)
			changes := change.Compare(base, head, change.Options{Now: now, WarnExpiry: warnExpiry}).Summary().Changes
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				change.Compare(base, head, change.Options{Now: now, WarnExpiry: warnExpiry})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(base.Routes)), "ns/route")
			b.ReportMetric(float64(changes), "changes")
		})
	}
}

// BenchmarkCompareSkipping compares the generated configuration of each size
// with its mutated copy twice in every iteration, deciding every row
// (CompareAll, the oracle) then only the rows whose inputs differ (Compare),
// and reports each one's time and Compare's as a fraction of CompareAll's, so
// that the machine's drift falls on both (docs/performance.md, "diff decides
// only what can differ"):
//
//	go test -run '^$' -bench 'CompareSkipping/100k' ./change
func BenchmarkCompareSkipping(b *testing.B) {
	dir := b.TempDir()
	for _, size := range generate.Sizes {
		b.Run(size.Name, func(b *testing.B) {
			if why := generate.SkipReason(size); why != "" {
				b.Skip(why)
			}
			base, head := mutatedPair(b, dir, size)
			copts := change.Options{Now: now, WarnExpiry: warnExpiry}
			var all, skipping time.Duration
			b.ResetTimer()
			for b.Loop() {
				start := time.Now()
				change.CompareAll(base, head, copts)
				mid := time.Now()
				change.Compare(base, head, copts)
				all, skipping = all+mid.Sub(start), skipping+time.Since(mid)
			}
			n := float64(b.N)
			b.ReportMetric(float64(all.Milliseconds())/n, "ms-all")
			b.ReportMetric(float64(skipping.Milliseconds())/n, "ms-skipping")
			b.ReportMetric(float64(skipping)/float64(all), "x-all")
		})
	}
}

// mutatedPair analyzes the generated configuration of size and its copy
// after a change (generate.Mutated), written in dir.
func mutatedPair(b *testing.B, dir string, size generate.Size) (base, head *analyze.Result) {
	b.Helper()
	in, err := generate.Load(dir, size.Name, size.Config)
	if err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(in.Path)
	if err != nil {
		b.Fatal(err)
	}
	headPath := filepath.Join(dir, size.Name+"-head.yaml")
	if err := os.WriteFile(headPath, generate.Mutated(data), 0o644); err != nil {
		b.Fatal(err)
	}
	headModel, err := load.Files(load.FileOptions{Filenames: []string{headPath}})
	if err != nil {
		b.Fatal(err)
	}
	opts := analyze.Options{Now: now}
	return analyze.Analyze(in.Model, opts), analyze.Analyze(headModel, opts)
}
