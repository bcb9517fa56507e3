package probe_test

import (
	"crypto/tls"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/probe"
	"github.com/kubectl-gwtls/kubectl-gwtls/simulate"
)

// An HTTPS listener routes each request by its Host header once TLS is
// terminated, exactly as `simulate --sni SNI --host HOST` says (spec 003 "Host
// header matching": a wildcard matches one or more labels), and answers 404
// where simulate refuses. simulate is the oracle of every row.
func TestHTTPSListenerRoutesOnTheHostHeader(t *testing.T) {
	k := newPKI()
	res := analyzeYAML(t, hostGateway(k)...)
	p := startProxy(t, res, probe.Options{})
	addr := socket(t, p, "default/edge", 443)
	sim := simulate.New(res)
	curl, curlErr := exec.LookPath("curl")
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	os.WriteFile(caFile, k.ca.CertPEM, 0o600)

	for _, c := range []struct {
		name, sni, host string
		want            string // the route reached, or the status
	}{
		{"Host is the SNI", "www.example.com", "www.example.com", "route=HTTPRoute/default/www"},
		{"another route's Host on the same connection name", "www.example.com", "api.example.com", "route=HTTPRoute/default/api"},
		{"a Host with a port", "www.example.com", "api.example.com:443", "route=HTTPRoute/default/api"},
		{"a Host wildcard matches one label", "www.example.com", "v1.api.example.com", "route=HTTPRoute/default/api"},
		{"a Host wildcard matches several labels", "www.example.com", "a.b.api.example.com", "route=HTTPRoute/default/api"},
		{"a Host no route serves: 404", "www.example.com", "nope.example.com", "404 Not Found"},
		{"a Host outside the listener's hostname: 404", "www.example.com", "www.other.org", "404 Not Found"},
	} {
		t.Run(c.name, func(t *testing.T) {
			host, _, err := net.SplitHostPort(c.host)
			if err != nil {
				host = c.host
			}
			out := sim.Simulate(simulate.Request{SNI: c.sni, Host: host, Port: 443})
			if routed := strings.HasPrefix(c.want, "route="); routed != (out.Outcome == simulate.Routed) {
				t.Fatalf("simulate says %s (%s); the row expects %s", out.Outcome, out.Reason, c.want)
			}
			if out.Outcome == simulate.Routed && "route="+routeName(out) != c.want {
				t.Fatalf("simulate routes to %s; the row expects %s", routeName(out), c.want)
			}

			got := hostRequest(t, addr, c.sni, c.host, k)
			if !strings.Contains(got, c.want) {
				t.Errorf("Go client: %q, want %q", got, c.want)
			}
			if out.Outcome != simulate.Routed && !strings.Contains(got, out.Reason) {
				t.Errorf("Go client: %q does not say simulate's reason %q", got, out.Reason)
			}

			if curlErr != nil {
				return
			}
			_, port, _ := net.SplitHostPort(addr)
			b, err := exec.Command(curl, "-sS", "-i", "--max-time", "10", "--cacert", caFile, "--resolve", c.sni+":"+port+":127.0.0.1",
				"-H", "Host: "+c.host, "https://"+c.sni+":"+port+"/").CombinedOutput()
			if err != nil || !strings.Contains(string(b), c.want) {
				t.Errorf("curl -H 'Host: %s' https://%s: %v\n%s", c.host, c.sni, err, b)
			}
		})
	}
}

// hostRequest sends one request with a Host header through a handshake for sni.
func hostRequest(t *testing.T, addr, sni, host string, k *pki) string {
	t.Helper()
	c, err := tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", addr, &tls.Config{ServerName: sni, RootCAs: k.pool})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(c, probe.HTTPRequest(host))
	b, _ := io.ReadAll(c)
	return string(b)
}

func routeName(out simulate.Outcome) string {
	return out.Route.Kind + "/" + out.Route.Namespace + "/" + out.Route.Name
}
