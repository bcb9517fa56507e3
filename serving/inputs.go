package serving

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/binary"
	"encoding/json"
	"slices"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/cores"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// Digests are what the decisions of every port of a table read, digested, so
// that two tables (the two sides of a diff) can tell which requests they
// decide alike without deciding them: SameDecision.
//
// A port's decision of a request without a Path (Port.Decide) reads the port's
// listeners (to choose one: listenerFor), then only the chosen listener's
// routes and certificates. A port's digest is therefore in two parts: the
// listeners, each with what Decide and a comparison of decisions read of it
// (name, owner, protocol, TLS mode, hostname, acceptance, every
// certificateRef's Secret, usability, problem and leaf), and, per listener,
// its routes in order, each with its name, kind, creation time, intersected
// hostnames, which other attachment of the listener it repeats (a route
// attached through two parentRefs), whether it serves (routeRefusal: its
// backends resolve or a rule redirects) and every backendRef as the engine
// resolved it (rule, position, group, kind, namespace, name, port, weight,
// problem, BackendTLSPolicy with its spec). Two decisions of one request read
// equal inputs when both digests of the listeners are equal, the same listener
// takes the request on both, and its routes' digests are equal: the decisions
// are then equal in every field but the pointers, which point to equal values.
//
// What a Digest covers must grow with what Decide reads: TestDigestsCover
// changes each input of a decision and checks that its digest changes.
type Digests struct {
	byPort map[portKey]*digest
}

type portKey struct {
	gateway model.NamespacedName
	port    int32
}

type digest struct {
	port      *Port
	listeners [sha256.Size]byte
	routes    [][sha256.Size]byte // by listener, in Port.Listeners order
	// all digests listeners and routes together: the port decides every
	// request alike on both sides when it is equal.
	all [sha256.Size]byte
}

// Digests digests every port of the table, on every core. A Gateway whose name
// the table holds twice is left out: a request on it is never decided alike.
func (t *Table) Digests() *Digests {
	var ports []*Port
	names := make(map[model.NamespacedName]int, len(t.Gateways))
	for _, g := range t.Gateways {
		names[g.Name]++
		ports = append(ports, g.Ports...)
	}
	out := make([]digest, len(ports))
	cores.Parts(len(ports), portsPerPart, func() func(lo, hi int) {
		d := digester{certs: map[*x509.Certificate][sha256.Size]byte{}, policies: map[*analyze.PolicyResult][sha256.Size]byte{}}
		return func(lo, hi int) {
			for i := lo; i < hi; i++ {
				out[i] = d.port(ports[i])
			}
		}
	})
	ds := &Digests{byPort: make(map[portKey]*digest, len(ports))}
	for i := range out {
		p := out[i].port
		if names[p.Gateway.Name] == 1 {
			ds.byPort[portKey{p.Gateway.Name, p.Number}] = &out[i]
		}
	}
	return ds
}

// SamePort reports whether two tables decide every request without a Path
// to a Gateway port alike, by their digests: both have the Gateway (once) and
// the port, and its listeners and all their routes are equal on both.
func SamePort(a, b *Digests, gateway model.NamespacedName, port int32) bool {
	k := portKey{gateway, port}
	da, db := a.byPort[k], b.byPort[k]
	return da != nil && db != nil && da.all == db.all
}

// SameDecision reports whether two tables decide a request to a Gateway port
// alike, by their digests: both have the Gateway (once) and the port, the
// port's listeners are equal on both (so the same listener takes the request
// on both: listenerFor reads only them), and that listener's routes are equal
// on both. It is false for a request with a Path, whose rule matching the
// digests do not cover.
func SameDecision(a, b *Digests, gateway model.NamespacedName, port int32, req Request) bool {
	if req.Path != "" {
		return false
	}
	k := portKey{gateway, port}
	da, db := a.byPort[k], b.byPort[k]
	switch {
	case da == nil || db == nil || da.listeners != db.listeners:
		return false
	case da.all == db.all:
		return true
	}
	i := da.port.taker(req)
	return i < 0 || da.routes[i] == db.routes[i]
}

// taker is the index in Listeners of the listener that takes the request
// (listenerFor, as Decide chooses it), -1 when none does.
func (p *Port) taker(req Request) int {
	return slices.Index(p.Listeners, p.listenerFor(req))
}

// digester writes a port's inputs into a buffer and hashes it. Certificates
// and policies are hashed once per core: a few of them serve many listeners.
type digester struct {
	buf      []byte
	certs    map[*x509.Certificate][sha256.Size]byte
	policies map[*analyze.PolicyResult][sha256.Size]byte
	// first is the index of each route's first attachment to the listener.
	first map[*analyze.RouteResult]int
}

