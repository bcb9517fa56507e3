package render

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testinputs"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
)

// TestRouteStatusPartsJSON: appendParentRefJSON and appendConditionJSON write
// what json.Marshal writes, with and without each optional field, and strings
// that json.Marshal escapes.
func TestRouteStatusPartsJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	texts := []string{"", "gw", "a<b>&c", `quote " and \ backslash`, "é \u2028 \xff", "line\nbreak", "Accepted"}
	text := func() string { return texts[rng.IntN(len(texts))] }
	ptr := func() *string {
		if rng.IntN(2) == 0 {
			return nil
		}
		s := text()
		return &s
	}
	for range 2000 {
		var r gwv1.ParentReference
		r.Name = gwv1.ObjectName(text())
		if s := ptr(); s != nil {
			r.Group = (*gwv1.Group)(s)
		}
		if s := ptr(); s != nil {
			r.Kind = (*gwv1.Kind)(s)
		}
		if s := ptr(); s != nil {
			r.Namespace = (*gwv1.Namespace)(s)
		}
		if s := ptr(); s != nil {
			r.SectionName = (*gwv1.SectionName)(s)
		}
		if rng.IntN(2) == 0 {
			port := gwv1.PortNumber(rng.Int32N(70000))
			r.Port = &port
		}
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendParentRefJSON(nil, r); string(got) != string(want) {
			t.Fatalf("appendParentRefJSON:\n%s\njson.Marshal:\n%s", got, want)
		}

		c := metav1.Condition{Type: text(), Status: metav1.ConditionStatus(text()), Reason: text(), Message: text(),
			ObservedGeneration: rng.Int64N(3) - 1}
		if rng.IntN(3) > 0 {
			c.LastTransitionTime = metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, rng.IntN(2)*999, time.FixedZone("x", 3600*rng.IntN(3))))
		}
		if want, err = json.Marshal(c); err != nil {
			t.Fatal(err)
		}
		if got := appendConditionJSON(nil, c); string(got) != string(want) {
			t.Fatalf("appendConditionJSON:\n%s\njson.Marshal:\n%s", got, want)
		}
	}
}

// TestRouteResultStatusJSON: appendRouteResultStatusJSON writes what
// json.Marshal writes of the route's Status, for every route of every input
// of the repository (routes with no parent written, rejected parents,
// unresolved references, dropped rules, several parents).
func TestRouteResultStatusJSON(t *testing.T) {
	files, corpus, err := testinputs.Manifests("..", true)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var routes, parents, conditions int
	seen := map[string]bool{}
	for _, f := range files {
		m, err := load.Files(load.FileOptions{Filenames: []string{f}, Admission: load.Admission{Off: true}})
		if err != nil {
			continue // inputs the loader refuses have no routes to write
		}
		for _, rr := range analyze.Analyze(m, analyze.Options{Now: now}).Routes {
			want, err := json.Marshal(rr.Status())
			if err != nil {
				t.Fatal(err)
			}
			if got := appendRouteResultStatusJSON(nil, rr); string(got) != string(want) {
				t.Fatalf("%s: %s:\nappendRouteResultStatusJSON:\n%s\njson.Marshal:\n%s", f, rr.Route.ObjectMeta.Name, got, want)
			}
			routes++
			st := rr.Status()
			parents += len(st.Parents)
			for _, p := range st.Parents {
				conditions += len(p.Conditions)
				for _, c := range p.Conditions {
					seen[c.Type+"/"+string(c.Status)] = true
				}
			}
		}
	}
	// The inputs hold every kind of route status, so that this compares them.
	for _, k := range []string{"Accepted/True", "Accepted/False", "ResolvedRefs/True", "ResolvedRefs/False", "PartiallyInvalid/True"} {
		if !seen[k] {
			t.Errorf("no route status of the inputs has %s", k)
		}
	}
	// 212 routes are the repository's own; the conformance corpus, when
	// ../shared holds it, adds about 115.
	least := 200
	if corpus > 0 {
		least = 300
	}
	if routes < least {
		t.Errorf("only %d routes compared (%d of the conformance corpus's files)", routes, corpus)
	}
	t.Logf("%d routes, %d parents, %d conditions of %d inputs", routes, parents, conditions, len(files))
}

