package probe_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testcert"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/tlstest"
	"github.com/kubectl-gwtls/kubectl-gwtls/probe"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// get makes a real TLS handshake to addr with sni, trusting pool, sends an HTTP
// request and returns the connection state and the response.
func get(t *testing.T, addr, sni string, cfg *tls.Config) (tls.ConnectionState, string, error) {
	t.Helper()
	if cfg == nil {
		cfg = &tls.Config{}
	}
	cfg.ServerName = sni
	c, err := tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", addr, cfg)
	if err != nil {
		return tls.ConnectionState{}, "", err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(c, probe.HTTPRequest(sni))
	b, err := io.ReadAll(c)
	return c.ConnectionState(), string(b), err
}

func TestProxyPassthroughAndTerminateOnOnePort(t *testing.T) {
	k := newPKI()
	p := startProxy(t, analyzeYAML(t, mixedGateway(k)...), probe.Options{})
	addr := socket(t, p, "default/gateway-tlsroute", 443)

	t.Run("terminate: the Gateway's certificate, then rtmp-backend", func(t *testing.T) {
		st, resp, err := get(t, addr, "rtmp.example.com", &tls.Config{RootCAs: k.pool})
		if err != nil {
			t.Fatal(err)
		}
		if got := st.PeerCertificates[0].Issuer.CommonName; got != "gateway test CA" {
			t.Errorf("issuer %q, want the Gateway's CA", got)
		}
		if !strings.Contains(resp, "gwtls-backend default/rtmp-backend:12345 route=TLSRoute/default/my-rtmp-route\n") {
			t.Errorf("response %q", resp)
		}
	})
	t.Run("passthrough: the backend terminates TLS itself", func(t *testing.T) {
		st, resp, err := get(t, addr, "direct.example.com", &tls.Config{InsecureSkipVerify: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := st.PeerCertificates[0].Issuer.CommonName; got != "gwtls probe backend CA" {
			t.Errorf("issuer %q: passthrough must present the backend's certificate", got)
		}
		if st.PeerCertificates[0].VerifyHostname("direct.example.com") != nil {
			t.Errorf("backend certificate does not cover the route hostname: %v", st.PeerCertificates[0].DNSNames)
		}
		if !strings.Contains(resp, "gwtls-backend default/tls-backend:443 route=TLSRoute/default/my-tls-route sni=direct.example.com") {
			t.Errorf("response %q", resp)
		}
	})
	t.Run("an SNI no listener takes is refused", func(t *testing.T) {
		if _, resp, err := get(t, addr, "other.example.com", &tls.Config{InsecureSkipVerify: true}); err == nil {
			t.Errorf("handshake succeeded: %q", resp)
		}
	})
	t.Run("replay agrees with simulate, and refuses what it must", func(t *testing.T) {
		rs := p.Replay(context.Background(), probe.ReplayOptions{SNIs: []string{"other.example.com"}, Roots: nil})
		if len(rs) != 3 {
			t.Fatalf("%d replays, want 3: %+v", len(rs), rs)
		}
		for _, r := range rs {
			if r.Verdict != probe.VerdictOK {
				t.Errorf("%s: verdict %s %v", r.SNI, r.Verdict, r.Problems)
			}
			if r.SNI == "other.example.com" && !r.Refused {
				t.Errorf("other.example.com was not refused: %+v", r)
			}
			if r.SNI != "other.example.com" && (r.Reached == nil || r.TLS == nil || r.TLS.Version == "") {
				t.Errorf("%s: reached %+v tls %+v", r.SNI, r.Reached, r.TLS)
			}
		}
	})
}

func TestProxyWrongCertificateIsAFinding(t *testing.T) {
	k := newPKI()
	// The Secret covers www only; the route also serves shop.
	p := startProxy(t, analyzeYAML(t, shopGateway(k, "www.example.com")...), probe.Options{})
	rs := p.Replay(context.Background(), probe.ReplayOptions{Roots: k.pool})
	verdicts := map[string]probe.Verdict{}
	for _, r := range rs {
		verdicts[r.SNI] = r.Verdict
		if r.SNI == "shop.example.com" && (len(r.Problems) == 0 || !strings.Contains(r.Problems[0], "does not cover SNI shop.example.com")) {
			t.Errorf("shop problems: %v", r.Problems)
		}
	}
	if verdicts["www.example.com"] != probe.VerdictOK || verdicts["shop.example.com"] != probe.VerdictFinding {
		t.Errorf("verdicts %v, want www ok and shop a finding", verdicts)
	}
}

func TestProxyReencryptsWithBackendTLSPolicy(t *testing.T) {
	k := newPKI()
	ca := testcert.Must(testcert.Options{CommonName: "api backend CA", IsCA: true}, nil)
	p := startProxy(t, analyzeYAML(t, reencryptGateway(k, ca)...), probe.Options{BackendCA: backendCA(t, ca)})
	rs := p.Replay(context.Background(), probe.ReplayOptions{Roots: k.pool})
	if len(rs) != 1 {
		t.Fatalf("replays %+v", rs)
	}
	r := rs[0]
	if r.Verdict != probe.VerdictOK || r.Reached == nil || r.Reached.SNI != "api.internal" {
		t.Fatalf("verdict %s %v reached %+v proxy %+v", r.Verdict, r.Problems, r.Reached, r.Proxy)
	}
	if !strings.Contains(r.Proxy.BackendTLS, "verified against ConfigMap default/api-ca") {
		t.Errorf("backend TLS %q", r.Proxy.BackendTLS)
	}

	t.Run("a backend whose certificate the policy's CA did not sign is not reached", func(t *testing.T) {
		other := testcert.Must(testcert.Options{CommonName: "other CA", IsCA: true}, nil)
		// A real backend (mapped with --backend) with a certificate from another CA.
		srv := tlsServer(t, testcert.Must(testcert.Options{CommonName: "api.internal", DNSNames: []string{"api.internal"}}, other))
		p := startProxy(t, analyzeYAML(t, reencryptGateway(k, ca)...), probe.Options{Backends: map[string]string{"default/api:8443": srv}})
		rs := p.Replay(context.Background(), probe.ReplayOptions{Roots: k.pool})
		// Routed as predicted; the backend failed the policy's verification, so
		// a client gets 502 Bad Gateway: a finding.
		if problems := strings.Join(rs[0].Problems, " "); rs[0].Verdict != probe.VerdictFinding ||
			!strings.Contains(problems, "unknown authority") || !strings.Contains(problems, "502 Bad Gateway") {
			t.Errorf("verdict %s %v", rs[0].Verdict, rs[0].Problems)
		}
	})
}

// tlsServer is a TLS server on loopback that answers "hello".
func tlsServer(t *testing.T, c *testcert.Cert) string {
	t.Helper()
	pair, err := tls.X509KeyPair(c.CertPEM, c.KeyPEM)
	if err != nil {
		t.Fatal(err)
	}
	return tlstest.Serve(t, &tls.Config{Certificates: []tls.Certificate{pair}}, func(c *tls.Conn) { io.WriteString(c, "hello\n") })
}

func TestProxyRefusesUnnamedBackends(t *testing.T) {
	k := newPKI()
	res := analyzeYAML(t, mixedGateway(k)...)
	for _, m := range []map[string]string{
		{"default/unknown:443": "127.0.0.1:9"},
		{"default/tls-backend:444": "127.0.0.1:9"}, // a port the route does not name
		{"default/tls-backend:443": "not-an-address"},
	} {
		if _, err := probe.Start(res, probe.Options{Backends: m}); err == nil {
			t.Errorf("Start accepted --backend %v", m)
		}
	}
}

func TestProxyCutsOffSlowAndOversizedClientHellos(t *testing.T) {
	k := newPKI()
	p := startProxy(t, analyzeYAML(t, mixedGateway(k)...), probe.Options{HandshakeTimeout: 200 * time.Millisecond, MaxHello: 1024})
	addr := socket(t, p, "default/gateway-tlsroute", 443)

	closedWithin := func(t *testing.T, c net.Conn, d time.Duration) {
		t.Helper()
		c.SetReadDeadline(time.Now().Add(d))
		if _, err := c.Read(make([]byte, 1)); err == nil || isTimeout(err) {
			t.Errorf("connection not closed by the proxy within %s: %v", d, err)
		}
	}
	t.Run("slow: half a record header, then nothing", func(t *testing.T) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.Write([]byte{22, 3, 1})
		start := time.Now()
		closedWithin(t, c, 2*time.Second)
		if el := time.Since(start); el > time.Second {
			t.Errorf("cut off after %s, want about the 200ms hello timeout", el)
		}
	})
	t.Run("oversized: a record longer than the limit", func(t *testing.T) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.Write([]byte{22, 3, 1, 0x40, 0x00}) // 16 KiB record
		c.Write(make([]byte, 2048))
		closedWithin(t, c, 2*time.Second)
	})
	t.Run("not TLS at all", func(t *testing.T) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		io.WriteString(c, "GET / HTTP/1.1\r\n\r\n")
		closedWithin(t, c, 2*time.Second)
	})
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// A Gateway serves the listeners of the ListenerSets it admits, not of those it
// does not (GEP-1713): the proxy opens sockets for the former only.
func TestProxyOpensOnlyAdmittedListenerSetPorts(t *testing.T) {
	passthrough := func(name string, port int) string {
		return "{name: " + name + ", port: " + strconv.Itoa(port) + ", protocol: TLS, tls: {mode: Passthrough}}"
	}
	listenerSet := func(name, namespace, listener string) string {
		return "apiVersion: gateway.networking.k8s.io/v1\nkind: ListenerSet\nmetadata: {name: " + name + ", namespace: " + namespace +
			"}\nspec:\n  parentRef: {name: gw, namespace: default}\n  listeners: [" + listener + "]"
	}
	res := analyzeYAML(t, class,
		`apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: default}
spec:
  gatewayClassName: gc
  allowedListeners: {namespaces: {from: Same}}
  listeners: [`+passthrough("own", 8443)+`]`,
		listenerSet("admitted", "default", passthrough("set", 9443)),
		listenerSet("elsewhere", "other", passthrough("set", 10443)))
	p := startProxy(t, res, probe.Options{})
	var ports []int32
	for _, s := range p.Sockets() {
		ports = append(ports, s.Port)
	}
	if !slices.Equal(ports, []int32{8443, 9443}) {
		t.Errorf("sockets on ports %v, want [8443 9443]: ListenerSet other/elsewhere is not admitted (from: Same)", ports)
	}
}

// A built-in passthrough backend presents the probe's own certificate, issued
// for this run: the replay verifies it against the probe's CA at the current
// time. --ca-bundle and --now are about the configuration's certificates and
// leave it alone; the terminating listener's certificate is still checked
// against them.
func TestReplayVerifiesBuiltinBackendsAgainstTheProbesCA(t *testing.T) {
	k := newPKI()
	p := startProxy(t, analyzeYAML(t, mixedGateway(k)...), probe.Options{})
	in2030 := time.Date(2030, 6, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name  string
		o     probe.ReplayOptions
		rtmp  probe.Verdict
		rtmpV string
	}{
		{"--ca-bundle", probe.ReplayOptions{Roots: k.pool}, probe.VerdictOK, "yes, against --ca-bundle"},
		{"--now in 2030", probe.ReplayOptions{Now: in2030}, probe.VerdictOK, "yes, against the chain's own root"},
		{"--now after the Gateway's certificate expires", probe.ReplayOptions{Roots: k.pool, Now: time.Date(2037, 1, 1, 0, 0, 0, 0, time.UTC)}, probe.VerdictFinding, "no: x509: certificate has expired"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, r := range p.Replay(context.Background(), c.o) {
				switch r.SNI {
				case "direct.example.com":
					if r.Verdict != probe.VerdictOK || r.TLS == nil || r.TLS.Verified.String() != "yes, against the probe's CA (a built-in backend's own certificate)" {
						t.Errorf("passthrough: verdict %s %v, verified %v", r.Verdict, r.Problems, r.TLS)
					}
				case "rtmp.example.com":
					if r.Verdict != c.rtmp || r.TLS == nil || !strings.HasPrefix(r.TLS.Verified.String(), c.rtmpV) {
						t.Errorf("terminate: verdict %s %v, verified %v; want %s, %s", r.Verdict, r.Problems, r.TLS.Verified, c.rtmp, c.rtmpV)
					}
				}
			}
		})
	}
}

