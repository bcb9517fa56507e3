package serving_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
)

// describeTable is every row of a table built and decided with GOMAXPROCS
// procs, each as describe says it, and the number of ports.
func describeTable(t *testing.T, res *analyze.Result, procs int) (rows []string, ports int) {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	table := serving.Build(res)
	for _, r := range table.Rows() {
		rows = append(rows, describe(r))
	}
	for i, g := range table.Gateways {
		if g.Result != res.Gateways[i] || table.Gateway(g.Name) == nil {
			t.Fatalf("procs %d: Gateway %d is %s, want %s's", procs, i, g.Name, res.Gateways[i].Gateway.Obj.Name)
		}
		ports += len(g.Ports)
	}
	return rows, ports
}

// TestTableOnEveryCore: a table built and decided on one core and on several
// (more goroutines than parts, and parts left over) has the same rows in the
// same order.
func TestTableOnEveryCore(t *testing.T) {
	in, err := generate.Load(t.TempDir(), "cores", generate.Config{Seed: 3, Gateways: 50, ListenersPerGateway: 20, Routes: 2500})
	if err != nil {
		t.Fatal(err)
	}
	res := analyze.Analyze(in.Model, analyze.Options{Now: now})
	want, ports := describeTable(t, res, 1)
	if len(res.Gateways) < 3*serving.GatewaysPerPart || ports < 3*serving.PortsPerPart || len(want) < 1000 {
		t.Fatalf("%d Gateways, %d ports, %d rows: too few for the parallel path", len(res.Gateways), ports, len(want))
	}
	refused := 0
	for _, r := range want {
		if strings.Contains(r, "refused") {
			refused++
		}
	}
	if refused == 0 || refused == len(want) {
		t.Fatalf("%d rows of %d refused: want both kinds", refused, len(want))
	}
	for _, procs := range []int{2, 3, 8} {
		got, _ := describeTable(t, res, procs)
		if len(got) != len(want) {
			t.Fatalf("procs %d: %d rows, want %d", procs, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("procs %d: row %d is\n%s\nwant\n%s", procs, i, got[i], want[i])
			}
		}
	}
}
