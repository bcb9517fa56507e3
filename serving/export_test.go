package serving

// Parts are how many items a core takes at a time, for tests that need the
// parallel path.
const (
	GatewaysPerPart = gatewaysPerPart
	PortsPerPart    = portsPerPart
)
