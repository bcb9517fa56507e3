package analyze_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
)

// listenerSetDoc is ListenerSet default/name of Gateway gw, created at
// created (RFC 3339, "" for none), with the listeners given as YAML list items.
func listenerSetDoc(name, created string, listeners ...string) string {
	ts := ""
	if created != "" {
		ts = fmt.Sprintf(", creationTimestamp: %q", created)
	}
	return fmt.Sprintf("apiVersion: gateway.networking.k8s.io/v1\nkind: ListenerSet\nmetadata: {name: %s, namespace: default%s}\nspec:\n  parentRef: {name: gw}\n  listeners:\n  - %s\n",
		name, ts, strings.Join(listeners, "\n  - "))
}

// allowSame lets the Gateway take ListenerSets from its own namespace.
func allowSame(gateway string) string {
	return strings.Replace(gateway, "  listeners:\n", "  allowedListeners: {namespaces: {from: Same}}\n  listeners:\n", 1)
}

func listenerSetNamed(t *testing.T, res *analyze.Result, name string) *analyze.ListenerSetResult {
	t.Helper()
	for _, ls := range res.ListenerSets {
		if ls.ListenerSet.Obj.Name == name {
			return ls
		}
	}
	t.Fatalf("no ListenerSet %s", name)
	return nil
}

// ListenerSetSpec.Listeners: the merged list's precedence is the parent
// Gateway, then ListenerSets oldest first, then by namespace/name, and "If a
// listener has a conflict, this will be reported ... setting the Conflicted
// condition to True". Only the listener that loses on precedence is
// conflicted: its siblings and the ListenerSets after it keep theirs, a set
// with a valid listener left stays accepted, and attachedListenerSets counts
// it (upstream ListenerSetHostnameConflict, ListenerSetProtocolConflict).
// Such a listener is Programmed=False with the conflict's reason, as those
// tests assert.
func TestListenerSetPrecedence(t *testing.T) {
	gw := allowSame(gatewayDoc(
		"{name: gw-a, port: 80, protocol: HTTP, hostname: a.example.com}",
		"{name: gw-b, port: 80, protocol: HTTP, hostname: b.example.com}"))
	docs := []string{classDoc, gw,
		// older than "first" though its name sorts last
		listenerSetDoc("zz-oldest", "2025-01-01T00:00:00Z",
			"{name: mine, port: 80, protocol: HTTP, hostname: z.example.com}",
			"{name: tcp, port: 80, protocol: TCP}", // loses to the Gateway's HTTP listeners
			"{name: shared, port: 80, protocol: HTTP, hostname: s.example.com}"),
		listenerSetDoc("first", "2025-06-01T00:00:00Z",
			"{name: own, port: 80, protocol: HTTP, hostname: f.example.com}",
			"{name: host, port: 80, protocol: HTTP, hostname: s.example.com}"), // loses to zz-oldest's "shared"
		listenerSetDoc("second", "2025-06-01T00:00:00Z",
			"{name: only, port: 80, protocol: HTTP, hostname: a.example.com}"), // loses to the Gateway: no listener left
	}
	res := analyzeDocs(t, analyze.Options{}, docs...)
	want := []struct {
		set, listener, accepted, programmed, conflicted string
	}{
		{"zz-oldest", "mine", "True/Accepted", "True/Programmed", "False/NoConflicts"},
		{"zz-oldest", "tcp", "False/ProtocolConflict", "False/ProtocolConflict", "True/ProtocolConflict"},
		{"zz-oldest", "shared", "True/Accepted", "True/Programmed", "False/NoConflicts"},
		{"first", "own", "True/Accepted", "True/Programmed", "False/NoConflicts"},
		{"first", "host", "False/HostnameConflict", "False/HostnameConflict", "True/HostnameConflict"},
		{"second", "only", "False/HostnameConflict", "False/HostnameConflict", "True/HostnameConflict"},
	}
	for _, w := range want {
		l := listenerNamed(t, listenerSetNamed(t, res, w.set).Listeners, w.listener)
		got := [3]string{condition(l.Conditions, "Accepted"), condition(l.Conditions, "Programmed"), condition(l.Conditions, "Conflicted")}
		if got != [3]string{w.accepted, w.programmed, w.conflicted} {
			t.Errorf("%s listener %s: Accepted %s, Programmed %s, Conflicted %s; want %s, %s, %s", w.set, w.listener, got[0], got[1], got[2], w.accepted, w.programmed, w.conflicted)
		}
	}
	for set, want := range map[string]string{"zz-oldest": "True/ListenersNotValid", "first": "True/ListenersNotValid", "second": "False/ListenersNotValid"} {
		if got := condition(listenerSetNamed(t, res, set).Conditions, "Accepted"); got != want {
			t.Errorf("ListenerSet %s Accepted = %s, want %s", set, got, want)
		}
	}
	g := res.Gateways[0]
	for _, l := range g.Listeners {
		if !l.Accepted || l.Conflicted {
			t.Errorf("Gateway listener %s lost its place: %v", l.Name(), l.Conditions)
		}
	}
	if g.AttachedListenerSets != 2 {
		t.Errorf("attachedListenerSets = %d, want 2", g.AttachedListenerSets)
	}
}

