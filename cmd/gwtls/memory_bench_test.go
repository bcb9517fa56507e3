package gwtls

import (
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
)

// BenchmarkPeakMemory runs `analyze -o json` as the binary runs it (a process
// of this test binary, TuneGC included: benchChildEnv) at each size, with
// admission and without, and reports the peak RSS as a multiple of the input
// file (peak-x-input; issue 19's target is at most 5) and the CPU time
// (user + sys) the run took, which a memory saving must not raise by more
// than about 5% (docs/performance.md, "Peak memory against the input").
// The peak is the highest of the iterations. The test binary's own resident
// pages (more than the CLI's: it links the tests' packages too) dominate the
// small sizes; the ratio means something from 100k routes. Run a few:
//
//	go test -run '^$' -bench 'PeakMemory/100k' -benchtime 3x ./cmd/gwtls
func BenchmarkPeakMemory(b *testing.B) {
	dir := b.TempDir()
	for _, size := range generate.Sizes {
		b.Run(size.Name, func(b *testing.B) {
			if why := generate.SkipReason(size); why != "" {
				b.Skip(why)
			}
			path, data, err := generate.WriteFile(dir, size.Name, size.Config)
			if err != nil {
				b.Fatal(err)
			}
			inputBytes := float64(len(data))
			data = nil
			for _, adm := range []struct{ name, flag string }{{"admission", "--admission=true"}, {"off", "--admission=false"}} {
				b.Run(adm.name, func(b *testing.B) {
					args := []string{"analyze", "-o", "json", "--fail-on", "none", "-f", path, "--now", "2026-01-01T00:00:00Z", adm.flag}
					var run childRun
					for b.Loop() {
						run.add(runChild(b, "cli", args...))
					}
					b.ReportMetric(float64(run.peakRSS)/inputBytes, "peak-x-input")
					b.ReportMetric(float64(run.peakRSS)/1e6, "peak-MB")
					b.ReportMetric(float64(run.cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
				})
			}
		})
	}
}
