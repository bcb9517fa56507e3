package serving

import (
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
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

// decideRows decides every port's rows, once.
func (t *Table) decideRows() {
	t.rowsOnce.Do(func() {
		seen := map[Request]bool{}
		for _, g := range t.Gateways {
			for _, p := range g.Ports {
				clear(seen)
				p.rows = p.decideRows(seen)
			}
		}
	})
}

// decideRows are the hostnames a port serves: every intersected hostname of
// every route attached to an accepted listener that routes on names (not TCP or
// UDP), one row per name a client sends.
func (p *Port) decideRows(seen map[Request]bool) []Row {
	var out []Row
	for _, l := range p.Listeners {
		if !l.Accepted || l.Protocol == gwv1.TCPProtocolType || l.Protocol == gwv1.UDPProtocolType {
			continue
		}
		for _, r := range l.Routes {
			for _, h := range r.Hostnames {
				req := Request{SNI: analyze.SampleSNI(h, l.Hostname)}
				if l.Protocol == gwv1.HTTPProtocolType {
					req = Request{Host: req.SNI}
				}
				if seen[req] {
					continue
				}
				seen[req] = true
				out = append(out, Row{Hostname: h, Request: req, Decision: p.Decide(req)})
			}
		}
	}
	return out
}
