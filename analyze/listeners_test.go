package analyze_test

import (
	"fmt"
	"strings"
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testcert"
)

// gatewayDoc is Gateway default/gw of class gc with the listeners given as YAML
// list items.
func gatewayDoc(listeners ...string) string {
	return "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: gw, namespace: default}\nspec:\n  gatewayClassName: gc\n  listeners:\n" +
		"  - " + strings.Join(listeners, "\n  - ") + "\n"
}

// listenerNamed is the Gateway's (or a ListenerSet's) listener of that name.
func listenerNamed(t *testing.T, ls []*analyze.ListenerResult, name string) *analyze.ListenerResult {
	t.Helper()
	for _, l := range ls {
		if l.Name() == name {
			return l
		}
	}
	t.Fatalf("no listener %s", name)
	return nil
}

// condition is "Status/Reason" of the condition of that type, "-" when absent.
func condition(cs []analyze.Condition, t string) string {
	c := analyze.Find(cs, t)
	if c == nil {
		return "-"
	}
	return string(c.Status) + "/" + c.Reason
}

// ListenerTLSConfig.Mode: "Passthrough: The TLS session is NOT terminated by
// the Gateway. ... The certificateRefs field is ignored in this mode." The
// listener is accepted and programmed, its refs are not resolved, and a
// warning says they do nothing.
func TestPassthroughIgnoresCertificateRefs(t *testing.T) {
	res := analyzeDocs(t, analyze.Options{}, classDoc, gatewayDoc(
		"{name: pass, port: 443, protocol: TLS, hostname: db.example.com, tls: {mode: Passthrough, certificateRefs: [{name: does-not-exist}]}}"))
	l := res.Gateways[0].Listeners[0]
	for typ, want := range map[string]string{"Accepted": "True/Accepted", "Programmed": "True/Programmed", "ResolvedRefs": "True/ResolvedRefs"} {
		if got := condition(l.Conditions, typ); got != want {
			t.Errorf("%s = %s, want %s", typ, got, want)
		}
	}
	if len(l.Certificates) != 0 {
		t.Errorf("the ignored refs were resolved: %+v", l.Certificates)
	}
	got := ruleMessages(res)
	if _, ok := got["listener/CertificateRefsIgnored"]; !ok || len(got) != 1 {
		t.Errorf("findings %v, want only listener/CertificateRefsIgnored", got)
	}
}

// AllowedRoutes.Kinds: "Invalid kinds are not supported"; a listener left with
// no kind is Programmed=False (no route can ever attach), one left with a valid
// kind stays programmed. Both are ResolvedRefs=False/InvalidRouteKinds.
func TestProgrammedNeedsARouteKind(t *testing.T) {
	for _, tc := range []struct {
		name, kinds, programmed string
	}{
		{"only an invalid kind: not programmed", "[{kind: TCPRoute}]", "False/Invalid"},
		{"a valid kind beside an invalid one: programmed", "[{kind: TCPRoute}, {kind: HTTPRoute}]", "True/Programmed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := analyzeDocs(t, analyze.Options{}, classDoc, gatewayDoc("{name: http, port: 80, protocol: HTTP, allowedRoutes: {kinds: "+tc.kinds+"}}"))
			l := res.Gateways[0].Listeners[0]
			if got := condition(l.Conditions, "Programmed"); got != tc.programmed {
				t.Errorf("Programmed = %s, want %s", got, tc.programmed)
			}
			if got := condition(l.Conditions, "ResolvedRefs"); got != "False/InvalidRouteKinds" {
				t.Errorf("ResolvedRefs = %s, want False/InvalidRouteKinds", got)
			}
		})
	}
}

// ListenerTLSConfig.CertificateRefs: "Implementations MAY choose to support
// attaching multiple certificates to a Listener". One unresolvable ref beside
// a usable one makes ResolvedRefs False, but the listener still serves with
// the usable one: Programmed=True. With none usable it is not programmed.
func TestProgrammedWithOneUsableCertificate(t *testing.T) {
	good := testcert.Must(testcert.Options{CommonName: "www.example.com", DNSNames: []string{"www.example.com"}}, nil)
	for _, tc := range []struct {
		name       string
		certs      []string
		programmed string
	}{
		{"a usable and a missing Secret", []string{"good", "missing"}, "True/Programmed"},
		{"a missing Secret before a usable one", []string{"missing", "good"}, "True/Programmed"},
		{"only a missing Secret", []string{"missing"}, "False/Invalid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			docs := append(httpsGateway("www.example.com", []string{"www.example.com"}, tc.certs...), testcert.SecretYAML("default", "good", []*testcert.Cert{good}))
			res := analyzeDocs(t, analyze.Options{}, docs...)
			l := res.Gateways[0].Listeners[0]
			if got := condition(l.Conditions, "ResolvedRefs"); got != "False/InvalidCertificateRef" {
				t.Errorf("ResolvedRefs = %s, want False/InvalidCertificateRef", got)
			}
			if got := condition(l.Conditions, "Programmed"); got != tc.programmed {
				t.Errorf("Programmed = %s, want %s", got, tc.programmed)
			}
		})
	}
}

