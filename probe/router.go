package probe

import (
	"errors"
	"fmt"

	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
	"github.com/kubectl-gwtls/kubectl-gwtls/simulate"
)

var (
	errNoSNI     = errors.New("the client sent no SNI; TLS listeners route on it")
	errNoBackend = errors.New("refused: no resolved backend with a non-zero weight")
)

// route is where the proxy sends one connection: the serving table's decision
// for its SNI on a Gateway port, and the backend the probe picks.
type route struct {
	sni      string
	decision serving.Decision
	backend  serving.Backend
}

// routeFor routes a connection by its SNI, as `simulate --sni` answers for the
// port: the table decides once per configuration how names are served, so a
// connection costs a lookup. A refusal says why in simulate's words.
func routeFor(port *serving.Port, sni string) (route, error) {
	rt := route{sni: sni, decision: port.Decide(serving.Request{SNI: sni})}
	if rt.decision.Refusal != serving.Served {
		out := simulate.OutcomeOf(simulate.Request{SNI: sni, Port: port.Number, Gateway: port.Gateway.Name.String()}, rt.decision)
		return rt, fmt.Errorf("refused: %s", out.Reason)
	}
	b, ok := pickBackend(rt.decision.Route())
	if !ok {
		return rt, errNoBackend
	}
	rt.backend = b
	return rt, nil
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
