package ingress_test

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/ingress"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testcert"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
)

func build(t *testing.T, opts ingress.Options, docs ...string) *ingress.Table {
	t.Helper()
	m, err := load.Files(load.FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(strings.Join(docs, "\n---\n"))})
	if err != nil {
		t.Fatal(err)
	}
	table, err := ingress.Build(m, opts)
	if err != nil {
		t.Fatal(err)
	}
	return table
}

// ing is an Ingress in namespace default with annotations and a spec, both
// YAML flow mappings.
func ing(name, annotations, spec string) string {
	if annotations == "" {
		annotations = "{}"
	}
	return fmt.Sprintf("apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: %s, namespace: default, annotations: %s}\nspec: %s\n", name, annotations, spec)
}

func class(name, controller string, isDefault bool) string {
	ann := ""
	if isDefault {
		ann = `, annotations: {ingressclass.kubernetes.io/is-default-class: "true"}`
	}
	return fmt.Sprintf("apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata: {name: %s%s}\nspec: {controller: %s}\n", name, ann, controller)
}

// describe is a row in one line: the port and request, then the path that
// takes it, its backend, the certificate, the redirect, or the refusal.
func describe(r *ingress.Row) string {
	var b strings.Builder
	scheme := "http"
	if r.TLS() {
		scheme = "https"
	}
	fmt.Fprintf(&b, "%s %s://%s:%d%s", r.Serving.Controller.Name(), scheme, r.Request.Host+r.Request.SNI[:0], r.Port, r.Request.Path)
	if r.Request.Host == "" {
		fmt.Fprintf(&b, " sni=%s", r.Request.SNI)
	}
	if !r.Spec {
		b.WriteString(" (controller)")
	}
	if l := r.Decision.Location; l != nil {
		fmt.Fprintf(&b, " -> %s %s %s %s", l.Ingress.Ref.Name, l.Field, l.Match, backend(l.Backend))
		for _, c := range l.Canaries {
			fmt.Fprintf(&b, " canary %s %d/%d", backend(c.Backend), c.Weight, c.WeightTotal)
			if h := c.By.Header; h != "" {
				fmt.Fprintf(&b, " by-header %s=%s|%s", h, cmp.Or(c.By.HeaderValue, c.By.HeaderAlways), c.By.HeaderNever)
			}
			if k := c.By.Cookie; k != "" {
				fmt.Fprintf(&b, " by-cookie %s", k)
			}
		}
		if l.Rewrite != "" {
			fmt.Fprintf(&b, " rewrite=%s", l.Rewrite)
		}
	}
	if r.Passthrough {
		b.WriteString(" passthrough")
	}
	if c := r.Certificate; c != nil {
		fmt.Fprintf(&b, " cert=%s covers=%v", c.Secret, c.Covers)
	}
	if rd := r.Redirect; rd != nil {
		fmt.Fprintf(&b, " redirect %d (%s)", rd.StatusCode, rd.Key)
		if rd.ForwardedProto {
			b.WriteString(" if X-Forwarded-Proto is http")
		}
	}
	if r.Refusal != ingress.Served {
		fmt.Fprintf(&b, " refused: %v", r.Refusal)
	}
	return b.String()
}

func backend(be ingress.Backend) string {
	s := fmt.Sprintf("%s:%d", be.Service, be.Port)
	if be.PortName != "" {
		s = fmt.Sprintf("%s:%s(%d)", be.Service, be.PortName, be.Port)
	}
	if be.TLS {
		s += " tls"
		if be.Verify {
			s += " verify " + be.VerifyName + " ca " + be.CASecret
		}
	}
	if be.GRPC {
		s += " grpc"
	}
	return s
}

func rows(table *ingress.Table) []string {
	var out []string
	for _, s := range table.Controllers {
		for _, r := range s.Rows() {
			out = append(out, describe(r))
		}
	}
	return out
}

const nginxClass = "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata: {name: nginx}\nspec: {controller: k8s.io/ingress-nginx}\n"

