package migration

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/ingress"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
)

// h2cAppProtocol is the Kubernetes Standard Application Protocol for HTTP/2
// over cleartext (KEP-3726), which HTTPBackendRef and GRPCBackendRef say
// implementations SHOULD recognize on a Service port.
const h2cAppProtocol = "kubernetes.io/h2c"

// gatewayHTTP2 reports whether the Gateway speaks HTTP/2 to a backend of the
// rule that takes a request, with the appProtocol that decided it ("" when
// the route type did). The backendRef's Service port's appProtocol decides
// where it is set ("implementations SHOULD honor the
// appProtocol field if it is set for the target Service Port"); without
// one, a GRPCRoute's backends are spoken to with HTTP/2 ("Implementations
// MAY infer the protocol from the Route type") and an HTTPRoute's with
// HTTP/1.1. An appProtocol outside KEP-3726 is the implementation's to read,
// and is left to the route type.
func (c *comparison) gatewayHTTP2(g *gatewaySide, b serving.Backend) (h2 bool, appProtocol string) {
	if p := c.appProtocol(b); p != "" {
		switch {
		case p == h2cAppProtocol:
			return true, p
		case strings.HasPrefix(p, "kubernetes.io/"):
			return false, p
		}
	}
	return g.Rule.Route.Ref.Kind == "GRPCRoute", ""
}

// http2Why says why gatewayHTTP2 decided as it did; built only for a
// finding.
func http2Why(g *gatewaySide, b serving.Backend, appProtocol string) string {
	switch {
	case appProtocol != "":
		return fmt.Sprintf("Service port %s:%d has appProtocol %s", b.Name, b.Port, appProtocol)
	case g.Rule.Route.Ref.Kind == "GRPCRoute":
		return fmt.Sprintf("%s is a GRPCRoute", g.Rule.Route.Ref)
	}
	return fmt.Sprintf("%s is an HTTPRoute and Service port %s:%d has no appProtocol %s", g.Rule.Route.Ref, b.Name, b.Port, h2cAppProtocol)
}

// appProtocol is the appProtocol of the Service port a backendRef names,
// "" when unset or when the head does not hold the Service.
func (c *comparison) appProtocol(b serving.Backend) string {
	if b.Kind != "" {
		return ""
	}
	if c.services == nil {
		c.services = make(map[model.NamespacedName]*model.Service, len(c.res.Model.Services))
		for _, s := range c.res.Model.Services {
			c.services[model.NameOf(s.Obj)] = s
		}
	}
	svc := c.services[b.Name]
	if svc == nil {
		return ""
	}
	for _, p := range svc.Obj.Spec.Ports {
		if p.Port == b.Port && (p.Protocol == "" || p.Protocol == corev1.ProtocolTCP) && p.AppProtocol != nil {
			return *p.AppProtocol
		}
	}
	return ""
}

// backendProtocol compares the HTTP version both sides speak to a backend:
// gRPC is HTTP/2 (ingress-nginx's backend-protocol GRPC and GRPCS, NGINX
// Ingress Controller's grpc-services), which a backend that speaks only
// HTTP/1.1 does not answer, and the other way round.
func (c *comparison) backendProtocol(row *ingress.Row, g *gatewaySide, req string, b serving.Backend, context string) {
	loc := row.Location
	be := loc.Backend
	h2, appProtocol := c.gatewayHTTP2(g, b)
	if be.GRPC == h2 {
		return
	}
	why := http2Why(g, b, appProtocol)
	switch {
	case be.GRPC:
		c.add(loc.Ingress.Ref, loc.Place, rules.MigrationBackendProtocolChanged, req, sideOf(g),
			fmt.Sprintf("%sthe Ingress speaks gRPC (HTTP/2) to %s (%s); the Gateway speaks HTTP/1.1 to it: %s", context, backendLabel(be), strings.Join(be.Keys, ", "), why),
			fmt.Sprintf("serve the path with a GRPCRoute, or set appProtocol: %s on port %d of Service %s (HTTP/2 over TLS, for a TLS backend, with a BackendTLSPolicy on a GRPCRoute)", h2cAppProtocol, b.Port, b.Name))
	default:
		c.add(loc.Ingress.Ref, loc.Place, rules.MigrationBackendProtocolChanged, req, sideOf(g),
			fmt.Sprintf("%sthe Gateway speaks HTTP/2 to %s (%s); the Ingress speaks HTTP/1.1 to it", context, backendLabel(be), why),
			fmt.Sprintf("serve the path with an HTTPRoute to a Service port without appProtocol %s, or make sure the backend speaks HTTP/2 now", h2cAppProtocol))
	}
}
