package simulate_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testcert"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/simulate"
)

var now = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// analyzeYAML analyzes docs with admission off: these tests hold the engine to
// spec 003's tables and to its own reasons, and some of their shapes the
// v1.6.3 CRDs refuse (a TLSRoute without hostnames, rows 15 and 16; two
// listeners of one Gateway in conflict).
func analyzeYAML(t *testing.T, docs ...string) *analyze.Result {
	t.Helper()
	m, err := load.Files(load.FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(strings.Join(docs, "\n---\n")), Admission: load.Admission{Off: true}})
	if err != nil {
		t.Fatal(err)
	}
	return analyze.Analyze(m, analyze.Options{Now: now})
}

const class = `apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gc}
spec: {controllerName: example.com/gc}`

const backend = `apiVersion: v1
kind: Service
metadata: {name: be, namespace: default}
spec: {ports: [{port: 8080}]}`

// scenario builds one row of spec 003 "Expected match examples": a Gateway with one
// listener and one route. Terminating listeners serve a certificate for the
// listener's hostname (the row's notes are about that certificate).
func scenario(listenerHost, mode, kind, routeHost string) []string {
	hostLine := ""
	if listenerHost != "" {
		hostLine = fmt.Sprintf("    hostname: %q\n", listenerHost)
	}
	var listener string
	switch {
	case mode == "None":
		listener = "  - name: l\n    port: 80\n    protocol: HTTP\n" + hostLine
	case mode == "Terminated" && kind == "HTTPRoute":
		listener = "  - name: l\n    port: 443\n    protocol: HTTPS\n" + hostLine + "    tls: {certificateRefs: [{name: cert}]}\n"
	case mode == "Terminated":
		listener = "  - name: l\n    port: 443\n    protocol: TLS\n" + hostLine + "    tls: {mode: Terminate, certificateRefs: [{name: cert}]}\n"
	default:
		listener = "  - name: l\n    port: 443\n    protocol: TLS\n" + hostLine + "    tls: {mode: Passthrough}\n"
	}
	gw := "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: gw, namespace: default}\nspec:\n  gatewayClassName: gc\n  listeners:\n" + listener
	hosts := ""
	if routeHost != "" {
		hosts = fmt.Sprintf("  hostnames: [%q]\n", routeHost)
	}
	route := fmt.Sprintf("apiVersion: gateway.networking.k8s.io/v1\nkind: %s\nmetadata: {name: r, namespace: default}\nspec:\n  parentRefs: [{name: gw}]\n%s  rules: [{backendRefs: [{name: be, port: 8080}]}]\n", kind, hosts)
	docs := []string{class, gw, route, backend}
	if mode == "Terminated" {
		names := []string{"example.com"}
		if listenerHost != "" {
			names = []string{listenerHost}
		}
		leaf := testcert.Must(testcert.Options{CommonName: names[0], DNSNames: names}, nil)
		docs = append(docs, testcert.SecretYAML("default", "cert", []*testcert.Cert{leaf}))
	}
	return docs
}

