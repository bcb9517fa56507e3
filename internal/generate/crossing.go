package generate

import (
	"bufio"
	"fmt"
	"io"
)

// Crossing sizes the worst shape for attachment: every route attaches to every
// listener of every Gateway it names, with every one of its hostnames. Listeners
// are HTTP, each on a port of its own with hostname *.example.com (every other one
// with none), so none conflicts with another; routes name Gateways without
// sectionName or port and carry wildcard hostnames under example.com, so each
// route and listener pair intersects in all of the route's hostnames.
//
// Admission bounds a Gateway to 64 listeners and a route to 32 parentRefs and
// 16 hostnames; Crossing does not, so that it can also write what an engine
// reading unadmitted input gets.
type Crossing struct {
	Gateways, ListenersPerGateway int
	Routes                        int
	// ParentRefs is how many Gateways each route names (all of them when it is
	// Gateways or more); route i starts at Gateway i, so every Gateway is named.
	ParentRefs int
	// Hostnames is how many hostnames each route has (*.r0.example.com, ...);
	// zero writes none, so the route takes any hostname.
	Hostnames int
}

// Pairs is the number of route and listener pairs the configuration attaches.
func (c Crossing) Pairs() int {
	return c.Routes * min(c.ParentRefs, c.Gateways) * c.ListenersPerGateway
}

// WriteCrossing streams the configuration c sizes as multi-document YAML.
func WriteCrossing(w io.Writer, c Crossing) error {
	if c.Gateways < 1 || c.ListenersPerGateway < 1 || c.ListenersPerGateway > 50000 || c.Routes < 0 || c.ParentRefs < 1 || c.Hostnames < 0 {
		return fmt.Errorf("generate: crossing needs at least one Gateway, 1 to 50,000 listeners each, and one parentRef per route (got %+v)", c)
	}
	b := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(b, "# Crossing: %d Gateways x %d listeners, %d routes x %d parentRefs x %d hostnames: %d route-listener pairs\n",
		c.Gateways, c.ListenersPerGateway, c.Routes, c.ParentRefs, c.Hostnames, c.Pairs())
	fmt.Fprintf(b, "apiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\nmetadata:\n  name: %s\nspec:\n  controllerName: %s\n", className, controller)
	for _, ns := range []string{"infra", "apps"} {
		fmt.Fprintf(b, "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: %s\n", ns)
	}
	fmt.Fprintf(b, "---\napiVersion: v1\nkind: Service\nmetadata:\n  name: app\n  namespace: apps\nspec:\n  ports:\n  - port: 80\n")
	for g := range c.Gateways {
		fmt.Fprintf(b, "---\napiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: gw-%d\n  namespace: infra\nspec:\n  gatewayClassName: %s\n  listeners:\n", g, className)
		for l := range c.ListenersPerGateway {
			fmt.Fprintf(b, "  - name: l%d\n    port: %d\n    protocol: HTTP\n", l, 10000+l)
			if l%2 == 1 {
				b.WriteString("    hostname: '*.example.com'\n")
			}
			b.WriteString("    allowedRoutes:\n      namespaces:\n        from: All\n")
		}
	}
	refs := min(c.ParentRefs, c.Gateways)
	for r := range c.Routes {
		fmt.Fprintf(b, "---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: route-%d\n  namespace: apps\nspec:\n  parentRefs:\n", r)
		for k := range refs {
			fmt.Fprintf(b, "  - name: gw-%d\n    namespace: infra\n", (r+k)%c.Gateways)
		}
		if c.Hostnames > 0 {
			b.WriteString("  hostnames:\n")
			for h := range c.Hostnames {
				fmt.Fprintf(b, "  - '*.r%d.example.com'\n", h)
			}
		}
		b.WriteString("  rules:\n  - backendRefs:\n    - name: app\n      port: 80\n")
	}
	return b.Flush()
}
