package analyze_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
)

// crossRoute is an HTTPRoute or GRPCRoute default/name created at created
// (RFC 3339, "" for none) with the parentRefs given as a flow list and the
// hostnames.
func crossRoute(kind, name, created, parentRefs string, hosts ...string) string {
	ts := ""
	if created != "" {
		ts = fmt.Sprintf(", creationTimestamp: %q", created)
	}
	hs := ""
	if len(hosts) > 0 {
		hs = "\n  hostnames: [" + strings.Join(hosts, ", ") + "]"
	}
	return fmt.Sprintf("apiVersion: gateway.networking.k8s.io/v1\nkind: %s\nmetadata: {name: %s, namespace: default%s}\nspec:\n  parentRefs: %s%s\n  rules:\n  - backendRefs: [{name: svc, port: 8080}]\n",
		kind, name, ts, parentRefs, hs)
}

const crossService = "apiVersion: v1\nkind: Service\nmetadata: {name: svc, namespace: default}\nspec: {ports: [{port: 8080}]}"

// accepted is each parentRef's Accepted of the route kind/name as
// "Status/Reason", joined by ",".
func acceptedOf(t *testing.T, res *analyze.Result, kind, name string) string {
	t.Helper()
	for _, rr := range res.Routes {
		if r := rr.Route; r.Kind == kind && r.ObjectMeta.Name == name {
			var out []string
			for _, p := range rr.Parents {
				status, reason, _ := p.AcceptedStatus()
				out = append(out, string(status)+"/"+reason)
			}
			return strings.Join(out, ",")
		}
	}
	t.Fatalf("no %s %s", kind, name)
	return ""
}

