package render_test

import (
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/render"
)

// BenchmarkGraph measures what render graph and render report do after the
// analysis, on an analyzed generated input of 10k routes: building the graph,
// writing it as DOT and as Mermaid, and the whole Markdown report (which builds
// and writes the graph too). It reports the process's CPU time per op, which the
// graph's work on both cores makes differ from wall time (docs/performance.md):
//
//	go test -run '^$' -bench Graph -benchtime 10x ./render
func BenchmarkGraph(b *testing.B) {
	in, err := generate.Load(b.TempDir(), "in", generate.Scaled(1, 10000))
	if err != nil {
		b.Fatal(err)
	}
	res := analyze.Analyze(in.Model, analyze.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	g := render.NewGraph(res)
	for _, w := range []struct {
		name string
		run  func(*countingWriter) error
	}{
		{"build", func(*countingWriter) error { render.NewGraph(res); return nil }},
		{"dot", func(n *countingWriter) error { return g.DOT(n) }},
		{"mermaid", func(n *countingWriter) error { return g.Mermaid(n) }},
		{"report", func(n *countingWriter) error { return render.Markdown(n, res, render.MarkdownOptions{}) }},
	} {
		b.Run(w.name, func(b *testing.B) {
			var n countingWriter
			b.ReportAllocs()
			cpu0 := processCPU(b)
			for b.Loop() {
				if err := w.run(&n); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(processCPU(b)-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
			b.ReportMetric(float64(n)/float64(b.N)/1e6, "MB/op")
		})
	}
}