// TestGatewayAndPolicyStatusJSON: the Gateway and BackendTLSPolicy status
// writers write what json.Marshal writes of their Status() on every Gateway
// and policy of every input of the repository, recorded addresses, listeners
// without supported kinds and policies without ancestors among them.
func TestGatewayAndPolicyStatusJSON(t *testing.T) {
	files, _, err := testinputs.Manifests("..", true)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var gateways, policies, addressed, noKinds, noAncestors int
	for _, f := range files {
		m, err := load.Files(load.FileOptions{Filenames: []string{f}, Admission: load.Admission{Off: true}})
		if err != nil {
			continue
		}
		res := analyze.Analyze(m, analyze.Options{Now: now})
		for _, g := range res.Gateways {
			want, err := json.Marshal(g.Status())
			if err != nil {
				t.Fatal(err)
			}
			if got := appendGatewayResultStatusJSON(nil, g); string(got) != string(want) {
				t.Fatalf("%s: Gateway %s:\nappendGatewayResultStatusJSON:\n%s\njson.Marshal:\n%s", f, g.Gateway.Obj.Name, got, want)
			}
			gateways++
			if gateways == 1 && len(g.Listeners) > 0 {
				checkGatewayVariants(t, g)
			}
			if len(g.Gateway.Obj.Status.Addresses) > 0 {
				addressed++
			}
			for _, l := range g.Listeners {
				if l.SupportedKinds == nil {
					noKinds++
				}
			}
		}
		for _, pr := range res.BackendTLSPolicies {
			want, err := json.Marshal(pr.Status())
			if err != nil {
				t.Fatal(err)
			}
			if got := appendPolicyResultStatusJSON(nil, pr); string(got) != string(want) {
				t.Fatalf("%s: BackendTLSPolicy %s:\nappendPolicyResultStatusJSON:\n%s\njson.Marshal:\n%s", f, pr.Policy.Obj.Name, got, want)
			}
			policies++
			if len(pr.Ancestors) == 0 {
				noAncestors++
			}
		}
	}
	t.Logf("%d Gateways (%d with addresses, %d listeners without supported kinds), %d policies (%d without ancestors)", gateways, addressed, noKinds, policies, noAncestors)
	if gateways < 100 || policies < 10 || addressed == 0 || noAncestors == 0 {
		t.Errorf("too few compared: %d Gateways, %d with addresses, %d policies, %d without ancestors", gateways, addressed, policies, noAncestors)
	}
}

// checkGatewayVariants compares the Gateway status writer with json.Marshal on
// copies of g that no input makes: a listener without supported kinds (nil
// and empty), a kind without a group, no conditions, no listeners.
func checkGatewayVariants(t *testing.T, g *analyze.GatewayResult) {
	t.Helper()
	variants := map[string]func(*analyze.GatewayResult){
		"nil kinds": func(v *analyze.GatewayResult) { v.Listeners[0].SupportedKinds = nil },
		"no kinds":  func(v *analyze.GatewayResult) { v.Listeners[0].SupportedKinds = []gwv1.RouteGroupKind{} },
		"no group": func(v *analyze.GatewayResult) {
			v.Listeners[0].SupportedKinds = []gwv1.RouteGroupKind{{Kind: "HTTPRoute"}, {Group: new(gwv1.Group), Kind: "<&>"}}
		},
		"no conditions": func(v *analyze.GatewayResult) { v.Conditions = nil; v.Listeners[0].Conditions = nil },
		"no listeners":  func(v *analyze.GatewayResult) { v.Listeners = nil; v.AttachedListenerSets = 7 },
	}
	for name, change := range variants {
		v := *g
		l := *g.Listeners[0]
		v.Listeners = append([]*analyze.ListenerResult{&l}, g.Listeners[1:]...)
		change(&v)
		want, err := json.Marshal(v.Status())
		if err != nil {
			t.Fatal(err)
		}
		if got := appendGatewayResultStatusJSON(nil, &v); string(got) != string(want) {
			t.Fatalf("%s:\nappendGatewayResultStatusJSON:\n%s\njson.Marshal:\n%s", name, got, want)
		}
	}
}