// Go clients refuse a certificate with an RSA key over 8192 bits before any
// verification (crypto/tls checkKeySize): analyze reports it
// (certificate/KeyTooLargeForClients, the same limit), and the replay says so
// as a finding that names the key and the limit, rather than as a failed
// connection.
func TestReplayNamesAnRSAKeyGoClientsRefuse(t *testing.T) {
	k := newPKI()
	pemKey, err := os.ReadFile("testdata/rsa-16384-key.pem")
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(pemKey)
	key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(16384), Subject: pkix.Name{CommonName: "www.example.com"}, DNSNames: []string{"www.example.com"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour), KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, k.ca.Cert, key.(*rsa.PrivateKey).Public(), k.ca.Key)
	if err != nil {
		t.Fatal(err)
	}
	oversized := &testcert.Cert{CertPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), KeyPEM: pemKey}
	docs := shopGateway(k, "www.example.com")
	docs[len(docs)-1] = testcert.SecretYAML("default", "shop-cert", []*testcert.Cert{oversized, k.ca})

	res := analyzeYAML(t, docs...)
	if !slices.ContainsFunc(res.Findings, func(f analyze.Finding) bool {
		return f.Rule == rules.CertificateKeyTooLargeForClients && strings.Contains(f.Message, "RSA key of 16384 bits")
	}) {
		t.Errorf("analyze does not report the 16384-bit key: %v", res.Findings)
	}
	p := startProxy(t, res, probe.Options{})
	for _, r := range p.Replay(context.Background(), probe.ReplayOptions{Roots: k.pool, Timeout: 30 * time.Second}) {
		if r.SNI != "www.example.com" {
			continue
		}
		problems := strings.Join(r.Problems, "\n")
		if r.Verdict != probe.VerdictFinding || !strings.Contains(problems, "the certificate from Secret default/shop-cert has a 16384-bit RSA key (CN=www.example.com): Go's crypto/tls refuses RSA keys over 8192 bits") {
			t.Errorf("verdict %s: %s", r.Verdict, problems)
		}
		return
	}
	t.Error("no replay of www.example.com")
}
