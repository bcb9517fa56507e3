package gwtls_test

import (
	"bytes"
	"math"
	"os"
	"runtime/debug"
	"testing"
	"time"

	goccylexer "github.com/goccy/go-yaml/lexer"
	yaml3 "go.yaml.in/yaml/v3"

	gwtls "github.com/kubectl-gwtls/kubectl-gwtls/cmd/gwtls"
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
// through the command tree as the binary does (its collector settings
// included), then reads the same file and tokenizes it with each general YAML
// tokenizer of tokenizers (goccy, goccy-doc, yaml3-node), and reports
// analyze's wall time as a multiple of the fastest one's: x-tokenize, whose
// target is at most 1.0 (docs/performance.md, "analyze against a YAML
// tokenizer"). x-fastyaml is the same against the loader's own converter,
// which reads only a subset of YAML. Alternating them keeps a busy machine's
// drift out of the ratios. admission is the default; off is
// --admission=false. 100k on request:
//
//	go test -run '^$' -bench 'AnalyzeVersusTokenize/100k' -benchtime 3x ./cmd/gwtls
func BenchmarkAnalyzeVersusTokenize(b *testing.B) {
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
			in.Model = nil
			for _, adm := range []struct{ name, flag string }{{"admission", "--admission=true"}, {"off", "--admission=false"}} {
				b.Run(adm.name, func(b *testing.B) {
					args := []string{"analyze", "-o", "json", "-f", in.Path, "--now", "2026-01-01T00:00:00Z", adm.flag}
					var analyzing time.Duration
					tokenizing := make([]time.Duration, len(tokenizers))
					for b.Loop() {
						start := time.Now()
						runCLI(b, args)
						analyzing += time.Since(start)
						// The tokenizers run with Go's default collector, as a
						// program of their own would: the CLI's memory limit
						// follows analyze's input and would make them thrash.
						gcPercent := debug.SetGCPercent(100)
						limit := debug.SetMemoryLimit(math.MaxInt64)
						for i, tk := range tokenizers {
							start := time.Now()
							// Each tokenizer reads the file too, as analyze does.
							data, err := os.ReadFile(in.Path)
							if err != nil {
								b.Fatal(err)
							}
							if err := tk.run(data, splitYAML(data)); err != nil {
								b.Fatalf("%s: %v", tk.name, err)
							}
							tokenizing[i] += time.Since(start)
						}
						debug.SetGCPercent(gcPercent)
						debug.SetMemoryLimit(limit)
					}
					fastest := time.Duration(0)
					for i, tk := range tokenizers {
						if tk.name == "fastyaml" {
							b.ReportMetric(float64(analyzing)/float64(tokenizing[i]), "x-fastyaml")
							continue
						}
						if fastest == 0 || tokenizing[i] < fastest {
							fastest = tokenizing[i]
						}
						b.ReportMetric(float64(tokenizing[i].Milliseconds())/float64(b.N), tk.name+"-ms/op")
					}
					b.ReportMetric(float64(analyzing)/float64(fastest), "x-tokenize")
					b.ReportMetric(float64(analyzing.Milliseconds())/float64(b.N), "analyze-ms/op")
				})
			}
		})
	}
}
