package probe_test

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testcert"
	"github.com/kubectl-gwtls/kubectl-gwtls/probe"
)

// Independent TLS clients through the local proxy: what openssl and curl see is
// what the configuration promises (hack/test.sh installs both).

func need(t *testing.T, tool string) string {
	t.Helper()
	path, err := exec.LookPath(tool)
	if err != nil {
		t.Skipf("%s is not installed (hack/test.sh installs it: apt-get install %s)", tool, tool)
	}
	return path
}

// clientsSetup runs the GEP-2643 mixed-termination Gateway and the re-encrypting
// one, with the CA files a client trusts for each.
type clientsSetup struct {
	mixed, reencrypt   string // proxy addresses
	gatewayCA, probeCA string // PEM files
}

func setupClients(t *testing.T) clientsSetup {
	k := newPKI()
	bca := testcert.Must(testcert.Options{CommonName: "probe backend CA", IsCA: true}, nil)
	dir := t.TempDir()
	s := clientsSetup{gatewayCA: filepath.Join(dir, "gateway-ca.pem"), probeCA: filepath.Join(dir, "backend-ca.pem")}
	os.WriteFile(s.gatewayCA, k.ca.CertPEM, 0o600)
	os.WriteFile(s.probeCA, bca.CertPEM, 0o600)
	p := startProxy(t, analyzeYAML(t, mixedGateway(k)...), probe.Options{BackendCA: backendCA(t, bca)})
	s.mixed = socket(t, p, "default/gateway-tlsroute", 443)
	p2 := startProxy(t, analyzeYAML(t, reencryptGateway(k, bca)...), probe.Options{BackendCA: backendCA(t, bca)})
	s.reencrypt = socket(t, p2, "default/edge", 443)
	return s
}

func TestOpenSSLClientThroughProxy(t *testing.T) {
	openssl := need(t, "openssl")
	s := setupClients(t)
	sClient := func(addr, sni, caFile string) (string, error) {
		cmd := exec.Command(openssl, "s_client", "-connect", addr, "-servername", sni, "-CAfile", caFile, "-verify_return_error", "-ign_eof")
		cmd.Stdin = strings.NewReader(probe.HTTPRequest(sni))
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	cases := []struct {
		name, addr, sni, ca, want string
	}{
		{"terminate (GEP-2643 rtmp.example.com)", s.mixed, "rtmp.example.com", s.gatewayCA, "gwtls-backend default/rtmp-backend:12345 route=TLSRoute/default/my-rtmp-route"},
		{"passthrough on the same port (direct.example.com)", s.mixed, "direct.example.com", s.probeCA, "gwtls-backend default/tls-backend:443 route=TLSRoute/default/my-tls-route sni=direct.example.com"},
		{"terminate and re-encrypt under a BackendTLSPolicy", s.reencrypt, "api.example.com", s.gatewayCA, "gwtls-backend default/api:8443 route=HTTPRoute/default/api sni=api.internal"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := sClient(c.addr, c.sni, c.ca)
			if err != nil || !strings.Contains(out, "Verify return code: 0 (ok)") || !strings.Contains(out, c.want) {
				t.Errorf("openssl s_client -servername %s: %v\n%s", c.sni, err, out)
			}
		})
	}
	t.Run("a non-matching SNI is refused", func(t *testing.T) {
		out, err := sClient(s.mixed, "other.example.com", s.gatewayCA)
		if err == nil && strings.Contains(out, "gwtls-backend") {
			t.Errorf("reached a backend:\n%s", out)
		}
		if err == nil || !strings.Contains(out, "no peer certificate available") {
			t.Errorf("handshake completed (%v):\n%s", err, out)
		}
	})
}

func TestCurlThroughProxy(t *testing.T) {
	curl := need(t, "curl")
	s := setupClients(t)
	get := func(addr, host, ca string) (string, error) {
		_, port, _ := net.SplitHostPort(addr)
		out, err := exec.Command(curl, "-sS", "--max-time", "10", "--resolve", host+":"+port+":127.0.0.1", "--cacert", ca, "https://"+host+":"+port+"/").CombinedOutput()
		return string(out), err
	}
	cases := []struct {
		name, addr, host, ca, want string
	}{
		{"terminate", s.mixed, "rtmp.example.com", s.gatewayCA, "route=TLSRoute/default/my-rtmp-route"},
		{"passthrough", s.mixed, "direct.example.com", s.probeCA, "route=TLSRoute/default/my-tls-route sni=direct.example.com"},
		{"re-encrypt", s.reencrypt, "api.example.com", s.gatewayCA, "route=HTTPRoute/default/api sni=api.internal"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := get(c.addr, c.host, c.ca)
			if err != nil || !strings.Contains(out, c.want) {
				t.Errorf("curl https://%s: %v\n%s", c.host, err, out)
			}
		})
	}
	t.Run("a non-matching SNI is refused", func(t *testing.T) {
		if out, err := get(s.mixed, "other.example.com", s.gatewayCA); err == nil {
			t.Errorf("curl succeeded: %s", out)
		}
	})
	t.Run("curl rejects a certificate that does not cover the host", func(t *testing.T) {
		k := newPKI()
		p := startProxy(t, analyzeYAML(t, shopGateway(k, "www.example.com")...), probe.Options{})
		ca := filepath.Join(t.TempDir(), "ca.pem")
		os.WriteFile(ca, k.ca.CertPEM, 0o600)
		out, err := get(socket(t, p, "default/edge", 443), "shop.example.com", ca)
		if err == nil || !strings.Contains(out, "shop.example.com") {
			t.Errorf("curl: %v %s", err, out)
		}
	})
}

// OpenSSL splits its ClientHello over two records when it is longer than
// -max_send_frag (512 bytes at least): a long ALPN list makes it so. The proxy
// reassembles it and routes on its SNI (RFC 8446 §5.1).
func TestOpenSSLSplitClientHelloThroughProxy(t *testing.T) {
	openssl := need(t, "openssl")
	s := setupClients(t)
	alpn := strings.Repeat("x", 200) + "," + strings.Repeat("y", 200) + ",http/1.1"
	for _, c := range []struct{ sni, ca, want string }{
		{"direct.example.com", s.probeCA, "gwtls-backend default/tls-backend:443 route=TLSRoute/default/my-tls-route sni=direct.example.com"},
		{"rtmp.example.com", s.gatewayCA, "gwtls-backend default/rtmp-backend:12345 route=TLSRoute/default/my-rtmp-route"},
	} {
		t.Run(c.sni, func(t *testing.T) {
			cmd := exec.Command(openssl, "s_client", "-connect", s.mixed, "-servername", c.sni, "-CAfile", c.ca, "-verify_return_error", "-ign_eof",
				"-max_send_frag", "512", "-alpn", alpn)
			cmd.Stdin = strings.NewReader(probe.HTTPRequest(c.sni))
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), c.want) {
				t.Errorf("openssl s_client -max_send_frag 512 -servername %s: %v\n%s", c.sni, err, out)
			}
		})
	}
}
