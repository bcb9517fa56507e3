package probe

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/simulate"
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
// Gateway port with TLS listeners. Every connection is routed by simulate (the
// same answer `simulate` prints), then terminated with the certificate the
// listener's CertificateFor selects, or passed through untouched.
type Proxy struct {
	res  *analyze.Result
	sim  *simulate.Simulator
	opts Options
	ca   *BackendCA

	sockets []*socket
	sem     chan struct{}
	wg      sync.WaitGroup

	mu        sync.Mutex
	decisions map[decisionKey]simulate.Outcome
	builtins  map[string]*builtinBackend // by route and backend
	keyPairs  map[*model.Secret]*tls.Certificate
	allowed   map[string]bool // the only addresses the proxy dials

	records  sync.Map // client address -> *ConnRecord
	nrecords atomic.Int64
}

type socket struct {
	Socket
	ln net.Listener
}

type decisionKey struct {
	gateway string
	port    int32
	sni     string
}

// ConnRecord is the proxy's account of one client connection.
type ConnRecord struct {
	Outcome    simulate.Outcome `json:"-"`
	Backend    string           `json:"backend,omitempty"`
	Address    string           `json:"address,omitempty"`
	BackendTLS string           `json:"backendTLS,omitempty"`
	Error      string           `json:"error,omitempty"`
}

const maxRecords = 4096

// Start opens the sockets and serves until Close.
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
	p := &Proxy{res: res, sim: simulate.New(res), opts: o, ca: o.BackendCA,
		sem:       make(chan struct{}, o.MaxConns),
		decisions: map[decisionKey]simulate.Outcome{}, builtins: map[string]*builtinBackend{},
		keyPairs: map[*model.Secret]*tls.Certificate{}, allowed: map[string]bool{}}
	if err := p.checkMappings(); err != nil {
		return nil, err
	}
	if p.ca == nil {
		ca, err := NewBackendCA()
		if err != nil {
			return nil, err
		}
		p.ca = ca
	}
	for _, g := range res.Gateways {
		name := g.Gateway.Obj.Namespace + "/" + g.Gateway.Obj.Name
		for _, port := range tlsPorts(g) {
			ln, err := net.Listen("tcp", net.JoinHostPort(o.ListenAddress, "0"))
			if err != nil {
				p.Close()
				return nil, fmt.Errorf("gateway %s port %d: %w", name, port, err)
			}
			s := &socket{Socket: Socket{Gateway: name, Port: port, Address: ln.Addr().String()}, ln: ln}
			p.sockets = append(p.sockets, s)
			p.wg.Add(1)
			go p.serve(s)
		}
	}
	return p, nil
}

