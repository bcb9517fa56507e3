package probe

import (
	"errors"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
	"github.com/kubectl-gwtls/kubectl-gwtls/simulate"
)

var errNoSNI = &refusal{why: serving.NoListener, reason: "the client sent no SNI; TLS listeners route on it"}

// refusal is a connection or request the proxy refuses, as simulate does for
// the same request.
type refusal struct {
	why    serving.Refusal
	reason string
}

func (r *refusal) Error() string { return "refused: " + r.reason }

func isRefusal(err error) bool {
	var r *refusal
	return errors.As(err, &r)
}

// route is where the proxy sends one connection or request: the serving
// table's decision for it on a Gateway port, and the backend the probe picks.
type route struct {
	sni      string
	decision serving.Decision
	backend  serving.Backend
}

// routeFor routes a connection by its SNI, as `simulate --sni` answers for the
// port: the table decides once per configuration how names are served, so a
// connection costs a lookup. A refusal says why in simulate's words.
//
// An HTTPS listener routes each request by its Host header once TLS is
// terminated (routeForHost), so here it refuses only what happens before a
// Host is read: no listener, a listener not accepted, no route for the SNI, no
// certificate. The route and backend of a request are decided later.
func routeFor(port *serving.Port, sni string) (route, error) {
	req := serving.Request{SNI: sni}
	d := port.Decide(req)
	if l := d.Listener; l != nil && l.Protocol == gwv1.HTTPSProtocolType {
		rt := route{sni: sni, decision: d}
		if d.Refusal == serving.Served || decidedByHost(d.Refusal) {
			return rt, nil
		}
		return rt, refuse(port, req, d)
	}
	return decide(port, req, d)
}

// routeForHost routes one request on an HTTPS listener by its Host header, as
// `simulate --sni SNI --host HOST` answers (spec 003 "Host header matching").
func routeForHost(port *serving.Port, sni, host string) (route, error) {
	req := serving.Request{SNI: sni, Host: host}
	return decide(port, req, port.Decide(req))
}

// decidedByHost reports whether an HTTPS listener's refusal of a request
// depends on its Host header, which a client may set apart from the SNI.
func decidedByHost(r serving.Refusal) bool {
	return r == serving.NoRouteForHost || r == serving.NoBackendRefs || r == serving.NoBackendResolves
}

// decide is the route of a decision with the backend the probe picks.
func decide(port *serving.Port, req serving.Request, d serving.Decision) (route, error) {
	rt := route{sni: req.SNI, decision: d}
	if d.Refusal != serving.Served {
		return rt, refuse(port, req, d)
	}
	b, ok := pickBackend(d.Route())
	if !ok {
		return rt, &refusal{why: serving.NoBackendResolves, reason: "no resolved backend with a non-zero weight"}
	}
	rt.backend = b
	return rt, nil
}

// refuse says a refusal in simulate's words.
func refuse(port *serving.Port, req serving.Request, d serving.Decision) error {
	out := simulate.OutcomeOf(simulate.Request{SNI: req.SNI, Host: req.Host, Port: port.Number, Gateway: port.Gateway.Name.String()}, d)
	return &refusal{why: d.Refusal, reason: out.Reason}
}

// pickBackend is the first resolved backend with a non-zero weight: a probe wants
// one deterministic answer, not a traffic split.
func pickBackend(r *serving.Route) (serving.Backend, bool) {
	for _, b := range r.Backends() {
		if b.Resolved && b.Weight > 0 {
			return b, true
		}
	}
	return serving.Backend{}, false
}

// backendKey names the backend as --backend does.
func (rt route) backendKey() string {
	return BackendKey(rt.backend.Name.Namespace, rt.backend.Name.Name, rt.backend.Port)
}

// routeName is the route as a built-in backend names it: KIND/NAMESPACE/NAME.
func (rt route) routeName() string { return rt.decision.Route().Ref.String() }

// hostnames are the intersected hostnames the route serves on the listener, as a
// passthrough backend's certificate names them; the SNI when it serves any.
func (rt route) hostnames() []string {
	var names []string
	for _, h := range rt.decision.Route().Hostnames {
		if h != "" && h != "*" {
			names = append(names, h)
		}
	}
	if len(names) == 0 {
		names = []string{rt.sni}
	}
	return names
}

// httpStatus is what an HTTPS listener answers a request it refuses: 404 when
// no route matches the Host (spec 003; simulate says "HTTP 404"), and 500 when
// a route matches but none of its backends resolves (HTTPRoute backendRefs:
// "all traffic which matches this rule MUST receive a 500 status code").
func (r *refusal) httpStatus() int {
	if r.why == serving.NoRouteForHost {
		return 404
	}
	return 500
}
