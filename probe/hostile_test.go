package probe_test

import (
	"crypto/tls"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/probe"
)

// Hostile clients: what a client that stalls, floods or splits its ClientHello
// does to the proxy, and what it must not do to the clients after it.

// stall connects to addr, sends first and then nothing.
func stall(t *testing.T, addr string, first []byte) net.Conn {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if len(first) > 0 {
		if _, err := c.Write(first); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// closedWithin asserts the proxy ends c within d: a read ends in EOF or a
// reset, not in the client's own timeout.
func closedWithin(t *testing.T, c net.Conn, d time.Duration) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	if isTimeout(err) {
		t.Errorf("the proxy held the connection past %s", d)
	}
}

// stillOpen asserts the proxy has not closed c: a short read times out.
func stillOpen(t *testing.T, c net.Conn) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if _, err := c.Read(make([]byte, 1)); !isTimeout(err) {
		t.Errorf("a staller was closed before its deadline: %v", err)
	}
}

// served makes a TLS handshake to addr for sni, then reads the backend's
// identification, within d.
func served(addr, sni string, d time.Duration) (string, error) {
	c, err := tls.DialWithDialer(&net.Dialer{Timeout: d}, "tcp", addr, &tls.Config{ServerName: sni, InsecureSkipVerify: true})
	if err != nil {
		return "", err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(d))
	io.WriteString(c, probe.HTTPRequest(sni))
	b, err := io.ReadAll(c)
	if !strings.Contains(string(b), probe.IdentPrefix) {
		return string(b), errors.Join(errors.New("no backend identification in the answer"), err)
	}
	return string(b), nil
}

// The handshake deadline (--timeout) runs from accept to the end of every
// handshake the proxy takes part in; the connection deadline (6 x --timeout)
// is for connections that got through it. A client that stalls anywhere in
// its handshake is closed by the handshake deadline.
func TestProxyClosesStalledHandshakesAtTheHandshakeDeadline(t *testing.T) {
	const deadline = 300 * time.Millisecond
	k := newPKI()
	o := probe.Options{HandshakeTimeout: deadline, ConnTimeout: time.Minute}
	mixed := socket(t, startProxy(t, analyzeYAML(t, mixedGateway(k)...), o), "default/gateway-tlsroute", 443)
	https := socket(t, startProxy(t, analyzeYAML(t, shopGateway(k, "www.example.com")...), o), "default/edge", 443)
	rtmp := clientHello(t, &tls.Config{ServerName: "rtmp.example.com"})
	direct := clientHello(t, &tls.Config{ServerName: "direct.example.com"})
	for _, c := range []struct {
		name  string
		addr  string
		first []byte
	}{
		{"nothing sent", mixed, nil},
		{"half a ClientHello", mixed, rtmp[:len(rtmp)/2]},
		{"the first of two records of a ClientHello", mixed, splitRecords(t, rtmp, 100)[:5+100]},
		{"a whole ClientHello to a terminating listener, then silence", mixed, rtmp},
		{"a whole ClientHello to a passthrough listener, then silence (the built-in backend's deadline)", mixed, direct},
	} {
		t.Run(c.name, func(t *testing.T) {
			closedWithin(t, stall(t, c.addr, c.first), deadline+2*time.Second)
		})
	}
	t.Run("an HTTPS handshake, then no request", func(t *testing.T) {
		c, err := tls.Dial("tcp", https, &tls.Config{ServerName: "www.example.com", InsecureSkipVerify: true})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		closedWithin(t, c, deadline+2*time.Second)
	})
}

// Each socket has its own connection limit: stallers that fill one Gateway
// port's do not hold up clients of another, nor does one staller there.
func TestProxyConnectionLimitIsPerSocket(t *testing.T) {
	log := &logBuffer{}
	p := startProxy(t, analyzeYAML(t, twoPortGateway()...), probe.Options{MaxConns: 4, HandshakeTimeout: time.Minute, Log: log})
	a, b := socket(t, p, "default/two", 8443), socket(t, p, "default/two", 9443)
	var stallers []net.Conn
	for range 4 {
		stallers = append(stallers, stall(t, a, []byte{22, 3, 1}))
	}
	log.waitFor(t, "port 8443 on "+a+": 4 connections open, its limit", 5*time.Second)
	stallers = append(stallers, stall(t, b, []byte{22, 3, 1}))
	if resp, err := served(b, "b.example.com", 5*time.Second); err != nil {
		t.Fatalf("a client of port 9443 was not served while port 8443 is full: %v %q", err, resp)
	}
	for _, s := range stallers {
		stillOpen(t, s)
	}
	if n := strings.Count(log.String(), "its limit"); n != 1 {
		t.Errorf("%d limit warnings, want one per burst:\n%s", n, log.String())
	}
}

