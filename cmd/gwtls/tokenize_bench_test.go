package gwtls

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	goccylexer "github.com/goccy/go-yaml/lexer"
	yaml3 "go.yaml.in/yaml/v3"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/fastyaml"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
)

// tokenizers are the YAML readers analyze is measured against (issue 19: at
// most 1.0x the wall time of tokenizing the file with the fastest Go YAML
// tokenizer). Each reads the whole file and fails when it cannot.
//
//   - goccy: github.com/goccy/go-yaml's lexer (v1.19.2), tokens of the whole
//     file in one call: the fastest of the three on the generated files, so
//     the baseline of BenchmarkAnalyzeVersusTokenize.
//   - yaml3-node: go.yaml.in/yaml/v3 decoding each document into a yaml.Node.
//     Its scanner and parser events are not exported, so this is the
//     closest reachable: events plus the tree composed from them.
//   - fastyaml: the loader's own converter (internal/fastyaml), each document
//     to JSON: more than tokenizing, for comparison.
var tokenizers = []struct {
	name string
	run  func(data []byte, docs [][]byte) error
}{
	{"goccy", func(data []byte, _ [][]byte) error {
		if toks := goccylexer.Tokenize(string(data)); len(toks) == 0 {
			return errNoTokens
		}
		return nil
	}},
	{"goccy-doc", func(_ []byte, docs [][]byte) error {
		for _, d := range docs {
			if toks := goccylexer.Tokenize(string(d)); len(toks) == 0 {
				return errNoTokens
			}
		}
		return nil
	}},
	{"yaml3-node", func(data []byte, _ [][]byte) error {
		dec := yaml3.NewDecoder(bytes.NewReader(data))
		for {
			var n yaml3.Node
			if err := dec.Decode(&n); err != nil {
				if err.Error() == "EOF" {
					return nil
				}
				return err
			}
		}
	}},
	{"fastyaml", func(_ []byte, docs [][]byte) error {
		for _, d := range docs {
			if _, _, ok := fastyaml.ToJSON(d); !ok {
				return errOutsideSubset
			}
		}
		return nil
	}},
}

type benchError string

func (e benchError) Error() string { return string(e) }

const (
	errNoTokens      = benchError("the lexer returned no tokens")
	errOutsideSubset = benchError("a generated document is outside fastyaml's subset")
)

// splitYAML cuts a generated file into its documents as the loader's
// splitter leaves them (each keeps its last line break).
func splitYAML(data []byte) [][]byte {
	docs := bytes.SplitAfter(data, []byte("\n---\n"))
	for i, d := range docs {
		docs[i] = bytes.TrimSuffix(d, []byte("---\n"))
	}
	return docs
}

