package gwtls

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-gwtls/kubectl-gwtls/drift"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
)

// update regenerates golden files: go test ./cmd/gwtls -run Golden -update
var update = flag.Bool("update", false, "rewrite golden files from the current output")

// goldenNow pins the clock so condition timestamps and certificate checks are
// reproducible.
const goldenNow = "2026-01-01T00:00:00Z"

// run executes the command tree in-process, as the binary would, and returns
// stdout, stderr and the exit code.
func run(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	streams := genericiooptions.IOStreams{In: strings.NewReader(stdin), Out: &out, ErrOut: &errOut}
	root := NewRootCmd(streams)
	root.SetArgs(args)
	root.SetOut(&out)
	root.SetErr(&errOut)
	code := Execute(context.Background(), root, &errOut)
	return out.String(), errOut.String(), code
}

// TestGolden runs every case in testdata/golden: NAME.yaml is the input;
// NAME.status.golden is `render status -o yaml`; NAME.analyze.golden is the
// `analyze` table followed by the exit code (and, for an input whose leading
// comment says "# also analyze with: FLAGS", a second run with them);
// NAME.simulate.golden is `simulate --all` as a table and as JSON; for an
// input that carries status (a status dump), NAME.statusdiff.golden is
// `render status --diff`. Review changes as diffs.
func TestGolden(t *testing.T) {
	t.Chdir("../..") // sources in the output read testdata/golden/..., as a user's would
	inputs, err := filepath.Glob("testdata/golden/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) == 0 {
		t.Fatal("no golden inputs in testdata/golden")
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".yaml")
		t.Run(name, func(t *testing.T) {
			extra := goldenFlags(t, in)
			status, stderr, code := run(t, "", append([]string{"render", "status", "-f", in, "-o", "yaml", "--now", goldenNow}, extra...)...)
			if code != ExitClean {
				t.Fatalf("render status exit %d: %s", code, stderr)
			}
			compareGolden(t, strings.TrimSuffix(in, ".yaml")+".status.golden", status)

			analyzeArgs := []string{"analyze", "-f", in, "--now", goldenNow, "--color", "never", "-o", "wide"}
			table, stderr, code := run(t, "", append(analyzeArgs, extra...)...)
			analysis := fmt.Sprintf("%s%s--- exit %d\n", stderr, table, code)
			if also := goldenComment(t, in, "# also analyze with:"); also != nil {
				// The engine's own answer where the API server refuses an
				// object first.
				table, stderr, code := run(t, "", append(append(analyzeArgs, extra...), also...)...)
				analysis += fmt.Sprintf("$ analyze %s\n%s%s--- exit %d\n", strings.Join(also, " "), stderr, table, code)
			}
			compareGolden(t, strings.TrimSuffix(in, ".yaml")+".analyze.golden", analysis)

			// render plan in every format
			var plan strings.Builder
			for _, format := range []string{"table", "json", "dnsendpoint", "certificate"} {
				args := append([]string{"render", "plan", "-f", in, "--now", goldenNow, "--color", "never", "-o", format, "--issuer", "ClusterIssuer/letsencrypt"}, extra...)
				out, stderr, code := run(t, "", args...)
				fmt.Fprintf(&plan, "$ render plan -o %s\n%s%s--- exit %d\n", format, stderr, out, code)
			}
			compareGolden(t, strings.TrimSuffix(in, ".yaml")+".plan.golden", plan.String())

			// simulate every served hostname, as a table and as JSON, and a request
			// nothing serves
			var sim strings.Builder
			for _, args := range [][]string{{"--all"}, {"--all", "-o", "json"}, {"--sni", "unserved.invalid"}} {
				full := append(append([]string{"simulate", "-f", in, "--now", goldenNow, "--color", "never"}, args...), extra...)
				out, stderr, code := run(t, "", full...)
				fmt.Fprintf(&sim, "$ simulate %s\n%s%s--- exit %d\n", strings.Join(args, " "), stderr, out, code)
			}
			compareGolden(t, strings.TrimSuffix(in, ".yaml")+".simulate.golden", sim.String())

			// explain every Gateway, ListenerSet, route and BackendTLSPolicy, as a tree
			// and as JSON.
			var tree, js strings.Builder
			for _, obj := range explainable(t, in) {
				args := append([]string{"explain", obj[0], "-n", obj[1], "-f", in, "--now", goldenNow, "--color", "never"}, extra...)
				out, stderr, code := run(t, "", args...)
				if code != ExitClean {
					t.Fatalf("explain %s -n %s: exit %d: %s", obj[0], obj[1], code, stderr)
				}
				fmt.Fprintf(&tree, "$ explain %s -n %s\n%s\n", obj[0], obj[1], out)
				out, _, _ = run(t, "", append(args, "-o", "json")...)
				fmt.Fprintf(&js, "%s", out)
			}
			compareGolden(t, strings.TrimSuffix(in, ".yaml")+".explain.golden", tree.String())
			compareGolden(t, strings.TrimSuffix(in, ".yaml")+".explain.json.golden", js.String())

			// A status dump: what the controller wrote against what the spec says.
			if carriesStatus(t, in) {
				out, stderr, code := run(t, "", append([]string{"render", "status", "--diff", "-f", in, "--now", goldenNow}, extra...)...)
				compareGolden(t, strings.TrimSuffix(in, ".yaml")+".statusdiff.golden", fmt.Sprintf("%s%s--- exit %d\n", out, stderr, code))
			}
		})
	}
}