// TestExpectedMatchExamples: every row of spec 003 "Expected match examples"
// (003_0c8e0c2799842bee.txt, the table after "Host header matching"), in order.
func TestExpectedMatchExamples(t *testing.T) {
	const yes, no, none = "yes", "no", ""
	rows := []struct {
		listener, mode, kind, route string
		attached                    bool
		intersected                 string
		sni, sniMatch               string
		host, hostMatch             string
	}{
		{"www.example.com", "None", "HTTPRoute", "www.example.com", true, "www.example.com", "", none, "www.example.com", yes},                                   // row 1
		{"*.example.com", "None", "HTTPRoute", "www.example.com", true, "www.example.com", "", none, "www.example.com", yes},                                     // row 2
		{"*.example.com", "None", "HTTPRoute", "*.com", true, "*.example.com", "", none, "www.example.com", yes},                                                 // row 3
		{"*.example.com", "None", "HTTPRoute", "*.com", true, "*.example.com", "", none, "foo.bar.example.com", yes},                                             // row 4: one or more labels for Host
		{"*.example.com", "None", "HTTPRoute", "www.example.com", true, "www.example.com", "", none, "example.com", no},                                          // row 5
		{"*.example.com", "None", "HTTPRoute", "www.example.com", true, "www.example.com", "", none, "foo.example.com", no},                                      // row 6
		{"*.example.com", "Terminated", "HTTPRoute", "www.example.com", true, "www.example.com", "www.example.com", yes, "www.example.com", yes},                 // row 7
		{"*.example.com", "Terminated", "HTTPRoute", "foo.bar.example.com", true, "foo.bar.example.com", "foo.bar.example.com", yes, "foo.bar.example.com", yes}, // row 8
		{"*.example.com", "Terminated", "HTTPRoute", "*.example.com", true, "*.example.com", "foo.bar.example.com", no, "", none},                                // row 9
		{"*.example.com", "Terminated", "HTTPRoute", "foo.example.com", true, "foo.example.com", "foo.example.com", yes, "foo.example.com", yes},                 // row 10
		{"www.example.com", "Passthrough", "TLSRoute", "www.example.com", true, "www.example.com", "www.example.com", yes, "", none},                             // row 11
		{"*.example.com", "Passthrough", "TLSRoute", "www.example.com", true, "www.example.com", "www.example.com", yes, "", none},                               // row 12
		{"*.example.com", "Passthrough", "TLSRoute", "www.example.com", true, "www.example.com", "foo.example.com", no, "", none},                                // row 13
		{"*.example.com", "Passthrough", "TLSRoute", "foo.bar.example.com", true, "foo.bar.example.com", "www.example.com", no, "", none},                        // row 14
		{"*.example.com", "Passthrough", "TLSRoute", "", true, "*.example.com", "www.example.com", yes, "", none},                                                // row 15
		{"*.example.com", "Passthrough", "TLSRoute", "", true, "*.example.com", "foo.bar.example.com", no, "", none},                                             // row 16: one label for SNI
		{"www.example.com", "Terminated", "TLSRoute", "www.example.com", true, "www.example.com", "www.example.com", yes, "", none},                              // row 17
	}
	for i, r := range rows {
		t.Run(fmt.Sprintf("row%02d_%s_%s_%s", i+1, r.mode, r.kind, r.route), func(t *testing.T) {
			res := analyzeYAML(t, scenario(r.listener, r.mode, r.kind, r.route)...)
			l := res.Gateways[0].Listeners[0]
			if !l.Accepted {
				t.Fatalf("listener not accepted: %+v", l.Conditions)
			}
			if got := len(l.Attachments) == 1; got != r.attached {
				t.Fatalf("attached = %v, want %v", got, r.attached)
			}
			if got := l.Attachments[0].Hostnames; len(got) != 1 || got[0] != r.intersected {
				t.Errorf("intersected = %v, want %q", got, r.intersected)
			}
			sim := simulate.New(res)
			port := int32(443)
			if r.mode == "None" {
				port = 80
			}
			if r.sni != "" {
				out := sim.Simulate(simulate.Request{SNI: r.sni, Port: port, Host: r.host})
				if got := out.Outcome == simulate.Routed; got != (r.sniMatch == yes && r.hostMatch != no) {
					t.Errorf("SNI %q: outcome %s (%s), want SNI match %s", r.sni, out.Outcome, out.Reason, r.sniMatch)
				}
			}
			if r.host != "" && r.sni == "" {
				out := sim.Simulate(simulate.Request{Host: r.host, Port: port})
				if got := out.Outcome == simulate.Routed; got != (r.hostMatch == yes) {
					t.Errorf("Host %q: outcome %s (%s), want match %s", r.host, out.Outcome, out.Reason, r.hostMatch)
				}
			}
		})
	}
}

// TestSNITable and TestHostTable: spec 003 "SNI matching" and "Host header
// matching" tables, through simulate on a listener with no hostname and a route
// whose hostname is the table's intersected hostname.
func TestSNIAndHostTables(t *testing.T) {
	rows := []struct {
		table, intersected, name string
		match                    bool
	}{
		{"SNI", "www.example.com", "www.example.com", true},
		{"SNI", "www.example.com", "foo.example.com", false},
		{"SNI", "*.example.com", "www.example.com", true},
		{"SNI", "*.example.com", "foo.example.com", true},
		{"SNI", "*.example.com", "foo.bar.example.com", false},
		{"Host", "www.example.com", "www.example.com", true},
		{"Host", "www.example.com", "foo.example.com", false},
		{"Host", "*.example.com", "www.example.com", true},
		{"Host", "*.example.com", "foo.example.com", true},
		{"Host", "*.example.com", "foo.bar.example.com", true},
	}
	for _, r := range rows {
		t.Run(r.table+"_"+r.intersected+"_"+r.name, func(t *testing.T) {
			var out simulate.Outcome
			if r.table == "SNI" {
				out = simulate.New(analyzeYAML(t, scenario("", "Passthrough", "TLSRoute", r.intersected)...)).Simulate(simulate.Request{SNI: r.name, Port: 443})
			} else {
				out = simulate.New(analyzeYAML(t, scenario("", "None", "HTTPRoute", r.intersected)...)).Simulate(simulate.Request{Host: r.name, Port: 80})
			}
			if got := out.Outcome == simulate.Routed; got != r.match {
				t.Errorf("outcome %s (%s), want match %v", out.Outcome, out.Reason, r.match)
			}
		})
	}
}

