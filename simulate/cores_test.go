package simulate_test

import (
	"encoding/json"
	"runtime"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
	"github.com/kubectl-gwtls/kubectl-gwtls/simulate"
)

// allOn is every outcome of simulate --all (and of --all --gateway for the
// first Gateway) on a table built and decided with GOMAXPROCS procs, each in
// JSON.
func allOn(t *testing.T, res *analyze.Result, procs int) (all, first []string) {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	table := serving.Build(res)
	sim := simulate.ForTable(table)
	say := func(outs []simulate.Outcome) []string {
		var lines []string
		for _, o := range outs {
			b, err := json.Marshal(o)
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, string(b))
		}
		return lines
	}
	return say(sim.All()), say(sim.AllOf(table.Gateways[0].Name))
}

// TestAllOnEveryCore: simulate --all says the same outcomes in the same order
// on one core and on several (more goroutines than cores, parts left over).
func TestAllOnEveryCore(t *testing.T) {
	in, err := generate.Load(t.TempDir(), "cores", generate.Config{Seed: 3, Gateways: 50, ListenersPerGateway: 20, Routes: 2500})
	if err != nil {
		t.Fatal(err)
	}
	res := analyze.Analyze(in.Model, analyze.Options{Now: now})
	want, wantFirst := allOn(t, res, 1)
	if len(want) < 3*simulate.RowsPerPart || len(wantFirst) == 0 {
		t.Fatalf("%d outcomes (%d of the first Gateway): too few for the parallel path", len(want), len(wantFirst))
	}
	refused := 0
	for _, o := range want {
		var out simulate.Outcome
		if err := json.Unmarshal([]byte(o), &out); err != nil {
			t.Fatal(err)
		}
		if out.Outcome != simulate.Routed {
			refused++
		}
	}
	if refused == 0 || refused == len(want) {
		t.Fatalf("%d outcomes of %d refused: want both kinds", refused, len(want))
	}
	for _, procs := range []int{2, 3, 8} {
		got, gotFirst := allOn(t, res, procs)
		for _, c := range []struct {
			what      string
			got, want []string
		}{{"All", got, want}, {"AllOf", gotFirst, wantFirst}} {
			if len(c.got) != len(c.want) {
				t.Fatalf("procs %d: %s says %d outcomes, want %d", procs, c.what, len(c.got), len(c.want))
			}
			for i := range c.want {
				if c.got[i] != c.want[i] {
					t.Fatalf("procs %d: %s's outcome %d is\n%s\nwant\n%s", procs, c.what, i, c.got[i], c.want[i])
				}
			}
		}
	}
}
