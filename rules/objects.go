package rules

// Rules about Gateway API objects that are not status conditions: what a
// controller accepts but a user most likely did not mean, and what the tool
// could not check.

var (
	GatewayClassNotFound = register(&Rule{
		ID:       "gateway/GatewayClassNotFound",
		Severity: Warning,
		Summary:  "The Gateway's GatewayClass is not in the input.",
		Help:     "The GatewayClass named by spec.gatewayClassName is not among the analyzed objects, so its supported features are unknown; the Gateway is analyzed as if its controller supported every feature.",
		Fix:      "Include the GatewayClass (with status.supportedFeatures) in the input, or pass --supported-features.",
		Spec:     []Spec{gatewayAPI("gateway_types.go: GatewaySpec.GatewayClassName; gatewayclass_types.go: GatewayClassStatus.SupportedFeatures")},
	})

	RouteNoParentRefs = register(&Rule{
		ID:       "route/NoParentRefs",
		Severity: Warning,
		Summary:  "The route names no parentRefs, so it attaches to nothing.",
		Help:     "A route without spec.parentRefs is not attached to any Gateway or ListenerSet and serves no traffic.",
		Fix:      "Add spec.parentRefs naming the Gateway (and optionally the listener with sectionName) or ListenerSet the route belongs to.",
		Spec:     []Spec{gatewayAPI("shared_types.go: CommonRouteSpec.ParentRefs")},
	})

	RouteHostnameConflictOnListener = register(&Rule{
		ID:       "route/HostnameConflictOnListener",
		Severity: Warning,
		Summary:  "A listener refuses the route for an older route of the other kind with intersecting hostnames; the parentRef stays accepted through its other listeners.",
		Help: "Of an HTTPRoute and a GRPCRoute whose hostnames intersect on one listener, the listener accepts only the older one (then the first by namespace/name). " +
			"When the refused route's parentRef still attaches to other listeners, it stays Accepted=True through them and counts in the refusing listener's attachedRoutes, " +
			"but the refusing listener does not serve it: requests for the shared hostnames there reach the other route. " +
			"When the parentRef is refused on every listener it selects, route/Accepted/HostnameConflict reports it instead.",
		Fix:  "Serve gRPC on a hostname of its own, attach the route to the listeners that should serve it (sectionName), or serve the hostname with one route kind.",
		Spec: []Spec{gatewayAPI("grpcroute_types.go: GRPCRouteSpec.Hostnames (an HTTPRoute and a GRPCRoute on one listener with intersecting hostnames)")},
	})

	RouteBackendPortNotFound = register(&Rule{
		ID:       "route/BackendPortNotFound",
		Severity: Error,
		Summary:  "A backendRef names a port the Service does not have for the route's protocol.",
		Help: "The backend Service exists but none of its spec.ports has the port the route's backendRef (or RequestMirror filter) names, with the transport the route carries " +
			"(UDP for a UDPRoute, TCP for every other kind), so no traffic reaches this backend. The route's ResolvedRefs condition is False with reason BackendNotFound " +
			"(\"a reference to a resource that does not exist\": the port), since every request to the backend fails as for a missing Service; " +
			"the finding keeps this rule's ID. A Service that declares no ports (headless, selector-less) has none to check.",
		Fix:  "Set backendRefs[].port to one of the Service's spec.ports[].port of the route's protocol.",
		Spec: []Spec{gatewayAPI("shared_types.go: BackendObjectReference.Port, RouteReasonBackendNotFound; httproute_types.go: HTTPBackendRef")},
	})

	ListenerCertificateRefsIgnored = register(&Rule{
		ID:       "listener/CertificateRefsIgnored",
		Severity: Warning,
		Summary:  "A TLS listener in Passthrough mode lists certificateRefs, which do nothing.",
		Help: "ListenerTLSConfig.Mode says of Passthrough that \"the certificateRefs field is ignored in this mode\": the listener is accepted and passes TLS through to the backend, " +
			"which presents its own certificate, so the Secrets listed are never served and their certificates are not checked.",
		Fix:  "Remove tls.certificateRefs, or use mode Terminate (feature TLSRouteModeTerminate) if the Gateway should terminate TLS.",
		Spec: []Spec{gatewayAPI("gateway_types.go: ListenerTLSConfig.Mode, ListenerTLSConfig.CertificateRefs"), gep2643("API")},
	})

	ReferenceExternal = register(&Rule{
		ID:       "reference/External",
		Severity: Info,
		Summary:  "A reference was taken on trust and not verified.",
		Help:     "The object references something declared with --external (for example a Secret issued by cert-manager at deploy time), or of a kind the cluster identity may not read; it is assumed to exist and its contents were not checked.",
		Fix:      "Nothing to fix; include the referenced object in the input to have it verified.",
		Spec:     []Spec{{Document: "kubectl-gwtls", Section: "analyze --external"}},
	})

	LoadUnreadable = register(&Rule{
		ID:       "load/Unreadable",
		Severity: Warning,
		Summary:  "A kind could not be listed from the cluster.",
		Help:     "The identity used to read the cluster may not list this kind; checks that need those objects were skipped, and references to them are reported as reference/External.",
		Fix:      "Grant get/list on the kind to this identity, or analyze manifests with -f.",
		Spec:     []Spec{{Document: "Kubernetes RBAC", Section: "the get and list verbs on each kind the analysis reads"}},
	})
)

