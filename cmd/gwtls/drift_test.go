package gwtls

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// statusKinds are the kinds render status writes a status for.
var statusKinds = []string{"Gateway", "ListenerSet", "HTTPRoute", "GRPCRoute", "TLSRoute", "TCPRoute", "UDPRoute", "BackendTLSPolicy"}

// statusDump is an input with every Gateway, ListenerSet, route and
// BackendTLSPolicy replaced by render status's output for it: what a
// conformant controller would leave in the cluster, as kubectl get would dump
// it.
func statusDump(t *testing.T, in string, extra []string) string {
	t.Helper()
	out, stderr, code := run(t, "", append([]string{"render", "status", "-f", in, "-o", "json", "--now", goldenNow}, extra...)...)
	if code != ExitClean {
		t.Fatalf("render status: exit %d: %s", code, stderr)
	}
	var list struct{ Items []json.RawMessage }
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	var docs []string
	for _, doc := range strings.Split("\n"+string(data), "\n---") {
		var h struct {
			Kind  string
			Items []map[string]any
		}
		if err := yaml.Unmarshal([]byte(doc), &h); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if h.Kind == "List" {
			// A List dump: its items are the documents.
			for _, it := range h.Items {
				if kind, _ := it["kind"].(string); !slices.Contains(statusKinds, kind) {
					js, err := json.Marshal(it)
					if err != nil {
						t.Fatal(err)
					}
					docs = append(docs, "\n"+string(js)+"\n")
				}
			}
			continue
		}
		if h.Kind != "" && !slices.Contains(statusKinds, h.Kind) {
			docs = append(docs, doc)
		}
	}
	for _, it := range list.Items {
		docs = append(docs, "\n"+string(it)+"\n")
	}
	p := filepath.Join(t.TempDir(), filepath.Base(in))
	if err := os.WriteFile(p, []byte(strings.Join(docs, "\n---")), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// findingsWithoutSource runs analyze -o json and returns its findings, each
// without its source (the dump's lines are not the input's), but those drift
// reports on a GatewayClass: render status writes no class status, so a
// dump keeps the input's, and what drift says of it. schema/Invalid is left
// out too: render status writes no object the API server refuses, so a dump
// holds only what it admits.
func findingsWithoutSource(t *testing.T, args ...string) []string {
	t.Helper()
	out, stderr, code := run(t, "", append([]string{"analyze", "-o", "json", "--now", goldenNow}, args...)...)
	if code != ExitClean && code != ExitFindings {
		t.Fatalf("analyze %v: exit %d: %s", args, code, stderr)
	}
	var rep struct{ Findings []map[string]any }
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, f := range rep.Findings {
		if obj, _ := f["object"].(map[string]any); obj["kind"] == "GatewayClass" && strings.HasPrefix(f["rule"].(string), "drift/") {
			continue
		}
		if f["rule"] == "schema/Invalid" {
			continue
		}
		delete(f, "source")
		b, _ := json.Marshal(f)
		keys = append(keys, string(b))
	}
	slices.Sort(keys)
	return keys
}

// TestStatusDumpsOfTheCorpusAreClean: for every golden input, a dump whose
// every Gateway, ListenerSet, route and BackendTLSPolicy carries the status
// render status computes gives exactly the findings of the input itself:
// drift, on for it, adds none. This is the clean dump of every case, not of
// one; the drift cases' own dumps turn clean too.
func TestStatusDumpsOfTheCorpusAreClean(t *testing.T) {
	t.Chdir("../..")
	inputs, err := filepath.Glob("testdata/golden/*.yaml")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".yaml")
		t.Run(name, func(t *testing.T) {
			extra := goldenFlags(t, in)
			dump := statusDump(t, in, extra)
			want := findingsWithoutSource(t, append([]string{"-f", in, "--drift=false"}, extra...)...)
			got := findingsWithoutSource(t, append([]string{"-f", dump, "--drift"}, extra...)...)
			if !slices.Equal(got, want) {
				t.Errorf("the dump's findings differ from the input's\ndump:\n  %s\ninput:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
		})
	}
}

// TestDriftIsDeterministic: the same status dump gives the same bytes from
// every command that shows drift, run after run, on one core or several.
func TestDriftIsDeterministic(t *testing.T) {
	t.Chdir("../..")
	inputs, _ := filepath.Glob("testdata/golden/drift-*.yaml")
	if len(inputs) == 0 {
		t.Fatal("no drift golden inputs")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, in := range inputs {
		commands := [][]string{
			{"analyze", "-f", in, "-o", "json"},
			{"analyze", "-f", in, "-o", "sarif"},
			{"render", "status", "--diff", "-f", in},
		}
		for _, obj := range explainable(t, in) {
			commands = append(commands, []string{"explain", obj[0], "-n", obj[1], "-f", in, "-o", "json"})
		}
		for _, args := range commands {
			args = append(args, "--now", goldenNow)
			var first string
			for i, procs := range []int{1, 4, 2, 1, 4} {
				runtime.GOMAXPROCS(procs)
				out, _, _ := run(t, "", args...)
				if i == 0 {
					first = out
				} else if out != first {
					t.Fatalf("%v: run %d (GOMAXPROCS %d) differs from the first:\n%s", args, i, procs, diff(first, out))
				}
			}
		}
	}
}
