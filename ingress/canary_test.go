package ingress_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/ingress"
)

// TestCanaryProbes: the requests that exercise a canary's conditions, and
// where ingress-nginx sends each, row by row from Annotations > Canary.
func TestCanaryProbes(t *testing.T) {
	for _, c := range []struct {
		name        string
		annotations string
		want        []string
	}{
		{"canary-by-header: always sends a request to the canary, never keeps it off",
			`nginx.ingress.kubernetes.io/canary-by-header: x-canary`,
			[]string{"X-Canary: always -> canary", "X-Canary: never -> main"}},
		{"canary-by-header-value replaces always, and never is an ordinary value",
			`nginx.ingress.kubernetes.io/canary-by-header: X-Canary, nginx.ingress.kubernetes.io/canary-by-header-value: beta`,
			[]string{"X-Canary: beta -> canary"}},
		{"canary-by-header-pattern is ignored beside canary-by-header-value",
			`nginx.ingress.kubernetes.io/canary-by-header: X-Canary, nginx.ingress.kubernetes.io/canary-by-header-value: beta, nginx.ingress.kubernetes.io/canary-by-header-pattern: "^b"`,
			[]string{"X-Canary: beta -> canary"}},
		{"canary-by-header-pattern alone: no request is known to match",
			`nginx.ingress.kubernetes.io/canary-by-header: X-Canary, nginx.ingress.kubernetes.io/canary-by-header-pattern: "^b"`,
			nil},
		{"canary-by-header-value without canary-by-header has no effect",
			`nginx.ingress.kubernetes.io/canary-by-header-value: beta`,
			nil},
		{"canary-by-cookie: the cookie set to always or never",
			`nginx.ingress.kubernetes.io/canary-by-cookie: beta_opt_in`,
			[]string{"Cookie: beta_opt_in=always -> canary", "Cookie: beta_opt_in=never -> main"}},
		{"header and cookie: each exercised on its own",
			`nginx.ingress.kubernetes.io/canary-by-header: X-Canary, nginx.ingress.kubernetes.io/canary-by-cookie: c`,
			[]string{"X-Canary: always -> canary", "X-Canary: never -> main", "Cookie: c=always -> canary", "Cookie: c=never -> main"}},
		{"a canary by weight alone has no condition",
			`nginx.ingress.kubernetes.io/canary-weight: "20"`,
			nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			table := build(t, ingress.Options{}, nginxClass,
				ing("main", `{}`, `{ingressClassName: nginx, rules: [{host: web.example.com, http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}]}}]}`),
				ing("canary", `{nginx.ingress.kubernetes.io/canary: "true", `+c.annotations+`}`,
					`{ingressClassName: nginx, rules: [{host: web.example.com, http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: web-v2, port: {number: 80}}}}]}}]}`))
			var got []string
			for _, s := range table.Controllers {
				for _, srv := range s.Servers {
					for _, l := range srv.Locations {
						for _, cn := range l.Canaries {
							for _, p := range cn.By.Probes() {
								to := "main"
								switch {
								case p.ToCanary:
									to = "canary"
								case !p.Decided:
									to = "weight"
								}
								got = append(got, fmt.Sprintf("%s: %s -> %s", p.Header.Name, p.Header.Value, to))
							}
						}
					}
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("probes:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
			}
		})
	}
}