// mixedGateway is GEP-2643's "TLSRoute + Mixed Termination" example
// (testdata/gep2643/mixed-termination.yaml) with the terminating listener's Secret.
func mixedGateway() []string {
	data, err := os.ReadFile("../testdata/gep2643/mixed-termination.yaml")
	if err != nil {
		panic(err)
	}
	leaf := testcert.Must(testcert.Options{CommonName: "rtmp.example.com", DNSNames: []string{"rtmp.example.com"}}, nil)
	return []string{string(data), testcert.SecretYAML("default", "listener", []*testcert.Cert{leaf})}
}

// TestGEP2643RequestFlows follows the GEP's request flows: passthrough, terminate,
// and both on one port (mixed termination), plus a refused SNI.
func TestGEP2643RequestFlows(t *testing.T) {
	sim := simulate.New(analyzeYAML(t, mixedGateway()...))
	cases := []struct {
		name, sni, listener, mode, route, backend string
		verifies                                  bool
	}{
		{"terminate: rtmps://rtmp.example.com:443 is terminated and sent to rtmp-backend", "rtmp.example.com", "terminatelistener", "Terminate", "my-rtmp-route", "rtmp-backend", true},
		{"passthrough: direct.example.com goes to tls-backend untouched", "direct.example.com", "passthroughlistener", "Passthrough", "my-tls-route", "tls-backend", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := sim.Simulate(simulate.Request{SNI: c.sni, Port: 443})
			if out.Outcome != simulate.Routed {
				t.Fatalf("refused: %s", out.Reason)
			}
			if out.Listener != c.listener || out.Mode != c.mode || out.Route.Name != c.route || out.Backends[0].Name != c.backend {
				t.Errorf("got listener %s mode %s route %v backends %+v", out.Listener, out.Mode, out.Route, out.Backends)
			}
			if c.mode == "Terminate" && (out.Certificate == nil || out.Certificate.VerifiesForSNI != c.verifies) {
				t.Errorf("certificate %+v", out.Certificate)
			}
			if c.mode == "Passthrough" && out.Certificate != nil {
				t.Errorf("passthrough must not serve a Gateway certificate: %+v", out.Certificate)
			}
		})
	}
	t.Run("an SNI no listener matches is refused", func(t *testing.T) {
		out := sim.Simulate(simulate.Request{SNI: "other.example.com", Port: 443})
		if out.Outcome != simulate.Refused || !strings.Contains(out.Reason, "no Gateway") {
			t.Errorf("got %s: %s", out.Outcome, out.Reason)
		}
	})
	t.Run("without mixed termination the listeners conflict and both are refused", func(t *testing.T) {
		m, err := load.Files(load.FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(strings.Join(mixedGateway(), "\n---\n"))})
		if err != nil {
			t.Fatal(err)
		}
		res := analyze.Analyze(m, analyze.Options{Now: now, Features: analyze.ParseFeatures("Gateway,TLSRoute,TLSRouteModeTerminate")})
		out := simulate.New(res).Simulate(simulate.Request{SNI: "direct.example.com", Port: 443})
		if out.Outcome != simulate.Refused || !strings.Contains(out.Reason, "ProtocolConflict") {
			t.Errorf("got %s: %s", out.Outcome, out.Reason)
		}
	})
	t.Run("--all covers every intersected hostname", func(t *testing.T) {
		all := sim.All()
		if len(all) != 2 || all[0].Outcome != simulate.Routed || all[1].Outcome != simulate.Routed {
			t.Errorf("got %+v", all)
		}
	})
}

