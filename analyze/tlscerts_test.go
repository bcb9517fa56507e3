package analyze_test

import (
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testcert"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/simulate"
)

var now = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func analyzeDocs(t *testing.T, opts analyze.Options, docs ...string) *analyze.Result {
	t.Helper()
	return analyzeLoaded(t, opts, load.Admission{}, docs...)
}

// analyzeDocsAsWritten is analyzeDocs with admission off, for what no CRD
// admits yet: GEP-3792's provisional fields.
func analyzeDocsAsWritten(t *testing.T, opts analyze.Options, docs ...string) *analyze.Result {
	t.Helper()
	return analyzeLoaded(t, opts, load.Admission{Off: true}, docs...)
}

func analyzeLoaded(t *testing.T, opts analyze.Options, adm load.Admission, docs ...string) *analyze.Result {
	t.Helper()
	m, err := load.Files(load.FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(strings.Join(docs, "\n---\n")), Admission: adm})
	if err != nil {
		t.Fatal(err)
	}
	if opts.Now.IsZero() {
		opts.Now = now
	}
	return analyze.Analyze(m, opts)
}

const classDoc = `apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gc}
spec: {controllerName: example.com/gc}`

// httpsGateway is a Gateway with one HTTPS listener (hostname h, certificateRefs
// named certs) and an HTTPRoute for routeHosts.
func httpsGateway(listenerHost string, routeHosts []string, certs ...string) []string {
	var refs []string
	for _, c := range certs {
		refs = append(refs, fmt.Sprintf("{name: %s}", c))
	}
	host := ""
	if listenerHost != "" {
		host = fmt.Sprintf("    hostname: %q\n", listenerHost)
	}
	gw := "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: gw, namespace: default}\nspec:\n  gatewayClassName: gc\n  listeners:\n  - name: https\n    port: 443\n    protocol: HTTPS\n" +
		host + "    tls: {certificateRefs: [" + strings.Join(refs, ", ") + "]}\n"
	var hs []string
	for _, h := range routeHosts {
		hs = append(hs, fmt.Sprintf("%q", h))
	}
	route := "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: r, namespace: default}\nspec:\n  parentRefs: [{name: gw}]\n  hostnames: [" + strings.Join(hs, ", ") + "]\n"
	return []string{classDoc, gw, route}
}

func ruleMessages(res *analyze.Result) map[string]string {
	out := map[string]string{}
	for _, f := range res.Findings {
		out[string(f.Rule.ID)] = f.Message
	}
	return out
}

