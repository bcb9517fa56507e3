package probe

import (
	"crypto/tls"
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
	// MaxConns bounds concurrent client connections (default 256).
	MaxConns int
	// HelloTimeout bounds the time to receive a ClientHello (default 5s); MaxHello
	// its size (default and at most MaxClientHello).
	HelloTimeout time.Duration
	MaxHello     int
	// ConnTimeout bounds a whole proxied connection (default 30s).
	ConnTimeout time.Duration
}

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

	sockets []*socket
	sem     chan struct{}
	wg      sync.WaitGroup

	records  sync.Map // client address -> *ConnRecord
	nrecords atomic.Int64
}

type socket struct {
	Socket
	port *serving.Port
	ln   net.Listener
}

// ConnRecord is the proxy's account of one client connection.
type ConnRecord struct {
	Backend    string `json:"backend,omitempty"`
	Address    string `json:"address,omitempty"`
	BackendTLS string `json:"backendTLS,omitempty"`
	Error      string `json:"error,omitempty"`
	// listener is the listener that took the connection, if one did.
	listener string
}

const maxRecords = 4096

// Start builds the configuration's serving table, opens the sockets and serves
// until Close.
func Start(res *analyze.Result, o Options) (*Proxy, error) {
	if o.ListenAddress == "" {
		o.ListenAddress = "127.0.0.1"
	}
	if o.MaxConns <= 0 {
		o.MaxConns = 256
	}
	if o.HelloTimeout <= 0 {
		o.HelloTimeout = 5 * time.Second
	}
	if o.ConnTimeout <= 0 {
		o.ConnTimeout = 30 * time.Second
	}
	reg, err := newRegistry(res, o)
	if err != nil {
		return nil, err
	}
	p := &Proxy{table: serving.Build(res), opts: o, reg: reg, sem: make(chan struct{}, o.MaxConns)}
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
			s := &socket{Socket: Socket{Gateway: g.Name.String(), Port: port.Number, Address: ln.Addr().String()}, port: port, ln: ln}
			p.sockets = append(p.sockets, s)
			p.wg.Add(1)
			go p.serve(s)
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

// Close stops the sockets and built-in backends and waits for connections to end.
func (p *Proxy) Close() error {
	for _, s := range p.sockets {
		s.ln.Close()
	}
	p.wg.Wait()
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

func (p *Proxy) keep(client string, r *ConnRecord) {
	if p.nrecords.Load() >= maxRecords {
		return
	}
	if _, loaded := p.records.LoadOrStore(client, r); !loaded {
		p.nrecords.Add(1)
	}
}

func (p *Proxy) serve(s *socket) {
	defer p.wg.Done()
	for {
		p.sem <- struct{}{}
		c, err := s.ln.Accept()
		if err != nil {
			<-p.sem
			return
		}
		p.wg.Add(1)
		go func() {
			defer func() { <-p.sem; p.wg.Done() }()
			p.handle(s, c)
		}()
	}
}

// handle peeks at the ClientHello, routes on its SNI and hands the connection
// to its target.
func (p *Proxy) handle(s *socket, c net.Conn) {
	defer c.Close()
	client := c.RemoteAddr().String()
	rec := &ConnRecord{}
	fail := func(err error) {
		rec.Error = err.Error()
		p.keep(client, rec)
	}
	c.SetDeadline(time.Now().Add(p.opts.ConnTimeout))
	hello, peeked, err := PeekClientHello(c, p.opts.MaxHello, time.Now().Add(p.opts.HelloTimeout))
	if err != nil {
		fail(err)
		return
	}
	c.SetDeadline(time.Now().Add(p.opts.ConnTimeout))
	if hello.ServerName == "" {
		fail(errNoSNI)
		return
	}
	rt, err := routeFor(s.port, hello.ServerName)
	if l := rt.decision.Listener; l != nil {
		rec.listener = l.Name
	}
	if err != nil {
		fail(err)
		return
	}
	rec.Backend = rt.backendKey()
	switch rt.decision.Listener.Mode {
	case gwv1.TLSModePassthrough:
		bc, err := p.passthrough(rt, rec)
		if err != nil {
			fail(err)
			return
		}
		defer bc.Close()
		p.keep(client, rec)
		if _, err := bc.Write(peeked); err != nil {
			return
		}
		splice(c, bc)
	default:
		tc := tls.Server(&replayConn{Conn: c, pending: peeked}, p.terminateConfig(rt))
		if err := tc.Handshake(); err != nil {
			fail(fmt.Errorf("TLS handshake with the client: %w", err))
			return
		}
		bc, err := p.dialTerminated(rt, rec)
		if err != nil {
			fail(err)
			return
		}
		defer bc.Close()
		p.keep(client, rec)
		splice(tc, bc)
	}
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

// splice copies both ways until both directions end, half-closing as each does.
// Between two TCP connections io.Copy uses splice(2), so passthrough bytes never
// enter user space.
func splice(a, b net.Conn) {
	done := make(chan struct{})
	go func() {
		io.Copy(b, a)
		closeWrite(b)
		close(done)
	}()
	io.Copy(a, b)
	closeWrite(a)
	<-done
}

func closeWrite(c net.Conn) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
	}
}
