package serving_test

import (
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
)

// Two routes take the same hostname and path; route precedence decides
// (httproute_types.go HTTPRouteSpec.Rules: "The oldest Route based on creation
// timestamp", then "the Route appearing first in alphabetical order by
// {namespace}/{name}"). A route without a creationTimestamp has not been
// created yet (a manifest beside routes exported from a cluster) and will be
// the newest, so it does not take over an existing route's traffic
// (model.CreatedOrder, as ListenerSets and BackendTLSPolicies are ordered).
func TestRoutePrecedenceByCreation(t *testing.T) {
	spec := `{parentRefs: [{name: gw}], hostnames: [app.example.com], rules: [{matches: [{path: {type: PathPrefix, value: /}}], backendRefs: [{name: web, port: PORT}]}]}`
	routeTo := func(name, created, port string) string {
		return route("HTTPRoute", name, created, strings.Replace(spec, "PORT", port, 1))
	}
	for _, tc := range []struct {
		name   string
		routes []string
		want   string
	}{
		{"an existing route keeps its traffic from a new one named before it",
			[]string{routeTo("zz-existing", "2025-03-01T00:00:00Z", "8080"), routeTo("aa-new", "", "8443")}, "zz-existing"},
		{"an existing route keeps its traffic from a new one named after it",
			[]string{routeTo("aa-existing", "2025-03-01T00:00:00Z", "8080"), routeTo("zz-new", "", "8443")}, "aa-existing"},
		{"the older of two existing routes, whatever their names",
			[]string{routeTo("aa-young", "2025-06-01T00:00:00Z", "8080"), routeTo("zz-old", "2025-01-01T00:00:00Z", "8443")}, "zz-old"},
		{"two routes created at the same time: namespace/name",
			[]string{routeTo("zz", "2025-01-01T00:00:00Z", "8080"), routeTo("aa", "2025-01-01T00:00:00Z", "8443")}, "aa"},
		{"two new routes: namespace/name",
			[]string{routeTo("zz", "", "8080"), routeTo("aa", "", "8443")}, "aa"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			docs := append([]string{class, services, gateway("", `{name: http, port: 80, protocol: HTTP}`)}, tc.routes...)
			port := serving.Build(analyzeYAML(t, docs...)).Gateway(model.NamespacedName{Namespace: "default", Name: "gw"}).Port(80)
			for _, req := range []serving.Request{{Host: "app.example.com"}, {Host: "app.example.com", Path: "/cart"}} {
				d := port.Decide(req)
				if r := d.Route(); r == nil || r.Ref.Name != tc.want {
					t.Errorf("%+v: route %v (%v), want %s", req, r, d.Refusal, tc.want)
				}
			}
		})
	}
}