// checkMappings refuses --backend entries the configuration does not name: the
// proxy forwards only to backends a route references.
func (p *Proxy) checkMappings() error {
	named := map[string]bool{}
	for _, rr := range p.res.Routes {
		for _, b := range rr.Backends {
			if b.Ref.Port != nil {
				named[BackendKey(b.Namespace, string(b.Ref.Name), int32(*b.Ref.Port))] = true
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(p.opts.Backends)) {
		addr := p.opts.Backends[k]
		if !named[k] {
			return fmt.Errorf("--backend %s: no route in the configuration references this backend (want NAMESPACE/NAME:PORT of a backendRef)", k)
		}
		if _, _, err := net.SplitHostPort(addr); err != nil {
			return fmt.Errorf("--backend %s=%s: %w", k, addr, err)
		}
		p.allowed[addr] = true
	}
	return nil
}

// tlsPorts are the ports of the HTTPS and TLS listeners a Gateway serves (its
// own and those of the ListenerSets it admits), in order of first appearance.
func tlsPorts(g *analyze.GatewayResult) []int32 {
	seen := map[int32]bool{}
	var out []int32
	for _, l := range g.AllListeners() {
		p := l.Listener.Protocol
		port := int32(l.Listener.Port)
		if (p == gwv1.HTTPSProtocolType || p == gwv1.TLSProtocolType) && !seen[port] {
			seen[port] = true
			out = append(out, port)
		}
	}
	return out
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
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, b := range p.builtins {
		b.close()
	}
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

// decide is simulate's answer for an SNI on a socket, cached.
func (p *Proxy) decide(s *socket, sni string) simulate.Outcome {
	k := decisionKey{s.Gateway, s.Port, sni}
	p.mu.Lock()
	out, ok := p.decisions[k]
	p.mu.Unlock()
	if ok {
		return out
	}
	out = p.sim.Simulate(simulate.Request{SNI: sni, Port: s.Port, Gateway: s.Gateway})
	p.mu.Lock()
	if len(p.decisions) < maxRecords {
		p.decisions[k] = out
	}
	p.mu.Unlock()
	return out
}

func (p *Proxy) handle(s *socket, c net.Conn) {
	defer c.Close()
	client := c.RemoteAddr().String()
	rec := &ConnRecord{}
	fail := func(format string, args ...any) {
		rec.Error = fmt.Sprintf(format, args...)
		p.keep(client, rec)
	}
	c.SetDeadline(time.Now().Add(p.opts.ConnTimeout))
	hello, peeked, err := PeekClientHello(c, p.opts.MaxHello, time.Now().Add(p.opts.HelloTimeout))
	if err != nil {
		fail("%v", err)
		return
	}
	c.SetDeadline(time.Now().Add(p.opts.ConnTimeout))
	if hello.ServerName == "" {
		fail("the client sent no SNI; TLS listeners route on it")
		return
	}
	out := p.decide(s, hello.ServerName)
	rec.Outcome = out
	if out.Outcome != simulate.Routed {
		fail("refused: %s", out.Reason)
		return
	}
	l := p.listenerOf(out)
	i, br := p.pickBackend(out)
	if l == nil || br == nil {
		fail("refused: no resolved backend with a non-zero weight")
		return
	}
	be := out.Backends[i]
	rec.Backend = BackendKey(be.Namespace, be.Name, be.Port)
	switch gwv1.TLSModeType(out.Mode) {
	case gwv1.TLSModePassthrough:
		addr, err := p.backendAddress(out, be, passthroughBackend, nil)
		if err != nil {
			fail("%v", err)
			return
		}
		rec.Address = addr
		bc, err := p.dial(addr)
		if err != nil {
			fail("%v", err)
			return
		}
		defer bc.Close()
		p.keep(client, rec)
		if _, err := bc.Write(peeked); err != nil {
			return
		}
		splice(c, bc)
	default:
		tc := tls.Server(&replayConn{Conn: c, pending: peeked}, p.terminateConfig(l))
		if err := tc.Handshake(); err != nil {
			fail("TLS handshake with the client: %v", err)
			return
		}
		bc, err := p.dialTerminated(out, be, br, rec)
		if err != nil {
			fail("%v", err)
			return
		}
		defer bc.Close()
		p.keep(client, rec)
		splice(tc, bc)
	}
}

// listenerOf finds the ListenerResult simulate chose.
func (p *Proxy) listenerOf(out simulate.Outcome) *analyze.ListenerResult {
	for _, g := range p.res.Gateways {
		if g.Gateway.Obj.Namespace+"/"+g.Gateway.Obj.Name != out.Gateway {
			continue
		}
		ls := g.Listeners
		if out.ListenerOwner != nil {
			ls = nil
			for _, set := range g.ListenerSets {
				o := set.ListenerSet.Obj
				if o.Namespace == out.ListenerOwner.Namespace && o.Name == out.ListenerOwner.Name {
					ls = set.Listeners
				}
			}
		}
		for _, l := range ls {
			if l.Name() == out.Listener {
				return l
			}
		}
	}
	return nil
}

// pickBackend is the first resolved backend with a non-zero weight: a probe wants
// one deterministic answer, not a traffic split.
func (p *Proxy) pickBackend(out simulate.Outcome) (int, *analyze.BackendResult) {
	if out.Route == nil {
		return -1, nil
	}
	for _, rr := range p.res.Routes {
		r := rr.Route
		if r.Kind != out.Route.Kind || r.ObjectMeta.Namespace != out.Route.Namespace || r.ObjectMeta.Name != out.Route.Name {
			continue
		}
		// simulate lists a route's backends in the engine's order, one for one.
		for i, b := range out.Backends {
			if b.Resolved && b.Weight > 0 && i < len(rr.Backends) {
				return i, rr.Backends[i]
			}
		}
	}
	return -1, nil
}

// terminateConfig serves, for each SNI, the certificate the engine selects.
func (p *Proxy) terminateConfig(l *analyze.ListenerResult) *tls.Config {
	cfg := &tls.Config{
		GetCertificate: func(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
			c, _ := l.CertificateFor(hello.ServerName)
			if c == nil || c.Secret == nil {
				return nil, fmt.Errorf("listener %s has no usable certificate in the input", l.Name())
			}
			return p.keyPair(c.Secret)
		},
	}
	if l.Listener.Protocol == gwv1.HTTPSProtocolType {
		cfg.NextProtos = []string{"http/1.1"} // the proxy forwards HTTP/1 bytes
	}
	return cfg
}

func (p *Proxy) keyPair(s *model.Secret) (*tls.Certificate, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if kp, ok := p.keyPairs[s]; ok {
		return kp, nil
	}
	kp, err := tls.X509KeyPair(s.Obj.Data[corev1.TLSCertKey], s.Obj.Data[corev1.TLSPrivateKeyKey])
	if err != nil {
		return nil, fmt.Errorf("key pair in Secret %s/%s: %w", s.Obj.Namespace, s.Obj.Name, err)
	}
	p.keyPairs[s] = &kp
	return &kp, nil
}

type backendKind int

const (
	plainBackend backendKind = iota
	passthroughBackend
	reencryptBackend
)

// backendAddress is the --backend mapping of a backendRef, else the address of the
// built-in backend standing in for it on this route.
func (p *Proxy) backendAddress(out simulate.Outcome, be simulate.Backend, kind backendKind, policyNames []string) (string, error) {
	key := BackendKey(be.Namespace, be.Name, be.Port)
	if addr, ok := p.opts.Backends[key]; ok {
		return addr, nil
	}
	route := out.Route.Kind + "/" + out.Route.Namespace + "/" + out.Route.Name
	id := fmt.Sprintf("%s %s route=%s", IdentPrefix, key, route)
	p.mu.Lock()
	defer p.mu.Unlock()
	if b, ok := p.builtins[id]; ok {
		return b.addr(), nil
	}
	var cfg *tls.Config
	switch kind {
	case passthroughBackend:
		cert := p.opts.PassthroughCertificate
		if cert == nil {
			c, err := p.ca.Issue(p.routeHostnames(out))
			if err != nil {
				return "", err
			}
			cert = &c
		}
		cfg = &tls.Config{Certificates: []tls.Certificate{*cert}}
	case reencryptBackend:
		c, err := p.ca.Issue(policyNames)
		if err != nil {
			return "", err
		}
		cfg = &tls.Config{Certificates: []tls.Certificate{c}}
	}
	b, err := startBuiltin(p.opts.ListenAddress, id, cfg, p.opts.ConnTimeout)
	if err != nil {
		return "", err
	}
	p.builtins[id] = b
	p.allowed[b.addr()] = true
	return b.addr(), nil
}

// routeHostnames are the intersected hostnames the route serves on the chosen
// listener, as a passthrough backend's certificate would name them.
func (p *Proxy) routeHostnames(out simulate.Outcome) []string {
	var names []string
	if l := p.listenerOf(out); l != nil {
		for _, a := range l.Attachments {
			r := a.Route.Route
			if r.Kind == out.Route.Kind && r.ObjectMeta.Namespace == out.Route.Namespace && r.ObjectMeta.Name == out.Route.Name {
				for _, h := range a.Hostnames {
					if h != "" && h != "*" {
						names = append(names, h)
					}
				}
			}
		}
	}
	if len(names) == 0 {
		names = []string{out.Request.SNI}
	}
	return names
}

// dial connects only to addresses the configuration (or --backend) names.
func (p *Proxy) dial(addr string) (net.Conn, error) {
	p.mu.Lock()
	ok := p.allowed[addr]
	p.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("refusing to forward to %s: not a backend the configuration or --backend names", addr)
	}
	c, err := net.DialTimeout("tcp", addr, p.opts.HelloTimeout)
	if err != nil {
		return nil, fmt.Errorf("backend %s: %w", addr, err)
	}
	c.SetDeadline(time.Now().Add(p.opts.ConnTimeout))
	return c, nil
}

// dialTerminated connects to the backend of a terminated connection: in plain
// text, or re-encrypted when a BackendTLSPolicy applies (GEP-1897: the policy's
// hostname is the SNI and, without subjectAltNames, the name verified; the CA is
// the policy's).
func (p *Proxy) dialTerminated(out simulate.Outcome, be simulate.Backend, br *analyze.BackendResult, rec *ConnRecord) (net.Conn, error) {
	if be.BackendTLS == nil || br.Policy == nil {
		addr, err := p.backendAddress(out, be, plainBackend, nil)
		if err != nil {
			return nil, err
		}
		rec.Address = addr
		return p.dial(addr)
	}
	v := br.Policy.Policy.Obj.Spec.Validation
	names := []string{string(v.Hostname)}
	for _, san := range v.SubjectAltNames {
		if san.Hostname != "" {
			names = append(names, string(san.Hostname))
		}
	}
	addr, err := p.backendAddress(out, be, reencryptBackend, names)
	if err != nil {
		return nil, err
	}
	rec.Address = addr
	roots, how, err := p.policyRoots(br.Policy)
	if err != nil {
		return nil, err
	}
	if _, mapped := p.opts.Backends[rec.Backend]; !mapped {
		if _, err := p.ca.Cert.Verify(x509.VerifyOptions{Roots: roots}); err != nil {
			// A built-in backend cannot hold a certificate from the policy's real CA:
			// verify it against the probe's CA, and say so.
			roots = x509.NewCertPool()
			roots.AddCert(p.ca.Cert)
			how = "the probe's backend CA (the policy's CA does not sign built-in backends; use --backend-ca, or --backend to a real one)"
		}
	}
	c, err := p.dial(addr)
	if err != nil {
		return nil, err
	}
	cfg := &tls.Config{ServerName: string(v.Hostname), RootCAs: roots}
	if len(v.SubjectAltNames) > 0 {
		// With subjectAltNames, those are verified instead of the hostname.
		cfg.InsecureSkipVerify = true
		cfg.VerifyConnection = func(cs tls.ConnectionState) error { return verifySANs(cs, roots, v.SubjectAltNames) }
	}
	tc := tls.Client(c, cfg)
	if err := tc.Handshake(); err != nil {
		c.Close()
		return nil, fmt.Errorf("backend TLS to %s (policy %s, SNI %s, CA %s): %w", rec.Backend, be.BackendTLS.Policy, v.Hostname, how, err)
	}
	st := tc.ConnectionState()
	rec.BackendTLS = fmt.Sprintf("%s, SNI %s, verified against %s", tls.VersionName(st.Version), v.Hostname, how)
	return tc, nil
}

// policyRoots is the trust the policy names: the CA certificates the engine
// parsed from its caCertificateRefs, or the system pool for
// wellKnownCACertificates: System.
func (p *Proxy) policyRoots(pr *analyze.PolicyResult) (*x509.CertPool, string, error) {
	pol := pr.Policy.Obj
	v := pol.Spec.Validation
	if v.WellKnownCACertificates != nil && *v.WellKnownCACertificates == gwv1.WellKnownCACertificatesSystem {
		pool, err := x509.SystemCertPool()
		return pool, "the system roots", err
	}
	if len(pr.CACertificates) == 0 {
		return nil, "", fmt.Errorf("BackendTLSPolicy %s/%s: no CA certificate in its caCertificateRefs", pol.Namespace, pol.Name)
	}
	pool := x509.NewCertPool()
	for _, c := range pr.CACertificates {
		pool.AddCert(c)
	}
	names := pr.CASources
	return pool, strings.Join(names, ", "), nil
}

func verifySANs(cs tls.ConnectionState, roots *x509.CertPool, sans []gwv1.SubjectAltName) error {
	if len(cs.PeerCertificates) == 0 {
		return errors.New("the backend presented no certificate")
	}
	inter := x509.NewCertPool()
	for _, c := range cs.PeerCertificates[1:] {
		inter.AddCert(c)
	}
	leaf := cs.PeerCertificates[0]
	if _, err := leaf.Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter}); err != nil {
		return err
	}
	for _, san := range sans {
		if san.Hostname != "" && leaf.VerifyHostname(string(san.Hostname)) == nil {
			return nil
		}
		for _, u := range leaf.URIs {
			if san.URI != "" && u.String() == string(san.URI) {
				return nil
			}
		}
	}
	return errors.New("the backend certificate matches none of the policy's subjectAltNames")
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
