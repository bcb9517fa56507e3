package explain_test

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/explain"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// TestTraceOnlyExplainsTheSame: explain asks the engine to record the steps of
// the explained object only (analyze.Options.TraceOnly). For every object of
// every golden input, and the shipped example, the explanation must be the one a
// full trace gives, and the objects not explained must have no steps.
func TestTraceOnlyExplainsTheSame(t *testing.T) {
	inputs, err := filepath.Glob("../testdata/golden/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	inputs = append(inputs, "../testdata/examples/shop")
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	explained := 0
	for _, in := range inputs {
		m, err := load.Files(load.FileOptions{Filenames: []string{in}, Recursive: true})
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		full := analyze.Analyze(m, analyze.Options{Now: now, Trace: true})
		for _, ref := range objects(full) {
			want, wantErr := explain.Explain(full, ref, explain.Options{})
			only := analyze.Analyze(m, analyze.Options{Now: now, Trace: true, TraceOnly: &ref})
			got, gotErr := explain.Explain(only, ref, explain.Options{})
			if (wantErr == nil) != (gotErr == nil) {
				t.Errorf("%s %v: error %v with a full trace, %v with TraceOnly", in, ref, wantErr, gotErr)
				continue
			}
			if w, g := jsonOf(t, want), jsonOf(t, got); w != g {
				t.Errorf("%s %v: explanation differs with TraceOnly\nfull trace: %s\nTraceOnly:  %s", in, ref, w, g)
			}
			if n := stepsOutside(only, ref); n > 0 {
				t.Errorf("%s %v: %d steps recorded for other objects", in, ref, n)
			}
			explained++
		}
	}
	if explained < 100 {
		t.Errorf("only %d objects explained: the inputs were not found or not read", explained)
	}
}

// objects are every object explain can explain in a Result.
func objects(res *analyze.Result) []model.Ref {
	var out []model.Ref
	for _, g := range res.Gateways {
		out = append(out, model.Ref{Kind: "Gateway", Namespace: g.Gateway.Obj.Namespace, Name: g.Gateway.Obj.Name})
	}
	for _, ls := range res.ListenerSets {
		out = append(out, model.Ref{Kind: "ListenerSet", Namespace: ls.ListenerSet.Obj.Namespace, Name: ls.ListenerSet.Obj.Name})
	}
	for _, rr := range res.Routes {
		out = append(out, model.Ref{Kind: rr.Route.Kind, Namespace: rr.Route.ObjectMeta.Namespace, Name: rr.Route.ObjectMeta.Name})
	}
	for _, p := range res.BackendTLSPolicies {
		out = append(out, model.Ref{Kind: "BackendTLSPolicy", Namespace: p.Policy.Obj.Namespace, Name: p.Policy.Obj.Name})
	}
	for _, c := range res.Certificates {
		out = append(out, model.Ref{Kind: "Secret", Namespace: c.Secret.Obj.Namespace, Name: c.Secret.Obj.Name})
	}
	return out
}

// stepsOutside counts the route, listener and policy steps recorded for objects
// other than ref (ListenerSets' own few steps are always recorded).
func stepsOutside(res *analyze.Result, ref model.Ref) int {
	n := 0
	for _, rr := range res.Routes {
		r := rr.Route
		if (model.Ref{Kind: r.Kind, Namespace: r.ObjectMeta.Namespace, Name: r.ObjectMeta.Name}) != ref {
			for _, p := range rr.Parents {
				n += len(p.Trace())
			}
		}
	}
	for _, g := range res.Gateways {
		for _, l := range g.AllListeners() {
			owner := model.Ref{Kind: "Gateway", Namespace: g.Gateway.Obj.Namespace, Name: g.Gateway.Obj.Name}
			if l.ListenerSet != nil && ref.Kind == "ListenerSet" {
				owner = model.Ref{Kind: "ListenerSet", Namespace: l.ListenerSet.ListenerSet.Obj.Namespace, Name: l.ListenerSet.ListenerSet.Obj.Name}
			}
			if owner != ref {
				n += len(l.Trace)
			}
		}
	}
	for _, p := range res.BackendTLSPolicies {
		if (model.Ref{Kind: "BackendTLSPolicy", Namespace: p.Policy.Obj.Namespace, Name: p.Policy.Obj.Name}) != ref {
			n += len(p.Trace)
		}
	}
	return n
}

func jsonOf(t *testing.T, x *explain.Explanation) string {
	t.Helper()
	b, err := json.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
