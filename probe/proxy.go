package probe

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
)

// Options configure the local proxy.
type Options struct {
	// ListenAddress is where sockets and built-in backends listen; default 127.0.0.1.
	ListenAddress string
	// Backends maps a backendRef (BackendKey: NAMESPACE/NAME:PORT) to a real address.
	// Only backends the configuration names may be mapped.
	Backends map[string]string
	// BackendCA signs the certificates of built-in TLS backends (default: generated).
	BackendCA *BackendCA
	// PassthroughCertificate, when set, is what built-in passthrough backends serve
	// instead of a generated certificate for the route's hostnames.
	PassthroughCertificate *tls.Certificate
	// MaxConns bounds the connections each socket serves at once (default 256);
	// more wait in the listen queue until one ends.
	MaxConns int
	// MaxBackendConns bounds the connections to each backend at once (default
	// 256): a built-in backend serves at most this many, and the proxy opens at
	// most this many to each address it forwards to.
	MaxBackendConns int
	// HandshakeTimeout is the handshake deadline (default 5s): from accept, a
	// client has this long to send its ClientHello, and on a terminating
	// listener to finish the TLS handshake (and on an HTTPS listener to send a
	// request's header). Connecting to a backend and a built-in backend's own
	// TLS handshake get as long. MaxHello bounds the ClientHello's size (default
	// and at most MaxClientHello).
	HandshakeTimeout time.Duration
	MaxHello         int
	// ConnTimeout bounds a whole proxied connection (default 30s).
	ConnTimeout time.Duration
	// Log receives the proxy's warnings, once per burst: accepts failing and
	// resuming, a socket at its connection limit. nil discards them.
	Log io.Writer
}

// Defaults of Options.
const (
	DefaultMaxConns         = 256
	DefaultMaxBackendConns  = 256
	DefaultHandshakeTimeout = 5 * time.Second
	DefaultConnTimeout      = 30 * time.Second
)

// Socket is one listening socket: a Gateway's port, served on a local address.
type Socket struct {
	Gateway string `json:"gateway"`
	Port    int32  `json:"port"`
	Address string `json:"address"`
}

// Proxy is a local stand-in for the Gateways of a configuration: one socket per
// Gateway port with TLS listeners. It is a few small parts, as inetaf/tcpproxy
// is: this listener loop peeks at each connection's ClientHello, the router
// (routeFor) asks the configuration's serving table where the SNI goes, the
// targets terminate or pass the connection through, and the registry holds the
// backends it may reach.
type Proxy struct {
	table *serving.Table
	opts  Options
	reg   *registry
	log   *warnings

	sockets []*socket

	records  sync.Map // client address -> *ConnRecord
	nrecords atomic.Int64
}

type socket struct {
	Socket
	port *serving.Port
	acc  *acceptor
}

// ConnRecord is the proxy's account of one client connection.
type ConnRecord struct {
	Backend    string `json:"backend,omitempty"`
	Address    string `json:"address,omitempty"`
	BackendTLS string `json:"backendTLS,omitempty"`
	// Status is the HTTP status an HTTPS listener answered with itself: 404
	// when no route matches the Host header, 500 when none of the route's
	// backends resolves, 502 when the backend did not answer.
	Status int `json:"status,omitempty"`
	// BackendError is why the backend did not answer: it is down, reset the
	// connection, or closed it before sending anything.
	BackendError string `json:"backendError,omitempty"`
	Error        string `json:"error,omitempty"`
	// listener is the listener that took the connection, if one did.
	listener string
	// refused: the proxy refused the connection or request, as simulate does.
	refused bool
	// builtin: the backend is a built-in one, whose certificate is the probe's.
	builtin bool
}

const maxRecords = 4096

// Start builds the configuration's serving table, opens the sockets and serves
// until Close.
func Start(res *analyze.Result, o Options) (*Proxy, error) {
	if o.ListenAddress == "" {
		o.ListenAddress = "127.0.0.1"
	}
	if o.MaxConns <= 0 {
		o.MaxConns = DefaultMaxConns
	}
	if o.MaxBackendConns <= 0 {
		o.MaxBackendConns = DefaultMaxBackendConns
	}
	if o.HandshakeTimeout <= 0 {
		o.HandshakeTimeout = DefaultHandshakeTimeout
	}
	if o.ConnTimeout <= 0 {
		o.ConnTimeout = DefaultConnTimeout
	}
	log := &warnings{w: o.Log}
	reg, err := newRegistry(res, o, log)
	if err != nil {
		return nil, err
	}
	p := &Proxy{table: serving.Build(res), opts: o, reg: reg, log: log}
	for _, g := range p.table.Gateways {
		for _, port := range g.Ports {
			if !speaksTLS(port) {
				continue
			}
			ln, err := net.Listen("tcp", net.JoinHostPort(o.ListenAddress, "0"))
			if err != nil {
				p.Close()
				return nil, fmt.Errorf("gateway %s port %d: %w", g.Name, port.Number, err)
			}
			s := &socket{Socket: Socket{Gateway: g.Name.String(), Port: port.Number, Address: ln.Addr().String()}, port: port}
			name := fmt.Sprintf("gateway %s port %d on %s", s.Gateway, s.Port, s.Address)
			s.acc = newAcceptor(ln, name, o.MaxConns, log, func(c net.Conn) { p.handle(s, c) })
			p.sockets = append(p.sockets, s)
		}
	}
	return p, nil
}

