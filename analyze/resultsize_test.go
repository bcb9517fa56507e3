package analyze_test

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
)

// TestHealthyListenersShareConditions: the listeners of a Gateway whose four
// conditions are equal (healthy, one generation, one analysis time) hold one
// group of them rather than four each, and a listener with other conditions
// holds its own. The groups are read only: each has its length as its
// capacity, so a condition appended to one listener's (OverlappingTLSConfig)
// is not seen by the others.
func TestHealthyListenersShareConditions(t *testing.T) {
	res := analyzeDocs(t, analyze.Options{}, classDoc, gatewayDoc(
		"{name: a, port: 80, protocol: HTTP, hostname: a.example.com}",
		"{name: b, port: 80, protocol: HTTP, hostname: b.example.com}",
		"{name: bad, port: 81, protocol: FOO}",
		"{name: c, port: 8080, protocol: HTTP}"))
	ls := res.Gateways[0].Listeners
	a, b, bad, c := listenerNamed(t, ls, "a"), listenerNamed(t, ls, "b"), listenerNamed(t, ls, "bad"), listenerNamed(t, ls, "c")
	for _, l := range []*analyze.ListenerResult{a, b, c} {
		if got := condition(l.Conditions, "Accepted") + " " + condition(l.Conditions, "Programmed"); got != "True/Accepted True/Programmed" {
			t.Errorf("listener %s: %s, want accepted and programmed", l.Name(), got)
		}
		// No room beyond the four: appending a condition to one listener
		// (OverlappingTLSConfig) copies the group rather than writing into
		// the one its Gateway's other listeners share.
		if len(l.Conditions) != 4 || cap(l.Conditions) != 4 {
			t.Errorf("listener %s: %d conditions with room for %d, want 4 and 4", l.Name(), len(l.Conditions), cap(l.Conditions))
		}
	}
	if &a.Conditions[0] != &b.Conditions[0] || &b.Conditions[0] != &c.Conditions[0] {
		t.Error("healthy listeners a, b and c hold a group of conditions each, want one shared")
	}
	if got := condition(bad.Conditions, "Accepted"); got != "False/UnsupportedProtocol" {
		t.Errorf("listener bad: Accepted %s, want False/UnsupportedProtocol", got)
	}
	if &bad.Conditions[0] == &a.Conditions[0] {
		t.Error("listener bad shares the healthy listeners' conditions")
	}
}

// TestListenerListsInRouteOrderAndSized: routes decided on every core are
// written into their listeners' Attachments in route order, each list cut to
// its exact size (counted first, then placed), so that no list grows by
// appending nor is joined from the cores' parts.
func TestListenerListsInRouteOrderAndSized(t *testing.T) {
	defer analyze.SetParallelMin(analyze.SetParallelMin(1))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	m := loadGenerated(t, t.TempDir(), "lists", generate.Scaled(3, 1000))
	res := analyze.Analyze(m, analyze.Options{Now: benchNow})
	index := make(map[*analyze.RouteResult]int, len(res.Routes))
	for i, rr := range res.Routes {
		index[rr] = i
	}
	attached, listeners := 0, 0
	for _, g := range res.Gateways {
		for _, l := range g.AllListeners() {
			listeners++
			attached += len(l.Attachments)
			if cap(l.Attachments) != len(l.Attachments) || cap(l.Inactive) != len(l.Inactive) {
				t.Errorf("listener %s/%s: %d attachments with room for %d, %d inactive with room for %d, want each sized exactly",
					g.Gateway.Obj.Name, l.Name(), len(l.Attachments), cap(l.Attachments), len(l.Inactive), cap(l.Inactive))
			}
			for k := 1; k < len(l.Attachments); k++ {
				if index[l.Attachments[k-1].Route] >= index[l.Attachments[k].Route] {
					t.Fatalf("listener %s/%s: attachment %d is route %d, after route %d", g.Gateway.Obj.Name, l.Name(),
						k, index[l.Attachments[k].Route], index[l.Attachments[k-1].Route])
				}
			}
			for _, a := range l.Attachments {
				if a.Listener != l {
					t.Fatalf("listener %s/%s lists an attachment to listener %s", g.Gateway.Obj.Name, l.Name(), a.Listener.Name())
				}
			}
		}
	}
	if attached < len(res.Routes)/2 || listeners < 100 {
		t.Fatalf("%d listeners, %d attachments for %d routes: the input does not exercise the lists", listeners, attached, len(res.Routes))
	}
}

// TestBackendAndParentResultsSized: a large Result has a BackendResult per
// backendRef and a ParentResult per parentRef, 64 and 80 bytes; a backend
// declared external reports External and why from the one pointer that
// holds both, a resolved one and a missing one neither.
func TestBackendAndParentResultsSized(t *testing.T) {
	if b, p := unsafe.Sizeof(analyze.BackendResult{}), unsafe.Sizeof(analyze.ParentResult{}); b > 64 || p > 80 {
		t.Errorf("BackendResult %d bytes, ParentResult %d: want at most 64 and 80", b, p)
	}
	docs := append(referenceScene(), routeDoc("HTTPRoute", "{backendRefs: [{name: web, port: 8080}, {name: outside, port: 8080}, {name: gone, port: 8080}]}"))
	res := analyzeDocs(t, analyze.Options{External: []analyze.ExternalRef{{Kind: "Service", Namespace: "default", Name: "outside"}}}, docs...)
	var got []string
	for _, b := range res.Routes[0].Backends {
		got = append(got, fmt.Sprintf("%s external=%t %q problem=%t rule=%d index=%d", b.Ref.Name, b.External(), b.Unverified(), b.Problem != nil, b.Rule, b.Index))
	}
	want := []string{
		`web external=false "" problem=false rule=0 index=0`,
		`outside external=true "declared external" problem=false rule=0 index=1`,
		`gone external=false "" problem=true rule=0 index=2`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("backends:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if p := res.Routes[0].Parents[0]; p.Index != 0 || !p.Accepted() {
		t.Errorf("parent %d accepted=%t, want 0 and accepted", p.Index, p.Accepted())
	}
}
