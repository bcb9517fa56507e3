package serving

import (
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/cores"
)

// Row is one hostname a port serves, and what a client that asks for it
// reaches.
type Row struct {
	// Hostname is the intersected hostname (spec 003) of an attached route; ""
	// means any.
	Hostname string
	// Request is what a client sends for it (analyze.SampleSNI: the hostname, a
	// wildcard with the label "test", any hostname as the listener's or
	// example.test): as the SNI to HTTPS and TLS listeners, as the Host header to
	// HTTP ones.
	Request Request
	// Decision is the port's answer to Request. It may name another listener or
	// route than the one the hostname came from, when one matches the name more
	// specifically.
	Decision
}

// Rows are every row of the table: by Gateway, then port, in order.
func (t *Table) Rows() []*Row {
	t.decideRows()
	n := 0
	for _, g := range t.Gateways {
		for _, p := range g.Ports {
			n += len(p.rows)
		}
	}
	out := make([]*Row, 0, n)
	for _, g := range t.Gateways {
		for _, p := range g.Ports {
			out = p.appendRows(out)
		}
	}
	return out
}

// Rows are the hostnames the port serves, one row per name a client sends.
func (p *Port) Rows() []*Row {
	p.Gateway.Table.decideRows()
	return p.appendRows(make([]*Row, 0, len(p.rows)))
}

func (p *Port) appendRows(out []*Row) []*Row {
	for i := range p.rows {
		out = append(out, &p.rows[i])
	}
	return out
}

// decideRows decides every port's rows, once, on every core: a port's rows
// are its own (its listeners, their routes and indexes), and each is kept on
// its port, so the order of Rows is the table's whatever the number of cores.
func (t *Table) decideRows() {
	t.rowsOnce.Do(func() {
		var ports []*Port
		for _, g := range t.Gateways {
			ports = append(ports, g.Ports...)
		}
		cores.Parts(len(ports), portsPerPart, func() func(lo, hi int) {
			var names portNames
			return func(lo, hi int) {
				for _, p := range ports[lo:hi] {
					p.rows = p.decideRows(&names, nil)
				}
			}
		})
	})
}

// portsPerPart is how many ports a core decides at a time: a port of the
// generated configurations has about 30 rows, each decided in a few
// microseconds.
const portsPerPart = 8

// portNames is the room one core lists a port's names in, reused from port to
// port.
type portNames struct {
	seen map[seenName]bool
	rows []Row // each row's Hostname and Request, not yet decided
}

// seenName is a name a port was asked for, by TLS (SNI) or plain HTTP (Host).
type seenName struct {
	name string
	tls  bool
}

// RowsWhere are the rows of the table for which keepPort (of their port) and
// keep are true, in the order of Rows, each decided as Rows decides it; the
// others are not decided. Both are called on every core at once, so they
// must be safe for concurrent use. Rows decided here are not kept: Rows and
// Port.Rows decide every row again. A diff decides only the requests that two
// tables may decide differently (SameDecision).
func (t *Table) RowsWhere(keepPort func(p *Port) bool, keep func(p *Port, req Request) bool) []*Row {
	var ports []*Port
	for _, g := range t.Gateways {
		ports = append(ports, g.Ports...)
	}
	rows := make([][]Row, len(ports))
	cores.Parts(len(ports), portsPerPart, func() func(lo, hi int) {
		var names portNames
		return func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if keepPort(ports[i]) {
					rows[i] = ports[i].decideRows(&names, keep)
				}
			}
		}
	})
	n := 0
	for _, rs := range rows {
		n += len(rs)
	}
	out := make([]*Row, 0, n)
	for _, rs := range rows {
		for i := range rs {
			out = append(out, &rs[i])
		}
	}
	return out
}

// decideRows are the hostnames a port serves: every intersected hostname of
// every route attached to an accepted listener that routes on names (not TCP or
// UDP), one row per name a client sends, of those keep takes (all when it is
// nil). The names are listed first, so that the rows, kept for the table's
// life, take no more room than they fill.
func (p *Port) decideRows(names *portNames, keep func(*Port, Request) bool) []Row {
	if names.seen == nil {
		names.seen = map[seenName]bool{}
	}
	clear(names.seen)
	names.rows = names.rows[:0]
	for _, l := range p.Listeners {
		if !l.Accepted || l.Protocol == gwv1.TCPProtocolType || l.Protocol == gwv1.UDPProtocolType {
			continue
		}
		tls := l.Protocol != gwv1.HTTPProtocolType
		for _, r := range l.Routes {
			for _, h := range r.Hostnames {
				name := analyze.SampleSNI(h, l.Hostname)
				if names.seen[seenName{name, tls}] {
					continue
				}
				names.seen[seenName{name, tls}] = true
				req := Request{SNI: name}
				if !tls {
					req = Request{Host: name}
				}
				if keep != nil && !keep(p, req) {
					continue
				}
				names.rows = append(names.rows, Row{Hostname: h, Request: req})
			}
		}
	}
	if len(names.rows) == 0 {
		return nil
	}
	out := make([]Row, len(names.rows))
	for i, r := range names.rows {
		out[i] = Row{Hostname: r.Hostname, Request: r.Request, Decision: p.Decide(r.Request)}
	}
	return out
}