func TestCertificateChecks(t *testing.T) {
	ca := testcert.Must(testcert.Options{CommonName: "Test Root CA", IsCA: true}, nil)
	inter := testcert.Must(testcert.Options{CommonName: "Test Intermediate", IsCA: true}, ca)
	leafOf := func(o testcert.Options) *testcert.Cert { return testcert.Must(o, inter) }
	good := testcert.Options{CommonName: "www.example.com", DNSNames: []string{"www.example.com", "*.example.com"}}
	otherKey := testcert.Must(good, inter)
	expiredInter := testcert.Must(testcert.Options{CommonName: "Expired Intermediate", IsCA: true, NotAfter: time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC)}, ca)
	futureInter := testcert.Must(testcert.Options{CommonName: "Future Intermediate", IsCA: true, NotBefore: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)}, ca)
	expiredRoot := testcert.Must(testcert.Options{CommonName: "Expired Root CA", IsCA: true, NotAfter: time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC)}, nil)
	underExpiredRoot := testcert.Must(testcert.Options{CommonName: "Intermediate under an expired root", IsCA: true}, expiredRoot)

	cases := []struct {
		name       string
		secret     string
		routeHosts []string
		opts       analyze.Options
		want       []string // rules that must be reported
		wantNot    []string // rules that must not be reported
		unresolved bool     // listener ResolvedRefs False / InvalidCertificateRef
	}{
		{name: "a good chain covering every hostname is clean",
			secret: testcert.SecretYAML("default", "c", []*testcert.Cert{leafOf(good), inter}), routeHosts: []string{"www.example.com", "api.example.com"},
			wantNot: []string{"certificate/SNINotCovered", "certificate/Expired", "certificate/ChainOrder", "certificate/ChainUntrusted"}},
		{name: "expired against --now",
			secret:     testcert.SecretYAML("default", "c", []*testcert.Cert{leafOf(testcert.Options{CommonName: "www.example.com", DNSNames: []string{"www.example.com"}, NotAfter: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)}), inter}),
			routeHosts: []string{"www.example.com"}, want: []string{"certificate/Expired"}},
		{name: "not yet valid",
			secret:     testcert.SecretYAML("default", "c", []*testcert.Cert{leafOf(testcert.Options{CommonName: "www.example.com", DNSNames: []string{"www.example.com"}, NotBefore: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)}), inter}),
			routeHosts: []string{"www.example.com"}, want: []string{"certificate/NotYetValid"}},
		{name: "expires within --warn-expiry",
			secret:     testcert.SecretYAML("default", "c", []*testcert.Cert{leafOf(testcert.Options{CommonName: "www.example.com", DNSNames: []string{"www.example.com"}, NotAfter: now.Add(10 * 24 * time.Hour)}), inter}),
			routeHosts: []string{"www.example.com"}, want: []string{"certificate/ExpiresSoon"}},
		{name: "wrong SAN",
			secret:     testcert.SecretYAML("default", "c", []*testcert.Cert{leafOf(testcert.Options{CommonName: "other.org", DNSNames: []string{"other.org"}}), inter}),
			routeHosts: []string{"www.example.com"}, want: []string{"certificate/SNINotCovered"}},
		{name: "wildcard depth: *.example.com does not cover foo.bar.example.com (spec 003)",
			secret:     testcert.SecretYAML("default", "c", []*testcert.Cert{leafOf(good), inter}),
			routeHosts: []string{"foo.bar.example.com"}, want: []string{"certificate/SNINotCovered"}},
		{name: "RSA 1024",
			secret:     testcert.SecretYAML("default", "c", []*testcert.Cert{leafOf(testcert.Options{CommonName: "www.example.com", DNSNames: []string{"www.example.com"}, RSABits: 1024}), inter}),
			routeHosts: []string{"www.example.com"}, want: []string{"certificate/WeakKey"}},
		{name: "SHA-1 signature",
			secret: testcert.SecretYAML("default", "c", []*testcert.Cert{testcert.Must(testcert.Options{CommonName: "www.example.com", DNSNames: []string{"www.example.com"}, RSABits: 2048, SHA1: true},
				testcert.Must(testcert.Options{CommonName: "RSA CA", IsCA: true, RSABits: 2048}, nil))}),
			routeHosts: []string{"www.example.com"}, want: []string{"certificate/SHA1Signature"}},
		{name: "CN-only certificate",
			secret:     testcert.SecretYAML("default", "c", []*testcert.Cert{leafOf(testcert.Options{CommonName: "www.example.com"}), inter}),
			routeHosts: []string{"www.example.com"}, want: []string{"certificate/NoSubjectAltNames", "certificate/SNINotCovered"}},
		{name: "chain out of order",
			secret:     testcert.SecretYAML("default", "c", []*testcert.Cert{leafOf(good), ca, inter}),
			routeHosts: []string{"www.example.com"}, want: []string{"certificate/ChainOrder"}},
		{name: "missing intermediate does not verify against --ca-bundle",
			secret:     testcert.SecretYAML("default", "c", []*testcert.Cert{leafOf(good)}),
			routeHosts: []string{"www.example.com"}, opts: analyze.Options{CABundle: pool(ca)}, want: []string{"certificate/ChainUntrusted"}},
		{name: "complete chain verifies against --ca-bundle",
			secret:     testcert.SecretYAML("default", "c", []*testcert.Cert{leafOf(good), inter}),
			routeHosts: []string{"www.example.com"}, opts: analyze.Options{CABundle: pool(ca)}, wantNot: []string{"certificate/ChainUntrusted"}},
		{name: "an expired intermediate in tls.crt, without --ca-bundle",
			secret: testcert.SecretYAML("default", "c", []*testcert.Cert{testcert.Must(good, expiredInter), expiredInter}), routeHosts: []string{"www.example.com"},
			want: []string{"certificate/ChainExpired"}, wantNot: []string{"certificate/Expired"}},
		{name: "an intermediate not valid yet in tls.crt",
			secret: testcert.SecretYAML("default", "c", []*testcert.Cert{testcert.Must(good, futureInter), futureInter}), routeHosts: []string{"www.example.com"},
			want: []string{"certificate/ChainExpired"}},
		{name: "an expired root served after the intermediate",
			secret: testcert.SecretYAML("default", "c", []*testcert.Cert{testcert.Must(good, underExpiredRoot), underExpiredRoot, expiredRoot}), routeHosts: []string{"www.example.com"},
			want: []string{"certificate/ChainExpired"}},
		{name: "valid CAs in tls.crt are not flagged",
			secret: testcert.SecretYAML("default", "c", []*testcert.Cert{leafOf(good), inter, ca}), routeHosts: []string{"www.example.com"},
			wantNot: []string{"certificate/ChainExpired"}},
		{name: "key does not match the leaf",
			secret:     keyMismatch(leafOf(good), otherKey),
			routeHosts: []string{"www.example.com"}, unresolved: true},
		{name: "garbage PEM",
			secret:     "apiVersion: v1\nkind: Secret\nmetadata: {name: c, namespace: default}\ntype: kubernetes.io/tls\nstringData: {tls.crt: not-pem, tls.key: not-pem}",
			routeHosts: []string{"www.example.com"}, unresolved: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := analyzeDocs(t, c.opts, append(httpsGateway("", c.routeHosts, "c"), c.secret)...)
			l := res.Gateways[0].Listeners[0]
			resolved := analyze.IsTrue(l.Conditions, "ResolvedRefs")
			if resolved == c.unresolved {
				t.Fatalf("listener ResolvedRefs true=%v, want %v: %+v", resolved, !c.unresolved, analyze.Find(l.Conditions, "ResolvedRefs"))
			}
			if c.unresolved {
				if r := analyze.Find(l.Conditions, "ResolvedRefs").Reason; r != "InvalidCertificateRef" {
					t.Errorf("reason %s, want InvalidCertificateRef", r)
				}
				return
			}
			got := ruleMessages(res)
			for _, r := range c.want {
				if _, ok := got[r]; !ok {
					t.Errorf("want finding %s, got %v", r, got)
				}
			}
			for _, r := range c.wantNot {
				if msg, ok := got[r]; ok {
					t.Errorf("unexpected %s: %s", r, msg)
				}
			}
		})
	}
}

