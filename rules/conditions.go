package rules

import (
	"fmt"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// Condition rules: a condition a conformant controller would write in an
// unhealthy state, with a reason. The ID, summary and help are built from the
// gateway-api constants, so no reason is retyped here.

// conditionObjects names, for people, the object of each condition rule family.
var conditionObjects = map[string]string{
	"gateway":          "Gateway",
	"listener":         "listener",
	"listenerset":      "ListenerSet",
	"route":            "route",
	"backendtlspolicy": "BackendTLSPolicy",
}

// conditionTypes says what a condition type being unhealthy means, and how
// severe that is: an object that is not accepted or whose references do not
// resolve does not carry traffic as written (error); overlapping TLS
// configuration carries it, at a risk (warning).
var conditionTypes = map[string]struct {
	state    string
	severity Severity
}{
	string(gwv1.GatewayConditionAccepted):              {"is not accepted", Error},
	string(gwv1.GatewayConditionResolvedRefs):          {"has references that do not resolve", Error},
	string(gwv1.ListenerConditionOverlappingTLSConfig): {"has a TLS configuration that overlaps another listener's on the same port", Warning},
}

// condition registers the rule that reports object's conditionType with reason;
// what says what the reason means, fix how it is fixed in general.
func condition[T, R ~string](object string, conditionType T, reason R, what, fix string, spec ...Spec) *Rule {
	ct, rs := string(conditionType), string(reason)
	healthy, _ := Healthy(ct)
	c := &Condition{Object: object, Type: ct, Reason: rs, Healthy: healthy}
	who, t := conditionObjects[object], conditionTypes[ct]
	status := c.Unhealthy()
	return register(&Rule{
		ID:        ID(object + "/" + ct + "/" + rs),
		Severity:  t.severity,
		Summary:   fmt.Sprintf("The %s %s (%s=%s, reason %s).", who, t.state, ct, status, rs),
		Help:      fmt.Sprintf("A conformant controller would set the %s's %s condition to %s with reason %s: %s.", who, ct, status, rs, what),
		Fix:       fix,
		Spec:      spec,
		Condition: c,
	})
}

// Gateway.
var (
	GatewayAcceptedInvalidParameters = condition("gateway", gwv1.GatewayConditionAccepted, gwv1.GatewayReasonInvalidParameters,
		"a parametersRef of the Gateway (spec.infrastructure.parametersRef) does not resolve",
		"Create the referenced object, fix the reference, or declare it with --external.",
		gatewayAPI("gateway_types.go: GatewayReasonInvalidParameters, GatewayInfrastructure.ParametersRef"))
	GatewayAcceptedListenersNotValid = condition("gateway", gwv1.GatewayConditionAccepted, gwv1.GatewayReasonListenersNotValid,
		"none of the Gateway's listeners is valid",
		"Fix the listeners' own findings; a Gateway is accepted once at least one listener is.",
		gatewayAPI("gateway_types.go: GatewayReasonListenersNotValid"))
	GatewayResolvedRefsInvalidClientCertificateRef = condition("gateway", gwv1.GatewayConditionResolvedRefs, gwv1.GatewayReasonInvalidClientCertificateRef,
		"spec.tls.backend.clientCertificateRef does not name an existing, valid kubernetes.io/tls Secret",
		"Reference a kubernetes.io/tls Secret that exists and holds a matching certificate and key.",
		gatewayAPI("gateway_types.go: GatewayReasonInvalidClientCertificateRef, GatewayBackendTLS.ClientCertificateRef"))
	GatewayResolvedRefsRefNotPermitted = condition("gateway", gwv1.GatewayConditionResolvedRefs, gwv1.GatewayReasonRefNotPermitted,
		"a reference to another namespace is not allowed by any ReferenceGrant",
		"Create a ReferenceGrant in the target namespace that allows the Gateway's namespace, or move the object.",
		gatewayAPI("gateway_types.go: GatewayReasonRefNotPermitted; referencegrant_types.go: ReferenceGrant"))
)

// Listener, of a Gateway or a ListenerSet.
var (
	ListenerAcceptedUnsupportedProtocol = condition("listener", gwv1.ListenerConditionAccepted, gwv1.ListenerReasonUnsupportedProtocol,
		"the listener's protocol is not supported",
		"Use a protocol the implementation supports (HTTP, HTTPS, TLS, TCP, UDP) or one the GatewayClass lists.",
		gatewayAPI("gateway_types.go: ListenerReasonUnsupportedProtocol, Listener.Protocol"))
	ListenerAcceptedUnsupportedValue = condition("listener", gwv1.ListenerConditionAccepted, gwv1.ListenerReasonUnsupportedValue,
		"a field of the listener has a value that is invalid or unsupported (for example the TLS mode for its protocol, or its hostname)",
		"Correct the field the message names: HTTPS terminates TLS, TLS needs a tls block, TLS/Terminate needs the TLSRouteModeTerminate feature.",
		gatewayAPI("gateway_types.go: ListenerReasonUnsupportedValue, ListenerTLSConfig"),
		gep2643("API"),
		hostnames("Listener (available in Gateway and ListenerSet)"))
	ListenerAcceptedHostnameConflict = condition("listener", gwv1.ListenerConditionAccepted, gwv1.ListenerReasonHostnameConflict,
		"another listener on the same port has the same hostname, so clients cannot be routed between them. "+
			"Within one Gateway or one ListenerSet no listener wins: every indistinct listener is conflicted (GatewaySpec.Listeners: \"The implementation MUST NOT pick one conflicting Listener as the winner\"). "+
			"Across a Gateway and its ListenerSets the merged list's precedence decides (the Gateway, then ListenerSets oldest first, then by namespace/name): only the listener of lower precedence is conflicted, "+
			"and a listener that lost this way does not knock out its siblings or later listeners (ListenerSetSpec.Listeners; upstream conformance ListenerSetHostnameConflict, ListenerSetProtocolConflict). "+
			"A conflicted ListenerSet listener is Programmed=False with the conflict's reason, as the upstream ListenerSet conformance tests assert",
		"Give the listeners distinct hostnames or ports; across a Gateway and its ListenerSets the listener of higher precedence keeps its place.",
		gatewayAPI("gateway_types.go: GatewaySpec.Listeners (Handling indistinct Listeners), ListenerReasonHostnameConflict; listenerset_types.go: ListenerSetSpec.Listeners, ListenerEntryReasonHostnameConflict"),
		gep1713("Listener and ListenerSet Conflicts"))
	ListenerAcceptedProtocolConflict = condition("listener", gwv1.ListenerConditionAccepted, gwv1.ListenerReasonProtocolConflict,
		"another listener on the same port uses an incompatible protocol or TLS mode. "+
			"TLS/Passthrough beside HTTPS (which terminates) on one port is a conflict by default, as GEP-2643's conformance table says (\"A Gateway containing a Listener of type TLS/Passthrough and a Listener of type HTTPS/Terminate should not be accepted\"); "+
			"Gateway API v1.6 has no feature name for serving both on one port and leaves it to implementations, so for one that routes both on SNI, pass --allow-mixed-termination and they conflict only when their hostnames do. "+
			"TLS/Passthrough beside TLS/Terminate needs the Extended feature TLSRouteModeMixed. "+
			"A listener whose mode the implementation cannot combine with its neighbour's lists no supportedKinds and counts no routes: ListenerStatus.SupportedKinds \"MUST represent the kinds supported by an implementation for that Listener configuration\", and the upstream test TLSRouteListenerMixedTerminationNotSupported expects it empty. "+
			"Precedence across a Gateway and its ListenerSets is as for HostnameConflict",
		"Move one listener to another port; if the implementation serves HTTPS and TLS Passthrough on one port, pass --allow-mixed-termination.",
		gatewayAPI("gateway_types.go: ListenerReasonProtocolConflict, GatewaySpec.Listeners, ListenerStatus.SupportedKinds; listenerset_types.go: ListenerSetSpec.Listeners"),
		gep2643("TLSRoute + Mixed Termination; Conformance tests"))
	ListenerAcceptedNoValidCACertificate = condition("listener", gwv1.ListenerConditionAccepted, gwv1.ListenerReasonNoValidCACertificate,
		"none of the CA certificates for client certificate validation is usable",
		"Reference at least one ConfigMap holding a valid PEM CA certificate under ca.crt.",
		gatewayAPI("gateway_types.go: ListenerReasonNoValidCACertificate, FrontendTLSValidation.CACertificateRefs"))
	ListenerResolvedRefsInvalidCertificateRef = condition("listener", gwv1.ListenerConditionResolvedRefs, gwv1.ListenerReasonInvalidCertificateRef,
		"a tls.certificateRefs entry is missing, is not a kubernetes.io/tls Secret, or holds an unusable certificate or key. "+
			"A listener with no usable certificate is Programmed=False; one that still has a usable certificate beside the broken one stays Programmed=True and serves with it, "+
			"because ListenerTLSConfig.CertificateRefs lets implementations attach several certificates (\"Implementations MAY choose to support attaching multiple certificates to a Listener\") and only ResolvedRefs reports the broken reference",
		"Reference a kubernetes.io/tls Secret whose certificate chain is valid, matches its key and covers the listener's hostnames.",
		gatewayAPI("gateway_types.go: ListenerReasonInvalidCertificateRef, ListenerTLSConfig.CertificateRefs, ListenerConditionProgrammed"))
	ListenerResolvedRefsRefNotPermitted = condition("listener", gwv1.ListenerConditionResolvedRefs, gwv1.ListenerReasonRefNotPermitted,
		"a reference to another namespace is not allowed by any ReferenceGrant",
		"Create a ReferenceGrant in the target namespace that allows Gateways from the listener's namespace.",
		gatewayAPI("gateway_types.go: ListenerReasonRefNotPermitted, ListenerTLSConfig.CertificateRefs; referencegrant_types.go: ReferenceGrant"))
	ListenerResolvedRefsInvalidRouteKinds = condition("listener", gwv1.ListenerConditionResolvedRefs, gwv1.ListenerReasonInvalidRouteKinds,
		"allowedRoutes.kinds names a route kind the listener's protocol cannot serve. "+
			"A listener left with at least one valid kind stays Programmed=True and serves it; one left with none is Programmed=False, since no route can ever attach to it "+
			"(AllowedRoutes.Kinds: \"Invalid kinds are not supported\"; ListenerConditionProgrammed is True when the listener has \"generated some configuration that will soon be ready\", and with no kind there is none)",
		"List only route kinds the protocol accepts (HTTPS: HTTPRoute, GRPCRoute; TLS: TLSRoute).",
		gatewayAPI("gateway_types.go: ListenerReasonInvalidRouteKinds, AllowedRoutes.Kinds, ListenerConditionProgrammed"))
	ListenerResolvedRefsInvalidCACertificateRef = condition("listener", gwv1.ListenerConditionResolvedRefs, gwv1.ListenerReasonInvalidCACertificateRef,
		"a CA certificate reference for client validation does not resolve to a usable ConfigMap",
		"Reference an existing ConfigMap with a PEM CA certificate under ca.crt.",
		gatewayAPI("gateway_types.go: ListenerReasonInvalidCACertificateRef, FrontendTLSValidation.CACertificateRefs"))
	ListenerResolvedRefsInvalidCACertificateKind = condition("listener", gwv1.ListenerConditionResolvedRefs, gwv1.ListenerReasonInvalidCACertificateKind,
		"a CA certificate reference for client validation names an unsupported kind",
		"Reference a core ConfigMap.",
		gatewayAPI("gateway_types.go: ListenerReasonInvalidCACertificateKind, FrontendTLSValidation.CACertificateRefs"))
	ListenerOverlappingTLSConfigOverlappingHostnames = condition("listener", gwv1.ListenerConditionOverlappingTLSConfig, gwv1.ListenerReasonOverlappingHostnames,
		"its hostname overlaps another listener's on the same port (for example a wildcard and a name under it), so HTTP/2 connection coalescing can send requests to the wrong listener",
		"Use distinct certificates per hostname, avoid overlapping hostnames on one port, or make sure the implementation returns 421 on misdirected requests.",
		gatewayAPI("gateway_types.go: ListenerConditionOverlappingTLSConfig, ListenerReasonOverlappingHostnames"))
	ListenerOverlappingTLSConfigOverlappingCertificates = condition("listener", gwv1.ListenerConditionOverlappingTLSConfig, gwv1.ListenerReasonOverlappingCertificates,
		"its certificate covers hostnames served by another listener on the same port, so HTTP/2 connection coalescing can send requests to the wrong listener",
		"Issue certificates that cover only each listener's own hostnames.",
		gatewayAPI("gateway_types.go: ListenerConditionOverlappingTLSConfig, ListenerReasonOverlappingCertificates"))
)

// ListenerSet.
var (
	ListenerSetAcceptedNotAllowed = condition("listenerset", gwv1.ListenerSetConditionAccepted, gwv1.ListenerSetReasonNotAllowed,
		"the parent Gateway does not allow this ListenerSet (spec.allowedListeners)",
		"Allow the ListenerSet's namespace in the parent Gateway's spec.allowedListeners.namespaces.",
		gatewayAPI("listenerset_types.go: ListenerSetReasonNotAllowed; gateway_types.go: GatewaySpec.AllowedListeners"))
	ListenerSetAcceptedParentNotAccepted = condition("listenerset", gwv1.ListenerSetConditionAccepted, gwv1.ListenerSetReasonParentNotAccepted,
		"the parent Gateway does not exist or is not accepted",
		"Fix spec.parentRef, or fix the parent Gateway's own findings first.",
		gatewayAPI("listenerset_types.go: ListenerSetReasonParentNotAccepted"))
	ListenerSetAcceptedListenersNotValid = condition("listenerset", gwv1.ListenerSetConditionAccepted, gwv1.ListenerSetReasonListenersNotValid,
		"none of the ListenerSet's listeners is valid (accepted and programmed), as the upstream test ListenerSetReferenceGrant asserts of a ListenerSet whose only listener's certificate reference is not permitted. "+
			"Routes still attach to its accepted listeners (for example one whose only problem is an unresolved certificate), as they do to a Gateway listener in that state: "+
			"GEP-1713 \"A Route MAY attach to a conflicted ListenerSet\", and the ListenerSet is not refused by its parent, only its listeners are not ready; "+
			"a ListenerSet the parent does not allow or accept takes no route",
		"Fix the listeners' own findings.",
		gatewayAPI("listenerset_types.go: ListenerSetReasonListenersNotValid"),
		gep1713("Listener and ListenerSet Conflicts"))
)

// routeReasonHostnameConflict is the reason of RouteAcceptedHostnameConflict.
// GRPCRouteSpec.Hostnames requires Accepted=False and names no reason; the
// Gateway API's reason for the listener conflict of the same kind is this
// one, and implementations write it (Traefik's routeReasonHostnameConflict).
var routeReasonHostnameConflict = gwv1.RouteConditionReason(gwv1.ListenerReasonHostnameConflict)

// Routes: HTTPRoute, GRPCRoute, TLSRoute, TCPRoute, UDPRoute, per parentRef.
var (
	RouteAcceptedNoMatchingParent = condition("route", gwv1.RouteConditionAccepted, gwv1.RouteReasonNoMatchingParent,
		"a parentRef names no Gateway, ListenerSet or listener (sectionName, port) that exists and is accepted",
		"Correct the parentRef's name, namespace, sectionName or port, or fix the parent's own findings.",
		gatewayAPI("shared_types.go: RouteReasonNoMatchingParent, ParentReference"))
	RouteAcceptedNoMatchingListenerHostname = condition("route", gwv1.RouteConditionAccepted, gwv1.RouteReasonNoMatchingListenerHostname,
		"none of the route's hostnames intersects the hostname of any listener it could attach to",
		"Make a route hostname match a listener hostname; a wildcard listener *.example.com does not match example.com itself.",
		gatewayAPI("shared_types.go: RouteReasonNoMatchingListenerHostname"),
		hostnames("Hostname Intersection"))
	RouteAcceptedNotAllowedByListeners = condition("route", gwv1.RouteConditionAccepted, gwv1.RouteReasonNotAllowedByListeners,
		"the listeners' allowedRoutes (namespaces or kinds) do not admit this route. "+
			"A listener whose protocol the implementation does not support takes no route kind (its supportedKinds is empty), so a route whose only candidates are such listeners is NotAllowedByListeners, not NoMatchingParent: "+
			"RouteReasonNotAllowedByListeners is for \"no Listener whose allowedRoutes criteria permit the route\", and the parent and its listeners exist",
		"Widen the listener's allowedRoutes.namespaces (Same, All or a Selector matching the route's namespace) or kinds, use a supported protocol, or move the route.",
		gatewayAPI("shared_types.go: RouteReasonNotAllowedByListeners; gateway_types.go: AllowedRoutes, ListenerStatus.SupportedKinds"))
	RouteAcceptedUnsupportedValue = condition("route", gwv1.RouteConditionAccepted, gwv1.RouteReasonUnsupportedValue,
		"the route's spec.hostnames holds a value that is not a valid hostname (an IP address, or a wildcard that is not the whole leftmost label)",
		"Use DNS names in spec.hostnames; a wildcard only as the whole leftmost label (*.example.com).",
		gatewayAPI("shared_types.go: RouteReasonUnsupportedValue, Hostname"),
		hostnames("Hostname wildcards"))
	RouteAcceptedHostnameConflict = condition("route", gwv1.RouteConditionAccepted, routeReasonHostnameConflict,
		"an HTTPRoute and a GRPCRoute attach to one listener with hostnames that intersect there, and the other route is older (creation time, then namespace/name): "+
			"the listener \"MUST accept exactly one of these two routes\", and the other \"MUST raise an 'Accepted' condition with a status of 'False'\". "+
			"A route with no hostnames serves every hostname of the listener. The route is refused on that listener only: its parentRef is Accepted=False when it is refused on every listener it selects, "+
			"and stays accepted through the listeners that take it otherwise (it then still counts in the refusing listener's attachedRoutes, and route/HostnameConflictOnListener warns). "+
			"Two routes of one creation time and one namespace/name (one of each kind) are ordered by kind, GRPCRoute first; the spec names no order for them. "+
			"The spec names no reason either: this tool writes HostnameConflict, the Gateway API's reason for the listener conflict of the same kind and the one implementations write, and a controller's other reason for it is compared by status only",
		"Serve gRPC on a hostname of its own (grpc.example.com), attach the two routes to different listeners, or serve the hostname with one route kind.",
		gatewayAPI("grpcroute_types.go: GRPCRouteSpec.Hostnames (an HTTPRoute and a GRPCRoute on one listener with intersecting hostnames)"),
		gatewayAPI("gateway_types.go: ListenerStatus.AttachedRoutes"))
	RouteResolvedRefsInvalidKind = condition("route", gwv1.RouteConditionResolvedRefs, gwv1.RouteReasonInvalidKind,
		"a backendRef, a RequestMirror filter's backendRef, or an ExtensionRef filter names a kind the implementation does not know. "+
			"Backends may be core Services and, for HTTPRoute, GRPCRoute and TLSRoute, multicluster.x-k8s.io ServiceImports (\"Support: Extended for Kubernetes ServiceImport\"); mirrors may be Services. "+
			"An ExtensionRef filter's kind is known when declared with --external KIND (or KIND/NAMESPACE/NAME): HTTPRouteFilter says an unresolved custom filter \"MUST NOT be skipped\", so requests the rule matches receive an HTTP error, "+
			"and when some but not all rules of the route have such a filter the route is also PartiallyInvalid=True (reason UnsupportedValue, message \"Dropped Rule ...\")",
		"Reference a core Service (or a kind the implementation supports); declare an implementation's filter kind with --external.",
		gatewayAPI("shared_types.go: RouteReasonInvalidKind, RouteConditionPartiallyInvalid, BackendRef; httproute_types.go: HTTPBackendRef, HTTPRequestMirrorFilter.BackendRef, HTTPRouteFilter.Type, HTTPRouteRule.Filters"))
	RouteResolvedRefsRefNotPermitted = condition("route", gwv1.RouteConditionResolvedRefs, gwv1.RouteReasonRefNotPermitted,
		"a backendRef or a RequestMirror filter's backendRef to another namespace is not allowed by any ReferenceGrant",
		"Create a ReferenceGrant in the backend's namespace that allows the route's kind from the route's namespace.",
		gatewayAPI("shared_types.go: RouteReasonRefNotPermitted; httproute_types.go: HTTPRequestMirrorFilter.BackendRef; referencegrant_types.go: ReferenceGrant"))
	RouteResolvedRefsBackendNotFound = condition("route", gwv1.RouteConditionResolvedRefs, gwv1.RouteReasonBackendNotFound,
		"a backendRef or a RequestMirror filter's backendRef names a Service (or ServiceImport) that does not exist, or an ExtensionRef filter names an object of a declared kind that was not declared "+
			"(RouteReasonBackendNotFound: \"a reference to a resource that does not exist\")",
		"Create the object, fix the reference, or declare it with --external.",
		gatewayAPI("shared_types.go: RouteReasonBackendNotFound; httproute_types.go: HTTPRequestMirrorFilter.BackendRef, HTTPRouteFilter.Type"))
	RouteResolvedRefsNoValidCACertificate = condition("route", gwv1.RouteConditionResolvedRefs, gwv1.BackendTLSPolicyReasonNoValidCACertificate,
		"a BackendTLSPolicy targets the backend's Service (or its port) and none of its CA certificates is usable, and no other accepted policy applies, so every connection to that backend fails. "+
			"HTTPBackendRef lists this among the causes of an invalid backendRef (\"a BackendTLSPolicy is present that refers to the Service, and the implementation is unable to meet the requirement\") without naming a reason; "+
			"the policy's own reason is used, as RouteConditionResolvedRefs allows (\"Controllers may raise this condition with other reasons\")",
		"Fix the BackendTLSPolicy's caCertificateRefs (a ConfigMap with a PEM CA certificate under ca.crt), or use wellKnownCACertificates: System.",
		gatewayAPI("httproute_types.go: HTTPBackendRef; grpcroute_types.go: GRPCBackendRef; shared_types.go: RouteConditionResolvedRefs; backendtlspolicy_types.go: BackendTLSPolicyValidation.CACertificateRefs"),
		gep1897("API"))
	RouteResolvedRefsInvalid = condition("route", gwv1.RouteConditionResolvedRefs, gwv1.PolicyReasonInvalid,
		"the BackendTLSPolicy that applies to the backend's Service (the one on its port's sectionName before one on the whole Service, the older before the newer) is invalid (Accepted=False, reason Invalid: "+
			"for example a wellKnownCACertificates value the implementation does not support, a targetRef that is not a Service beside one that is, or (without admission) a hostname or subjectAltName the API server would refuse), so every connection to that backend fails. "+
			"GEP-1897: \"For an invalid BackendTLSPolicy, implementations MUST NOT fall back to unencrypted (plaintext) connections. Instead, the corresponding TLS connection MUST fail, and the client MUST receive an HTTP 5xx error response\"; "+
			"the newer policy it conflicts with does not apply instead. "+
			"HTTPBackendRef lists this among the causes of an invalid backendRef (\"a BackendTLSPolicy is present that refers to the Service, and the implementation is unable to meet the requirement\") without naming a reason; "+
			"the policy's own reason is used, as RouteConditionResolvedRefs allows (\"Controllers may raise this condition with other reasons\")",
		"Correct the BackendTLSPolicy as its own backendtlspolicy/Accepted/Invalid finding says (wellKnownCACertificates: System, or caCertificateRefs; a DNS hostname).",
		gatewayAPI("httproute_types.go: HTTPBackendRef; grpcroute_types.go: GRPCBackendRef; shared_types.go: RouteConditionResolvedRefs; backendtlspolicy_types.go: BackendTLSPolicyValidation.WellKnownCACertificates, BackendTLSPolicySpec.TargetRefs"),
		gep1897("API"))
)

// BackendTLSPolicy (GEP-1897).
var (
	BackendTLSPolicyAcceptedInvalid = condition("backendtlspolicy", gwv1.PolicyConditionAccepted, gwv1.PolicyReasonInvalid,
		"the policy's validation settings are invalid (for example both or neither of caCertificateRefs and wellKnownCACertificates, or a bad hostname or subjectAltName)",
		"Correct spec.validation as the message says.",
		gep1897("API"),
		gatewayAPI("policy_types.go: PolicyReasonInvalid; backendtlspolicy_types.go: BackendTLSPolicyValidation"))
	BackendTLSPolicyAcceptedConflicted = condition("backendtlspolicy", gwv1.PolicyConditionAccepted, gwv1.PolicyReasonConflicted,
		"another BackendTLSPolicy targets the same Service (and sectionName) and takes precedence",
		"Merge the policies, or target a different Service port with sectionName.",
		gatewayAPI("backendtlspolicy_types.go: BackendTLSPolicySpec.TargetRefs; policy_types.go: PolicyReasonConflicted"))
	BackendTLSPolicyAcceptedNoValidCACertificate = condition("backendtlspolicy", gwv1.PolicyConditionAccepted, gwv1.BackendTLSPolicyReasonNoValidCACertificate,
		"none of the referenced CA certificates is usable",
		"Reference at least one ConfigMap holding a valid PEM CA certificate under ca.crt.",
		gep1897("API"),
		gatewayAPI("backendtlspolicy_types.go: BackendTLSPolicyReasonNoValidCACertificate"))
	BackendTLSPolicyResolvedRefsInvalidKind = condition("backendtlspolicy", gwv1.BackendTLSPolicyConditionResolvedRefs, gwv1.BackendTLSPolicyReasonInvalidKind,
		"a caCertificateRefs entry names an unsupported kind",
		"Reference a core ConfigMap.",
		gep1897("API"),
		gatewayAPI("backendtlspolicy_types.go: BackendTLSPolicyReasonInvalidKind"))
	BackendTLSPolicyResolvedRefsInvalidCACertificateRef = condition("backendtlspolicy", gwv1.BackendTLSPolicyConditionResolvedRefs, gwv1.BackendTLSPolicyReasonInvalidCACertificateRef,
		"a caCertificateRefs entry does not resolve to a ConfigMap with a valid CA certificate",
		"Reference an existing ConfigMap in the policy's namespace with a PEM CA certificate under ca.crt.",
		gep1897("API"),
		gatewayAPI("backendtlspolicy_types.go: BackendTLSPolicyReasonInvalidCACertificateRef"))
)
