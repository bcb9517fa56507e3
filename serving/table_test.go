package serving_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testcert"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
)

var now = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func analyzeYAML(t testing.TB, docs ...string) *analyze.Result {
	t.Helper()
	m, err := load.Files(load.FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(strings.Join(docs, "\n---\n"))})
	if err != nil {
		t.Fatal(err)
	}
	return analyze.Analyze(m, analyze.Options{Now: now})
}

const class = `apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gc}
spec: {controllerName: example.com/gc}`

const services = `apiVersion: v1
kind: Service
metadata: {name: web, namespace: default}
spec: {ports: [{port: 8080}, {port: 8443}]}`

// gateway is Gateway default/gw with the listeners given, one per line of YAML
// flow mappings, and extra spec fields.
func gateway(extra string, listeners ...string) string {
	return "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: gw, namespace: default}\nspec:\n  gatewayClassName: gc\n" +
		extra + "  listeners:\n  - " + strings.Join(listeners, "\n  - ") + "\n"
}

// route is an xRoute in default with spec fields given as YAML flow mappings.
func route(kind, name, created, spec string) string {
	ts := ""
	if created != "" {
		ts = ", creationTimestamp: " + created
	}
	return fmt.Sprintf("apiVersion: gateway.networking.k8s.io/v1\nkind: %s\nmetadata: {name: %s, namespace: default%s}\nspec: %s\n", kind, name, ts, spec)
}

func secret(name string, names ...string) string {
	return testcert.SecretYAML("default", name, []*testcert.Cert{testcert.Must(testcert.Options{CommonName: names[0], DNSNames: names}, nil)})
}

