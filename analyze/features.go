package analyze

import (
	"sort"
	"strings"

	"sigs.k8s.io/gateway-api/pkg/features"
)

// Features is the set of Gateway API features an implementation supports. A nil
// Features supports everything: the tool then models the most capable conformant
// controller, and only the spec's core rules reject configuration.
type Features map[features.FeatureName]bool

// Supports reports whether the feature is supported.
func (f Features) Supports(name features.FeatureName) bool {
	return f == nil || f[name]
}

// ParseFeatures reads a comma-separated list of feature names
// (TLSRoute,TLSRouteModeTerminate,...), as GatewayClass status.supportedFeatures
// names them.
func ParseFeatures(s string) Features {
	f := Features{}
	for _, name := range strings.Split(s, ",") {
		if name = strings.TrimSpace(name); name != "" {
			f[features.FeatureName(name)] = true
		}
	}
	return f
}

// String lists the features, sorted.
func (f Features) String() string {
	if f == nil {
		return "all"
	}
	names := make([]string, 0, len(f))
	for n := range f {
		names = append(names, string(n))
	}
	sort.Strings(names)
	return strings.Join(names, ",")
}