func pool(cs ...*testcert.Cert) *x509.CertPool {
	p := x509.NewCertPool()
	for _, c := range cs {
		p.AddCert(c.Cert)
	}
	return p
}

func keyMismatch(leaf, other *testcert.Cert) string {
	return fmt.Sprintf("apiVersion: v1\nkind: Secret\nmetadata: {name: c, namespace: default}\ntype: kubernetes.io/tls\ndata:\n  tls.crt: %s\n  tls.key: %s\n",
		base64.StdEncoding.EncodeToString(leaf.CertPEM), base64.StdEncoding.EncodeToString(other.KeyPEM))
}

// With several certificateRefs the listener serves, per SNI, the longest match
// (gateway_types.go Listener.TLS: "The GatewayClass MUST use the longest
// matching SNI out of all available certificates for any TLS handshake"): a
// certificate naming the SNI exactly before a wildcard one, whatever their
// order in certificateRefs; list order on a tie. A name none covers gets the
// first usable (default) certificate, which fails (certificate/SNINotCovered).
// The certificate served is the one simulate shows and whose covered names
// (CertificateResult.Covered) hold the route's hostname.
func TestCertificateSelectionPerSNI(t *testing.T) {
	a := testcert.Must(testcert.Options{CommonName: "a.example.com", DNSNames: []string{"a.example.com"}}, nil)
	b := testcert.Must(testcert.Options{CommonName: "b.example.com", DNSNames: []string{"b.example.com"}}, nil)
	foo := testcert.Must(testcert.Options{CommonName: "foo.example.com", DNSNames: []string{"foo.example.com"}}, nil)
	wild := testcert.Must(testcert.Options{CommonName: "*.example.com", DNSNames: []string{"*.example.com"}}, nil)
	wildAndFoo := testcert.Must(testcert.Options{CommonName: "*.example.com", DNSNames: []string{"*.example.com", "foo.example.com"}}, nil)
	expired := testcert.Must(testcert.Options{CommonName: "foo.example.com", DNSNames: []string{"foo.example.com"},
		NotBefore: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), NotAfter: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}, nil)
	secrets := map[string]*testcert.Cert{"a": a, "b": b, "foo": foo, "wild": wild, "wild2": wild, "wildfoo": wildAndFoo, "expired": expired}
	for _, tc := range []struct {
		name     string
		refs     []string
		external string            // --external Secret/default/NAME: a certificate whose SANs are unknown
		want     map[string]string // SNI -> certificate served, "!" prefix when it does not cover the SNI
	}{
		{"one certificate per name: each SNI gets its own", []string{"a", "b"}, "",
			map[string]string{"a.example.com": "a", "b.example.com": "b", "c.example.com": "!a"}},
		{"an exact certificate listed after a wildcard one wins for its name", []string{"wild", "foo"}, "",
			map[string]string{"foo.example.com": "foo", "bar.example.com": "wild", "example.com": "!wild"}},
		{"an exact certificate listed first wins too", []string{"foo", "wild"}, "",
			map[string]string{"foo.example.com": "foo", "bar.example.com": "wild"}},
		{"a certificate whose SANs name the SNI exactly beside a wildcard one is an exact match", []string{"wild", "wildfoo"}, "",
			map[string]string{"foo.example.com": "wildfoo", "bar.example.com": "wild"}},
		{"two wildcard certificates: the first listed", []string{"wild", "wild2"}, "",
			map[string]string{"foo.example.com": "wild"}},
		{"an expired exact certificate is still the longest match: it is served and the handshake fails", []string{"wild", "expired"}, "",
			map[string]string{"foo.example.com": "expired", "bar.example.com": "wild"}},
		{"a certificateRef that does not resolve is skipped", []string{"gone", "wild", "foo"}, "",
			map[string]string{"foo.example.com": "foo", "c.example.org": "!wild"}},
		{"an external certificate covers every name, but not known exactly", []string{"ext", "foo"}, "ext",
			map[string]string{"foo.example.com": "foo", "bar.example.com": "ext"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var hosts []string
			for sni := range tc.want {
				hosts = append(hosts, sni)
			}
			sort.Strings(hosts)
			docs := httpsGateway("", hosts, tc.refs...)
			for _, r := range tc.refs {
				if c := secrets[r]; c != nil {
					docs = append(docs, testcert.SecretYAML("default", r, []*testcert.Cert{c}))
				}
			}
			opts := analyze.Options{}
			if tc.external != "" {
				opts.External = []analyze.ExternalRef{{Kind: "Secret", Namespace: "default", Name: tc.external}}
			}
			res := analyzeDocs(t, opts, docs...)
			l := res.Gateways[0].Listeners[0]
			sim := simulate.New(res)
			for _, sni := range hosts {
				want := tc.want[sni]
				name, wantCovers := strings.TrimPrefix(want, "!"), !strings.HasPrefix(want, "!")
				c, covers := l.CertificateFor(sni)
				if c == nil || string(c.Ref.Name) != name || covers != wantCovers {
					t.Errorf("SNI %s: got %v covers=%v, want %s", sni, c, covers, want)
				}
				out := sim.Simulate(simulate.Request{Gateway: "default/gw", Port: 443, SNI: sni})
				if out.Certificate == nil || out.Certificate.Secret != "default/"+name || out.Certificate.VerifiesForSNI != wantCovers {
					t.Errorf("simulate SNI %s: certificate %+v, want %s", sni, out.Certificate, want)
				}
				for _, cr := range res.Certificates {
					served := string(cr.Secret.Obj.Name) == name
					if slices.Contains(cr.Covered, sni) != (served && wantCovers) || slices.Contains(cr.Uncovered, sni) != (served && !wantCovers) {
						t.Errorf("SNI %s: certificate %s lists it covered %v, uncovered %v", sni, cr.Secret.Obj.Name, cr.Covered, cr.Uncovered)
					}
				}
			}
		})
	}
}