// TestListenerSelectionOrder: exact before the most specific wildcard before no
// hostname (spec 003 "Listener ordering"; Gateway API "Listeners that are distinct
// only by Hostname").
func TestListenerSelectionOrder(t *testing.T) {
	gw := `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: default}
spec:
  gatewayClassName: gc
  listeners:
  - {name: any, port: 80, protocol: HTTP}
  - {name: wild, port: 80, protocol: HTTP, hostname: "*.example.com"}
  - {name: deep, port: 80, protocol: HTTP, hostname: "*.foo.example.com"}
  - {name: exact, port: 80, protocol: HTTP, hostname: "www.foo.example.com"}`
	route := `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: default}
spec:
  parentRefs: [{name: gw}]
  rules: [{backendRefs: [{name: be, port: 8080}]}]`
	sim := simulate.New(analyzeYAML(t, class, gw, route, backend))
	for host, want := range map[string]string{
		"www.foo.example.com": "exact",
		"a.foo.example.com":   "deep",
		"a.b.foo.example.com": "deep",
		"www.example.com":     "wild",
		"example.org":         "any",
	} {
		if out := sim.Simulate(simulate.Request{Host: host, Port: 80}); out.Listener != want || out.Outcome != simulate.Routed {
			t.Errorf("Host %s: listener %q (%s %s), want %q", host, out.Listener, out.Outcome, out.Reason, want)
		}
	}
}

// refusals is one Gateway with a listener for every way a request can be refused,
// and a second Gateway that also listens on port 80.
func refusals() []string {
	leaf := testcert.Must(testcert.Options{CommonName: "*.example.com", DNSNames: []string{"*.example.com"}}, nil)
	return []string{class, backend, testcert.SecretYAML("default", "cert", []*testcert.Cert{leaf}), `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: default}
spec:
  gatewayClassName: gc
  listeners:
  - {name: http, port: 80, protocol: HTTP, hostname: "*.example.com"}
  - {name: https, port: 443, protocol: HTTPS, hostname: "*.example.com", tls: {certificateRefs: [{name: cert}]}}
  - {name: pass, port: 8443, protocol: TLS, hostname: "*.pass.example.com", tls: {mode: Passthrough}}
  - {name: nocert, port: 9443, protocol: HTTPS, hostname: nocert.example.com, tls: {certificateRefs: [{name: missing}]}}
  - {name: one, port: 8080, protocol: HTTP, hostname: "*.example.com"}
  - {name: two, port: 8080, protocol: HTTP, hostname: "*.example.com"}`, `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: other, namespace: default}
spec:
  gatewayClassName: gc
  listeners:
  - {name: http, port: 80, protocol: HTTP, hostname: "*.example.com"}`,
		route("HTTPRoute", "web", "http", "www.example.com", "be"),
		route("HTTPRoute", "shop", "https", "shop.example.com", "be"),
		route("HTTPRoute", "empty", "https", "empty.example.com", ""),
		route("HTTPRoute", "gone", "https", "gone.example.com", "missing"),
		route("TLSRoute", "pass", "pass", "a.pass.example.com", "be"),
		route("HTTPRoute", "nocert", "nocert", "nocert.example.com", "be"),
	}
}

// route is a route of kind on listener section of Gateway gw, with one hostname
// and one backendRef to service (none when service is empty).
func route(kind, name, section, host, service string) string {
	rules := "[{backendRefs: [{name: " + service + ", port: 8080}]}]"
	if service == "" {
		rules = "[{}]"
	}
	return fmt.Sprintf("apiVersion: gateway.networking.k8s.io/v1\nkind: %s\nmetadata: {name: %s, namespace: default}\nspec:\n  parentRefs: [{name: gw, sectionName: %s}]\n  hostnames: [%s]\n  rules: %s\n",
		kind, name, section, host, rules)
}

