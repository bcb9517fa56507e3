package gwtls

import "testing"

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
	benchAnalyzeRuns(b, func(b *testing.B, _ string, inputBytes float64, args []string) {
		var run childRun
		for b.Loop() {
			run.add(runChild(b, "cli", args...))
		}
		b.ReportMetric(float64(run.peakRSS)/inputBytes, "peak-x-input")
		b.ReportMetric(float64(run.peakRSS)/1e6, "peak-MB")
		b.ReportMetric(float64(run.cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	})
}
