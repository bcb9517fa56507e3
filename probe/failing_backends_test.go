package probe_test

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/probe"
)

// Hostile servers: a backend that is down, or that resets every connection.
// A terminating HTTPS listener answers 502 Bad Gateway; other listeners close
// the client's connection cleanly (a FIN, not a reset); the replay reports a
// finding that names the backend and what failed.

// downBackend is an address where nothing listens.
func downBackend(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// resettingBackend accepts every connection and resets it at once.
func resettingBackend(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.(*net.TCPConn).SetLinger(0)
			c.Close()
		}
	}()
	return ln.Addr().String()
}

func TestFailingBackends(t *testing.T) {
	k := newPKI()
	backends := map[string]func(*testing.T) string{"down": downBackend, "resetting": resettingBackend}
	for _, name := range []string{"down", "resetting"} {
		t.Run("HTTPS terminate, "+name+": 502 Bad Gateway", func(t *testing.T) {
			p := startProxy(t, analyzeYAML(t, shopGateway(k, "www.example.com")...),
				probe.Options{Backends: map[string]string{"default/shop:8080": backends[name](t)}})
			st, resp, err := get(t, socket(t, p, "default/edge", 443), "www.example.com", &tls.Config{RootCAs: k.pool})
			if err != nil || st.PeerCertificates == nil {
				t.Fatalf("%v", err)
			}
			if !strings.HasPrefix(resp, "HTTP/1.1 502 Bad Gateway\r\n") || !strings.Contains(resp, "gwtls-proxy 502 Bad Gateway: backend default/shop:8080 failed: ") {
				t.Errorf("answer %q", resp)
			}
			assertBackendFinding(t, p, "www.example.com", "backend default/shop:8080 failed", "clients get 502 Bad Gateway")
		})
		t.Run("passthrough, "+name+": a clean close", func(t *testing.T) {
			p := startProxy(t, analyzeYAML(t, mixedGateway(k)...), probe.Options{Backends: map[string]string{"default/tls-backend:443": backends[name](t)}})
			_, _, err := get(t, socket(t, p, "default/gateway-tlsroute", 443), "direct.example.com", &tls.Config{InsecureSkipVerify: true})
			if err == nil || errors.Is(err, syscall.ECONNRESET) || !errors.Is(err, io.EOF) {
				t.Errorf("handshake error %v, want the end of the connection (EOF), not a reset", err)
			}
			assertBackendFinding(t, p, "direct.example.com", "backend default/tls-backend:443 failed", "clients get a closed connection")
		})
		t.Run("TLS terminate, "+name+": a clean close", func(t *testing.T) {
			p := startProxy(t, analyzeYAML(t, mixedGateway(k)...), probe.Options{Backends: map[string]string{"default/rtmp-backend:12345": backends[name](t)}})
			_, resp, err := get(t, socket(t, p, "default/gateway-tlsroute", 443), "rtmp.example.com", &tls.Config{RootCAs: k.pool})
			if err != nil || resp != "" {
				t.Errorf("got %q, %v; want a handshake, then close_notify", resp, err)
			}
			assertBackendFinding(t, p, "rtmp.example.com", "backend default/rtmp-backend:12345 failed", "clients get a closed connection")
		})
	}
}

func assertBackendFinding(t *testing.T, p *probe.Proxy, sni string, want ...string) {
	t.Helper()
	for _, r := range p.Replay(context.Background(), probe.ReplayOptions{}) {
		if r.SNI != sni {
			continue
		}
		problems := strings.Join(r.Problems, "\n")
		if r.Verdict != probe.VerdictFinding {
			t.Errorf("%s: verdict %s, want finding: %s", sni, r.Verdict, problems)
		}
		for _, w := range want {
			if !strings.Contains(problems, w) {
				t.Errorf("%s: problems lack %q:\n%s", sni, w, problems)
			}
		}
		return
	}
	t.Errorf("no replay of %s", sni)
}

// A backend that answers slowly is not a failure: the proxy waits for it
// within the connection deadline.
func TestBackendSlowToAnswerIsNotAFailure(t *testing.T) {
	k := newPKI()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(200 * time.Millisecond)
		io.WriteString(w, "slow but here\n")
	}))
	p := startProxy(t, analyzeYAML(t, shopGateway(k, "www.example.com")...), probe.Options{Backends: map[string]string{"default/shop:8080": ln.Addr().String()}})
	_, resp, err := get(t, socket(t, p, "default/edge", 443), "www.example.com", &tls.Config{RootCAs: k.pool})
	if err != nil || !strings.HasPrefix(resp, "HTTP/1.1 200 OK") || !strings.Contains(resp, "slow but here") {
		t.Errorf("%q, %v", resp, err)
	}
}
