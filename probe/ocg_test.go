package probe_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testcert"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/tlstest"
	"github.com/kubectl-gwtls/kubectl-gwtls/probe"
)

// meshedBackend is a Go TLS server that, like a meshed workload, requires a client
// certificate from the mesh CA and selects ALPNs it knows.
func meshedBackend(t *testing.T, serverCert, clientCA *testcert.Cert, alpn []string) string {
	t.Helper()
	pair, _ := tls.X509KeyPair(serverCert.CertPEM, serverCert.KeyPEM)
	pool := x509.NewCertPool()
	pool.AddCert(clientCA.Cert)
	return tlstest.Serve(t, &tls.Config{Certificates: []tls.Certificate{pair}, ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool, NextProtos: alpn}, tlstest.HandshakeAndWait)
}

func TestOCGHandshake(t *testing.T) {
	meshCA := testcert.Must(testcert.Options{CommonName: "mesh CA", IsCA: true}, nil)
	gatewayCA := testcert.Must(testcert.Options{CommonName: "gateway CA", IsCA: true}, nil)
	otherCA := testcert.Must(testcert.Options{CommonName: "other CA", IsCA: true}, nil)
	server := testcert.Must(testcert.Options{CommonName: "svc.mesh", DNSNames: []string{"svc.mesh"}}, meshCA)
	client := testcert.Must(testcert.Options{CommonName: "gateway", DNSNames: []string{"gateway.infra"}}, gatewayCA)
	stranger := testcert.Must(testcert.Options{CommonName: "stranger", DNSNames: []string{"x"}}, otherCA)
	pair := func(c *testcert.Cert) tls.Certificate { p, _ := tls.X509KeyPair(c.CertPEM, c.KeyPEM); return p }

	good := meshedBackend(t, server, gatewayCA, []string{analyze.OCGALPN})
	cases := []struct {
		name     string
		target   string
		client   *testcert.Cert
		trust    *testcert.Cert
		verdict  probe.Verdict
		alpn     bool
		problems string
	}{
		{"mTLS with the OCG ALPN, both chains verify", good, client, meshCA, probe.VerdictOK, true, ""},
		{"a backend that does not know the OCG ALPN", meshedBackend(t, server, gatewayCA, []string{"h2"}), client, meshCA, probe.VerdictFinding, false, "did not select ALPN"},
		{"the backend rejects a client certificate from another CA", good, stranger, meshCA, probe.VerdictFinding, true, "rejected the client certificate"},
		{"the backend's chain is not in the Gateway's trust bundle", good, client, otherCA, probe.VerdictFinding, true, "does not verify against the Gateway's trust bundle"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := probe.OCGHandshake(context.Background(), probe.OCGOptions{Target: c.target, ServerName: "svc.mesh", ClientCertificate: pair(c.client),
				TrustBundle: []*x509.Certificate{c.trust.Cert}, MeshTrust: []*x509.Certificate{gatewayCA.Cert}, Timeout: 3 * time.Second})
			if r.Verdict != c.verdict || (r.ALPNSelected == analyze.OCGALPN) != c.alpn || !strings.Contains(strings.Join(r.Problems, " "), c.problems) {
				t.Errorf("got %+v", r)
			}
		})
	}
}
