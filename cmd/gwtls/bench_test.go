package gwtls_test

import (
	"io"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	gwtls "github.com/kubectl-gwtls/kubectl-gwtls/cmd/gwtls"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
)

// benchCLI runs a command end to end through the CLI code path, as the binary
// would (flags, load, analyze, render), writing to io.Discard, for every size.
func benchCLI(b *testing.B, args ...string) {
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
			full := append(append([]string{}, args...), "-f", path, "--now", "2026-01-01T00:00:00Z")
			b.SetBytes(int64(in.Bytes))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				var errOut strings.Builder
				root := gwtls.NewRootCmd(genericiooptions.IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: &errOut})
				root.SetArgs(full)
				root.SetOut(io.Discard)
				root.SetErr(&errOut)
				if err := root.Execute(); gwtls.ExitCode(err) == gwtls.ExitError {
					b.Fatalf("%s: %v\n%s", strings.Join(full, " "), err, errOut.String())
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(objects), "ns/object")
		})
	}
}

// BenchmarkAnalyzeJSON is `analyze -o json` end to end (docs/performance.md).
//
//	go test -run '^$' -bench '/1k' -benchmem ./cmd/gwtls
func BenchmarkAnalyzeJSON(b *testing.B) { benchCLI(b, "analyze", "-o", "json") }

// BenchmarkRenderStatus is `render status -o yaml` end to end.
func BenchmarkRenderStatus(b *testing.B) { benchCLI(b, "render", "status", "-o", "yaml") }

// BenchmarkSimulateAll is `simulate --all -o json` end to end.
func BenchmarkSimulateAll(b *testing.B) { benchCLI(b, "simulate", "--all", "-o", "json") }

// BenchmarkRenderPlan is `render plan -o json` end to end.
func BenchmarkRenderPlan(b *testing.B) { benchCLI(b, "render", "plan", "-o", "json") }
