package probe_test

import (
	"crypto/tls"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/probe"
)

// clientHello captures the first record a crypto/tls client sends.
func clientHello(t testing.TB, cfg *tls.Config) []byte {
	t.Helper()
	client, server := net.Pipe()
	defer server.Close()
	go func() {
		tls.Client(client, cfg).Handshake()
		client.Close()
	}()
	server.SetDeadline(time.Now().Add(5 * time.Second))
	_, raw, err := probe.PeekClientHello(server, 0, time.Now().Add(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestPeekClientHello(t *testing.T) {
	cases := []struct {
		name string
		cfg  *tls.Config
		want probe.ClientHello
	}{
		{"SNI and ALPN", &tls.Config{ServerName: "shop.example.com", NextProtos: []string{"h2", "http/1.1"}}, probe.ClientHello{ServerName: "shop.example.com", ALPN: []string{"h2", "http/1.1"}}},
		{"the OCG ALPN", &tls.Config{ServerName: "svc.mesh", NextProtos: []string{"ocg.gateway.networking.k8s.io/v1"}}, probe.ClientHello{ServerName: "svc.mesh", ALPN: []string{"ocg.gateway.networking.k8s.io/v1"}}},
		{"no SNI (an IP address is never sent as SNI, RFC 6066 §3)", &tls.Config{ServerName: "127.0.0.1", InsecureSkipVerify: true}, probe.ClientHello{}},
		{"TLS 1.2 only", &tls.Config{ServerName: "old.example.com", MaxVersion: tls.VersionTLS12}, probe.ClientHello{ServerName: "old.example.com"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw := clientHello(t, c.cfg)
			h, err := probe.ParseClientHello(raw)
			if err != nil {
				t.Fatal(err)
			}
			if h.ServerName != c.want.ServerName || !slices.Equal(h.ALPN, c.want.ALPN) {
				t.Errorf("got %+v, want %+v", h, c.want)
			}
		})
	}
}

func TestParseClientHelloRejects(t *testing.T) {
	good := clientHello(t, &tls.Config{ServerName: "a.example.com"})
	cases := map[string][]byte{
		"empty":                 nil,
		"not a handshake":       []byte("GET / HTTP/1.1\r\n"),
		"truncated record":      good[:len(good)-1],
		"record length too big": append(append([]byte{}, good[:3]...), 0xff, 0xff),
		"a ServerHello type":    append(append([]byte{}, good[:5]...), append([]byte{2}, good[6:]...)...),
	}
	for name, b := range cases {
		if _, err := probe.ParseClientHello(b); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

// FuzzParseClientHello: no input makes the parser panic, and whatever it accepts
// it accepts consistently.
func FuzzParseClientHello(f *testing.F) {
	f.Add(clientHello(f, &tls.Config{ServerName: "shop.example.com", NextProtos: []string{"h2"}}))
	f.Add(clientHello(f, &tls.Config{ServerName: "old.example.com", MaxVersion: tls.VersionTLS12}))
	f.Add([]byte{22, 3, 1, 0, 4, 1, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := probe.ParseClientHello(b)
		if err == nil && h == nil {
			t.Fatal("nil ClientHello without an error")
		}
	})
}
