package render

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
)

var graphNow = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// TestGraphAsTheOracleBuildsIt holds NewGraph, DOT and Mermaid to the
// serial builder and writers they replaced (graph_oracle_test.go), node by
// node, edge by edge and byte by byte: on every input under testdata/ and
// examples/, on one that draws the same edge many times, and on a generated
// input large enough to be cut in parts, on 1 to 5 cores.
func TestGraphAsTheOracleBuildsIt(t *testing.T) {
	var files []string
	for _, root := range []string{"../testdata", "../examples"} {
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
				files = append(files, path)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	repeated := filepath.Join(dir, "repeated.yaml")
	if err := os.WriteFile(repeated, []byte(repeatedEdges), 0o644); err != nil {
		t.Fatal(err)
	}
	if m, err := load.Files(load.FileOptions{Filenames: []string{repeated}}); err != nil || m.Admission == nil || len(m.Admission.Refused) > 0 {
		t.Fatalf("%s: the input that repeats edges does not load whole: %v", repeated, err)
	}
	files = append(files, repeated)
	compared := 0
	for _, f := range files {
		m, err := load.Files(load.FileOptions{Filenames: []string{f}})
		if err != nil {
			continue // not an input of its own (a kustomization's part, a CRD, a bad file)
		}
		res := analyze.Analyze(m, analyze.Options{Now: graphNow})
		if len(res.Gateways) == 0 && len(res.Routes) == 0 {
			continue
		}
		compareWithOracle(t, f, res)
		compared++
	}
	if compared < 50 {
		t.Errorf("compared the graphs of %d inputs; the inputs under testdata/ and examples/ hold more", compared)
	}

	in, err := generate.Load(t.TempDir(), "in", generate.Scaled(1, 3*coreShare))
	if err != nil {
		t.Fatal(err)
	}
	res := analyze.Analyze(in.Model, analyze.Options{Now: graphNow})
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 3, 5} {
		runtime.GOMAXPROCS(procs)
		compareWithOracle(t, fmt.Sprintf("generated, %d cores", procs), res)
	}
}

func compareWithOracle(t *testing.T, name string, res *analyze.Result) {
	t.Helper()
	got, want := NewGraph(res), oracleNewGraph(res)
	if !reflect.DeepEqual(got.Nodes, want.Nodes) {
		for i := range min(len(got.Nodes), len(want.Nodes)) {
			if !reflect.DeepEqual(got.Nodes[i], want.Nodes[i]) {
				t.Errorf("%s: node %d is %+v, the oracle's %+v", name, i, got.Nodes[i], want.Nodes[i])
				break
			}
		}
		t.Errorf("%s: %d nodes, the oracle %d", name, len(got.Nodes), len(want.Nodes))
		return
	}
	if !reflect.DeepEqual(got.Edges, want.Edges) {
		for i := range min(len(got.Edges), len(want.Edges)) {
			if got.Edges[i] != want.Edges[i] {
				t.Errorf("%s: edge %d is %+v, the oracle's %+v", name, i, got.Edges[i], want.Edges[i])
				break
			}
		}
		t.Errorf("%s: %d edges, the oracle %d", name, len(got.Edges), len(want.Edges))
		return
	}
	for _, w := range []struct {
		format       string
		write, model func(g Graph, b *bytes.Buffer) error
	}{
		{"DOT", func(g Graph, b *bytes.Buffer) error { return g.DOT(b) }, func(g Graph, b *bytes.Buffer) error { return oracleDOT(g, b) }},
		{"Mermaid", func(g Graph, b *bytes.Buffer) error { return g.Mermaid(b) }, func(g Graph, b *bytes.Buffer) error { return oracleMermaid(g, b) }},
	} {
		var a, b bytes.Buffer
		if err := w.write(got, &a); err != nil {
			t.Fatal(err)
		}
		if err := w.model(want, &b); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: %s differs from the oracle's:\n%s\nthe oracle's:\n%s", name, w.format, a.Bytes(), b.Bytes())
		}
	}
}

// repeatedEdges draws one edge many times: a route naming 20 ports of one
// Service twice each (past edgesLookedAt), a backend and a missing parent
// named by two routes, and labels with text each format escapes.
var repeatedEdges = `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: a}
spec:
  gatewayClassName: "cls \"q\" <x> |y| [z] {w} #1 \\ é"
  listeners:
  - {name: http, port: 80, protocol: HTTP, hostname: "*.example.com"}
---
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: a}
spec: {ports: [{port: 80}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: many, namespace: a}
spec:
  parentRefs:
  - {name: gw, sectionName: http}
  - {name: gw, sectionName: nope}
  - {name: absent}
  hostnames: ["a.example.com", "b.example.com"]
  rules:
` + repeatedRules + `---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: other, namespace: a}
spec:
  parentRefs: [{name: gw}, {name: absent}]
  rules:
  - backendRefs: [{name: svc, port: 80}, {name: gone, port: 81}, {name: gone, port: 81}]
`

