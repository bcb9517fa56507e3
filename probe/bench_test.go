package probe_test

import (
	"crypto/tls"
	"net"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testcert"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/tlstest"
	"github.com/kubectl-gwtls/kubectl-gwtls/probe"
)

// handshakeServer completes a TLS handshake on every connection and closes it.
func handshakeServer(b *testing.B, c *testcert.Cert) string {
	pair, err := tls.X509KeyPair(c.CertPEM, c.KeyPEM)
	if err != nil {
		b.Fatal(err)
	}
	return tlstest.Serve(b, &tls.Config{Certificates: []tls.Certificate{pair}, SessionTicketsDisabled: true}, tlstest.Handshake)
}

func handshakes(b *testing.B, addr string, pool *tls.Config) {
	d := &net.Dialer{Timeout: 5 * time.Second}
	for b.Loop() {
		c, err := tls.DialWithDialer(d, "tcp", addr, pool)
		if err != nil {
			b.Fatal(err)
		}
		c.Close()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "handshakes/s")
}

// BenchmarkPassthroughHandshakes: full TLS handshakes per second directly to a
// backend and through the probe's passthrough proxy to the same backend, in one
// run; "ratio" reports proxy time per handshake over direct time (DESIGN:
// "probe's proxy adds little to a direct handshake").
//
//	go test ./probe -run '^$' -bench PassthroughHandshakes
func BenchmarkPassthroughHandshakes(b *testing.B) {
	k := newPKI()
	backend := handshakeServer(b, k.leaf("direct.example.com"))
	p := startProxy(b, analyzeYAML(b, mixedGateway(k)...), probe.Options{Backends: map[string]string{"default/tls-backend:443": backend}})
	proxy := socket(b, p, "default/gateway-tlsroute", 443)
	cfg := &tls.Config{ServerName: "direct.example.com", RootCAs: k.pool}

	for _, c := range []struct{ name, addr string }{{"direct", backend}, {"proxy", proxy}} {
		b.Run(c.name, func(b *testing.B) { handshakes(b, c.addr, cfg) })
	}
	// Interleaved, so that load from elsewhere on the machine hits both sides alike.
	b.Run("ratio", func(b *testing.B) {
		d := &net.Dialer{Timeout: 5 * time.Second}
		var direct, proxied time.Duration
		for b.Loop() {
			for _, side := range []struct {
				addr string
				sum  *time.Duration
			}{{backend, &direct}, {proxy, &proxied}} {
				start := time.Now()
				c, err := tls.DialWithDialer(d, "tcp", side.addr, cfg)
				if err != nil {
					b.Fatal(err)
				}
				*side.sum += time.Since(start)
				c.Close()
			}
		}
		b.ReportMetric(float64(proxied)/float64(direct), "proxy/direct")
	})
}