// explainable lists KIND/NAME and namespace of every object explain covers:
// every object the API server admits, unless the input's flags turn admission
// off.
func explainable(t *testing.T, path string) [][2]string {
	m, err := load.Files(load.FileOptions{Filenames: []string{path}, Admission: goldenAdmission(t, path)})
	if err != nil {
		t.Fatal(err)
	}
	var out [][2]string
	for _, g := range m.Gateways {
		out = append(out, [2]string{"gateway/" + g.Obj.Name, g.Obj.Namespace})
	}
	for _, ls := range m.ListenerSets {
		out = append(out, [2]string{"listenerset/" + ls.Obj.Name, ls.Obj.Namespace})
	}
	for _, r := range m.Routes {
		out = append(out, [2]string{strings.ToLower(r.Kind) + "/" + r.ObjectMeta.Name, r.ObjectMeta.Namespace})
	}
	for _, p := range m.BackendTLSPolicies {
		out = append(out, [2]string{"backendtlspolicy/" + p.Obj.Name, p.Obj.Namespace})
	}
	return out
}

// carriesStatus reports whether a golden input is a status dump: drift is on
// for it, and render status --diff is one of its views.
func carriesStatus(t *testing.T, path string) bool {
	m, err := load.Files(load.FileOptions{Filenames: []string{path}, Admission: goldenAdmission(t, path)})
	if err != nil {
		t.Fatal(err)
	}
	return drift.Carried(m)
}

// goldenAdmission is the admission the input's flags ask for.
func goldenAdmission(t *testing.T, path string) load.Admission {
	return load.Admission{Off: slices.Contains(goldenFlags(t, path), "--admission=false")}
}

// goldenFlags reads extra command-line flags from a leading "# flags: ..." comment.
func goldenFlags(t *testing.T, path string) []string {
	return goldenComment(t, path, "# flags:")
}

// goldenComment reads the words of the leading comment line that starts with
// prefix: "# flags:" gives every command's extra flags, "# also analyze with:"
// the flags of a second analyze run that the analyze golden ends with.
func goldenComment(t *testing.T, path, prefix string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			return strings.Fields(rest)
		}
		if !strings.HasPrefix(line, "#") {
			break
		}
	}
	return nil
}

func compareGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run: go test ./cmd/gwtls -run Golden -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the output (- golden, + output; review, then run: go test ./cmd/gwtls -run Golden -update)\n%s", path, diff(string(want), got))
	}
}
