package migration_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/ingress"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/migration"
)

var now = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// shop is n hosts, each an Ingress of class (whose IngressClass names
// ingress-nginx) with a Prefix path /api and an Exact path /, and the
// HTTPRoutes that translate them; every tenth route lacks the Exact path
// when gaps is set.
func shop(n int, class string, gaps bool) (base, head string) {
	var b, h strings.Builder
	b.WriteString("apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata: {name: nginx}\nspec: {controller: k8s.io/ingress-nginx}\n")
	h.WriteString(`apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gwtls}
spec: {controllerName: example.com/gateway-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: apps}
spec:
  gatewayClassName: gwtls
  listeners: [{name: http, port: 80, protocol: HTTP}]
`)
	const service = "---\napiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: apps}\nspec: {ports: [{name: http, port: 80}]}\n"
	b.WriteString(service)
	h.WriteString(service)
	for i := range n {
		fmt.Fprintf(&b, `---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: i%[1]d, namespace: apps}
spec:
  ingressClassName: %[2]s
  rules:
  - host: h%[1]d.example.com
    http:
      paths:
      - {path: /api, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
      - {path: /, pathType: Exact, backend: {service: {name: web, port: {number: 80}}}}
`, i, class)
		fmt.Fprintf(&h, `---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r%[1]d, namespace: apps}
spec:
  parentRefs: [{name: gw}]
  hostnames: [h%[1]d.example.com]
  rules:
  - matches: [{path: {type: PathPrefix, value: /api}}]
    backendRefs: [{name: web, port: 80}]
`, i)
		if !gaps || i%10 != 0 {
			h.WriteString("  - matches: [{path: {type: Exact, value: /}}]\n    backendRefs: [{name: web, port: 80}]\n")
		}
	}
	return b.String(), h.String()
}

func compare(tb testing.TB, base, head string) *migration.Report {
	tb.Helper()
	read := func(manifest string) *analyze.Result {
		m, err := load.Files(load.FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(manifest)})
		if err != nil {
			tb.Fatal(err)
		}
		return analyze.Analyze(m, analyze.Options{Now: now})
	}
	b, h := read(base), read(head)
	it, err := ingress.Build(b.Model, ingress.Options{Analyze: analyze.Options{Now: now}})
	if err != nil {
		tb.Fatal(err)
	}
	return migration.Compare(it, h)
}

// TestVerdict: the verdict says every host and path is served the same way
// only when requests were compared and none differs; each difference is a
// finding on the Ingress path's line, naming the Gateway API object that decides it.
func TestVerdict(t *testing.T) {
	for _, c := range []struct {
		name     string
		class    string
		gaps     bool
		same     bool
		verdict  string
		findings int
	}{
		{"a faithful translation is served the same way", "nginx", false, true,
			"every host and path is served the same way (2 Ingresses, 2 hosts, 4 paths, 6 requests compared)", 0},
		{"an Exact path the routes lost is a difference", "nginx", true, false,
			"1 difference where a host or path is not served the same way (2 Ingresses, 2 hosts, 4 paths, 6 requests compared)", 1},
		{"Ingresses of a controller not modelled are not compared, and not the same", "traefik", false, false,
			"no Ingress path is served by a controller this tool models: nothing to compare", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			base, head := shop(2, c.class, c.gaps)
			r := compare(t, base, head)
			if r.Same != c.same || r.Verdict != c.verdict || len(r.Findings) != c.findings {
				t.Errorf("same %v, verdict %q, %d findings; want %v, %q, %d", r.Same, r.Verdict, len(r.Findings), c.same, c.verdict, c.findings)
				for _, f := range r.Findings {
					t.Logf("%s %s: %s", f.Rule.ID, f.Field, f.Message)
				}
			}
			if c.gaps {
				f := r.Findings[0]
				// Line 21 of the base is Ingress i0's path "/" (the path's own
				// line, not the Ingress's first).
				if f.Rule.ID != "migration/PathNotServed" || f.Field != "spec.rules[0].http.paths[1]" || f.Source.Line != 21 || f.Decider.Line == 0 || !strings.Contains(f.Message, "HTTPRoute/apps/r0") {
					t.Errorf("finding %s %s at %v (decided at %v): %s", f.Rule.ID, f.Field, f.Source, f.Decider, f.Message)
				}
			}
		})
	}
}

// BenchmarkCompare compares 2,000 Ingresses (6,000 requests) with their
// translation; servers and routes are found through indexes, so the cost
// per Ingress stays flat as the configuration grows.
func BenchmarkCompare(b *testing.B) {
	base, head := shop(2000, "nginx", true)
	for b.Loop() {
		compare(b, base, head)
	}
}
