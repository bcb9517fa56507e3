package ingress

import (
	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
)

// Row is one request a controller serves for an Ingress path, and what it
// does with it: the shape of a Gateway API serving table's row (a port, a
// hostname, the request a client sends, the decision), with the path that
// the request exercises.
type Row struct {
	Serving *Serving
	Port    int32
	// Hostname is the host (or alias) the row is for; "" means any.
	Hostname string
	// Request is what a client sends: the name (analyze.SampleSNI: a
	// wildcard with the label "test"), as SNI on an HTTPS port and as Host
	// on both, and a sample path of Location (POST for a gRPC backend).
	Request serving.Request
	// Location is the path the request exercises; the decision may give it
	// to another, when one matches it better.
	Location *Location
	// Spec says the Ingress specification's path matching takes the request
	// for Location; false when only the controller's does (Sample.Spec).
	Spec bool
	Decision
}

// TLS reports whether the row's request is a TLS one.
func (r *Row) TLS() bool { return r.Request.SNI != "" }

// Rows are every request the controller serves for its Ingresses' paths: for
// each host (and alias), each HTTP port and, when the host terminates TLS or
// passes it through, each HTTPS port, each path's samples. A passthrough
// host's HTTPS port has one row, without a path: the connection is not
// decrypted.
func (s *Serving) Rows() []*Row {
	var out []*Row
	for _, srv := range s.Servers {
		for _, h := range srv.Hostnames() {
			name := analyze.SampleSNI(h, "")
			for _, port := range srv.HTTPPorts {
				out = s.appendPaths(out, srv, h, port, serving.Request{Host: name})
			}
			if srv.TLS == nil && srv.Passthrough == nil {
				continue
			}
			for _, port := range srv.HTTPSPorts {
				if p := srv.Passthrough; p != nil {
					req := serving.Request{SNI: name}
					out = append(out, &Row{Serving: s, Port: port, Hostname: h, Request: req, Location: p, Spec: true, Decision: s.Decide(port, req)})
					continue
				}
				out = s.appendPaths(out, srv, h, port, serving.Request{SNI: name, Host: name})
			}
		}
	}
	return out
}

func (s *Serving) appendPaths(out []*Row, srv *Server, h string, port int32, base serving.Request) []*Row {
	for _, l := range srv.Locations {
		for _, sample := range l.Samples() {
			req := base
			req.Path = sample.Path
			if l.Backend.GRPC {
				req.Method = "POST"
			}
			out = append(out, &Row{Serving: s, Port: port, Hostname: h, Request: req, Location: l, Spec: sample.Spec, Decision: s.Decide(port, req)})
		}
	}
	return out
}
