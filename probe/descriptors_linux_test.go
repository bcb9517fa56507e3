package probe_test

import (
	"crypto/tls"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testcert"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/tlstest"
	"github.com/kubectl-gwtls/kubectl-gwtls/probe"
)

const descriptorsChild = "GWTLS_PROBE_DESCRIPTORS_CHILD"

// Out of file descriptors, accept fails; the proxy and its built-in backends
// back off and accept again once descriptors free up, as net/http's
// Server.Serve does, and say so on stderr once per burst. The test runs in a
// child process of the test binary, whose RLIMIT_NOFILE it lowers.
func TestProxyKeepsAcceptingAfterRunningOutOfDescriptors(t *testing.T) {
	if os.Getenv(descriptorsChild) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestProxyKeepsAcceptingAfterRunningOutOfDescriptors$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), descriptorsChild+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS") {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return
	}

	k := newPKI()
	log := &logBuffer{}
	p := startProxy(t, analyzeYAML(t, mixedGateway(k)...), probe.Options{Log: log})
	addr := socket(t, p, "default/gateway-tlsroute", 443)
	// Start the built-in passthrough backend before descriptors run out.
	if resp, err := served(addr, "direct.example.com", 5*time.Second); err != nil {
		t.Fatalf("before: %v %q", err, resp)
	}

	fill := exhaustDescriptors(t)

	t.Run("the proxy's socket", func(t *testing.T) {
		// One descriptor free: the client's socket takes it, the proxy's
		// accept finds none.
		fill.free(1)
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		log.waitFor(t, "port 443 on "+addr+": cannot accept connections (accept tcp "+addr+": accept4: too many open files)", 5*time.Second)
		time.Sleep(100 * time.Millisecond) // a few more failed accepts, one warning
		fill.free(-1)
		handshakeThrough(t, c, "direct.example.com")
		log.waitFor(t, "port 443 on "+addr+": accepting again after ", 5*time.Second)
		if n := strings.Count(log.String(), "cannot accept connections"); n != 1 {
			t.Errorf("%d warnings, want one per burst:\n%s", n, log.String())
		}
	})

	t.Run("a built-in backend", func(t *testing.T) {
		fill = exhaustDescriptors(t)
		// Three free: the client's socket, the proxy's accept, the proxy's
		// socket to the backend; the backend's accept finds none.
		fill.free(3)
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		done := make(chan struct{})
		go func() {
			defer close(done)
			handshakeThrough(t, c, "direct.example.com")
		}()
		log.waitFor(t, "built-in backend default/tls-backend:443 route=TLSRoute/default/my-tls-route on ", 5*time.Second)
		log.waitFor(t, ": cannot accept connections (accept tcp ", 5*time.Second)
		fill.free(-1)
		<-done
	})
}

// handshakeThrough completes a passthrough handshake on c and reads the
// built-in backend's identification.
func handshakeThrough(t *testing.T, c net.Conn, sni string) {
	t.Helper()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	tc := tls.Client(c, &tls.Config{ServerName: sni, InsecureSkipVerify: true})
	if err := tc.Handshake(); err != nil {
		t.Errorf("handshake once descriptors are free: %v", err)
		return
	}
	io.WriteString(tc, probe.HTTPRequest(sni))
	if b, _ := io.ReadAll(tc); !strings.Contains(string(b), "route=TLSRoute/default/my-tls-route") {
		t.Errorf("answer %q", b)
	}
}

// filler holds the descriptors that exhaust the process's limit.
type filler []*os.File

// exhaustDescriptors lowers RLIMIT_NOFILE near what is open, then opens
// /dev/null until no descriptor is left, and stays so for a while: connections
// that ended before may still be closing.
func exhaustDescriptors(t *testing.T) *filler {
	t.Helper()
	open, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	lim := syscall.Rlimit{Cur: uint64(len(open) + 64), Max: 0}
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &old); err != nil {
		t.Fatal(err)
	}
	lim.Max = old.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	f := &filler{}
	for quiet := 0; quiet < 5; {
		nf, err := os.Open(os.DevNull)
		switch {
		case errors.Is(err, syscall.EMFILE):
			quiet++
			time.Sleep(20 * time.Millisecond)
		case err != nil:
			t.Fatal(err)
		default:
			quiet = 0
			*f = append(*f, nf)
		}
	}
	if len(*f) == 0 {
		t.Fatal("no descriptor to fill")
	}
	return f
}

// free closes n of the descriptors, all of them when n < 0.
func (f *filler) free(n int) {
	if n < 0 || n > len(*f) {
		n = len(*f)
	}
	for _, nf := range (*f)[len(*f)-n:] {
		nf.Close()
	}
	*f = (*f)[:len(*f)-n]
}

// A passthrough connection costs the proxy a descriptor per side and nothing
// more: relaying through splice(2) would hold a pipe (two descriptors) per
// direction, and under a burst run out of descriptors at a third of the
// connections.
func TestProxyRelaysWithoutPipes(t *testing.T) {
	k := newPKI()
	backend := tlsHold(t, k.leaf("direct.example.com"))
	p := startProxy(t, analyzeYAML(t, mixedGateway(k)...), probe.Options{Backends: map[string]string{"default/tls-backend:443": backend}})
	addr := socket(t, p, "default/gateway-tlsroute", 443)
	before := pipes(t)
	for range 20 {
		c, err := tls.Dial("tcp", addr, &tls.Config{ServerName: "direct.example.com", RootCAs: k.pool})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		io.WriteString(c, "ping")
	}
	time.Sleep(100 * time.Millisecond) // the bytes are relayed
	if n := pipes(t) - before; n > 0 {
		t.Errorf("%d pipe descriptors for 20 open connections, want none", n)
	}
}

// tlsHold is a TLS server that keeps each connection open until the client
// closes it.
func tlsHold(t *testing.T, c *testcert.Cert) string {
	pair, err := tls.X509KeyPair(c.CertPEM, c.KeyPEM)
	if err != nil {
		t.Fatal(err)
	}
	return tlstest.Serve(t, &tls.Config{Certificates: []tls.Certificate{pair}}, func(c *tls.Conn) { io.Copy(io.Discard, c) })
}

// pipes counts the process's pipe descriptors.
func pipes(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, fd := range fds {
		if l, _ := os.Readlink("/proc/self/fd/" + fd.Name()); strings.HasPrefix(l, "pipe:") {
			n++
		}
	}
	return n
}
