package load_test

import (
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
)

// BenchmarkLoad measures decoding alone: splitting a generated file into
// documents and decoding them into the model (docs/performance.md).
//
//	go test -run '^$' -bench 'Load/1k' -benchmem ./load
func BenchmarkLoad(b *testing.B) {
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
			path, objects := in.Path, in.Model.Len()
			b.SetBytes(int64(in.Bytes))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := load.Files(load.FileOptions{Filenames: []string{path}}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(objects), "ns/object")
		})
	}
}