// speaksTLS reports whether a Gateway port has an HTTPS or TLS listener: the
// ports whose connections route on the ClientHello's SNI.
func speaksTLS(p *serving.Port) bool {
	for _, l := range p.Listeners {
		if l.Protocol == gwv1.HTTPSProtocolType || l.Protocol == gwv1.TLSProtocolType {
			return true
		}
	}
	return false
}

// Sockets lists the listening sockets.
func (p *Proxy) Sockets() []Socket {
	out := make([]Socket, len(p.sockets))
	for i, s := range p.sockets {
		out[i] = s.Socket
	}
	return out
}

// Close stops the sockets, closes the connections still open and stops the
// built-in backends.
func (p *Proxy) Close() error {
	for _, s := range p.sockets {
		s.acc.close()
	}
	p.reg.close()
	return nil
}

// Record returns (and forgets) the proxy's account of the connection from client.
func (p *Proxy) Record(client string) *ConnRecord {
	v, ok := p.records.LoadAndDelete(client)
	if !ok {
		return nil
	}
	p.nrecords.Add(-1)
	return v.(*ConnRecord)
}

// keep stores a copy of the account of a connection, replacing an earlier one:
// the connection's handler goes on changing its own.
func (p *Proxy) keep(client string, r *ConnRecord) {
	cp := *r
	if _, ok := p.records.Load(client); !ok && p.nrecords.Load() >= maxRecords {
		return
	}
	if _, loaded := p.records.Swap(client, &cp); !loaded {
		p.nrecords.Add(1)
	}
}

// clientConn is one client connection and the proxy's account of it.
type clientConn struct {
	net.Conn
	client string // its address, the key of its record
	rec    *ConnRecord
	// handshake is the handshake deadline; whole, the connection's.
	handshake, whole time.Time
}

// handle peeks at the ClientHello, routes on its SNI and hands the connection
// to its target. The handshake deadline runs from accept to the end of the
// handshake the proxy can see; the connection deadline bounds the rest.
func (p *Proxy) handle(s *socket, c net.Conn) {
	defer c.Close()
	start := time.Now()
	cc := &clientConn{Conn: c, client: c.RemoteAddr().String(), rec: &ConnRecord{},
		handshake: start.Add(p.opts.HandshakeTimeout), whole: start.Add(p.opts.ConnTimeout)}
	c.SetDeadline(cc.handshake)
	hello, peeked, err := PeekClientHello(c, p.opts.MaxHello, cc.handshake)
	if err != nil {
		p.fail(cc, err)
		return
	}
	c.SetDeadline(cc.handshake)
	if hello.ServerName == "" {
		p.fail(cc, errNoSNI)
		return
	}
	rt, err := routeFor(s.port, hello.ServerName)
	if l := rt.decision.Listener; l != nil {
		cc.rec.listener = l.Name
	}
	if err != nil {
		p.fail(cc, err)
		closeCleanly(c, cc.handshake)
		return
	}
	if rt.decision.Listener.Mode == gwv1.TLSModePassthrough {
		p.passThrough(cc, rt, peeked)
		return
	}
	p.terminate(cc, rt, peeked)
}

// fail records why the proxy did not serve a connection.
func (p *Proxy) fail(cc *clientConn, err error) {
	cc.rec.Error = err.Error()
	cc.rec.refused = cc.rec.refused || isRefusal(err)
	p.keep(cc.client, cc.rec)
}

// failBackend records a backend the proxy could not use.
func (p *Proxy) failBackend(cc *clientConn, err error) {
	cc.rec.BackendError = backendFailure(cc.rec.Backend, err)
	p.keep(cc.client, cc.rec)
}