// BenchmarkTokenize times each candidate baseline alone on the generated
// files, to pick the fastest for BenchmarkAnalyzeVersusTokenize.
//
//	go test -run '^$' -bench 'Tokenize/100k' -benchtime 3x ./cmd/gwtls
func BenchmarkTokenize(b *testing.B) {
	for _, size := range generate.Sizes {
		b.Run(size.Name, func(b *testing.B) {
			if why := generate.SkipReason(size); why != "" {
				b.Skip(why)
			}
			data, err := generate.Bytes(size.Config)
			if err != nil {
				b.Fatal(err)
			}
			docs := splitYAML(data)
			for _, tk := range tokenizers {
				b.Run(tk.name, func(b *testing.B) {
					b.SetBytes(int64(len(data)))
					for b.Loop() {
						if err := tk.run(data, docs); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}

// BenchmarkAnalyzeVersusTokenize runs, in every iteration, `analyze -o json`
// as the binary runs it, then tokenizes the same file with each general YAML
// tokenizer of tokenizers (goccy, goccy-doc, yaml3-node), each a fresh process
// of this test binary (benchChild) that reads the file itself, and reports
// analyze's wall time as a multiple of the fastest one's: x-tokenize, whose
// target is at most 1.0 (docs/performance.md, "analyze against a YAML
// tokenizer"). cpu-x-tokenize is the same for CPU time (user + sys), and
// x-fastyaml is analyze's wall time against the loader's own converter, which
// reads only a subset of YAML. Alternating them keeps a busy machine's drift
// out of the ratios. admission is the default; off is --admission=false.
//
// Every run is a process of its own because one process cannot run the CLI
// twice as the binary runs it once: the validator the loader shares between
// loads keeps its compiled CRDs and memoized values, and the generator's load
// fills them, so in one process every later analyze ran with a few hundred MB
// more live heap under a memory limit sized for a fresh one (100k: 13.6 s for
// --admission=false after an admission run, against 4.3 s for the binary).
// 100k on request:
//
//	go test -run '^$' -bench 'AnalyzeVersusTokenize/100k' -benchtime 3x ./cmd/gwtls
func BenchmarkAnalyzeVersusTokenize(b *testing.B) {
	benchAnalyzeRuns(b, func(b *testing.B, path string, inputBytes float64, args []string) {
		var analyzing childRun
		tokenizing := make([]childRun, len(tokenizers))
		for b.Loop() {
			analyzing.add(runChild(b, "cli", args...))
			for i, tk := range tokenizers {
				tokenizing[i].add(runChild(b, "tokenize:"+tk.name, path))
			}
		}
		var fastest childRun
		for i, tk := range tokenizers {
			if tk.name == "fastyaml" {
				b.ReportMetric(float64(analyzing.wall)/float64(tokenizing[i].wall), "x-fastyaml")
				continue
			}
			if fastest.wall == 0 || tokenizing[i].wall < fastest.wall {
				fastest = tokenizing[i]
			}
			b.ReportMetric(float64(tokenizing[i].wall.Milliseconds())/float64(b.N), tk.name+"-ms/op")
		}
		b.ReportMetric(float64(analyzing.wall)/float64(fastest.wall), "x-tokenize")
		b.ReportMetric(float64(analyzing.cpu)/float64(fastest.cpu), "cpu-x-tokenize")
		b.ReportMetric(float64(analyzing.wall.Milliseconds())/float64(b.N), "analyze-ms/op")
		b.ReportMetric(float64(analyzing.cpu.Milliseconds())/float64(b.N), "analyze-cpu-ms/op")
		b.ReportMetric(float64(analyzing.peakRSS)/inputBytes, "analyze-peak-x-input")
	})
}

// benchAnalyzeRuns runs body as a sub-benchmark for each generated size
// (generate.Sizes, the large ones on request) and each admission mode
// ("admission", and "off" for --admission=false), with the size's input
// written to path, its size in bytes, and the arguments of `analyze -o json`
// on it as the benchmarks run the binary.
func benchAnalyzeRuns(b *testing.B, body func(b *testing.B, path string, inputBytes float64, args []string)) {
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
					body(b, path, inputBytes, []string{"analyze", "-o", "json", "--fail-on", "none", "-f", path, "--now", "2026-01-01T00:00:00Z", adm.flag})
				})
			}
		})
	}
}

// childRun adds up the child processes of one kind: wall and CPU (user +
// sys) time, and the highest peak RSS in bytes.
type childRun struct {
	wall, cpu time.Duration
	peakRSS   int64
}

func (r *childRun) add(o childRun) {
	r.wall += o.wall
	r.cpu += o.cpu
	r.peakRSS = max(r.peakRSS, o.peakRSS)
}

// benchChildEnv tells a process of this test binary to run one thing of
// BenchmarkAnalyzeVersusTokenize and exit (TestMain reads it): "cli" runs
// the command line its arguments hold as the binary's main does, collector
// settings included; "tokenize:NAME" reads the file its argument names and
// tokenizes it with the tokenizer NAME.
const benchChildEnv = "GWTLS_BENCH_CHILD"

// runBenchChild is the process benchChildEnv asks for; it returns its exit code.
func runBenchChild(what string) int {
	if what == "cli" {
		TuneGC()
		streams := genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
		return Execute(context.Background(), NewRootCmd(streams), os.Stderr)
	}
	name, _ := strings.CutPrefix(what, "tokenize:")
	for _, tk := range tokenizers {
		if tk.name != name {
			continue
		}
		data, err := os.ReadFile(os.Args[1])
		if err == nil {
			err = tk.run(data, splitYAML(data))
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
			return 1
		}
		return 0
	}
	fmt.Fprintf(os.Stderr, "%s=%q: not a benchmark child\n", benchChildEnv, what)
	return 2
}

// runChild runs what (see benchChildEnv) in a process of this test binary,
// its output thrown away as a file, and measures it.
func runChild(b *testing.B, what string, args ...string) childRun {
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devNull.Close()
	var errOut strings.Builder
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), benchChildEnv+"="+what)
	cmd.Stdout, cmd.Stderr = devNull, &errOut
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s %s: %v\n%s", what, strings.Join(args, " "), err, errOut.String())
	}
	r := childRun{wall: time.Since(start), cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.peakRSS = ru.Maxrss << 10 // kilobytes on Linux
	}
	return r
}
