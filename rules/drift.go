package rules

// Drift rules: the status a controller wrote against the status the spec
// says (the one render status prints). They are warnings by default: the
// controller may have implementation-specific reasons the configuration does
// not show (an address it could not assign, a feature it does not support),
// and a user decides which side to believe; --fail-on warning gates on them.
// Messages and lastTransitionTime are never compared.

func drift(name, summary, help, fix string, spec ...Spec) *Rule {
	return register(&Rule{ID: ID("drift/" + name), Severity: Warning, Summary: summary, Help: help, Fix: fix, Spec: spec})
}

// kubernetesConditions cites metav1.Condition, whose observedGeneration says
// which spec a condition describes.
var kubernetesConditions = Spec{Document: "Kubernetes API (k8s.io/apimachinery pkg/apis/meta/v1)", Section: "Condition.ObservedGeneration"}

var (
	DriftStatusMissing = drift("StatusMissing",
		"No status from the controller where one is due.",
		"The controller of the object's GatewayClass wrote no status where the spec says it must: a GatewayClass "+
			"nothing has accepted (only the API server's \"Waiting for controller\" default), a class its controller "+
			"did not accept, a Gateway, ListenerSet or listener with no status, a route parentRef or a "+
			"BackendTLSPolicy ancestor with no entry from its controller. The finding says how long the object has "+
			"existed (metadata.creationTimestamp against --now): a controller that is running catches up within seconds. "+
			"Objects under a class that no controller serves are counted in the class's finding, not reported one by one.",
		"Check that a controller for the class's controllerName is running and accepts the class; its logs say why it skips the object.",
		gatewayAPI("gatewayclass_types.go: GatewayClassStatus (implementations MUST populate status on all GatewayClass resources which specify their controller name)"),
		gatewayAPI("shared_types.go: RouteStatus.Parents (the controller that manages the parent must add an entry when it first sees the route)"),
		gatewayAPI("policy_types.go: PolicyStatus.Ancestors (the controller MUST add an entry when it first sees the policy)"),
		gatewayAPI("gateway_types.go: GatewayStatus.Listeners; listenerset_types.go: ListenerSetStatus.Listeners"))

	DriftStaleGeneration = drift("StaleGeneration",
		"The controller has not processed the object's latest spec.",
		"A condition's observedGeneration is behind the object's metadata.generation: the controller wrote it "+
			"about an older spec, so what it says may no longer hold. The object's status is not compared "+
			"further until the controller catches up, and neither is what depends on it (the routes of a "+
			"Gateway that is behind, the attachedRoutes of listeners a route that is behind names).",
		"Wait for the controller to catch up; if it does not, check that it is running and read its logs for errors about this object.",
		kubernetesConditions)

	DriftConditionMismatch = drift("ConditionMismatch",
		"The controller wrote a condition the spec does not give.",
		"A condition the Gateway API defines for the object has a different status, or a different reason "+
			"from the Gateway API vocabulary (its reason constants), than the one a conformant controller "+
			"would write for this configuration. A reason outside that vocabulary is implementation-specific "+
			"and is compared by status only, and so is any reason where the spec requires a status and names no reason for that kind of entry "+
			"(the engine's reason is then not one the Gateway API gives it: route/Accepted/HostnameConflict, route/ResolvedRefs/NoValidCACertificate, route/ResolvedRefs/Invalid); condition types the spec does not define are listed as "+
			"implementation-specific by explain and render status --diff, not reported. Programmed=False with "+
			"a data-plane reason (Pending, NoResources, AddressNotAssigned, AddressNotUsable) is the data "+
			"plane's state, not the configuration's, and is not reported either. The finding names both "+
			"answers and the check that decides the spec's.",
		"Run explain on the object: it shows what the controller wrote beside what the spec says, and the check that decides; fix the configuration, or report the controller's answer to its maintainers.",
		gatewayAPI("gateway_types.go: GatewayConditionType, ListenerConditionType; listenerset_types.go: ListenerSetConditionType, ListenerEntryConditionType; shared_types.go: RouteConditionType; policy_types.go: PolicyConditionType; backendtlspolicy_types.go: BackendTLSPolicyConditionType"))

	DriftAttachedRoutesMismatch = drift("AttachedRoutesMismatch",
		"A listener's attachedRoutes (or a Gateway's attachedListenerSets) differs from the spec's count.",
		"The number of routes the controller counts as attached to a listener differs from the number "+
			"that attach to it under the spec: routes selected by its allowedRoutes through a valid parentRef, "+
			"counted even while the listener itself is not accepted; or the Gateway's count of accepted "+
			"ListenerSets differs. Routes the controller attached but the spec does not (or the reverse) "+
			"are the usual cause: explain the listener to see which routes attach.",
		"Explain the Gateway's listener to see which routes attach under the spec, and compare with the controller's route statuses.",
		gatewayAPI("gateway_types.go: ListenerStatus.AttachedRoutes, GatewayStatus.AttachedListenerSets; listenerset_types.go: ListenerEntryStatus.AttachedRoutes"))

	DriftSupportedKindsMismatch = drift("SupportedKindsMismatch",
		"A listener's supportedKinds differs from the spec's.",
		"The route kinds the controller lists for a listener differ from the kinds the listener's protocol "+
			"and allowedRoutes.kinds admit: kinds in allowedRoutes the protocol cannot carry MUST NOT appear, "+
			"and without allowedRoutes.kinds the protocol's kinds do.",
		"Set allowedRoutes.kinds to the kinds the listener should take, or report the controller's list to its maintainers.",
		gatewayAPI("gateway_types.go: ListenerStatus.SupportedKinds; listenerset_types.go: ListenerEntryStatus.SupportedKinds"))

	DriftOrphanedStatus = drift("OrphanedStatus",
		"The status holds an entry for something the spec no longer names.",
		"A route's status.parents entry names a parentRef the route's spec no longer has (or a parent "+
			"another controller owns), a BackendTLSPolicy's status.ancestors entry names a Gateway that no "+
			"longer reaches a Service it targets, or a Gateway's or ListenerSet's status.listeners names a "+
			"listener its spec no longer declares. Only entries of the selected classes' controllers are "+
			"considered: another controller's entries are its own.",
		"The controller should remove the entry when it processes the object; if it does not, it is not cleaning up its status: check that it is running.",
		gatewayAPI("shared_types.go: RouteStatus.Parents (parent status is namespaced by parentRef and controllerName)"),
		gatewayAPI("policy_types.go: PolicyStatus.Ancestors (a map keyed by ancestorRef and controllerName)"),
		gatewayAPI("gateway_types.go: GatewayStatus.Listeners (status for each listener defined in the spec, a map keyed by name)"))
)