// repeatedRules are four rules of 10 backendRefs (a rule holds at most 16):
// 20 ports of one Service, each twice.
var repeatedRules = func() string {
	var b strings.Builder
	for r := range 4 {
		var refs []string
		for i := range 10 {
			refs = append(refs, fmt.Sprintf("{name: svc, port: %d}", 80+10*(r%2)+i))
		}
		fmt.Fprintf(&b, "  - backendRefs: [%s]\n", strings.Join(refs, ", "))
	}
	return b.String()
}()

// TestSortOnEveryCore holds sortOnEveryCore to slices.SortFunc on random
// slices of many lengths, on 1 to 8 cores: a part of odd length, an odd
// number of parts, parts that merge over several rounds.
func TestSortOnEveryCore(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	rng := rand.New(rand.NewPCG(1, 2))
	type item struct{ key, i int }
	cmp := func(a, b item) int {
		if a.key != b.key {
			return a.key - b.key
		}
		return a.i - b.i
	}
	for _, procs := range []int{1, 2, 3, 4, 5, 7, 8} {
		runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, coreShare - 1, 2 * coreShare, 3*coreShare + 1, 5*coreShare + 7, 17*coreShare + 3} {
			s := make([]item, n)
			for i := range s {
				s[i] = item{rng.IntN(n/3 + 1), i} // many equal keys, told apart by i
			}
			want := slices.Clone(s)
			slices.SortFunc(want, cmp)
			sortOnEveryCore(s, cmp)
			if !slices.Equal(s, want) {
				t.Errorf("%d cores, %d items: not sorted as slices.SortFunc sorts", procs, n)
			}
		}
	}
}

// TestQuickPathsEscapeAsTheSlowOnes holds the quick paths of TerminalText,
// mdCell, dotQuote and mermaidText (text they leave as it is) to the escapes
// they skip, on every string of up to two characters of an alphabet with a
// byte of each kind and on random strings.
func TestQuickPathsEscapeAsTheSlowOnes(t *testing.T) {
	alphabet := []string{"a", " ", "~", "\x7f", "\x1f", "\n", "\r", "\t", `"`, `\`, "#", "<", ">", "|", "[", "]", "{", "}", "`", "*", "_", "é", "\u202e", "\xff", "\u0085"}
	var texts []string
	for _, a := range alphabet {
		texts = append(texts, a)
		for _, b := range alphabet {
			texts = append(texts, a+b, "x"+a+"y"+b)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		texts = append(texts, b.String())
	}
	for _, s := range texts {
		if got, want := TerminalText(s), oracleTerminalText(s); got != want {
			t.Errorf("TerminalText(%q) = %q, want %q", s, got, want)
		}
		if got, want := mdCell(s), mdCellKeepBreaks(mdEscape.Replace(oracleTerminalLines(s))); got != want {
			t.Errorf("mdCell(%q) = %q, want %q", s, got, want)
		}
		if got, want := dotQuote(s, s), oracleDOTQuote(s, s); got != want {
			t.Errorf("dotQuote(%q) = %q, want %q", s, got, want)
		}
		if got, want := mermaidText(s, s), oracleMermaidText(s, s); got != want {
			t.Errorf("mermaidText(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestWriteOnEveryCore holds writeOnEveryCore to writing the items one
// after the other, for lists of one chunk, a part of one, rounds of chunks
// and an odd last round, on 1 to 5 cores.
func TestWriteOnEveryCore(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 3, 5} {
		runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, graphChunk - 1, graphChunk, 2*coreShare - 1, 2 * coreShare, 5*coreShare + 7, 13*graphChunk + 1} {
			var want strings.Builder
			for i := range n {
				fmt.Fprintf(&want, "item %d\n", i)
			}
			var got strings.Builder
			b := bufio.NewWriterSize(&got, 16)
			writeOnEveryCore(b, n, func(dst []byte, lo, hi int) []byte {
				if hi-lo > graphChunk || lo >= hi {
					t.Errorf("%d items on %d cores: a chunk of [%d, %d)", n, procs, lo, hi)
				}
				for i := lo; i < hi; i++ {
					dst = fmt.Appendf(dst, "item %d\n", i)
				}
				return dst
			})
			if err := b.Flush(); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("%d items on %d cores: written %d bytes, not the %d of the items in order", n, procs, got.Len(), want.Len())
			}
		}
	}
}