// TestRows: what ingress-nginx serves for an Ingress, one row per request a
// path is sampled with, by the Ingress specification and the controller's
// documented behaviour.
func TestRows(t *testing.T) {
	secret := testcert.SecretYAML("default", "web-tls", []*testcert.Cert{testcert.Must(testcert.Options{CommonName: "web.example.com", DNSNames: []string{"web.example.com"}}, nil)})
	for _, c := range []struct {
		name string
		docs []string
		want []string
	}{
		{
			"Exact, Prefix (element-wise) and ImplementationSpecific (a string prefix for ingress-nginx)",
			[]string{nginxClass, ing("web", "", `{ingressClassName: nginx, rules: [{host: web.example.com, http: {paths: [
  {path: /exact, pathType: Exact, backend: {service: {name: a, port: {number: 80}}}},
  {path: /prefix, pathType: Prefix, backend: {service: {name: b, port: {number: 80}}}},
  {path: /impl, pathType: ImplementationSpecific, backend: {service: {name: c, port: {name: http}}}}]}}]}`)},
			[]string{
				"ingress-nginx http://web.example.com:80/exact -> web spec.rules[0].http.paths[0] exact default/a:80",
				"ingress-nginx http://web.example.com:80/prefix -> web spec.rules[0].http.paths[1] element-prefix default/b:80",
				"ingress-nginx http://web.example.com:80/prefix/gwtls-sample -> web spec.rules[0].http.paths[1] element-prefix default/b:80",
				"ingress-nginx http://web.example.com:80/impl -> web spec.rules[0].http.paths[2] string-prefix default/c:http(0)",
				"ingress-nginx http://web.example.com:80/impl/gwtls-sample -> web spec.rules[0].http.paths[2] string-prefix default/c:http(0)",
				"ingress-nginx http://web.example.com:80/impl-gwtls-sample (controller) -> web spec.rules[0].http.paths[2] string-prefix default/c:http(0)",
			},
		},
		{
			"TLS: HTTP is redirected (308, ssl-redirect's default), HTTPS presents the listed Secret",
			[]string{nginxClass, secret, ing("web", "", `{ingressClassName: nginx, tls: [{hosts: [web.example.com], secretName: web-tls}], rules: [{host: web.example.com, http: {paths: [
  {path: /, pathType: Prefix, backend: {service: {name: a, port: {number: 80}}}}]}}]}`)},
			[]string{
				"ingress-nginx http://web.example.com:80/ -> web spec.rules[0].http.paths[0] element-prefix default/a:80 redirect 308 (nginx.ingress.kubernetes.io/ssl-redirect)",
				"ingress-nginx http://web.example.com:80/gwtls-sample -> web spec.rules[0].http.paths[0] element-prefix default/a:80 redirect 308 (nginx.ingress.kubernetes.io/ssl-redirect)",
				"ingress-nginx https://web.example.com:443/ -> web spec.rules[0].http.paths[0] element-prefix default/a:80 cert=default/web-tls covers=true",
				"ingress-nginx https://web.example.com:443/gwtls-sample -> web spec.rules[0].http.paths[0] element-prefix default/a:80 cert=default/web-tls covers=true",
			},
		},
		{
			"a TLS entry without hosts serves a host its certificate covers (ingress-nginx)",
			[]string{nginxClass, secret, ing("web", `{nginx.ingress.kubernetes.io/ssl-redirect: "false"}`, `{ingressClassName: nginx, tls: [{secretName: web-tls}], rules: [
  {host: web.example.com, http: {paths: [{path: /, pathType: Exact, backend: {service: {name: a, port: {number: 80}}}}]}},
  {host: other.example.com, http: {paths: [{path: /, pathType: Exact, backend: {service: {name: a, port: {number: 80}}}}]}}]}`)},
			[]string{
				"ingress-nginx http://web.example.com:80/ -> web spec.rules[0].http.paths[0] exact default/a:80",
				"ingress-nginx https://web.example.com:443/ -> web spec.rules[0].http.paths[0] exact default/a:80 cert=default/web-tls covers=true",
				"ingress-nginx http://other.example.com:80/ -> web spec.rules[1].http.paths[0] exact default/a:80",
			},
		},
		{
			"use-regex makes every path of the host a case-insensitive regular expression anchored at its start, whatever Ingress defines it",
			[]string{nginxClass,
				ing("api", `{nginx.ingress.kubernetes.io/use-regex: "true"}`, `{ingressClassName: nginx, rules: [{host: web.example.com, http: {paths: [{path: "/api/v[0-9]+", pathType: ImplementationSpecific, backend: {service: {name: api, port: {number: 80}}}}]}}]}`),
				ing("docs", "", `{ingressClassName: nginx, rules: [{host: web.example.com, http: {paths: [{path: /docs, pathType: Exact, backend: {service: {name: docs, port: {number: 80}}}}]}}]}`)},
			[]string{
				"ingress-nginx http://web.example.com:80/api/v0 -> api spec.rules[0].http.paths[0] regex-prefix-case-insensitive default/api:80",
				"ingress-nginx http://web.example.com:80/api/v0/gwtls-sample (controller) -> api spec.rules[0].http.paths[0] regex-prefix-case-insensitive default/api:80",
				"ingress-nginx http://web.example.com:80/docs -> docs spec.rules[0].http.paths[0] regex-prefix-case-insensitive default/docs:80",
				"ingress-nginx http://web.example.com:80/docs/gwtls-sample (controller) -> docs spec.rules[0].http.paths[0] regex-prefix-case-insensitive default/docs:80",
			},
		},
		{
			"backend-protocol HTTPS with proxy-ssl-verify; a canary by header, then weight, spoken to as the main Ingress says; the default backend takes the rest",
			[]string{nginxClass,
				ing("main", `{nginx.ingress.kubernetes.io/backend-protocol: HTTPS, nginx.ingress.kubernetes.io/proxy-ssl-verify: "on", nginx.ingress.kubernetes.io/proxy-ssl-name: app.internal, nginx.ingress.kubernetes.io/proxy-ssl-secret: default/app-ca}`,
					`{ingressClassName: nginx, defaultBackend: {service: {name: fallback, port: {number: 80}}}, rules: [{host: web.example.com, http: {paths: [{path: /app, pathType: Prefix, backend: {service: {name: app, port: {number: 8443}}}}]}}]}`),
				ing("canary", `{nginx.ingress.kubernetes.io/canary: "true", nginx.ingress.kubernetes.io/canary-weight: "20", nginx.ingress.kubernetes.io/canary-by-header: x-canary}`,
					`{ingressClassName: nginx, rules: [{host: web.example.com, http: {paths: [{path: /app, pathType: Prefix, backend: {service: {name: app-v2, port: {number: 8443}}}}]}}]}`)},
			[]string{
				"ingress-nginx http://web.example.com:80/app -> main spec.rules[0].http.paths[0] element-prefix default/app:8443 tls verify app.internal ca default/app-ca canary default/app-v2:8443 tls verify app.internal ca default/app-ca 20/100 by-header x-canary=always|never",
				"ingress-nginx http://web.example.com:80/app/gwtls-sample -> main spec.rules[0].http.paths[0] element-prefix default/app:8443 tls verify app.internal ca default/app-ca canary default/app-v2:8443 tls verify app.internal ca default/app-ca 20/100 by-header x-canary=always|never",
				"ingress-nginx http://web.example.com:80/ -> main spec.defaultBackend element-prefix default/fallback:80 tls verify app.internal ca default/app-ca",
				"ingress-nginx http://web.example.com:80/gwtls-sample -> main spec.defaultBackend element-prefix default/fallback:80 tls verify app.internal ca default/app-ca",
			},
		},
		{
			"ssl-passthrough: the host's TLS connections go to the backend undecrypted",
			[]string{nginxClass, ing("db", `{nginx.ingress.kubernetes.io/ssl-passthrough: "true"}`, `{ingressClassName: nginx, tls: [{hosts: [db.example.com]}], rules: [{host: db.example.com, http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: db, port: {number: 5443}}}}]}}]}`)},
			[]string{
				"ingress-nginx http://db.example.com:80/ -> db spec.rules[0].http.paths[0] element-prefix default/db:5443 redirect 308 (nginx.ingress.kubernetes.io/ssl-redirect)",
				"ingress-nginx http://db.example.com:80/gwtls-sample -> db spec.rules[0].http.paths[0] element-prefix default/db:5443 redirect 308 (nginx.ingress.kubernetes.io/ssl-redirect)",
				"ingress-nginx https://:443 sni=db.example.com -> db spec.rules[0].http.paths[0] element-prefix default/db:5443 passthrough",
			},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := rows(build(t, ingress.Options{Analyze: analyze.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}}, c.docs...))
			if !slices.Equal(got, c.want) {
				t.Errorf("rows:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
			}
		})
	}
}

