package drift

import (
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// The Gateway API's condition vocabulary, per kind of status entry: the
// condition types the spec defines for it, and every reason constant with the
// doc comment that defines it. A reason outside every entry's reasons is
// implementation-specific (compared by status only); a condition type outside
// an entry's types is implementation-specific (listed, never drift).

// entryKind is a kind of status entry: an object's own conditions, or a
// listener's, a route parent's or a policy ancestor's.
type entryKind int

const (
	gatewayEntry entryKind = iota
	listenerEntry
	listenerSetEntry
	listenerSetListenerEntry
	routeParentEntry
	policyAncestorEntry
	gatewayClassEntry
)

// vocabulary is one entry kind's condition types and reasons.
type vocabulary struct {
	types map[string]bool
	// reasons maps each reason to the constant that defines it, as a citation
	// (file: constant) of sigs.k8s.io/gateway-api apis/v1.
	reasons map[string]string
}

func (v *vocabulary) addReasons(file, prefix string, reasons ...string) {
	for _, r := range reasons {
		if _, dup := v.reasons[r]; !dup {
			v.reasons[r] = file + ": " + prefix + r
		}
	}
}

func newVocabulary(types ...string) *vocabulary {
	v := &vocabulary{types: map[string]bool{}, reasons: map[string]string{}}
	for _, t := range types {
		v.types[t] = true
	}
	return v
}

func strs[T ~string](vs ...T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

var vocabularies = func() map[entryKind]*vocabulary {
	gateway := newVocabulary(strs(gwv1.GatewayConditionAccepted, gwv1.GatewayConditionProgrammed, gwv1.GatewayConditionResolvedRefs,
		gwv1.GatewayConditionInsecureFrontendValidationMode)...)
	for _, t := range deprecatedGatewayTypes {
		gateway.types[t] = true
	}
	gateway.addReasons("gateway_types.go", "GatewayReason", strs(gwv1.GatewayReasonProgrammed, gwv1.GatewayReasonInvalid,
		gwv1.GatewayReasonNoResources, gwv1.GatewayReasonAddressNotAssigned, gwv1.GatewayReasonAddressNotUsable,
		gwv1.GatewayReasonConfigurationChanged, gwv1.GatewayReasonAccepted, gwv1.GatewayReasonListenersNotValid,
		gwv1.GatewayReasonPending, gwv1.GatewayReasonUnsupportedAddress, gwv1.GatewayReasonInvalidParameters,
		gwv1.GatewayReasonResolvedRefs,
		gwv1.GatewayReasonInvalidClientCertificateRef, gwv1.GatewayReasonRefNotPermitted, gwv1.GatewayReasonListenersNotResolved)...)
	gateway.addReasons("gateway_types.go", "GatewayReason", deprecatedGatewayReasons...)

	listener := newVocabulary(strs(gwv1.ListenerConditionConflicted, gwv1.ListenerConditionAccepted,
		gwv1.ListenerConditionResolvedRefs, gwv1.ListenerConditionProgrammed, gwv1.ListenerConditionOverlappingTLSConfig)...)
	for _, t := range deprecatedListenerTypes {
		listener.types[t] = true
	}
	listener.addReasons("gateway_types.go", "ListenerReason", strs(gwv1.ListenerReasonHostnameConflict, gwv1.ListenerReasonProtocolConflict,
		gwv1.ListenerReasonNoConflicts, gwv1.ListenerReasonAccepted, gwv1.ListenerReasonPortUnavailable,
		gwv1.ListenerReasonUnsupportedProtocol, gwv1.ListenerReasonNoValidCACertificate, gwv1.ListenerReasonUnsupportedValue,
		gwv1.ListenerReasonResolvedRefs, gwv1.ListenerReasonInvalidCertificateRef, gwv1.ListenerReasonInvalidRouteKinds,
		gwv1.ListenerReasonRefNotPermitted, gwv1.ListenerReasonInvalidCACertificateRef, gwv1.ListenerReasonInvalidCACertificateKind,
		gwv1.ListenerReasonProgrammed, gwv1.ListenerReasonInvalid, gwv1.ListenerReasonPending,
		gwv1.ListenerReasonOverlappingHostnames, gwv1.ListenerReasonOverlappingCertificates)...)
	listener.addReasons("gateway_types.go", "ListenerReason", deprecatedListenerReasons...)

	listenerSet := newVocabulary(strs(gwv1.ListenerSetConditionAccepted, gwv1.ListenerSetConditionProgrammed)...)
	listenerSet.addReasons("listenerset_types.go", "ListenerSetReason", strs(gwv1.ListenerSetReasonProgrammed, gwv1.ListenerSetReasonAccepted,
		gwv1.ListenerSetReasonNotAllowed, gwv1.ListenerSetReasonParentNotAccepted, gwv1.ListenerSetReasonListenersNotValid,
		gwv1.ListenerSetReasonInvalid, gwv1.ListenerSetReasonPending)...)

	// A ListenerSet's listeners are written with the ListenerEntry vocabulary;
	// the engine decides them as the Gateway's listeners, OverlappingTLSConfig
	// included, so the listener vocabulary is theirs too.
	listenerSetListener := newVocabulary(strs(gwv1.ListenerEntryConditionConflicted, gwv1.ListenerEntryConditionAccepted,
		gwv1.ListenerEntryConditionResolvedRefs, gwv1.ListenerEntryConditionProgrammed)...)
	for _, t := range deprecatedListenerEntryTypes {
		listenerSetListener.types[t] = true
	}
	listenerSetListener.addReasons("listenerset_types.go", "ListenerEntryReason", strs(gwv1.ListenerEntryReasonHostnameConflict,
		gwv1.ListenerEntryReasonProtocolConflict, gwv1.ListenerEntryReasonListenerConflict, gwv1.ListenerEntryReasonAccepted,
		gwv1.ListenerEntryReasonUnsupportedProtocol, gwv1.ListenerEntryReasonTooManyListeners, gwv1.ListenerEntryReasonResolvedRefs,
		gwv1.ListenerEntryReasonInvalidCertificateRef, gwv1.ListenerEntryReasonInvalidRouteKinds, gwv1.ListenerEntryReasonRefNotPermitted,
		gwv1.ListenerEntryReasonProgrammed, gwv1.ListenerEntryReasonPortUnavailable, gwv1.ListenerEntryReasonPending,
		gwv1.ListenerEntryReasonInvalid)...)
	listenerSetListener.addReasons("listenerset_types.go", "ListenerEntryReason", deprecatedListenerEntryReasons...)
	for t := range listener.types {
		listenerSetListener.types[t] = true
	}
	for r, cite := range listener.reasons {
		if _, ok := listenerSetListener.reasons[r]; !ok {
			listenerSetListener.reasons[r] = cite
		}
	}

	route := newVocabulary(strs(gwv1.RouteConditionAccepted, gwv1.RouteConditionResolvedRefs, gwv1.RouteConditionPartiallyInvalid)...)
	route.addReasons("shared_types.go", "RouteReason", strs(gwv1.RouteReasonAccepted, gwv1.RouteReasonNotAllowedByListeners,
		gwv1.RouteReasonNoMatchingListenerHostname, gwv1.RouteReasonNoMatchingParent, gwv1.RouteReasonUnsupportedValue,
		gwv1.RouteReasonPending, gwv1.RouteReasonIncompatibleFilters, gwv1.RouteReasonResolvedRefs, gwv1.RouteReasonRefNotPermitted,
		gwv1.RouteReasonInvalidKind, gwv1.RouteReasonBackendNotFound, gwv1.RouteReasonUnsupportedProtocol)...)

	policy := newVocabulary(strs(gwv1.PolicyConditionAccepted, gwv1.BackendTLSPolicyConditionResolvedRefs)...)
	policy.addReasons("policy_types.go", "PolicyReason", strs(gwv1.PolicyReasonAccepted, gwv1.PolicyReasonConflicted,
		gwv1.PolicyReasonInvalid, gwv1.PolicyReasonTargetNotFound)...)
	policy.addReasons("backendtlspolicy_types.go", "BackendTLSPolicyReason", strs(gwv1.BackendTLSPolicyReasonNoValidCACertificate,
		gwv1.BackendTLSPolicyReasonResolvedRefs, gwv1.BackendTLSPolicyReasonInvalidCACertificateRef, gwv1.BackendTLSPolicyReasonInvalidKind)...)

	class := newVocabulary(strs(gwv1.GatewayClassConditionStatusAccepted, gwv1.GatewayClassConditionStatusSupportedVersion)...)
	class.addReasons("gatewayclass_types.go", "GatewayClassReason", strs(gwv1.GatewayClassReasonAccepted, gwv1.GatewayClassReasonInvalidParameters,
		gwv1.GatewayClassReasonPending, gwv1.GatewayClassReasonUnsupported,
		gwv1.GatewayClassReasonSupportedVersion, gwv1.GatewayClassReasonUnsupportedVersion)...)
	class.addReasons("gatewayclass_types.go", "GatewayClassReason", deprecatedGatewayClassReasons...)

	return map[entryKind]*vocabulary{
		gatewayEntry: gateway, listenerEntry: listener, listenerSetEntry: listenerSet,
		listenerSetListenerEntry: listenerSetListener, routeParentEntry: route, policyAncestorEntry: policy, gatewayClassEntry: class,
	}
}()

// gatewayAPIReasons is the Gateway API's reason vocabulary: every reason
// constant of every kind. A reason outside it is implementation-specific.
var gatewayAPIReasons = func() map[string]bool {
	out := map[string]bool{}
	for _, v := range vocabularies {
		for r := range v.reasons {
			out[r] = true
		}
	}
	return out
}()

// inVocabulary reports whether a reason is one of the Gateway API's.
func inVocabulary(reason string) bool { return gatewayAPIReasons[reason] }

// citation is the doc comment that defines a reason for an entry kind, as
// "file: constant"; "" when the entry kind's vocabulary lacks it.
func citation(k entryKind, reason string) string { return vocabularies[k].reasons[reason] }

// dataPlaneReasons are the reasons of Programmed=False (and of Unknown) that
// report the data plane's state rather than the configuration's: no address
// yet, no resources, not yet configured. The configuration cannot decide them.
var dataPlaneReasons = map[string]bool{
	string(gwv1.GatewayReasonPending):            true,
	string(gwv1.GatewayReasonNoResources):        true,
	string(gwv1.GatewayReasonAddressNotAssigned): true,
	string(gwv1.GatewayReasonAddressNotUsable):   true,
}

// absentMeansHealthy are condition types the engine writes only when they are
// True (unhealthy): an absent one is False, and a written True is compared
// with that.
var absentMeansHealthy = map[string]bool{
	string(gwv1.ListenerConditionOverlappingTLSConfig): true,
}
