package probe

import (
	"crypto/tls"
	"fmt"
	"maps"
	"net"
	"slices"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// registry holds what the proxy may connect to and the keys it serves with:
// the --backend mappings, the built-in backends it starts on first use, and the
// Secrets' key pairs. Its lock guards only its maps; generating a key, parsing a
// key pair and opening a socket happen outside it, so one slow backend does not
// hold up connections to the others.
type registry struct {
	opts Options
	ca   *BackendCA

	log *warnings

	mu       sync.Mutex
	builtins map[string]*builtinSlot // by route and backend
	keyPairs map[*model.Secret]*tls.Certificate
	allowed  map[string]bool          // the only addresses the proxy dials
	slots    map[string]chan struct{} // connections open to each of them
}

// builtinSlot is one built-in backend, started by the first connection that
// needs it; its own lock makes later ones wait for that start, not for others.
type builtinSlot struct {
	mu sync.Mutex
	b  *builtinBackend
}

type backendKind int

const (
	plainBackend backendKind = iota
	passthroughBackend
	reencryptBackend
)

// newRegistry refuses --backend entries the configuration does not name: the
// proxy forwards only to backends a route references.
func newRegistry(res *analyze.Result, o Options, log *warnings) (*registry, error) {
	r := &registry{opts: o, ca: o.BackendCA, log: log, builtins: map[string]*builtinSlot{},
		keyPairs: map[*model.Secret]*tls.Certificate{}, allowed: map[string]bool{}, slots: map[string]chan struct{}{}}
	named := map[string]bool{}
	for _, rr := range res.Routes {
		for _, b := range rr.Backends {
			if b.Ref.Port != nil {
				named[BackendKey(b.Namespace, string(b.Ref.Name), int32(*b.Ref.Port))] = true
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(o.Backends)) {
		addr := o.Backends[k]
		if !named[k] {
			return nil, fmt.Errorf("--backend %s: no route in the configuration references this backend (want NAMESPACE/NAME:PORT of a backendRef)", k)
		}
		if _, _, err := net.SplitHostPort(addr); err != nil {
			return nil, fmt.Errorf("--backend %s=%s: %w", k, addr, err)
		}
		r.allowed[addr] = true
	}
	if r.ca == nil {
		ca, err := NewBackendCA()
		if err != nil {
			return nil, err
		}
		r.ca = ca
	}
	return r, nil
}

// mapped is the --backend address of a backend, if the user gave one; a
// backend that is not mapped is a built-in one.
func (r *registry) mapped(key string) (string, bool) {
	addr, ok := r.opts.Backends[key]
	return addr, ok
}

// address is the --backend mapping of the route's backend, else the address of
// the built-in backend standing in for it on this route, started on first use:
// plain, or serving TLS for a passthrough route (the route's hostnames) or a
// BackendTLSPolicy (policyNames).
func (r *registry) address(rt route, kind backendKind, policyNames []string) (string, error) {
	key := rt.backendKey()
	if addr, ok := r.mapped(key); ok {
		return addr, nil
	}
	id := fmt.Sprintf("%s %s route=%s", IdentPrefix, key, rt.routeName())
	r.mu.Lock()
	slot := r.builtins[id]
	if slot == nil {
		slot = &builtinSlot{}
		r.builtins[id] = slot
	}
	r.mu.Unlock()

	slot.mu.Lock()
	defer slot.mu.Unlock()
	if slot.b != nil {
		return slot.b.addr(), nil
	}
	var cfg *tls.Config
	switch kind {
	case passthroughBackend:
		cert := r.opts.PassthroughCertificate
		if cert == nil {
			c, err := r.ca.Issue(rt.hostnames())
			if err != nil {
				return "", err
			}
			cert = &c
		}
		cfg = &tls.Config{Certificates: []tls.Certificate{*cert}}
	case reencryptBackend:
		c, err := r.ca.Issue(policyNames)
		if err != nil {
			return "", err
		}
		cfg = &tls.Config{Certificates: []tls.Certificate{c}}
	}
	b, err := startBuiltin(r.opts.ListenAddress, id, cfg, timeouts{r.opts.HandshakeTimeout, r.opts.ConnTimeout}, r.opts.MaxBackendConns, r.log)
	if err != nil {
		return "", err
	}
	slot.b = b
	r.mu.Lock()
	r.allowed[b.addr()] = true
	r.mu.Unlock()
	return b.addr(), nil
}

// dial connects only to addresses the configuration (or --backend) names, with
// at most MaxBackendConns connections open to each: a connection waits for one
// to end until the deadline, which also bounds connecting.
func (r *registry) dial(addr string, deadline time.Time) (net.Conn, error) {
	r.mu.Lock()
	ok := r.allowed[addr]
	slots := r.slots[addr]
	if ok && slots == nil {
		slots = make(chan struct{}, r.opts.MaxBackendConns)
		r.slots[addr] = slots
	}
	r.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("refusing to forward to %s: not a backend the configuration or --backend names", addr)
	}
	wait := time.NewTimer(time.Until(deadline))
	defer wait.Stop()
	select {
	case slots <- struct{}{}:
	case <-wait.C:
		return nil, fmt.Errorf("%s has %d connections open from the proxy, its limit (--max-backend-connections)", addr, cap(slots))
	}
	c, err := (&net.Dialer{Deadline: deadline}).Dial("tcp", addr)
	if err != nil {
		<-slots
		return nil, err // a *net.OpError, which names the address
	}
	c.SetDeadline(time.Now().Add(r.opts.ConnTimeout))
	return &backendConn{TCPConn: c.(*net.TCPConn), release: func() { <-slots }}, nil
}

// backendConn is a connection to a backend, which gives its slot back when
// closed.
type backendConn struct {
	*net.TCPConn
	once    sync.Once
	release func()
}

func (c *backendConn) Close() error {
	err := c.TCPConn.Close()
	c.once.Do(c.release)
	return err
}

// keyPair is a Secret's certificate and key, parsed once.
func (r *registry) keyPair(s *model.Secret) (*tls.Certificate, error) {
	r.mu.Lock()
	kp, ok := r.keyPairs[s]
	r.mu.Unlock()
	if ok {
		return kp, nil
	}
	pair, err := tls.X509KeyPair(s.Obj.Data[corev1.TLSCertKey], s.Obj.Data[corev1.TLSPrivateKeyKey])
	if err != nil {
		return nil, fmt.Errorf("key pair in Secret %s/%s: %w", s.Obj.Namespace, s.Obj.Name, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if kp, ok := r.keyPairs[s]; ok {
		return kp, nil // another connection parsed it meanwhile
	}
	r.keyPairs[s] = &pair
	return &pair, nil
}

// close stops the built-in backends. The proxy calls it once no connection is
// left, so no backend is starting.
func (r *registry) close() {
	r.mu.Lock()
	slots := slices.Collect(maps.Values(r.builtins))
	r.mu.Unlock()
	for _, s := range slots {
		s.mu.Lock()
		if s.b != nil {
			s.b.close()
		}
		s.mu.Unlock()
	}
}
