package gwtls_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	gwtls "github.com/kubectl-gwtls/kubectl-gwtls/cmd/gwtls"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
)

// BenchmarkDiffVersusAnalyze runs, end to end through the CLI code path as the
// binary does (its collector settings included), `analyze -o json` on a
// generated configuration and `diff -o json` of it against a changed copy
// (generate.Mutated), one after the other in every iteration, and reports
// diff's time as a multiple of analyze's: x-analyze, which must stay at or
// below 2.5 (docs/performance.md). Alternating the two keeps a busy machine's
// drift out of the ratio. 100k on request:
//
//	go test -run '^$' -bench 'DiffVersusAnalyze/100k' -benchtime 5x ./cmd/gwtls
func BenchmarkDiffVersusAnalyze(b *testing.B) {
	gwtls.TuneGC()
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
			head := filepath.Join(dir, size.Name+"-head.yaml")
			if err := os.WriteFile(head, generate.Mutated(data), 0o644); err != nil {
				b.Fatal(err)
			}
			in.Model = nil
			now := "2026-01-01T00:00:00Z"
			analyzeArgs := []string{"analyze", "-o", "json", "-f", in.Path, "--now", now}
			diffArgs := []string{"diff", "-o", "json", "--base", in.Path, "-f", head, "--now", now}
			var analyzing, diffing time.Duration
			b.ResetTimer()
			for b.Loop() {
				start := time.Now()
				runCLI(b, analyzeArgs)
				mid := time.Now()
				runCLI(b, diffArgs)
				analyzing += mid.Sub(start)
				diffing += time.Since(mid)
			}
			b.ReportMetric(float64(diffing)/float64(analyzing), "x-analyze")
			b.ReportMetric(float64(diffing.Milliseconds())/float64(b.N), "diff-ms/op")
			b.ReportMetric(float64(analyzing.Milliseconds())/float64(b.N), "analyze-ms/op")
		})
	}
}

// runCLI runs one command through the command tree, writing to io.Discard.
func runCLI(b *testing.B, args []string) {
	var errOut strings.Builder
	root := gwtls.NewRootCmd(genericiooptions.IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: &errOut})
	root.SetArgs(args)
	root.SetOut(io.Discard)
	root.SetErr(&errOut)
	if err := root.Execute(); gwtls.ExitCode(err) == gwtls.ExitError {
		b.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, errOut.String())
	}
}