// TestMixedTermination: GEP-2643's conformance table makes TLS/Passthrough
// beside HTTPS/Terminate on one port a conflict; Gateway API v1.6 names no
// feature for serving both and leaves it to implementations, so
// --allow-mixed-termination (Options.AllowMixedTermination) says the
// implementation does, and they then conflict only on a shared hostname.
// TLS/Passthrough beside TLS/Terminate is the Extended feature
// TLSRouteModeMixed. A listener whose mode the implementation cannot serve
// beside its neighbour's lists no supportedKinds (ListenerStatus.SupportedKinds
// "MUST represent the kinds supported by an implementation for that Listener
// configuration"; upstream TLSRouteListenerMixedTerminationNotSupported).
func TestMixedTermination(t *testing.T) {
	https := "{name: https, port: 443, protocol: HTTPS, hostname: %s, tls: {certificateRefs: [{name: cert}]}}"
	pass := "{name: pass, port: 443, protocol: TLS, hostname: db.example.com, tls: {mode: Passthrough}}"
	term := "{name: term, port: 443, protocol: TLS, hostname: app.example.com, tls: {mode: Terminate, certificateRefs: [{name: cert}]}}"
	all := analyze.ParseFeatures("TLSRoute,TLSRouteModeTerminate,TLSRouteModeMixed")
	noMixed := analyze.ParseFeatures("TLSRoute,TLSRouteModeTerminate")
	for _, tc := range []struct {
		name      string
		listeners []string
		opts      analyze.Options
		accepted  string // of every listener
		kinds     int    // supportedKinds of the TLS listener
	}{
		{"HTTPS beside TLS/Passthrough conflicts by default", []string{fmt.Sprintf(https, "www.example.com"), pass}, analyze.Options{}, "False/ProtocolConflict", 0},
		{"HTTPS beside TLS/Passthrough with --allow-mixed-termination", []string{fmt.Sprintf(https, "www.example.com"), pass}, analyze.Options{AllowMixedTermination: true}, "True/Accepted", 1},
		{"with --allow-mixed-termination one hostname still conflicts", []string{fmt.Sprintf(https, "db.example.com"), pass}, analyze.Options{AllowMixedTermination: true}, "False/HostnameConflict", 1},
		{"TLS/Terminate beside TLS/Passthrough with TLSRouteModeMixed", []string{term, pass}, analyze.Options{Features: all}, "True/Accepted", 1},
		{"TLS/Terminate beside TLS/Passthrough without TLSRouteModeMixed", []string{term, pass}, analyze.Options{Features: noMixed}, "False/ProtocolConflict", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cert := testcert.SecretYAML("default", "cert", []*testcert.Cert{testcert.Must(testcert.Options{CommonName: "x", DNSNames: []string{"www.example.com", "app.example.com", "db.example.com"}}, nil)})
			res := analyzeDocs(t, tc.opts, classDoc, gatewayDoc(tc.listeners...), cert)
			for _, l := range res.Gateways[0].Listeners {
				if got := condition(l.Conditions, "Accepted"); got != tc.accepted {
					t.Errorf("listener %s Accepted = %s, want %s", l.Name(), got, tc.accepted)
				}
			}
			if got := len(listenerNamed(t, res.Gateways[0].Listeners, "pass").SupportedKinds); got != tc.kinds {
				t.Errorf("TLS/Passthrough supportedKinds: %d, want %d", got, tc.kinds)
			}
		})
	}
}

// RouteReasonNotAllowedByListeners: "the Gateway has no Listener whose
// allowedRoutes criteria permit the route". A listener of a protocol the
// implementation does not support takes no route kind, so a route whose only
// candidate it is, is NotAllowedByListeners rather than NoMatchingParent.
func TestUnsupportedProtocolNotAllowedByListeners(t *testing.T) {
	for _, tc := range []struct {
		name, listener, opts, reason string
	}{
		{"a protocol no implementation defines", "{name: quic, port: 443, protocol: QUIC}", "", string(gwv1.RouteReasonNotAllowedByListeners)},
		{"an Extended protocol the implementation lacks", "{name: tcp, port: 5432, protocol: TCP}", "HTTPRoute", string(gwv1.RouteReasonNotAllowedByListeners)},
		// The Gateway CRD refuses two listeners on one port, protocol and
		// hostname: as written, so the conflict decides, not the refusal.
		{"a conflicted listener is still NoMatchingParent", "{name: a, port: 80, protocol: HTTP}\n  - {name: b, port: 80, protocol: HTTP}", "", string(gwv1.RouteReasonNoMatchingParent)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opts analyze.Options
			if tc.opts != "" {
				opts.Features = analyze.ParseFeatures(tc.opts)
			}
			route := "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: r, namespace: default}\nspec:\n  parentRefs: [{name: gw}]\n"
			res := analyzeDocsAsWritten(t, opts, classDoc, gatewayDoc(tc.listener), route)
			if len(res.Gateways) != 1 {
				t.Fatalf("%d Gateways analyzed, want the one written", len(res.Gateways))
			}
			c, _ := res.Routes[0].Parents[0].AcceptedCondition()
			if c.Status != "False" || c.Reason != tc.reason {
				t.Errorf("Accepted %s/%s (%s), want False/%s", c.Status, c.Reason, c.Message, tc.reason)
			}
		})
	}
}
