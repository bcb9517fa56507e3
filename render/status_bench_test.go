package render_test

import (
	"io"
	"syscall"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/render"
)

// BenchmarkWriteStatus measures render status's writers alone, on an analyzed
// generated input of 10k routes (docs/performance.md):
//
//	go test -run '^$' -bench WriteStatus -benchtime 10x ./render
func BenchmarkWriteStatus(b *testing.B) {
	in, err := generate.Load(b.TempDir(), "in", generate.Scaled(1, 10000))
	if err != nil {
		b.Fatal(err)
	}
	res := analyze.Analyze(in.Model, analyze.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	for _, w := range []struct {
		name  string
		write func(io.Writer, *analyze.Result) error
	}{{"yaml", render.WriteStatusYAML}, {"json", render.WriteStatusJSON}} {
		b.Run(w.name, func(b *testing.B) {
			var n countingWriter
			b.ReportAllocs()
			cpu0 := processCPU(b)
			for b.Loop() {
				if err := w.write(&n, res); err != nil {
					b.Fatal(err)
				}
			}
			// CPU time, unlike wall time, says little about the other work
			// on a shared machine.
			b.ReportMetric(float64(processCPU(b)-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
			b.ReportMetric(float64(n)/float64(b.N)/1e6, "MB/op")
		})
	}
}

// processCPU is the process's CPU time so far (user and system), in ns.
func processCPU(b *testing.B) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

type countingWriter int

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}
