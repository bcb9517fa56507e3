package analyze

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// TestAddFindingsKeepsTheOrder: findings added to a Result land where sorting
// every finding at once would put them, after the engine's own in the same
// place.
func TestAddFindingsKeepsTheOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	rs := []*rules.Rule{rules.RouteNoParentRefs, rules.ReferenceExternal, rules.GatewayClassNotFound}
	random := func(n int, msg string) []Finding {
		out := make([]Finding, n)
		for i := range out {
			out[i] = Finding{
				Rule:    rs[rng.IntN(len(rs))],
				Object:  model.Ref{Kind: "HTTPRoute", Namespace: "ns", Name: string(rune('a' + rng.IntN(3)))},
				Source:  model.Source{File: []string{"a.yaml", "b.yaml", "cluster"}[rng.IntN(3)], Line: rng.IntN(4)},
				Field:   []string{"", "spec.parentRefs[0]"}[rng.IntN(2)],
				Message: msg,
			}
		}
		return out
	}
	for range 500 {
		engine, added := random(rng.IntN(20), "engine"), random(rng.IntN(20), "added")
		slices.SortStableFunc(engine, CompareFindings)
		want := append(append([]Finding(nil), engine...), added...)
		slices.SortStableFunc(want, CompareFindings)
		r := &Result{Findings: engine}
		r.AddFindings(added)
		if !reflect.DeepEqual(r.Findings, want) && !(len(want) == 0 && len(r.Findings) == 0) {
			t.Fatalf("merged:\n%v\nwant:\n%v", r.Findings, want)
		}
	}
}

// AcceptedStatus is AcceptedCondition's status and reason, for every parent
// of a generated configuration (accepted and rejected for every reason it
// holds) and of a route whose parent is another controller's.
func TestAcceptedStatusIsAcceptedConditions(t *testing.T) {
	in, err := generate.Load(t.TempDir(), "1k", generate.Sizes[0].Config)
	if err != nil {
		t.Fatal(err)
	}
	res := Analyze(in.Model, Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	reasons := map[string]bool{}
	for _, rr := range res.Routes {
		for _, p := range rr.Parents {
			c, ok := p.AcceptedCondition()
			status, reason, ok2 := p.AcceptedStatus()
			if ok != ok2 || ok && (c.Status != status || c.Reason != reason) {
				t.Fatalf("%s parent %d: AcceptedCondition %s/%s (%v), AcceptedStatus %s/%s (%v)", rr.Route.Key(), p.Index, c.Status, c.Reason, ok, status, reason, ok2)
			}
			reasons[reason] = true
		}
	}
	if len(reasons) < 3 {
		t.Errorf("the generated configuration gives only reasons %v: the test compares too little", reasons)
	}
}
