package gwtls

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// graphGoldenInputs are the inputs of the render graph / render report golden
// files in testdata/graph: the shipped example and golden cases that exercise
// conflicts, rejected parents, ListenerSets and BackendTLSPolicies.
var graphGoldenInputs = []string{
	"testdata/examples/shop",
	"testdata/golden/listener-hostname-conflict.yaml",
	"testdata/golden/route-no-matching-parent.yaml",
	"testdata/golden/backendtlspolicy-accepted.yaml",
	"testdata/golden/listenerset-route-attachment.yaml",
}

func graphGoldenName(in string) string {
	return strings.TrimSuffix(filepath.Base(in), ".yaml")
}

// TestGraphGolden compares `render graph -o dot|mermaid` and `render report` with
// testdata/graph/NAME.{dot,mmd,report.md}, and checks each is byte-identical on a
// second run. Regenerate with: go test ./cmd/gwtls -run GraphGolden -update
func TestGraphGolden(t *testing.T) {
	t.Chdir("../..")
	for _, in := range graphGoldenInputs {
		name := graphGoldenName(in)
		t.Run(name, func(t *testing.T) {
			var extra []string
			if strings.HasSuffix(in, ".yaml") {
				extra = goldenFlags(t, in)
			}
			for _, c := range []struct{ ext, cmd, format string }{
				{"dot", "graph", "dot"}, {"mmd", "graph", "mermaid"}, {"report.md", "report", "markdown"},
			} {
				args := append([]string{"render", c.cmd, "-f", in, "-o", c.format, "--now", goldenNow}, extra...)
				out, stderr, code := run(t, "", args...)
				if code != ExitClean {
					t.Fatalf("render %s -o %s: exit %d: %s", c.cmd, c.format, code, stderr)
				}
				again, _, _ := run(t, "", args...)
				if again != out {
					t.Errorf("render %s -o %s: two runs differ", c.cmd, c.format)
				}
				compareGolden(t, filepath.Join("testdata/graph", name+"."+c.ext), out)
			}
		})
	}
}

// TestGraphMermaidInReport checks the report embeds exactly the mermaid graph,
// its "%% admission:" comment included (not drawn; the report's Admission line
// says the same), and that both name the CRDs right after the diagram's type.
func TestGraphMermaidInReport(t *testing.T) {
	t.Chdir("../..")
	graph, _, _ := run(t, "", "render", "graph", "-f", "testdata/examples/shop", "-o", "mermaid", "--now", goldenNow)
	report, _, _ := run(t, "", "render", "report", "-f", "testdata/examples/shop", "--now", goldenNow)
	if !strings.Contains(report, "```mermaid\n"+graph+"```\n") {
		t.Errorf("report does not embed the mermaid graph:\n%s", report)
	}
	if !strings.HasPrefix(graph, "flowchart LR\n%% admission: Gateway API v1.6.3 experimental channel, built in; 0 objects refused\n") {
		t.Errorf("mermaid graph does not start with flowchart LR and the CRDs it was held to:\n%s", graph)
	}
	if !strings.Contains(report, "Admission: Gateway API v1.6.3 experimental channel, built in; 0 objects refused.") {
		t.Errorf("report does not name the CRDs in its Admission line:\n%s", report)
	}
}

// TestGraphDOTRendersWithGraphviz renders every golden DOT file with Debian's
// graphviz (dot -Tsvg). hack/test.sh installs it.
func TestGraphDOTRendersWithGraphviz(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("graphviz's dot is not installed (apt-get install graphviz; hack/test.sh does): DOT output not rendered")
	}
	t.Chdir("../..")
	for _, in := range graphGoldenInputs {
		name := graphGoldenName(in)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata/graph", name+".dot"))
			if err != nil {
				t.Fatal(err)
			}
			var out, errOut bytes.Buffer
			cmd := exec.Command(dot, "-Tsvg")
			cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(src), &out, &errOut
			if err := cmd.Run(); err != nil {
				t.Fatalf("dot -Tsvg: %v\n%s", err, errOut.String())
			}
			if errOut.Len() > 0 {
				t.Errorf("dot -Tsvg warned:\n%s", errOut.String())
			}
			svg := out.String()
			if !strings.Contains(svg, "<svg") {
				t.Fatalf("no SVG from dot:\n%s", svg)
			}
			// Every node is drawn: its first label line appears in the SVG.
			for _, line := range strings.Split(string(src), "\n") {
				_, label, ok := strings.Cut(line, `[label="`)
				if !ok || strings.Contains(line, "->") {
					continue
				}
				title, _, _ := strings.Cut(label, `\n`)
				title, _, _ = strings.Cut(title, `"`)
				title = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "-", "&#45;").Replace(title) // as graphviz writes SVG text
				if !strings.Contains(svg, title) {
					t.Errorf("SVG lacks node %q", title)
				}
			}
		})
	}
}

// TestGraphMermaidParses parses every golden Mermaid graph, and the graph each
// golden report embeds, with Mermaid's own parser, as a renderer (GitHub's, in a
// PR comment) would before drawing it. hack/test.sh installs the parser
// (hack/mermaid) and sets GWTLS_MERMAID_CHECK. A broken diagram is parsed too, to
// show the parser rejects what it should.
func TestGraphMermaidParses(t *testing.T) {
	check := os.Getenv("GWTLS_MERMAID_CHECK")
	node, err := exec.LookPath("node")
	if check == "" || err != nil {
		t.Skip("Mermaid's parser is not installed (hack/test.sh installs it with npm and sets GWTLS_MERMAID_CHECK): Mermaid output not parsed")
	}
	t.Chdir("../..")
	dir := t.TempDir()
	var files []string
	for _, in := range graphGoldenInputs {
		name := graphGoldenName(in)
		files = append(files, filepath.Join("testdata/graph", name+".mmd"))
		report, err := os.ReadFile(filepath.Join("testdata/graph", name+".report.md"))
		if err != nil {
			t.Fatal(err)
		}
		_, block, ok := strings.Cut(string(report), "```mermaid\n")
		block, _, closed := strings.Cut(block, "```")
		if !ok || !closed {
			t.Fatalf("%s.report.md embeds no mermaid block", name)
		}
		embedded := filepath.Join(dir, name+".report.mmd")
		if err := os.WriteFile(embedded, []byte(block), 0o600); err != nil {
			t.Fatal(err)
		}
		files = append(files, embedded)
	}
	broken := filepath.Join(dir, "broken.mmd")
	if err := os.WriteFile(broken, []byte("flowchart LR\n  a -->\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	cmd := exec.Command(node, append([]string{check}, append(files, broken)...)...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	verdicts := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if file, verdict, ok := strings.Cut(line, ": "); ok {
			verdicts[file] = verdict
		}
	}
	if !strings.HasPrefix(verdicts[broken], "error ") || err == nil {
		t.Fatalf("the parser did not reject a broken diagram (exit %v): %q\n%s%s", err, verdicts[broken], out.String(), errOut.String())
	}
	for _, f := range files {
		if v := verdicts[f]; v != "ok flowchart-v2" {
			t.Errorf("%s: %q, want ok flowchart-v2\n%s", f, v, errOut.String())
		}
	}
}
