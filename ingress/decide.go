package ingress

import (
	"fmt"
	"slices"

	"github.com/kubectl-gwtls/kubectl-gwtls/hostname"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
)

// Refusal is why a controller does not serve a request; Served when it does.
type Refusal int

const (
	// Served: the request reaches a backend, or is answered with a redirect.
	Served Refusal = iota
	// NoServer: no host of the controller on the port takes the name.
	NoServer
	// NoTLS: a TLS request for a host the controller terminates no TLS for.
	NoTLS
	// NoCertificate: the host's TLS entry has no usable Secret.
	NoCertificate
	// NoLocation: the host is served, but no path takes the request (404).
	NoLocation
)

func (r Refusal) String() string {
	switch r {
	case Served:
		return "Served"
	case NoServer:
		return "NoServer"
	case NoTLS:
		return "NoTLS"
	case NoCertificate:
		return "NoCertificate"
	case NoLocation:
		return "NoLocation"
	}
	return fmt.Sprintf("Refusal(%d)", int(r))
}

// Decision is what a controller does with one request.
type Decision struct {
	Serving *Serving
	// Server is the host that takes the request; Hostname is its host or
	// alias that matched.
	Server   *Server
	Hostname string
	// Location is the path that takes it, nil with passthrough and refusals
	// before the path.
	Location *Location
	// Certificate is what the host presents for the SNI of a TLS request it
	// terminates.
	Certificate *serving.Certificate
	// Passthrough: the TLS connection goes undecrypted to Location's backend.
	Passthrough bool
	// Redirect answers a plain HTTP request with a redirect to HTTPS, nil
	// when the request is forwarded.
	Redirect *Redirect
	Refusal  Refusal
}

// Redirect is an HTTP to HTTPS redirect.
type Redirect struct {
	StatusCode int
	// ForwardedProto: only requests whose X-Forwarded-Proto is http are
	// redirected (TLS terminated in front of the controller); others are
	// forwarded to the location's backend.
	ForwardedProto bool
	// Key is the annotation (or default) that switches it on.
	Key string
}

// Decide follows a request to a port through a controller: the host that
// takes its name (an exact host, then a wildcard of one label, then a rule
// without host), TLS and its certificate, passthrough, the redirect to
// HTTPS, and the path. A request with an SNI is a TLS one, on the host's
// HTTPS ports; without, plain HTTP on its HTTP ports.
func (s *Serving) Decide(port int32, req serving.Request) Decision {
	tls := req.SNI != ""
	name := req.Host
	if name == "" {
		name = req.SNI
	}
	d := Decision{Serving: s}
	srv, host := s.serverFor(port, tls, name)
	if srv == nil {
		d.Refusal = NoServer
		return d
	}
	d.Server, d.Hostname = srv, host
	if tls {
		if p := srv.Passthrough; p != nil {
			d.Location, d.Passthrough = p, true
			return d
		}
		if srv.TLS == nil {
			d.Refusal = NoTLS
			return d
		}
		if d.Certificate = srv.TLS.Certificate(req.SNI); d.Certificate == nil {
			d.Refusal = NoCertificate
			return d
		}
	}
	path := req.Path
	if path == "" {
		path = "/"
	}
	if d.Location = srv.locationFor(path); d.Location == nil {
		d.Refusal = NoLocation
		return d
	}
	if !tls {
		if r, ok := d.Location.Ingress.settings.redirect(srv.TLS != nil); ok {
			d.Redirect = &Redirect{StatusCode: r.code, ForwardedProto: r.forwardedProto, Key: r.key}
		}
	}
	return d
}

// serverFor is the server on the port that takes a name: an exact host, then
// the wildcard host that matches (one label), then a rule without host, as
// nginx's server_name chooses (exact, then wildcard, then the default server).
func (s *Serving) serverFor(port int32, tls bool, name string) (*Server, string) {
	var best *Server
	bestHost := ""
	for _, i := range s.serversNaming(name) {
		srv := s.Servers[i]
		ports := srv.HTTPPorts
		if tls {
			ports = srv.HTTPSPorts
		}
		if !slices.Contains(ports, port) {
			continue
		}
		h, ok := srv.takes(name)
		if !ok {
			continue
		}
		if best == nil || hostname.Compare(h, bestHost) < 0 {
			best, bestHost = srv, h
		}
	}
	return best, bestHost
}