// TestRefusalReasons: each way a request is refused, and the sentence that says
// why (simulate's table prints it after "refused:"); a refused HTTPS request
// still shows the certificate the handshake presented.
func TestRefusalReasons(t *testing.T) {
	sim := simulate.New(analyzeYAML(t, refusals()...))
	for _, c := range []struct {
		name         string
		req          simulate.Request
		listener     string
		certificate  bool
		alsoServedBy string
		reason       string
	}{
		{"routed on HTTP, which another Gateway also listens for", simulate.Request{Host: "www.example.com", Port: 80}, "http", false, "default/other", ""},
		{"HTTP: no route matches the Host (404)", simulate.Request{Host: "other.example.com", Port: 80}, "http", false, "default/other",
			`no route attached to listener http matches Host "other.example.com" (HTTP 404)`},
		{"no listener on any Gateway matches", simulate.Request{Host: "www.example.org", Port: 80}, "", false, "",
			`no Gateway has an HTTP listener on port 80 whose hostname matches "www.example.org"`},
		{"routed on HTTPS", simulate.Request{SNI: "shop.example.com", Port: 443}, "https", true, "", ""},
		{"HTTPS: no route matches the SNI", simulate.Request{SNI: "nothing.example.com", Port: 443}, "https", true, "",
			`no route attached to listener https has an intersected hostname matching SNI "nothing.example.com" (RFC 2818: a wildcard matches exactly one label)`},
		{"HTTPS: TLS accepted, no route matches the Host (404)", simulate.Request{SNI: "shop.example.com", Host: "other.example.com", Port: 443}, "https", true, "",
			`TLS is accepted, but no route attached to listener https matches Host "other.example.com" (HTTP 404)`},
		{"the route has no backendRefs", simulate.Request{SNI: "empty.example.com", Port: 443}, "https", true, "",
			"route default/empty has no backendRefs"},
		{"no backendRef resolves", simulate.Request{SNI: "gone.example.com", Port: 443}, "https", true, "",
			"no backendRef of route default/gone resolves (backendRef Service default/missing does not exist)"},
		{"routed on TLS passthrough", simulate.Request{SNI: "a.pass.example.com", Port: 8443}, "pass", false, "", ""},
		{"TLS: no route matches the SNI", simulate.Request{SNI: "b.pass.example.com", Port: 8443}, "pass", false, "",
			`no route attached to listener pass has an intersected hostname matching SNI "b.pass.example.com" (RFC 2818: a wildcard matches exactly one label)`},
		{"a terminating listener without a usable certificate", simulate.Request{SNI: "nocert.example.com", Port: 9443}, "nocert", false, "",
			"listener nocert has no usable certificate to terminate TLS"},
		{"the most specific listener is not accepted", simulate.Request{Host: "www.example.com", Port: 8080}, "one", false, "",
			"listener one is the most specific match but is not accepted (HostnameConflict: conflicts with listener two: both are HTTP on port 8080 with hostname *.example.com)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := sim.Simulate(c.req)
			want := simulate.Routed
			if c.reason != "" {
				want = simulate.Refused
			}
			if out.Outcome != want || out.Reason != c.reason {
				t.Errorf("got %s: %q\nwant %s: %q", out.Outcome, out.Reason, want, c.reason)
			}
			if out.Listener != c.listener || (out.Certificate != nil) != c.certificate || strings.Join(out.AlsoServedBy, ",") != c.alsoServedBy {
				t.Errorf("listener %q certificate %+v alsoServedBy %v, want %q, %v, %q", out.Listener, out.Certificate, out.AlsoServedBy, c.listener, c.certificate, c.alsoServedBy)
			}
		})
	}
}

// A request for a Gateway the configuration does not hold is refused as such,
// not as a port without a matching listener; AllOf is All for one Gateway.
func TestNamedGateway(t *testing.T) {
	data, err := os.ReadFile("../testdata/golden/route-not-allowed-namespace-same.yaml") // Gateways infra/same-only and infra/all
	if err != nil {
		t.Fatal(err)
	}
	sim := simulate.New(analyzeYAML(t, string(data)))
	out := sim.Simulate(simulate.Request{Host: "example.test", Port: 80, Gateway: "infra/nope"})
	if out.Outcome != simulate.Refused || out.Reason != "the configuration has no Gateway infra/nope" {
		t.Errorf("missing Gateway: %s %q", out.Outcome, out.Reason)
	}
	if out := sim.Simulate(simulate.Request{Host: "example.test", Port: 80, Gateway: "infra/all"}); out.Outcome != simulate.Routed || out.Gateway != "infra/all" {
		t.Errorf("infra/all: %+v", out)
	}
	all := sim.AllOf(model.NamespacedName{Namespace: "infra", Name: "all"})
	if len(all) != 1 || all[0].Gateway != "infra/all" || all[0].Route.Name != "cross-ns" {
		t.Errorf("AllOf(infra/all): %+v", all)
	}
	if got := sim.AllOf(model.NamespacedName{Namespace: "infra", Name: "nope"}); got != nil {
		t.Errorf("AllOf a missing Gateway: %+v", got)
	}
	if n := len(sim.All()); n != 2 {
		t.Errorf("All: %d rows, want 2", n)
	}
}
