package triage_test

import (
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
	"github.com/kubectl-gwtls/kubectl-gwtls/triage"
)

func finding(rule *rules.Rule, name, field string, line int, message string) analyze.Finding {
	return analyze.Finding{Rule: rule, Severity: rule.Severity, Object: model.Ref{Kind: "HTTPRoute", Namespace: "apps", Name: name},
		Field: field, Source: model.Source{File: "routes.yaml", Line: line}, Message: message}
}

func states(fs []analyze.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Object.Name+" "+string(f.BaselineState))
	}
	return out
}

// Findings are matched by rule, object and field: a finding whose line moved
// is unchanged, one whose message changed is updated, one the baseline lacks
// is new, and one the baseline has that is gone is absent. A key recorded
// twice matches two findings, not three.
func TestCompareBaseline(t *testing.T) {
	before := []analyze.Finding{
		finding(rules.RouteNoParentRefs, "moved", "", 10, "no parentRefs"),
		finding(rules.RouteAcceptedNoMatchingParent, "renamed", "spec.parentRefs[0]", 20, `no listener named "htp"`),
		finding(rules.RouteBackendPortNotFound, "fixed", "spec.rules[0].backendRefs", 30, "no port 9090"),
		finding(rules.RouteBackendPortNotFound, "twice", "spec.rules[0].backendRefs", 40, "no port 1"),
		finding(rules.RouteBackendPortNotFound, "twice", "spec.rules[0].backendRefs", 40, "no port 2"),
	}
	data, err := triage.NewBaseline(before).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	b, err := triage.ParseBaseline("baseline.json", data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	res := &analyze.Result{
		Findings: []analyze.Finding{
			finding(rules.RouteNoParentRefs, "moved", "", 55, "no parentRefs"),
			finding(rules.RouteAcceptedNoMatchingParent, "renamed", "spec.parentRefs[0]", 20, `no listener named "htpp"`),
			finding(rules.RouteBackendPortNotFound, "twice", "spec.rules[0].backendRefs", 40, "no port 2"),
			finding(rules.RouteBackendPortNotFound, "twice", "spec.rules[0].backendRefs", 40, "no port 1"),
			finding(rules.RouteBackendPortNotFound, "twice", "spec.rules[0].backendRefs", 40, "no port 3"),
			finding(rules.RouteResolvedRefsBackendNotFound, "new", "spec.rules[].backendRefs", 60, "no Service"),
		},
		Suppressed: []analyze.Finding{finding(rules.RouteNoParentRefs, "accepted", "", 70, "no parentRefs")},
	}
	triage.CompareBaseline(res, b, "baseline.json")
	if got, want := strings.Join(states(res.Findings), ", "), "twice new, new new"; got != want {
		t.Errorf("reported: %s; want %s", got, want)
	}
	if got, want := strings.Join(states(res.Baseline.Known), ", "), "moved unchanged, renamed updated, twice unchanged, twice unchanged"; got != want {
		t.Errorf("known: %s; want %s", got, want)
	}
	if got, want := strings.Join(states(res.Baseline.Absent), ", "), "fixed absent"; got != want {
		t.Errorf("absent: %s; want %s", got, want)
	}
	if a := res.Baseline.Absent[0]; a.Message != "no port 9090" || a.Source.File != "routes.yaml" || a.Rule != rules.RouteBackendPortNotFound || a.Severity != rules.RouteBackendPortNotFound.Severity {
		t.Errorf("an absent finding keeps what the baseline recorded: %+v", a)
	}
	if got := states(res.Suppressed); len(got) != 1 || got[0] != "accepted new" {
		t.Errorf("suppressed: %v; every result has a state once a baseline is compared", got)
	}
}

// The same findings make the same file, whatever their order.
func TestBaselineIsStable(t *testing.T) {
	a := finding(rules.RouteNoParentRefs, "a", "", 1, "x")
	b := finding(rules.RouteNoParentRefs, "b", "", 2, "y")
	one, _ := triage.NewBaseline([]analyze.Finding{a, b}).Marshal()
	two, _ := triage.NewBaseline([]analyze.Finding{b, a}).Marshal()
	if string(one) != string(two) {
		t.Errorf("order changes the file:\n%s\n%s", one, two)
	}
	if strings.Contains(string(one), `"line"`) {
		t.Errorf("a baseline records no line:\n%s", one)
	}
}

func TestParseBaselineErrors(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"not JSON", "findings: []", "write one with --write-baseline"},
		{"another kind", `{"apiVersion":"gwtls.kubectl.dev/v1","kind":"Report","findings":[]}`, `kind "Report": want gwtls.kubectl.dev/v1 Baseline`},
		{"an unknown field", `{"apiVersion":"gwtls.kubectl.dev/v1","kind":"Baseline","findings":[],"extra":1}`, `unknown field "extra"`},
		{"an unknown rule", `{"apiVersion":"gwtls.kubectl.dev/v1","kind":"Baseline","findings":[{"rule":"route/Gone","severity":"error","object":{"kind":"HTTPRoute","name":"a"},"message":"m"}]}`, `findings[0]: rule "route/Gone" is not a rule of this version`},
		{"a severity no finding has", `{"apiVersion":"gwtls.kubectl.dev/v1","kind":"Baseline","findings":[{"rule":"route/NoParentRefs","severity":"none","object":{"kind":"HTTPRoute","name":"a"},"message":"m"}]}`, `severity "none"`},
	} {
		if _, err := triage.ParseBaseline("b.json", []byte(tc.doc)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want an error containing %q", tc.name, err, tc.want)
		}
	}
}