func (d *digester) port(p *Port) digest {
	out := digest{port: p, routes: make([][sha256.Size]byte, len(p.Listeners))}
	d.buf = d.buf[:0]
	d.int(int64(len(p.Listeners)))
	for _, l := range p.Listeners {
		d.listener(l)
	}
	out.listeners = sha256.Sum256(d.buf)
	for i, l := range p.Listeners {
		d.buf = d.buf[:0]
		d.routes(l)
		out.routes[i] = sha256.Sum256(d.buf)
	}
	d.buf = append(d.buf[:0], out.listeners[:]...)
	for _, r := range out.routes {
		d.buf = append(d.buf, r[:]...)
	}
	out.all = sha256.Sum256(d.buf)
	return out
}

func (d *digester) listener(l *Listener) {
	d.str(l.Name)
	d.ref(l.Owner)
	d.str(string(l.Protocol))
	d.str(string(l.Mode))
	d.str(l.Hostname)
	d.bool(l.Accepted)
	d.bool(l.FromListenerSet())
	certs := l.Result.Certificates
	d.int(int64(len(certs)))
	for _, c := range certs {
		d.str(c.Namespace)
		d.str(string(c.Ref.Name))
		d.bool(c.Secret != nil)
		d.bool(c.External)
		d.str(c.Unverified)
		d.str(c.Problem)
		d.int(int64(len(c.Chain)))
		for _, x := range c.Chain {
			d.cert(x)
		}
	}
}

func (d *digester) routes(l *Listener) {
	if d.first == nil {
		d.first = map[*analyze.RouteResult]int{}
	}
	clear(d.first)
	d.int(int64(len(l.Routes)))
	for i, r := range l.Routes {
		d.ref(r.Ref)
		ct := r.Attachment.Route.Route.ObjectMeta.CreationTimestamp
		d.int(ct.Unix())
		d.int(int64(ct.Nanosecond()))
		d.int(int64(len(r.Hostnames)))
		for _, h := range r.Hostnames {
			d.str(h)
		}
		// The first attachment of the listener that is the same route, for
		// byPrecedence's dropping of twins.
		twin, ok := d.first[r.Attachment.Route]
		if !ok {
			twin = i
			d.first[r.Attachment.Route] = i
		}
		d.int(int64(twin))
		bs := r.Attachment.Route.Backends
		d.int(int64(len(bs)))
		resolves := false
		for _, b := range bs {
			d.backend(b)
			resolves = resolves || b.Problem == nil
		}
		// Whether the route serves (routeRefusal) follows from its backends
		// when one resolves; else from whether a rule redirects.
		if !resolves {
			d.int(int64(routeRefusal(r)))
		}
	}
}

func (d *digester) backend(b *analyze.BackendResult) {
	d.int(int64(b.Rule))
	d.int(int64(b.Index))
	d.str(b.Namespace)
	ref := b.Ref
	d.optStr((*string)(ref.Group))
	d.optStr((*string)(ref.Kind))
	d.optStr((*string)(ref.Namespace))
	d.str(string(ref.Name))
	if ref.Port != nil {
		d.int(1 + int64(*ref.Port))
	} else {
		d.int(0)
	}
	if ref.Weight != nil {
		d.int(1 + int64(*ref.Weight))
	} else {
		d.int(0)
	}
	if b.Problem != nil {
		d.int(1)
		d.str(b.Problem.Reason)
		d.str(b.Problem.Message)
	} else {
		d.int(0)
	}
	d.policy(b.Policy)
}

func (d *digester) policy(p *analyze.PolicyResult) {
	if p == nil {
		d.int(0)
		return
	}
	sum, ok := d.policies[p]
	if !ok {
		o := p.Policy.Obj
		// The whole spec: more than a comparison reads of it (its validation).
		spec, err := json.Marshal(o.Spec)
		if err != nil {
			spec = nil // never for these types; an empty spec then digests as one
		}
		var buf []byte
		buf = appendStr(buf, o.Namespace)
		buf = appendStr(buf, o.Name)
		buf = appendStr(buf, string(spec))
		sum = sha256.Sum256(buf)
		d.policies[p] = sum
	}
	d.int(1)
	d.buf = append(d.buf, sum[:]...)
}

func (d *digester) cert(x *x509.Certificate) {
	sum, ok := d.certs[x]
	if !ok {
		sum = sha256.Sum256(x.Raw)
		d.certs[x] = sum
	}
	d.buf = append(d.buf, sum[:]...)
}

func (d *digester) ref(r model.Ref) {
	d.str(r.Kind)
	d.str(r.Namespace)
	d.str(r.Name)
}

func (d *digester) optStr(s *string) {
	if s == nil {
		d.int(0)
		return
	}
	d.int(1)
	d.str(*s)
}

func (d *digester) str(s string) { d.buf = appendStr(d.buf, s) }

func (d *digester) int(n int64) { d.buf = binary.AppendVarint(d.buf, n) }

func (d *digester) bool(b bool) {
	if b {
		d.int(1)
	} else {
		d.int(0)
	}
}

// appendStr appends a string with its length first, so that no two lists of
// strings write the same bytes.
func appendStr(buf []byte, s string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}