// ListenerSetSpec.Listeners: "ListenerSets with the oldest creation timestamp"
// come first, then namespace/name. A ListenerSet without a creationTimestamp
// has not been created yet and will be the newest (model.CreatedOrder): beside
// one exported from a cluster, it is the one whose listener is conflicted.
func TestListenerSetNotCreatedYetIsNewest(t *testing.T) {
	gw := allowSame(gatewayDoc("{name: gw, port: 80, protocol: HTTP, hostname: g.example.com}"))
	listener := "{name: l, port: 80, protocol: HTTP, hostname: s.example.com}"
	for _, tc := range []struct {
		name          string
		sets          [][2]string // name, creationTimestamp
		winner, loser string
	}{
		{"an existing set keeps its listener from a new one named before it", [][2]string{{"aa-new", ""}, {"zz-existing", "2025-01-01T00:00:00Z"}}, "zz-existing", "aa-new"},
		{"an existing set keeps its listener from a new one named after it", [][2]string{{"zz-new", ""}, {"aa-existing", "2025-01-01T00:00:00Z"}}, "aa-existing", "zz-new"},
		{"two new sets: namespace/name", [][2]string{{"zz", ""}, {"aa", ""}}, "aa", "zz"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			docs := []string{classDoc, gw}
			for _, s := range tc.sets {
				docs = append(docs, listenerSetDoc(s[0], s[1], listener))
			}
			res := analyzeDocs(t, analyze.Options{}, docs...)
			for set, want := range map[string]string{tc.winner: "False/NoConflicts", tc.loser: "True/HostnameConflict"} {
				l := listenerNamed(t, listenerSetNamed(t, res, set).Listeners, "l")
				if got := condition(l.Conditions, "Conflicted"); got != want {
					t.Errorf("ListenerSet %s listener l: Conflicted %s, want %s", set, got, want)
				}
			}
		})
	}
}

// GatewaySpec.Listeners: within one owner "The implementation MUST NOT pick
// one conflicting Listener as the winner. ALL indistinct Listeners must not be
// accepted", and a later ListenerSet listener indistinct from them is
// conflicted too: precedence does not hand the place to the lowest. The
// v1.6.3 Gateway CRD's CEL rule refuses such a Gateway first; the engine's
// answer is for a cluster that stored it (CRDs installed after it).
func TestIndistinctListenersOfOneOwnerHaveNoWinner(t *testing.T) {
	gw := allowSame(gatewayDoc(
		"{name: one, port: 80, protocol: HTTP, hostname: a.example.com}",
		"{name: two, port: 80, protocol: HTTP, hostname: a.example.com}"))
	docs := []string{classDoc, gw, listenerSetDoc("ls", "",
		"{name: three, port: 80, protocol: HTTP, hostname: a.example.com}",
		"{name: other, port: 80, protocol: HTTP, hostname: b.example.com}")}
	if res := analyzeDocs(t, analyze.Options{}, docs...); len(res.Gateways) != 0 || !strings.Contains(ruleMessages(res)["schema/Invalid"], "must be unique for each listener") {
		t.Fatalf("the API server admits the Gateway, or says otherwise: %d Gateways, %v", len(res.Gateways), ruleMessages(res)["schema/Invalid"])
	}
	res := analyzeDocsAsWritten(t, analyze.Options{}, docs...)
	for _, l := range res.Gateways[0].AllListeners() {
		want := l.Name() != "other"
		if l.Conflicted != want {
			t.Errorf("listener %s conflicted %v, want %v", l.Name(), l.Conflicted, want)
		}
	}
}

// GEP-1713: "A Route MAY attach to a conflicted ListenerSet". A ListenerSet
// whose only listener's certificate does not resolve is not accepted
// (ListenersNotValid, as upstream ListenerSetReferenceGrant asserts), yet a
// route attaches to that listener as it would to a Gateway listener in the
// same state; a ListenerSet the Gateway does not allow still takes none.
func TestRoutesAttachToListenerSetWithUnresolvedCertificate(t *testing.T) {
	gw := gatewayDoc("{name: http, port: 80, protocol: HTTP}")
	ls := listenerSetDoc("ls", "", "{name: https, port: 443, protocol: HTTPS, hostname: app.example.com, tls: {certificateRefs: [{name: missing}]}}")
	route := "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: r, namespace: default}\nspec:\n  parentRefs: [{kind: ListenerSet, name: ls}]\n  hostnames: [app.example.com]\n"
	for _, tc := range []struct {
		name, gateway, accepted, route string
	}{
		{"allowed: the route attaches", allowSame(gw), "False/ListenersNotValid", "True/Accepted"},
		{"not allowed: the route does not", gw, "False/NotAllowed", "False/NoMatchingParent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := analyzeDocs(t, analyze.Options{}, classDoc, tc.gateway, ls, route)
			set := listenerSetNamed(t, res, "ls")
			if got := condition(set.Conditions, "Accepted"); got != tc.accepted {
				t.Errorf("ListenerSet Accepted = %s, want %s", got, tc.accepted)
			}
			c, _ := res.Routes[0].Parents[0].AcceptedCondition()
			if got := string(c.Status) + "/" + c.Reason; got != tc.route {
				t.Errorf("route Accepted = %s (%s), want %s", got, c.Message, tc.route)
			}
			if tc.route == "True/Accepted" {
				l := set.Listeners[0]
				if l.AttachedRoutes() != 1 || condition(l.Conditions, "Programmed") != "False/Invalid" {
					t.Errorf("listener: attachedRoutes %d, Programmed %s; want 1, False/Invalid", l.AttachedRoutes(), condition(l.Conditions, "Programmed"))
				}
			}
		})
	}
}
