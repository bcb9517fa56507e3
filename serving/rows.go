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
					p.rows = p.decideRows(&names)
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

// decideRows are the hostnames a port serves: every intersected hostname of
// every route attached to an accepted listener that routes on names (not TCP or
// UDP), one row per name a client sends. The names are listed first, so that
// the rows, kept for the table's life, take no more room than they fill.
func (p *Port) decideRows(names *portNames) []Row {
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