// passThrough relays the connection, ClientHello first, to the backend, which
// terminates TLS itself.
func (p *Proxy) passThrough(cc *clientConn, rt route, peeked []byte) {
	cc.rec.Backend = rt.backendKey()
	bc, err := p.dialPassthrough(rt, cc.rec, cc.handshake)
	if err != nil {
		p.failBackend(cc, err)
		closeCleanly(cc.Conn, cc.handshake)
		return
	}
	defer bc.Close()
	p.keep(cc.client, cc.rec)
	cc.SetDeadline(cc.whole)
	if _, err := bc.Write(peeked); err != nil {
		return
	}
	relay(cc.Conn, bc, p.noteBackendEnd(cc))
}

// terminate completes the TLS handshake with the certificate the
// configuration presents, then serves HTTP requests (an HTTPS listener) or
// relays the bytes to the backend (a TLS listener).
func (p *Proxy) terminate(cc *clientConn, rt route, peeked []byte) {
	tc := tls.Server(&replayConn{Conn: cc.Conn, pending: peeked}, p.terminateConfig(rt))
	if err := tc.Handshake(); err != nil {
		p.fail(cc, fmt.Errorf("TLS handshake with the client: %w", err))
		return
	}
	defer tc.Close()
	if rt.decision.Listener.Protocol == gwv1.HTTPSProtocolType {
		p.serveHTTP(tc, cc, rt.decision.Port, rt.sni)
		return
	}
	cc.rec.Backend = rt.backendKey()
	bc, err := p.dialTerminated(rt, cc.rec, cc.handshake)
	if err != nil {
		p.failBackend(cc, err)
		return
	}
	defer bc.Close()
	p.keep(cc.client, cc.rec)
	cc.SetDeadline(cc.whole)
	relay(tc, bc, p.noteBackendEnd(cc))
}

// noteBackendEnd records a backend that ended its side of a connection
// without sending anything: down behind a listening socket, resetting, or
// refusing what it was sent. It runs before the client's side is closed, so
// a client that sees the end can read the record.
func (p *Proxy) noteBackendEnd(cc *clientConn) func(sent int64, err error) {
	return func(sent int64, err error) {
		if sent > 0 {
			return
		}
		if err == nil {
			err = errors.New("closed the connection")
		}
		p.failBackend(cc, fmt.Errorf("%s sent nothing: %w", cc.rec.Address, err))
	}
}

// backendFailure says why a backend did not answer.
func backendFailure(backend string, err error) string {
	return fmt.Sprintf("backend %s failed: %v", backend, err)
}

// closeCleanly ends a connection the proxy will not serve with a FIN rather
// than a reset: it reads what the client still sends, until the deadline.
func closeCleanly(c net.Conn, deadline time.Time) {
	closeWrite(c)
	if soon := time.Now().Add(time.Second); soon.Before(deadline) {
		deadline = soon
	}
	c.SetReadDeadline(deadline)
	io.Copy(io.Discard, io.LimitReader(c, MaxClientHello))
}

// replayConn gives crypto/tls the ClientHello bytes the proxy already read.
type replayConn struct {
	net.Conn
	pending []byte
}

func (c *replayConn) Read(b []byte) (int, error) {
	if len(c.pending) > 0 {
		n := copy(b, c.pending)
		c.pending = c.pending[n:]
		return n, nil
	}
	return c.Conn.Read(b)
}

// relay copies both ways until both directions end, half-closing as each does,
// and tells backendDone what the backend sent before its side closes the
// client's.
//
// It copies through a buffer rather than letting io.Copy splice(2) between
// the TCP connections: splice takes a pipe, two descriptors, per direction,
// and Go keeps those pipes pooled after the connection ends, so a burst of
// passthrough connections ran out of descriptors at a third of the
// connections it can otherwise serve. A buffer costs none.
func relay(client, backend net.Conn, backendDone func(sent int64, err error)) {
	done := make(chan struct{})
	go func() {
		copyBuffered(backend, client)
		closeWrite(backend)
		close(done)
	}()
	n, err := copyBuffered(client, backend)
	backendDone(n, err)
	closeWrite(client)
	<-done
}

var relayBuffers = sync.Pool{New: func() any { return new([32 << 10]byte) }}

// copyBuffered is io.Copy through a pooled buffer, never splice(2) or
// sendfile(2): only Read and Write of each side are visible to io.CopyBuffer.
func copyBuffered(dst io.Writer, src io.Reader) (int64, error) {
	buf := relayBuffers.Get().(*[32 << 10]byte)
	defer relayBuffers.Put(buf)
	return io.CopyBuffer(struct{ io.Writer }{dst}, struct{ io.Reader }{src}, buf[:])
}

func closeWrite(c net.Conn) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
	}
}