// describe is a row in one line: the request, the listener (and its owner when
// a ListenerSet), the routes, the certificate and the backends, or the refusal.
func describe(r *serving.Row) string {
	req := "host " + r.Request.Host
	if r.Request.SNI != "" {
		req = "sni " + r.Request.SNI
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d %s (%q)", r.Port.Gateway.Name, r.Port.Number, req, r.Hostname)
	if l := r.Listener; l != nil {
		fmt.Fprintf(&b, " -> %s", l.Name)
		if l.FromListenerSet() {
			fmt.Fprintf(&b, " of %s", l.Owner)
		}
		fmt.Fprintf(&b, " %s", l.Protocol)
		if l.Mode != "" {
			fmt.Fprintf(&b, "/%s", l.Mode)
		}
	}
	for _, rt := range r.Routes {
		fmt.Fprintf(&b, " %s", rt.Ref)
	}
	if c := r.Certificate; c != nil {
		fmt.Fprintf(&b, " cert=%s covers=%v", c.Secret, c.Covers)
	}
	if rt := r.Route(); rt != nil {
		for _, be := range rt.Backends() {
			fmt.Fprintf(&b, " ->%s:%d w%d", be.Name, be.Port, be.Weight)
			if be.Policy != nil {
				fmt.Fprintf(&b, " tls=%s", be.Policy.Policy.Obj.Name)
			}
		}
	}
	if r.Refusal != serving.Served {
		fmt.Fprintf(&b, " refused: %v", r.Refusal)
	}
	return b.String()
}

// TestRows: every hostname a configuration serves, one row per name a client
// sends, with what that name reaches.
func TestRows(t *testing.T) {
	for _, c := range []struct {
		name string
		docs []string
		want []string
	}{
		{
			"a route's intersected hostnames, a wildcard exercised with the label test (spec 003)",
			[]string{gateway("", `{name: http, port: 80, protocol: HTTP, hostname: "*.example.com"}`),
				route("HTTPRoute", "r", "", `{parentRefs: [{name: gw}], hostnames: [a.example.com, "*.example.com", other.org], rules: [{backendRefs: [{name: web, port: 8080, weight: 3}]}]}`)},
			[]string{
				`default/gw:80 host a.example.com ("a.example.com") -> http HTTP HTTPRoute/default/r ->default/web:8080 w3`,
				`default/gw:80 host test.example.com ("*.example.com") -> http HTTP HTTPRoute/default/r ->default/web:8080 w3`,
			},
		},
		{
			"a route without hostnames serves the listener's, or any",
			[]string{gateway("", `{name: http, port: 80, protocol: HTTP, hostname: "www.example.com"}`, `{name: any, port: 8080, protocol: HTTP}`),
				route("HTTPRoute", "r", "", `{parentRefs: [{name: gw}], rules: [{backendRefs: [{name: web, port: 8080}]}]}`)},
			[]string{
				`default/gw:80 host www.example.com ("www.example.com") -> http HTTP HTTPRoute/default/r ->default/web:8080 w1`,
				`default/gw:8080 host example.test ("") -> any HTTP HTTPRoute/default/r ->default/web:8080 w1`,
			},
		},
		{
			"the certificate presented for the SNI, and whether it covers it (RFC 6125: one label)",
			[]string{gateway("", `{name: https, port: 443, protocol: HTTPS, hostname: "*.example.com", tls: {certificateRefs: [{name: shop}, {name: wild}]}}`),
				secret("shop", "shop.example.com"), secret("wild", "*.example.com"),
				route("HTTPRoute", "r", "", `{parentRefs: [{name: gw}], hostnames: [shop.example.com, www.example.com, a.b.example.com], rules: [{backendRefs: [{name: web, port: 8080}]}]}`)},
			[]string{
				`default/gw:443 sni shop.example.com ("shop.example.com") -> https HTTPS/Terminate HTTPRoute/default/r cert=default/shop covers=true ->default/web:8080 w1`,
				`default/gw:443 sni www.example.com ("www.example.com") -> https HTTPS/Terminate HTTPRoute/default/r cert=default/wild covers=true ->default/web:8080 w1`,
				`default/gw:443 sni a.b.example.com ("a.b.example.com") -> https HTTPS/Terminate HTTPRoute/default/r cert=default/shop covers=false ->default/web:8080 w1`,
			},
		},
		{
			"passthrough presents no Gateway certificate",
			[]string{gateway("", `{name: tls, port: 443, protocol: TLS, hostname: "*.example.com", tls: {mode: Passthrough}}`),
				route("TLSRoute", "r", "", `{parentRefs: [{name: gw}], hostnames: [db.example.com], rules: [{backendRefs: [{name: web, port: 8443}]}]}`)},
			[]string{`default/gw:443 sni db.example.com ("db.example.com") -> tls TLS/Passthrough TLSRoute/default/r ->default/web:8443 w1`},
		},
		{
			"every route that takes a hostname, the oldest first (route precedence)",
			[]string{gateway("", `{name: http, port: 80, protocol: HTTP}`),
				route("HTTPRoute", "young", "2025-06-01T00:00:00Z", `{parentRefs: [{name: gw}], hostnames: [a.example.com], rules: [{backendRefs: [{name: web, port: 8080}]}]}`),
				route("HTTPRoute", "old", "2025-01-01T00:00:00Z", `{parentRefs: [{name: gw}], hostnames: [a.example.com, b.example.com], rules: [{backendRefs: [{name: web, port: 8443}]}]}`)},
			[]string{
				`default/gw:80 host a.example.com ("a.example.com") -> http HTTP HTTPRoute/default/old HTTPRoute/default/young ->default/web:8443 w1`,
				`default/gw:80 host b.example.com ("b.example.com") -> http HTTP HTTPRoute/default/old ->default/web:8443 w1`,
			},
		},
		{
			"a name is decided by the most specific listener, not the one its hostname came from",
			[]string{gateway("", `{name: wild, port: 80, protocol: HTTP, hostname: "*.example.com"}`, `{name: exact, port: 80, protocol: HTTP, hostname: test.example.com}`),
				route("HTTPRoute", "wide", "", `{parentRefs: [{name: gw, sectionName: wild}], rules: [{backendRefs: [{name: web, port: 8080}]}]}`),
				route("HTTPRoute", "narrow", "", `{parentRefs: [{name: gw, sectionName: exact}], rules: [{backendRefs: [{name: web, port: 8443}]}]}`)},
			[]string{`default/gw:80 host test.example.com ("*.example.com") -> exact HTTP HTTPRoute/default/narrow ->default/web:8443 w1`},
		},
		{
			"a listener that is not accepted serves nothing; TCP routes on no name",
			[]string{gateway("", `{name: one, port: 80, protocol: HTTP, hostname: a.example.com}`, `{name: two, port: 80, protocol: HTTP, hostname: a.example.com}`,
				`{name: tcp, port: 5432, protocol: TCP}`),
				route("HTTPRoute", "r", "", `{parentRefs: [{name: gw}], rules: [{backendRefs: [{name: web, port: 8080}]}]}`),
				route("TCPRoute", "db", "", `{parentRefs: [{name: gw, sectionName: tcp}], rules: [{backendRefs: [{name: web, port: 8443}]}]}`)},
			nil,
		},
		{
			"a backend's BackendTLSPolicy (GEP-1897)",
			[]string{gateway("", `{name: https, port: 443, protocol: HTTPS, hostname: api.example.com, tls: {certificateRefs: [{name: api}]}}`),
				secret("api", "api.example.com"),
				route("HTTPRoute", "r", "", `{parentRefs: [{name: gw}], rules: [{backendRefs: [{name: web, port: 8443}]}]}`),
				`apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: web-tls, namespace: default}
spec:
  targetRefs: [{group: "", kind: Service, name: web}]
  validation: {wellKnownCACertificates: System, hostname: web.internal}`},
			[]string{`default/gw:443 sni api.example.com ("api.example.com") -> https HTTPS/Terminate HTTPRoute/default/r cert=default/api covers=true ->default/web:8443 w1 tls=web-tls`},
		},
		{
			"a refused row says why: no backendRef resolves",
			[]string{gateway("", `{name: http, port: 80, protocol: HTTP}`),
				route("HTTPRoute", "r", "", `{parentRefs: [{name: gw}], hostnames: [a.example.com], rules: [{backendRefs: [{name: gone, port: 80}]}]}`)},
			[]string{`default/gw:80 host a.example.com ("a.example.com") -> http HTTP HTTPRoute/default/r ->default/gone:80 w1 refused: NoBackendResolves`},
		},
		{
			"the listeners of an admitted ListenerSet, owned by the set (GEP-1713)",
			[]string{gateway("  allowedListeners: {namespaces: {from: Same}}\n", `{name: http, port: 80, protocol: HTTP, hostname: gw.example.com}`),
				`apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: team, namespace: default}
spec:
  parentRef: {name: gw}
  listeners: [{name: team, port: 80, protocol: HTTP, hostname: team.example.com}]`,
				`apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: team, namespace: other}
spec:
  parentRef: {name: gw, namespace: default}
  listeners: [{name: other, port: 80, protocol: HTTP, hostname: other.example.com}]`,
				route("HTTPRoute", "r", "", `{parentRefs: [{name: gw}, {name: team, kind: ListenerSet}], rules: [{backendRefs: [{name: web, port: 8080}]}]}`)},
			[]string{
				`default/gw:80 host gw.example.com ("gw.example.com") -> http HTTP HTTPRoute/default/r ->default/web:8080 w1`,
				`default/gw:80 host team.example.com ("team.example.com") -> team of ListenerSet/default/team HTTP HTTPRoute/default/r ->default/web:8080 w1`,
			},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			table := serving.Build(analyzeYAML(t, append([]string{class, services}, c.docs...)...))
			var got []string
			for _, r := range table.Rows() {
				got = append(got, describe(r))
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("rows:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
			}
		})
	}
}

// TestCertificateFingerprint: a row's certificate is the Secret's leaf, by
// SHA-256, so a probe can tell it from another one with the same names.
func TestCertificateFingerprint(t *testing.T) {
	leaf := testcert.Must(testcert.Options{CommonName: "www.example.com", DNSNames: []string{"www.example.com"}}, nil)
	table := serving.Build(analyzeYAML(t, class, services, testcert.SecretYAML("default", "www", []*testcert.Cert{leaf}),
		gateway("", `{name: https, port: 443, protocol: HTTPS, hostname: www.example.com, tls: {certificateRefs: [{name: www}]}}`),
		route("HTTPRoute", "r", "", `{parentRefs: [{name: gw}], rules: [{backendRefs: [{name: web, port: 8080}]}]}`)))
	rows := table.Rows()
	if len(rows) != 1 || rows[0].Certificate == nil {
		t.Fatalf("rows %v", rows)
	}
	if got, want := rows[0].Certificate.SHA256(), serving.Fingerprint(leaf.Cert); got != want || len(got) != 64 {
		t.Errorf("SHA256 %q, want %q", got, want)
	}
}

// TestAddresses: where clients reach a Gateway, status.addresses before
// spec.addresses, an address without a type being an IP address.
func TestAddresses(t *testing.T) {
	for _, c := range []struct {
		name, extra, status string
		want                []serving.Address
	}{
		{"none", "", "", nil},
		{"spec.addresses when the status has none", "  addresses: [{value: 192.0.2.1}, {type: Hostname, value: gw.example.net}]\n", "",
			[]serving.Address{{Type: "IPAddress", Value: "192.0.2.1"}, {Type: "Hostname", Value: "gw.example.net"}}},
		{"status.addresses win", "  addresses: [{value: 192.0.2.1}]\n", "status: {addresses: [{type: IPAddress, value: 198.51.100.7}]}\n",
			[]serving.Address{{Type: "IPAddress", Value: "198.51.100.7"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			table := serving.Build(analyzeYAML(t, class, gateway(c.extra, `{name: http, port: 80, protocol: HTTP}`)+c.status))
			g := table.Gateway(model.NamespacedName{Namespace: "default", Name: "gw"})
			if g == nil || !slices.Equal(g.Addresses, c.want) {
				t.Errorf("addresses %+v, want %+v", g, c.want)
			}
		})
	}
}

// TestDecide: a request for any name, not only the table's rows, as simulate and
// the probe proxy ask it; each refusal names what stopped it.
func TestDecide(t *testing.T) {
	table := serving.Build(analyzeYAML(t, class, services, secret("wild", "*.example.com"),
		gateway("", `{name: https, port: 443, protocol: HTTPS, hostname: "*.example.com", tls: {certificateRefs: [{name: wild}]}}`,
			`{name: pass, port: 8443, protocol: TLS, hostname: "*.pass.example.com", tls: {mode: Passthrough}}`,
			`{name: pass-wide, port: 8443, protocol: TLS, hostname: "*.example.com", tls: {mode: Passthrough}}`,
			`{name: http, port: 80, protocol: HTTP}`),
		route("HTTPRoute", "shop", "", `{parentRefs: [{name: gw, sectionName: https}, {name: gw, sectionName: http}], hostnames: ["*.shop.example.com"], rules: [{backendRefs: [{name: web, port: 8080}]}]}`),
		route("TLSRoute", "db", "", `{parentRefs: [{name: gw, sectionName: pass}], hostnames: ["*.pass.example.com"], rules: [{backendRefs: [{name: web, port: 8443}]}]}`)))
	gw := table.Gateway(model.NamespacedName{Namespace: "default", Name: "gw"})
	for _, c := range []struct {
		name     string
		port     int32
		req      serving.Request
		listener string
		route    string
		refusal  serving.Refusal
	}{
		{"Host matching: a wildcard covers one or more labels", 80, serving.Request{Host: "a.b.shop.example.com"}, "http", "shop", serving.Served},
		{"SNI matching: a wildcard covers one label", 443, serving.Request{SNI: "a.shop.example.com"}, "https", "shop", serving.Served},
		{"SNI matching: not two", 443, serving.Request{SNI: "a.b.shop.example.com"}, "https", "", serving.NoRouteForSNI},
		{"HTTPS: the Host is matched after the handshake", 443, serving.Request{SNI: "a.shop.example.com", Host: "www.example.com"}, "https", "", serving.NoRouteForHost},
		{"the most specific listener takes the SNI", 8443, serving.Request{SNI: "x.pass.example.com"}, "pass", "db", serving.Served},
		{"listeners are chosen as by Host, routes as by SNI", 8443, serving.Request{SNI: "x.y.pass.example.com"}, "pass", "", serving.NoRouteForSNI},
		{"a less specific listener without routes", 8443, serving.Request{SNI: "www.example.com"}, "pass-wide", "", serving.NoRouteForSNI},
		{"no listener for plain HTTP on a TLS port", 443, serving.Request{Host: "a.shop.example.com"}, "", "", serving.NoListener},
		{"no listener's hostname matches", 443, serving.Request{SNI: "www.example.org"}, "", "", serving.NoListener},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := gw.Port(c.port).Decide(c.req)
			listener, route := "", ""
			if d.Listener != nil {
				listener = d.Listener.Name
			}
			if r := d.Route(); r != nil {
				route = r.Ref.Name
			}
			if listener != c.listener || route != c.route || d.Refusal != c.refusal {
				t.Errorf("listener %q route %q refusal %v, want %q %q %v", listener, route, d.Refusal, c.listener, c.route, c.refusal)
			}
			if c.refusal == serving.NoRouteForHost && (d.Certificate == nil || d.Certificate.Secret.Name != "wild") {
				t.Errorf("the handshake completed, so the certificate was presented: %+v", d.Certificate)
			}
		})
	}
}
