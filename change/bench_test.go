package change_test

import (
	"os"
	"path/filepath"
	"testing"

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
			base, head := analyze.Analyze(in.Model, opts), analyze.Analyze(headModel, opts)
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
