package gwtls

import (
	"path/filepath"
	"testing"
)

// BenchmarkFixedCost runs small command lines as the binary runs them (a
// process of this test binary, TuneGC included: benchChildEnv) and reports
// their CPU time (user + sys), wall time and peak RSS: the cost of one run
// of the CLI that no input scales, which is the whole of a CI lint of a few
// manifests. The shop example is 13 objects; "empty" is standard input with
// nothing in it. The test binary links the tests' packages too, so its
// resident pages are a few MB more than the CLI's (docs/performance.md,
// "The fixed cost of a run"). Run enough iterations to see past the noise:
//
//	go test -run '^$' -bench FixedCost -benchtime 20x ./cmd/gwtls
func BenchmarkFixedCost(b *testing.B) {
	shop := filepath.Join("..", "..", "testdata", "examples", "shop")
	now := "--now=2026-01-01T00:00:00Z"
	for _, run := range []struct {
		name string
		args []string
	}{
		{"version", []string{"version"}},
		{"empty/admission", []string{"analyze", "-f", "-", "--allow-empty", now}},
		{"empty/off", []string{"analyze", "-f", "-", "--allow-empty", "--admission=false", now}},
		{"shop/admission", []string{"analyze", "-o", "json", "--fail-on", "none", "-f", shop, now}},
		{"shop/off", []string{"analyze", "-o", "json", "--fail-on", "none", "-f", shop, "--admission=false", now}},
	} {
		b.Run(run.name, func(b *testing.B) {
			var total childRun
			for b.Loop() {
				total.add(runChild(b, "cli", run.args...))
			}
			b.ReportMetric(float64(total.cpu.Microseconds())/1e3/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(total.wall.Microseconds())/1e3/float64(b.N), "wall-ms/op")
			b.ReportMetric(float64(total.peakRSS)/1e6, "peak-MB")
		})
	}
}
