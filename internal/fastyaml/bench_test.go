package fastyaml_test

import (
	"bytes"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/fastyaml"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
)

// BenchmarkToJSON converts every document of the generated 10k configuration
// (docs/performance.md), the loader's hot path without the typed decode.
//
//	go test -run '^$' -bench ToJSON -benchmem ./internal/fastyaml
func BenchmarkToJSON(b *testing.B) {
	data, err := generate.Bytes(generate.Sizes[1].Config)
	if err != nil {
		b.Fatal(err)
	}
	// Each document keeps its last line break, as the loader's splitter leaves it.
	docs := bytes.SplitAfter(data, []byte("\n---\n"))
	for i, d := range docs {
		docs[i] = bytes.TrimSuffix(d, []byte("---\n"))
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, d := range docs {
			if _, _, ok := fastyaml.ToJSON(d); !ok {
				b.Fatalf("a generated document is outside the fast subset:\n%s", d)
			}
		}
	}
}