// At its limit a socket serves the next client as soon as the handshake
// deadline closes a staller, not after the connection deadline.
func TestProxyAtItsLimitServesOnceStallersAreCut(t *testing.T) {
	const deadline = 500 * time.Millisecond
	k := newPKI()
	p := startProxy(t, analyzeYAML(t, mixedGateway(k)...), probe.Options{MaxConns: 4, HandshakeTimeout: deadline, ConnTimeout: time.Minute})
	addr := socket(t, p, "default/gateway-tlsroute", 443)
	rtmp := clientHello(t, &tls.Config{ServerName: "rtmp.example.com"})
	for range 4 {
		stall(t, addr, rtmp) // a whole ClientHello, then silence: the terminating handshake stalls
	}
	if resp, err := served(addr, "direct.example.com", deadline+5*time.Second); err != nil {
		t.Fatalf("not served once the stallers' handshake deadline passed: %v %q", err, resp)
	}
}

// A built-in backend listens where the proxy does, so anyone may connect to it:
// it serves at most MaxBackendConns at a time, and cuts stalled handshakes at
// the handshake deadline.
func TestBuiltinBackendConnectionLimit(t *testing.T) {
	const deadline = 3 * time.Second
	k := newPKI()
	log := &logBuffer{}
	p := startProxy(t, analyzeYAML(t, mixedGateway(k)...), probe.Options{MaxBackendConns: 2, HandshakeTimeout: deadline, Log: log})
	proxy := socket(t, p, "default/gateway-tlsroute", 443)
	c, err := tls.Dial("tcp", proxy, &tls.Config{ServerName: "direct.example.com", InsecureSkipVerify: true})
	if err != nil {
		t.Fatal(err)
	}
	local := c.LocalAddr().String()
	c.Close()
	rec := p.Record(local)
	if rec == nil || rec.Address == "" {
		t.Fatalf("no record of the built-in backend's address: %+v", rec)
	}
	backend := rec.Address
	for range 2 {
		stall(t, backend, nil)
	}
	log.waitFor(t, "built-in backend default/tls-backend:443 route=TLSRoute/default/my-tls-route on "+backend+": 2 connections open, its limit", 5*time.Second)
	if _, err := served(backend, "direct.example.com", 300*time.Millisecond); err == nil {
		t.Fatal("a third connection was served while two stallers hold the built-in backend's limit")
	}
	if resp, err := served(backend, "direct.example.com", deadline+5*time.Second); err != nil {
		t.Fatalf("not served once the stallers' handshake deadline passed: %v %q", err, resp)
	}
}

// splitFirstRecord sends the first TLS record a client writes as two records,
// cut in the middle: a real client whose ClientHello arrives fragmented, as
// RFC 8446 §5.1 allows.
type splitFirstRecord struct {
	net.Conn
	t    testing.TB
	done bool
}

func (c *splitFirstRecord) Write(b []byte) (int, error) {
	if c.done || len(b) < 5 {
		return c.Conn.Write(b)
	}
	c.done = true
	n := 5 + (int(b[3])<<8 | int(b[4]))
	if n > len(b) {
		c.t.Errorf("the client's first write holds %d bytes of a %d-byte record", len(b), n)
		return c.Conn.Write(b)
	}
	if _, err := c.Conn.Write(append(splitRecords(c.t, b[:n], (n-5)/2), b[n:]...)); err != nil {
		return 0, err
	}
	return len(b), nil
}

func TestProxyServesAClientHelloSplitAcrossRecords(t *testing.T) {
	k := newPKI()
	addr := socket(t, startProxy(t, analyzeYAML(t, mixedGateway(k)...), probe.Options{}), "default/gateway-tlsroute", 443)
	for _, c := range []struct{ name, sni, want string }{
		{"passthrough: the backend reassembles it too", "direct.example.com", "route=TLSRoute/default/my-tls-route sni=direct.example.com"},
		{"terminate", "rtmp.example.com", "route=TLSRoute/default/my-rtmp-route"},
	} {
		t.Run(c.name, func(t *testing.T) {
			raw, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer raw.Close()
			raw.SetDeadline(time.Now().Add(5 * time.Second))
			tc := tls.Client(&splitFirstRecord{Conn: raw, t: t}, &tls.Config{ServerName: c.sni, InsecureSkipVerify: true})
			if err := tc.Handshake(); err != nil {
				t.Fatalf("handshake: %v", err)
			}
			io.WriteString(tc, probe.HTTPRequest(c.sni))
			b, _ := io.ReadAll(tc)
			if !strings.Contains(string(b), c.want) {
				t.Errorf("answer %q, want %q", b, c.want)
			}
		})
	}
}
