package gwtls

import (
	"fmt"
	"math"
	"net"
	"regexp"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/gateway-api/pkg/features"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/suggest"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
)

// The values flags accept. Each check returns a usage error that names what
// the flag accepts, so a typo is caught before any work is done.

// validPort accepts a TCP port: 1 to 65535 (a Gateway listener's port is a
// PortNumber, 1-65535).
func validPort(flag string, p int32) error {
	if p < 1 || p > math.MaxUint16 {
		return usageErrorf("%s %d: want a port from 1 to 65535", flag, p)
	}
	return nil
}

// validWarnExpiry accepts a positive duration: how long before expiry a
// certificate is reported.
func validWarnExpiry(d time.Duration) error {
	if d <= 0 {
		return usageErrorf("--warn-expiry %s: want a positive duration, such as 720h (30 days, the default) or 168h", d)
	}
	return nil
}

// knownFeatures are the Gateway API feature names, sorted: the names a
// GatewayClass's status.supportedFeatures and conformance use
// (sigs.k8s.io/gateway-api/pkg/features AllFeatures).
func knownFeatures() []string {
	names := make([]string, 0, len(features.AllFeatures))
	for f := range features.AllFeatures {
		names = append(names, string(f.Name))
	}
	slices.Sort(names)
	return names
}

// featureFamilies are the kinds Gateway API feature names start with
// (pkg/features: GatewayPort8080, HTTPRouteQueryParamMatching,
// BackendTLSPolicySANValidation, MeshClusterIPMatching, ...). A newer release
// adds features within these families, so a name that starts with one of them
// is taken for a newer release's feature, not for a typo.
var featureFamilies = []string{"BackendTLSPolicy", "GRPCRoute", "Gateway", "HTTPRoute", "ListenerSet",
	"Mesh", "ReferenceGrant", "TCPRoute", "TLSRoute", "UDPRoute"}

// featureName is the shape of a Gateway API feature name: UpperCamelCase
// letters and digits.
var featureName = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)

// checkSupportedFeatures reads a comma-separated list of Gateway API feature
// names. A name this build's gateway-api defines is taken; a name close to one
// of them is a typo (a usage error with a did-you-mean); a name of a feature
// family that this build does not define is a newer release's feature, as a
// GatewayClass of that release lists it in status.supportedFeatures: it is
// returned in newer, to be reported and ignored (the engine models none of
// them); anything else is a usage error naming the features.
func checkSupportedFeatures(list string) (newer []string, err error) {
	if list == "" {
		return nil, nil
	}
	known := knownFeatures()
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" || slices.Contains(known, name) {
			continue
		}
		if best, d := suggest.Closest(name, known); d >= 0 && d <= 2 {
			return nil, usageErrorf("--supported-features: %q is not a Gateway API feature (did you mean %s?)", name, best)
		}
		if featureName.MatchString(name) && slices.ContainsFunc(featureFamilies, func(f string) bool { return strings.HasPrefix(name, f) }) {
			newer = append(newer, name)
			continue
		}
		return nil, usageErrorf("--supported-features: %q is not a Gateway API feature; the features are: %s", name, strings.Join(known, ", "))
	}
	return newer, nil
}

// issuerKind is a Kubernetes kind: UpperCamelCase letters and digits.
var issuerKind = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)

// parseIssuer reads --issuer as cert-manager's issuerRef: KIND/NAME, KIND an
// Issuer, a ClusterIssuer or an external issuer's kind, NAME a Kubernetes
// object name (a DNS subdomain).
func parseIssuer(s string) (kind, name string, err error) {
	kind, name, ok := strings.Cut(s, "/")
	if !ok || !issuerKind.MatchString(kind) || len(validation.IsDNS1123Subdomain(name)) > 0 {
		return "", "", usageErrorf("--issuer %q: want KIND/NAME, such as ClusterIssuer/letsencrypt or Issuer/ca (KIND: Issuer, ClusterIssuer or an external issuer's kind; NAME: a lowercase DNS subdomain)", s)
	}
	return kind, name, nil
}

// validTTL accepts a DNS record TTL in seconds: 0 (omitted: the provider's
// default) to 2^31-1 (RFC 2181 §8).
func validTTL(ttl int64) error {
	if ttl < 0 || ttl > math.MaxInt32 {
		return usageErrorf("--ttl %d: want seconds from 0 (the DNS provider's default) to 2147483647 (RFC 2181 §8)", ttl)
	}
	return nil
}

// parseGatewayFlag reads a --gateway flag as NAMESPACE/NAME.
func parseGatewayFlag(s string) (model.NamespacedName, error) {
	ns, name, ok := strings.Cut(s, "/")
	if !ok || ns == "" || name == "" || strings.Contains(name, "/") {
		return model.NamespacedName{}, usageErrorf("--gateway %q: want NAMESPACE/NAME", s)
	}
	return model.NamespacedName{Namespace: ns, Name: name}, nil
}

// gatewayInInput is an error unless the input holds the Gateway --gateway
// names: it says which Gateways the input holds, and which one was meant.
func gatewayInInput(t *serving.Table, name model.NamespacedName) error {
	if t.Gateway(name) != nil {
		return nil
	}
	if len(t.Gateways) == 0 {
		return fmt.Errorf("--gateway %s: the input holds no Gateway", name)
	}
	names := make([]string, len(t.Gateways))
	for i, g := range t.Gateways {
		names[i] = g.Name.String()
	}
	slices.Sort(names)
	hint := ""
	if best, d := suggest.Closest(name.String(), names); d >= 0 && d <= max(2, len(name.String())/3) {
		hint = fmt.Sprintf("; did you mean %s?", best)
	}
	const listed = 20
	list := strings.Join(names[:min(len(names), listed)], ", ")
	if len(names) > listed {
		list += fmt.Sprintf(" and %d more", len(names)-listed)
	}
	return fmt.Errorf("--gateway %s: no Gateway of that name in the input%s (its Gateways: %s)", name, hint, list)
}

// listenExposure is a warning when the proxy would listen where other hosts
// can reach it, "" on loopback. A usage error when the address is not one.
func listenExposure(addr string) (string, error) {
	if addr == "localhost" {
		return "", nil
	}
	ip := net.ParseIP(addr)
	switch {
	case ip == nil && strings.Contains(addr, ":"):
		return "", usageErrorf("--listen-address %q: want an IP address or a hostname, without a port (the proxy picks free ports)", addr)
	case ip != nil && ip.IsLoopback():
		return "", nil
	}
	where := "on " + addr
	if ip != nil && ip.IsUnspecified() {
		where = "on every interface"
	}
	return fmt.Sprintf("warning: --listen-address %s is not loopback: the proxy and its built-in backends accept connections from any host that can reach this one %s, and forward them to the backends the configuration names (and --backend maps)", addr, where), nil
}
