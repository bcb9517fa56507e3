package render

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// TestMarkdownAsTheOracleWritesIt holds Markdown to the report as it was
// written with fmt and the cell functions alone (report_oracle_test.go), byte
// for byte: on every input under testdata/ and examples/ with admission and
// without, with the default options and with a source URL, a title and the
// suppressed findings listed; on inputs whose names and hostnames hold text
// a cell escapes; and on a generated input large enough to be cut in parts,
// on 1 to 3 cores.
func TestMarkdownAsTheOracleWritesIt(t *testing.T) {
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
	for name, text := range map[string]string{"repeated.yaml": repeatedEdges, "escaped.yaml": escapedCells} {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	options := []MarkdownOptions{
		{},
		{SourceURL: "https://github.com/o/r/blob/abc", Title: "a *title* | with `code`", ShowSuppressed: true},
	}
	compared, findings := 0, 0
	for _, f := range files {
		for _, off := range []bool{false, true} {
			m, err := load.Files(load.FileOptions{Filenames: []string{f}, Admission: load.Admission{Off: off}})
			if err != nil {
				continue // not an input of its own (a kustomization's part, a CRD, a bad file)
			}
			res := analyze.Analyze(m, analyze.Options{Now: graphNow})
			for _, o := range options {
				compareMarkdown(t, fmt.Sprintf("%s (admission off: %v, %+v)", f, off, o), res, o)
			}
			compared++
			findings += len(res.Findings)
		}
	}
	if compared < 100 || findings < 500 {
		t.Errorf("compared the reports of %d inputs with %d findings; the inputs under testdata/ and examples/ hold more", compared, findings)
	}

	in, err := generate.Load(t.TempDir(), "in", generate.Scaled(1, 3*coreShare))
	if err != nil {
		t.Fatal(err)
	}
	res := analyze.Analyze(in.Model, analyze.Options{Now: graphNow})
	if len(res.Findings) < 100 {
		t.Fatalf("the generated input has %d findings", len(res.Findings))
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 3} {
		runtime.GOMAXPROCS(procs)
		compareMarkdown(t, fmt.Sprintf("generated, %d cores", procs), res, options[0])
	}
}

func compareMarkdown(t *testing.T, name string, res *analyze.Result, o MarkdownOptions) {
	t.Helper()
	var got, want bytes.Buffer
	if err := Markdown(&got, res, o); err != nil {
		t.Fatal(err)
	}
	if err := oracleMarkdown(&want, res, o); err != nil {
		t.Fatal(err)
	}
	if g, w := got.String(), want.String(); g != w {
		i := 0
		for i < len(g) && i < len(w) && g[i] == w[i] {
			i++
		}
		t.Errorf("%s: the report differs from the oracle's at byte %d:\ngot  %q\nwant %q", name, i, g[max(0, i-80):min(len(g), i+80)], w[max(0, i-80):min(len(w), i+80)])
	}
}

// escapedCells names routes, Gateways and hostnames with text a cell
// escapes or a terminal obeys (analyzed as written with admission off; with
// it, the objects the API server refuses are findings of their own).
var escapedCells = `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: "gw_*1*", namespace: "a|b"}
spec:
  gatewayClassName: "cls <x> ` + "`q`" + `"
  listeners:
  - {name: "h_1", port: 80, protocol: HTTP, hostname: "*.example.com"}
  - {name: "h2", port: 80, protocol: HTTP, hostname: "*.ex_ample.com"}
  - {name: "h3\u202e", port: 8080, protocol: HTTP, hostname: "x\u001b[31m.example.com"}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: "r*1|2", namespace: "a|b"}
spec:
  parentRefs: [{name: "gw_*1*"}, {name: "gone<>"}]
  hostnames: ["a.example.com", "*.example.com", "b.ex_ample.com", "é\tx.example.com"]
  rules:
  - backendRefs: [{name: "svc\r\nx", port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: "r\u0085é", namespace: "a|b"}
spec:
  parentRefs: [{name: "gw_*1*", sectionName: "h3\u202e"}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: "plain", namespace: "a|b"}
spec:
  parentRefs: [{name: "gw_*1*"}]
`

// cellTexts are texts a cell writes as they are, escapes byte by byte, or
// hands to the slow path: pipes, HTML, emphasis, code, line breaks, runs of
// white space, controls, bidi marks, non-ASCII white space, invalid UTF-8.
var cellTexts = []string{
	"", "plain", "*.example.com", "a|b", "<x> & `y`", "a_b*c", "line\nbreak", "crlf\r\nline", "lone\rcr",
	" lead", "trail ", "  lead", "trail  ", "two  spaces", "tab\there", "\vvt\f", "é", "é  x", "no\u00a0break", "nel\u0085x",
	"esc\x1b[31m", "bidi\u202eevil", "\u2028sep", "bad\xffutf8", "\xe2\x82", "\xac", "x\xe2", "\x82\xacy",
	"del\x7f", "c1\u009b", "a\u061cb", "`", "``|``", "\\*",
}

// TestCellWritersAsTheFunctions holds each quick writer to the function it
// stands for, on every text of cellTexts, and a route's cell on every
// namespace, name and hostnames made of them.
func TestCellWritersAsTheFunctions(t *testing.T) {
	write := func(f func(b *bufio.Writer)) string {
		var s strings.Builder
		b := bufio.NewWriter(&s)
		f(b)
		b.Flush()
		return s.String()
	}
	for _, s := range cellTexts {
		if got, want := write(func(b *bufio.Writer) { writeMDCell(b, s) }), mdCell(s); got != want {
			t.Errorf("writeMDCell(%q) = %q, mdCell %q", s, got, want)
		}
		if got, want := oneLineFast(s), oneLine(s); got != want {
			t.Errorf("oneLineFast(%q) = %q, oneLine %q", s, got, want)
		}
		if oneLineAsIs(s) && oneLine(s) != s {
			t.Errorf("oneLineAsIs(%q), but oneLine is %q", s, oneLine(s))
		}
		for _, base := range []string{"", "https://x/blob/sha"} {
			for _, line := range []int{0, 7, 12345} {
				src := model.Source{File: s, Line: line}
				if got, want := write(func(b *bufio.Writer) { writeMDSource(b, src, base) }), mdSource(src, base); got != want {
					t.Errorf("writeMDSource(%+v, %q) = %q, mdSource %q", src, base, got, want)
				}
			}
		}
		for _, ns := range []string{"", "ns", s} {
			for _, hs := range [][]string{nil, {""}, {s}, {"a.example.com", s}, {s, "", s}} {
				for _, name := range cellTexts {
					ref := model.Ref{Kind: "HTTPRoute", Namespace: ns, Name: name}
					got := write(func(b *bufio.Writer) { writeMDRouteCell(b, ref, hs) })
					if want := mdCell(ref.String() + " (" + hostnamesLabel(hs) + ")"); got != want {
						t.Errorf("writeMDRouteCell(%+v, %q) = %q, mdCell %q", ref, hs, got, want)
					}
				}
			}
		}
	}
	for _, s := range []string{"a.example.com", "two  words", "x"} {
		if !oneLineAsIs(s) && oneLine(s) == s {
			t.Errorf("oneLineAsIs(%q) is false for a text oneLine keeps", s)
		}
	}
	for c := range 256 {
		in := string([]byte{byte(c)})
		if mdCellSpecial[c] != (mdCellBytes[c] != in) {
			t.Errorf("byte %#x: special %v, written as %q", c, mdCellSpecial[c], mdCellBytes[c])
		}
	}
	if !mdCellSpecial['|'] || mdCellBytes['\r'] != "" || mdCellBytes['\n'] != "<br>" || mdCellBytes['*'] != `\*` {
		t.Errorf("the byte table does not escape what mdCell does: | %q, \\r %q, \\n %q, * %q", mdCellBytes['|'], mdCellBytes['\r'], mdCellBytes['\n'], mdCellBytes['*'])
	}
}