const nicClass = "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata: {name: nginx}\nspec: {controller: nginx.org/ingress-controller}\n"

// TestNGINXIngressController: what NGINX Ingress Controller serves, by its
// documentation: Prefix and ImplementationSpecific as nginx prefix locations,
// TLS for the hosts an entry lists, the oldest Ingress of a host, the
// redirect-to-https by X-Forwarded-Proto, ssl-services and grpc-services,
// path-regex and listen ports.
func TestNGINXIngressController(t *testing.T) {
	for _, c := range []struct {
		name string
		docs []string
		want []string
	}{
		{
			"Prefix is a string prefix; a TLS entry without hosts terminates nothing; listen ports",
			[]string{nicClass, ing("web", `{nginx.org/listen-ports: "8080", nginx.org/listen-ports-ssl: "8443"}`, `{ingressClassName: nginx, tls: [{secretName: web-tls}], rules: [{host: web.example.com, http: {paths: [
  {path: /tea, pathType: Prefix, backend: {service: {name: tea, port: {number: 80}}}}]}}]}`)},
			[]string{
				"NGINX Ingress Controller http://web.example.com:8080/tea -> web spec.rules[0].http.paths[0] string-prefix default/tea:80",
				"NGINX Ingress Controller http://web.example.com:8080/tea/gwtls-sample -> web spec.rules[0].http.paths[0] string-prefix default/tea:80",
				"NGINX Ingress Controller http://web.example.com:8080/tea-gwtls-sample (controller) -> web spec.rules[0].http.paths[0] string-prefix default/tea:80",
			},
		},
		{
			"redirect-to-https redirects by X-Forwarded-Proto; ssl-services and grpc-services choose the protocol per Service",
			[]string{nicClass, ing("cafe", `{nginx.org/redirect-to-https: "true", nginx.org/ssl-services: coffee, nginx.org/grpc-services: "grpc"}`, `{ingressClassName: nginx, rules: [{host: cafe.example.com, http: {paths: [
  {path: /coffee, pathType: Exact, backend: {service: {name: coffee, port: {number: 443}}}},
  {path: /, pathType: Prefix, backend: {service: {name: grpc, port: {number: 50051}}}}]}}]}`)},
			[]string{
				"NGINX Ingress Controller http://cafe.example.com:80/coffee -> cafe spec.rules[0].http.paths[0] exact default/coffee:443 tls redirect 301 (nginx.org/redirect-to-https) if X-Forwarded-Proto is http",
				"NGINX Ingress Controller http://cafe.example.com:80/gwtls.Sample/Call -> cafe spec.rules[0].http.paths[1] string-prefix default/grpc:50051 grpc redirect 301 (nginx.org/redirect-to-https) if X-Forwarded-Proto is http",
			},
		},
		{
			"nginx.org/ssl-redirect is read before ingress.kubernetes.io/ssl-redirect, one switch: false turns the default redirect off, and wins over the old key",
			[]string{nicClass,
				ing("ssl-off", `{nginx.org/ssl-redirect: "false"}`, `{ingressClassName: nginx, tls: [{hosts: [off.example.com], secretName: off-tls}], rules: [{host: off.example.com, http: {paths: [
  {path: /, pathType: Exact, backend: {service: {name: web, port: {number: 80}}}}]}}]}`),
				ing("ssl-on", `{nginx.org/ssl-redirect: "true", ingress.kubernetes.io/ssl-redirect: "false", nginx.org/http-redirect-code: "308"}`, `{ingressClassName: nginx, tls: [{hosts: [on.example.com], secretName: on-tls}], rules: [{host: on.example.com, http: {paths: [
  {path: /, pathType: Exact, backend: {service: {name: web, port: {number: 80}}}}]}}]}`),
				ing("ssl-old", `{ingress.kubernetes.io/ssl-redirect: "false"}`, `{ingressClassName: nginx, tls: [{hosts: [old.example.com], secretName: old-tls}], rules: [{host: old.example.com, http: {paths: [
  {path: /, pathType: Exact, backend: {service: {name: web, port: {number: 80}}}}]}}]}`)},
			[]string{
				"NGINX Ingress Controller http://off.example.com:80/ -> ssl-off spec.rules[0].http.paths[0] exact default/web:80",
				"NGINX Ingress Controller https://off.example.com:443/ refused: NoCertificate",
				"NGINX Ingress Controller http://old.example.com:80/ -> ssl-old spec.rules[0].http.paths[0] exact default/web:80",
				"NGINX Ingress Controller https://old.example.com:443/ refused: NoCertificate",
				"NGINX Ingress Controller http://on.example.com:80/ -> ssl-on spec.rules[0].http.paths[0] exact default/web:80 redirect 308 (nginx.org/ssl-redirect)",
				"NGINX Ingress Controller https://on.example.com:443/ refused: NoCertificate",
			},
		},
		{
			"path-regex chooses how every path of the Ingress matches",
			[]string{nicClass, ing("re", `{nginx.org/path-regex: case_sensitive}`, `{ingressClassName: nginx, rules: [{host: re.example.com, http: {paths: [
  {path: "/v[0-9]+/users", pathType: ImplementationSpecific, backend: {service: {name: users, port: {number: 80}}}}]}}]}`)},
			[]string{
				"NGINX Ingress Controller http://re.example.com:80/v0/users -> re spec.rules[0].http.paths[0] regex-prefix default/users:80",
				"NGINX Ingress Controller http://re.example.com:80/v0/users/gwtls-sample (controller) -> re spec.rules[0].http.paths[0] regex-prefix default/users:80",
			},
		},
		{
			"an invalid annotation value rejects the Ingress; of two Ingresses of a host, the oldest serves it",
			[]string{nicClass,
				ing("bad", `{nginx.org/path-regex: "true"}`, `{ingressClassName: nginx, rules: [{host: bad.example.com, http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: a, port: {number: 80}}}}]}}]}`),
				"apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: young, namespace: default, creationTimestamp: \"2025-06-01T00:00:00Z\"}\nspec: {ingressClassName: nginx, rules: [{host: web.example.com, http: {paths: [{path: /young, pathType: Exact, backend: {service: {name: young, port: {number: 80}}}}]}}]}",
				"apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: old, namespace: default, creationTimestamp: \"2025-01-01T00:00:00Z\"}\nspec: {ingressClassName: nginx, rules: [{host: web.example.com, http: {paths: [{path: /old, pathType: Exact, backend: {service: {name: old, port: {number: 80}}}}]}}]}"},
			[]string{"NGINX Ingress Controller http://web.example.com:80/old -> old spec.rules[0].http.paths[0] exact default/old:80"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			table := build(t, ingress.Options{}, c.docs...)
			got := rows(table)
			if !slices.Equal(got, c.want) {
				t.Errorf("rows:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
			}
			for _, i := range table.Ingresses {
				switch i.Ref.Name {
				case "bad":
					if !strings.Contains(i.NotServed, "rejects it: nginx.org/path-regex") {
						t.Errorf("bad: NotServed %q", i.NotServed)
					}
				case "young":
					if len(i.HostsTaken) != 1 || !strings.Contains(i.HostsTaken[0].Why, "taken by Ingress/default/old") || i.HostsTaken[0].Rule.Field != "spec.rules[0]" {
						t.Errorf("young: HostsTaken %+v", i.HostsTaken)
					}
				}
			}
		})
	}
}

// TestClasses: an Ingress's class is spec.ingressClassName, else the
// deprecated annotation, else the default IngressClass; its IngressClass
// names the controller. Without an IngressClass in the input the controller
// is inferred from the Ingress's annotations, or forced by Options.
func TestClasses(t *testing.T) {
	for _, c := range []struct {
		name       string
		opts       ingress.Options
		docs       []string
		controller string // "" none
		from       string
		notServed  string
	}{
		{"spec.ingressClassName names an IngressClass", ingress.Options{}, []string{class("public", "k8s.io/ingress-nginx", false), ing("a", "", "{ingressClassName: public}")},
			"ingress-nginx", "spec.ingressClassName", ""},
		{"the deprecated annotation", ingress.Options{}, []string{class("nic", "nginx.org/ingress-controller", false), ing("a", `{kubernetes.io/ingress.class: nic}`, "{}")},
			"NGINX Ingress Controller", "annotation kubernetes.io/ingress.class", ""},
		{"the default IngressClass", ingress.Options{}, []string{class("public", "k8s.io/ingress-nginx", true), ing("a", "", "{}")},
			"ingress-nginx", "the default IngressClass", ""},
		{"no class and no default class: no controller", ingress.Options{}, []string{class("public", "k8s.io/ingress-nginx", false), ing("a", "", "{}")},
			"", "", "names no class"},
		{"another controller's class", ingress.Options{}, []string{class("traefik", "traefik.io/ingress-controller", false), ing("a", "", "{ingressClassName: traefik}")},
			"", "spec.ingressClassName", "which this tool does not model"},
		{"no IngressClass in the input: inferred from the annotations", ingress.Options{}, []string{ing("a", `{nginx.org/hsts: "true"}`, "{ingressClassName: nginx}")},
			"NGINX Ingress Controller", "spec.ingressClassName; controller NGINX Ingress Controller inferred from its annotations (no IngressClass in the input)", ""},
		{"no IngressClass in the input: forced", ingress.Options{Controller: "NGINX Ingress Controller"}, []string{ing("a", "", "{ingressClassName: nginx}")},
			"NGINX Ingress Controller", "spec.ingressClassName; controller NGINX Ingress Controller as --ingress-controller says", ""},
		{"no IngressClass in the input: the class name's controller", ingress.Options{}, []string{ing("a", "", "{ingressClassName: nginx}")},
			"ingress-nginx", "spec.ingressClassName; controller ingress-nginx assumed for class nginx (no IngressClass in the input)", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			table := build(t, c.opts, c.docs...)
			i := table.Ingresses[0]
			name := ""
			if i.Class.Controller != nil {
				name = i.Class.Controller.Name()
			}
			if name != c.controller || i.Class.From != c.from || (c.notServed == "") != (i.NotServed == "") || !strings.Contains(i.NotServed, c.notServed) {
				t.Errorf("controller %q from %q not served %q; want %q %q %q", name, i.Class.From, i.NotServed, c.controller, c.from, c.notServed)
			}
		})
	}
	m, _ := load.Files(load.FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(ing("a", "", "{}"))})
	if _, err := ingress.Build(m, ingress.Options{Controller: "haproxy"}); err == nil || !strings.Contains(err.Error(), "want one of ingress-nginx, NGINX Ingress Controller") {
		t.Errorf("an unknown --ingress-controller: err = %v", err)
	}
}