// BackendTLSPolicy rules that do not change the policy's conditions (GEP-1897).
var (
	BackendTLSPolicyNoAncestors = register(&Rule{
		ID:       "backendtlspolicy/NoAncestors",
		Severity: Info,
		Summary:  "No attached route reaches a Service the BackendTLSPolicy targets.",
		Help:     "No route attached to a Gateway in the input sends traffic to a Service this policy targets, so no Gateway would report the policy in its status.ancestors.",
		Fix:      "Check spec.targetRefs, or include the routes and Gateways that use the Service.",
		Spec:     []Spec{gatewayAPI("policy_types.go: PolicyStatus.Ancestors")},
	})

	BackendTLSPolicyTargetNotFound = register(&Rule{
		ID:       "backendtlspolicy/TargetNotFound",
		Severity: Warning,
		Summary:  "A BackendTLSPolicy targets a Service that is not in the input.",
		Help:     "A targetRefs entry names a Service that is not among the analyzed objects (targets are always in the policy's namespace), so the policy applies to nothing that could be checked.",
		Fix:      "Fix the name, include the Service in the input, or declare it with --external.",
		Spec:     []Spec{gep1897("API"), gatewayAPI("backendtlspolicy_types.go: BackendTLSPolicySpec.TargetRefs")},
	})

	BackendTLSPolicySectionNameNotFound = register(&Rule{
		ID:       "backendtlspolicy/SectionNameNotFound",
		Severity: Error,
		Summary:  "A BackendTLSPolicy's sectionName names no port of the Service.",
		Help:     "A targetRefs entry's sectionName must be the name of one of the target Service's spec.ports; otherwise the policy does not apply to any port.",
		Fix:      "Set sectionName to the name of one of the Service's spec.ports.",
		Spec:     []Spec{gatewayAPI("backendtlspolicy_types.go: BackendTLSPolicySpec.TargetRefs; policy_types.go: LocalPolicyTargetReferenceWithSectionName")},
	})

	BackendTLSPolicyUnprefixedOption = register(&Rule{
		ID:       "backendtlspolicy/UnprefixedOption",
		Severity: Warning,
		Summary:  "A BackendTLSPolicy option key has no domain prefix.",
		Help:     "Keys of spec.options without a domain prefix are reserved for Gateway API; implementation-specific options must be domain-prefixed.",
		Fix:      "Use the implementation's domain-prefixed key (for example example.com/name).",
		Spec:     []Spec{gatewayAPI("backendtlspolicy_types.go: BackendTLSPolicySpec.Options")},
	})
)