// GRPCRouteSpec.Hostnames (gateway-api v1.6.3 apis/v1/grpcroute_types.go):
// "If a Route (A) of type HTTPRoute or GRPCRoute is attached to a Listener
// and that listener already has another Route (B) of the other type attached
// and the intersection of the hostnames of A and B is non-empty, then the
// implementation MUST accept exactly one of these two routes, determined by
// the following criteria, in order: * The oldest Route based on creation
// timestamp. * The Route appearing first in alphabetical order by
// "{namespace}/{name}". The rejected Route MUST raise an 'Accepted' condition
// with a status of 'False' in the corresponding RouteParentStatus."
// ListenerStatus.AttachedRoutes (gateway_types.go): "the number of Routes with
// the Accepted condition set to "True" that have been attached to this
// Listener".
func TestCrossServing(t *testing.T) {
	const (
		jan, feb = "2025-01-01T00:00:00Z", "2025-02-01T00:00:00Z"
		toGW     = "[{name: gw}]"
		toPlain  = "[{name: gw, sectionName: plain}]"
		toWild   = "[{name: gw, sectionName: wild}]"
		ok       = "True/Accepted"
		refused  = "False/HostnameConflict"
	)
	listeners := []string{
		"{name: plain, port: 80, protocol: HTTP}",
		"{name: wild, port: 8080, protocol: HTTP, hostname: '*.example.com'}",
	}
	tests := []struct {
		name   string
		routes []string
		// want is each route's parents' Accepted, by "Kind/name".
		want map[string]string
		// attached is attachedRoutes by listener, for the listeners named.
		attached map[string]int32
		// partial is how many parentRefs stay accepted through other
		// listeners than one that refused them (route/HostnameConflictOnListener).
		partial int
	}{
		{
			name: "the oldest Route based on creation timestamp",
			routes: []string{crossRoute("GRPCRoute", "a-grpc", feb, toPlain, "api.example.com"),
				crossRoute("HTTPRoute", "b-http", jan, toPlain, "api.example.com")},
			want:     map[string]string{"GRPCRoute/a-grpc": refused, "HTTPRoute/b-http": ok},
			attached: map[string]int32{"plain": 1},
		},
		{
			name: "the oldest wins whichever kind it is",
			routes: []string{crossRoute("GRPCRoute", "z-grpc", jan, toPlain, "api.example.com"),
				crossRoute("HTTPRoute", "a-http", feb, toPlain, "api.example.com")},
			want: map[string]string{"GRPCRoute/z-grpc": ok, "HTTPRoute/a-http": refused},
		},
		{
			name: "then first in alphabetical order by {namespace}/{name}",
			routes: []string{crossRoute("HTTPRoute", "b", jan, toPlain, "api.example.com"),
				crossRoute("GRPCRoute", "a", jan, toPlain, "api.example.com")},
			want: map[string]string{"GRPCRoute/a": ok, "HTTPRoute/b": refused},
		},
		{
			name: "manifests with no creationTimestamp: by name",
			routes: []string{crossRoute("HTTPRoute", "b", "", toPlain, "api.example.com"),
				crossRoute("GRPCRoute", "a", "", toPlain, "api.example.com")},
			want: map[string]string{"GRPCRoute/a": ok, "HTTPRoute/b": refused},
		},
		{
			name: "a route not created yet is the newest",
			routes: []string{crossRoute("HTTPRoute", "a", "", toPlain, "api.example.com"),
				crossRoute("GRPCRoute", "b", feb, toPlain, "api.example.com")},
			want: map[string]string{"GRPCRoute/b": ok, "HTTPRoute/a": refused},
		},
		{
			name: "one creation time and name: GRPCRoute first (the spec names no order)",
			routes: []string{crossRoute("HTTPRoute", "api", jan, toPlain, "api.example.com"),
				crossRoute("GRPCRoute", "api", jan, toPlain, "api.example.com")},
			want: map[string]string{"GRPCRoute/api": ok, "HTTPRoute/api": refused},
		},
		{
			name: "hostnames that do not intersect: both accepted",
			routes: []string{crossRoute("HTTPRoute", "web", jan, toPlain, "www.example.com"),
				crossRoute("GRPCRoute", "api", feb, toPlain, "api.example.com")},
			want:     map[string]string{"GRPCRoute/api": ok, "HTTPRoute/web": ok},
			attached: map[string]int32{"plain": 2},
		},
		{
			name: "a wildcard intersects the hostnames under it",
			routes: []string{crossRoute("HTTPRoute", "web", jan, toPlain, "'*.example.com'"),
				crossRoute("GRPCRoute", "api", feb, toPlain, "api.example.com")},
			want: map[string]string{"GRPCRoute/api": refused, "HTTPRoute/web": ok},
		},
		{
			name: "a route with no hostnames serves all of the listener's",
			routes: []string{crossRoute("HTTPRoute", "web", jan, toWild),
				crossRoute("GRPCRoute", "api", feb, toWild, "api.example.com")},
			want: map[string]string{"GRPCRoute/api": refused, "HTTPRoute/web": ok},
		},
		{
			name: "hostnames the listener ignores do not intersect: \"any GRPCRoute hostnames that do not match the Listener hostname MUST be ignored\"",
			routes: []string{crossRoute("HTTPRoute", "web", jan, toWild, "x.other.com", "www.example.com"),
				crossRoute("GRPCRoute", "api", feb, toWild, "x.other.com", "api.example.com")},
			want: map[string]string{"GRPCRoute/api": ok, "HTTPRoute/web": ok},
		},
		{
			name: "routes of one kind are not this rule's",
			routes: []string{crossRoute("HTTPRoute", "a", jan, toPlain, "api.example.com"),
				crossRoute("HTTPRoute", "b", feb, toPlain, "api.example.com")},
			want:     map[string]string{"HTTPRoute/a": ok, "HTTPRoute/b": ok},
			attached: map[string]int32{"plain": 2},
		},
		{
			name: "different listeners: both accepted",
			routes: []string{crossRoute("HTTPRoute", "web", jan, toPlain, "api.example.com"),
				crossRoute("GRPCRoute", "api", feb, toWild, "api.example.com")},
			want: map[string]string{"GRPCRoute/api": ok, "HTTPRoute/web": ok},
		},
		{
			name: "a refused route blocks nothing: the listener \"already has\" only the routes it took",
			routes: []string{crossRoute("HTTPRoute", "first", jan, toPlain, "api.example.com"),
				crossRoute("GRPCRoute", "second", feb, toPlain, "api.example.com"),
				crossRoute("HTTPRoute", "third", "2025-03-01T00:00:00Z", toPlain, "api.example.com")},
			want:     map[string]string{"HTTPRoute/first": ok, "GRPCRoute/second": refused, "HTTPRoute/third": ok},
			attached: map[string]int32{"plain": 2},
		},
		{
			name: "refused on one listener, accepted through another: counted in both",
			routes: []string{crossRoute("GRPCRoute", "api", jan, toWild, "api.example.com"),
				crossRoute("HTTPRoute", "web", feb, toGW, "api.example.com")},
			want:     map[string]string{"GRPCRoute/api": ok, "HTTPRoute/web": ok},
			attached: map[string]int32{"plain": 1, "wild": 2},
			partial:  1,
		},
		{
			name: "refused on every listener it selects: rejected, and counted on none",
			routes: []string{crossRoute("GRPCRoute", "api", jan, toGW, "api.example.com"),
				crossRoute("HTTPRoute", "web", feb, toGW, "api.example.com")},
			want:     map[string]string{"GRPCRoute/api": ok, "HTTPRoute/web": refused},
			attached: map[string]int32{"plain": 1, "wild": 1},
		},
		{
			name: "each parentRef has its own RouteParentStatus",
			routes: []string{crossRoute("GRPCRoute", "api", jan, toPlain, "api.example.com"),
				crossRoute("HTTPRoute", "web", feb, "[{name: gw, sectionName: plain}, {name: gw, sectionName: wild}]", "api.example.com")},
			want:     map[string]string{"GRPCRoute/api": ok, "HTTPRoute/web": refused + "," + ok},
			attached: map[string]int32{"plain": 1, "wild": 1},
		},
	}
	// A listener that is not accepted counts the routes it would take while
	// they are accepted through another listener, and no longer once the rule
	// rejects them.
	conflicted := append(slices.Clone(listeners), "{name: c-http, port: 9090, protocol: HTTP}", "{name: c-tcp, port: 9090, protocol: TCP}")
	tests = append(tests, struct {
		name     string
		routes   []string
		want     map[string]string
		attached map[string]int32
		partial  int
	}{
		name: "a rejected route no longer counts on a listener that is not accepted",
		routes: []string{crossRoute("GRPCRoute", "api", jan, toGW, "api.example.com"),
			crossRoute("HTTPRoute", "web", feb, toGW, "api.example.com")},
		want:     map[string]string{"GRPCRoute/api": ok, "HTTPRoute/web": refused},
		attached: map[string]int32{"plain": 1, "wild": 1, "c-http": 1},
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ls := listeners
			if strings.HasPrefix(tt.name, "a rejected route no longer counts") {
				ls = conflicted
			}
			docs := append([]string{classDoc, gatewayDoc(ls...), crossService}, tt.routes...)
			res := analyzeDocs(t, analyze.Options{}, docs...)
			for route, want := range tt.want {
				kind, name, _ := strings.Cut(route, "/")
				if got := acceptedOf(t, res, kind, name); got != want {
					t.Errorf("%s: Accepted %s, want %s", route, got, want)
				}
			}
			for name, want := range tt.attached {
				if got := listenerNamed(t, res.Gateways[0].Listeners, name).AttachedRoutes(); got != want {
					t.Errorf("listener %s: attachedRoutes %d, want %d", name, got, want)
				}
			}
			// Exactly the refused parents have a finding, and no listener
			// carries a refused route's traffic.
			findings := map[string]int{}
			for _, f := range res.Findings {
				findings[string(f.Rule.ID)]++
			}
			if got, want := findings["route/Accepted/HostnameConflict"], strings.Count(strings.Join(mapValues(tt.want), ","), refused); got != want {
				t.Errorf("%d route/Accepted/HostnameConflict findings, want %d", got, want)
			}
			if got := findings["route/HostnameConflictOnListener"]; got != tt.partial {
				t.Errorf("%d route/HostnameConflictOnListener findings, want %d", got, tt.partial)
			}
			for _, l := range res.Gateways[0].Listeners {
				for _, o := range l.Outranked {
					for _, a := range l.Attachments {
						if a.Route == o.Route {
							t.Errorf("listener %s both takes and refuses %s %s", l.Name(), o.Route.Route.Kind, o.Route.Route.ObjectMeta.Name)
						}
					}
				}
			}
		})
	}
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}
