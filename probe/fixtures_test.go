package probe_test

import (
	"crypto/tls"
	"crypto/x509"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testcert"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/probe"
)

var now = time.Now()

func analyzeYAML(t testing.TB, docs ...string) *analyze.Result {
	t.Helper()
	m, err := load.Files(load.FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(strings.Join(docs, "\n---\n"))})
	if err != nil {
		t.Fatal(err)
	}
	return analyze.Analyze(m, analyze.Options{Now: now})
}

func startProxy(t testing.TB, res *analyze.Result, o probe.Options) *probe.Proxy {
	t.Helper()
	p, err := probe.Start(res, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// socket is the proxy address of a Gateway port.
func socket(t testing.TB, p *probe.Proxy, gateway string, port int32) string {
	t.Helper()
	for _, s := range p.Sockets() {
		if s.Gateway == gateway && s.Port == port {
			return s.Address
		}
	}
	t.Fatalf("no socket for %s:%d in %+v", gateway, port, p.Sockets())
	return ""
}

const class = `apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gc}
spec: {controllerName: example.com/gc}`

func service(name string, port int) string {
	return "apiVersion: v1\nkind: Service\nmetadata: {name: " + name + ", namespace: default}\nspec: {ports: [{port: " + strconv.Itoa(port) + "}]}"
}

// pki is a CA and the Gateway's leaf certificates signed by it.
type pki struct {
	ca   *testcert.Cert
	pool *x509.CertPool
}

func newPKI() *pki {
	ca := testcert.Must(testcert.Options{CommonName: "gateway test CA", IsCA: true}, nil)
	pool := x509.NewCertPool()
	pool.AddCert(ca.Cert)
	return &pki{ca: ca, pool: pool}
}

func (k *pki) leaf(names ...string) *testcert.Cert {
	return testcert.Must(testcert.Options{CommonName: names[0], DNSNames: names}, k.ca)
}

// mixedGateway is GEP-2643's "TLSRoute + Mixed Termination" example
// (testdata/gep2643/mixed-termination.yaml): on port 443 a terminating listener for
// rtmp.example.com and a passthrough listener for direct.example.com, with the
// terminating listener's certificate signed by the test CA.
func mixedGateway(k *pki) []string {
	data, err := os.ReadFile("../testdata/gep2643/mixed-termination.yaml")
	if err != nil {
		panic(err)
	}
	return []string{string(data), testcert.SecretYAML("default", "listener", []*testcert.Cert{k.leaf("rtmp.example.com"), k.ca})}
}

// shopGateway is an HTTPS listener for *.example.com with one HTTPRoute for
// www.example.com and shop.example.com; the Secret covers the names given.
func shopGateway(k *pki, certNames ...string) []string {
	return []string{class, `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: default}
spec:
  gatewayClassName: gc
  listeners:
  - name: https
    port: 443
    protocol: HTTPS
    hostname: "*.example.com"
    tls: {certificateRefs: [{name: shop-cert}]}`, `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: default}
spec:
  parentRefs: [{name: edge}]
  hostnames: [www.example.com, shop.example.com]
  rules: [{backendRefs: [{name: shop, port: 8080}]}]`,
		service("shop", 8080),
		testcert.SecretYAML("default", "shop-cert", []*testcert.Cert{k.leaf(certNames...), k.ca}),
	}
}

// reencryptGateway terminates api.example.com and re-encrypts to Service api under a
// BackendTLSPolicy (hostname api.internal) whose CA ConfigMap holds backendCA.
func reencryptGateway(k *pki, backendCA *testcert.Cert) []string {
	return []string{class, `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: default}
spec:
  gatewayClassName: gc
  listeners:
  - name: https
    port: 443
    protocol: HTTPS
    hostname: api.example.com
    tls: {certificateRefs: [{name: api-cert}]}`, `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: api, namespace: default}
spec:
  parentRefs: [{name: edge}]
  rules: [{backendRefs: [{name: api, port: 8443}]}]`, `apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: api-tls, namespace: default}
spec:
  targetRefs: [{group: "", kind: Service, name: api}]
  validation:
    caCertificateRefs: [{group: "", kind: ConfigMap, name: api-ca}]
    hostname: api.internal`,
		service("api", 8443),
		testcert.ConfigMapYAML("default", "api-ca", backendCA),
		testcert.SecretYAML("default", "api-cert", []*testcert.Cert{k.leaf("api.example.com"), k.ca}),
	}
}

// backendCA converts a test CA for probe.Options.BackendCA.
func backendCA(t testing.TB, c *testcert.Cert) *probe.BackendCA {
	t.Helper()
	pair, err := tls.X509KeyPair(c.CertPEM, c.KeyPEM)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := probe.BackendCAFromKeyPair(pair)
	if err != nil {
		t.Fatal(err)
	}
	return ca
}

// twoPortGateway has a passthrough listener on ports 8443 and 9443, each with
// a TLSRoute for its own hostname: two sockets, two connection limits.
func twoPortGateway() []string {
	route := func(name, host string) string {
		return `apiVersion: gateway.networking.k8s.io/v1alpha3
kind: TLSRoute
metadata: {name: ` + name + `, namespace: default}
spec:
  parentRefs: [{name: two, sectionName: ` + name + `}]
  hostnames: [` + host + `]
  rules: [{backendRefs: [{name: ` + name + `, port: 443}]}]`
	}
	return []string{class, `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: two, namespace: default}
spec:
  gatewayClassName: gc
  listeners:
  - {name: a, port: 8443, protocol: TLS, hostname: a.example.com, tls: {mode: Passthrough}}
  - {name: b, port: 9443, protocol: TLS, hostname: b.example.com, tls: {mode: Passthrough}}`,
		route("a", "a.example.com"), route("b", "b.example.com"), service("a", 443), service("b", 443)}
}

// hostGateway is an HTTPS listener for *.example.com whose certificate covers
// it, with HTTPRoute www for www.example.com and HTTPRoute api for
// api.example.com and *.api.example.com: a client may send one name as SNI and
// another as Host.
func hostGateway(k *pki) []string {
	route := func(name, hosts string) string {
		return `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: ` + name + `, namespace: default}
spec:
  parentRefs: [{name: edge}]
  hostnames: [` + hosts + `]
  rules: [{backendRefs: [{name: ` + name + `, port: 8080}]}]`
	}
	return []string{class, `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: default}
spec:
  gatewayClassName: gc
  listeners:
  - name: https
    port: 443
    protocol: HTTPS
    hostname: "*.example.com"
    tls: {certificateRefs: [{name: wildcard}]}`,
		route("www", "www.example.com"), route("api", `api.example.com, "*.api.example.com"`),
		service("www", 8080), service("api", 8080),
		testcert.SecretYAML("default", "wildcard", []*testcert.Cert{k.leaf("*.example.com"), k.ca}),
	}
}

// logBuffer collects the proxy's warnings from its goroutines.
type logBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// waitFor waits until the log holds s, for at most d.
func (l *logBuffer) waitFor(t testing.TB, s string, d time.Duration) {
	t.Helper()
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if strings.Contains(l.String(), s) {
			return
		}
	}
	t.Fatalf("no %q in the proxy's warnings within %s:\n%s", s, d, l.String())
}