// OverlappingTLSConfig: overlapping certificates take precedence over overlapping
// hostnames (ListenerConditionOverlappingTLSConfig: "SHOULD set the
// OverlappingCertificates Reason").
func TestOverlappingCertificates(t *testing.T) {
	wild := testcert.Must(testcert.Options{CommonName: "*.example.com", DNSNames: []string{"*.example.com"}}, nil)
	foo := testcert.Must(testcert.Options{CommonName: "foo.example.com", DNSNames: []string{"foo.example.com"}}, nil)
	gw := `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: default}
spec:
  gatewayClassName: gc
  listeners:
  - {name: wild, port: 443, protocol: HTTPS, hostname: "*.example.com", tls: {certificateRefs: [{name: wild}]}}
  - {name: foo, port: 443, protocol: HTTPS, hostname: foo.example.com, tls: {certificateRefs: [{name: foo}]}}
  - {name: other, port: 443, protocol: HTTPS, hostname: foo.example.org, tls: {certificateRefs: [{name: foo}]}}`
	res := analyzeDocs(t, analyze.Options{}, classDoc, gw, testcert.SecretYAML("default", "wild", []*testcert.Cert{wild}), testcert.SecretYAML("default", "foo", []*testcert.Cert{foo}))
	for _, l := range res.Gateways[0].Listeners {
		c := analyze.Find(l.Conditions, "OverlappingTLSConfig")
		switch l.Name() {
		case "wild", "foo":
			if c == nil || c.Reason != "OverlappingCertificates" {
				t.Errorf("listener %s: %+v, want OverlappingCertificates", l.Name(), c)
			}
		case "other":
			// Its hostname overlaps nothing, but it serves foo's certificate, which
			// overlaps wild's.
			if c == nil || c.Reason != "OverlappingCertificates" {
				t.Errorf("listener other: %+v", c)
			}
		}
	}
}
