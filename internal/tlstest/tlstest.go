// Package tlstest runs TLS servers for tests: stand-ins for data planes,
// meshed workloads and backends.
package tlstest

import (
	"crypto/tls"
	"net"
	"testing"
	"time"
)

// Serve runs a TLS server on 127.0.0.1 with cfg until the test ends and returns
// its address. Each connection is handed to handle, with a 5 s deadline, and
// closed after it.
func Serve(tb testing.TB, cfg *tls.Config, handle func(c *tls.Conn)) string {
	tb.Helper()
	ln, err := tls.Listen("tcp", "127.0.0.1:0", cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ln.Close() })
	go accept(ln, handle)
	return ln.Addr().String()
}

func accept(ln net.Listener, handle func(c *tls.Conn)) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return // closed at the end of the test
		}
		go func() {
			defer c.Close()
			c.SetDeadline(time.Now().Add(5 * time.Second))
			handle(c.(*tls.Conn))
		}()
	}
}

// Handshake completes the handshake and closes.
func Handshake(c *tls.Conn) { c.Handshake() }

// HandshakeAndWait completes the handshake, then waits for the client to send or
// close, so that a client whose certificate the server rejected reads the alert.
func HandshakeAndWait(c *tls.Conn) {
	if c.Handshake() == nil {
		c.Read(make([]byte, 1))
	}
}
