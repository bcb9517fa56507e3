package drift

//lint:file-ignore SA1019 the vocabulary is every condition type and reason gateway-api declares; a controller may still write the deprecated ones, and they are the Gateway API's, not implementation-specific.

import (
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// The deprecated condition types and reasons of the vocabulary, apart so that
// the rest of the package is checked for deprecated uses.
var (
	deprecatedGatewayTypes   = strs(gwv1.GatewayConditionReady, gwv1.GatewayConditionScheduled)
	deprecatedGatewayReasons = strs(gwv1.GatewayReasonScheduled, gwv1.GatewayReasonNotReconciled,
		gwv1.GatewayReasonReady, gwv1.GatewayReasonListenersNotReady)
	deprecatedListenerTypes        = strs(gwv1.ListenerConditionDetached, gwv1.ListenerConditionReady)
	deprecatedListenerReasons      = strs(gwv1.ListenerReasonAttached, gwv1.ListenerReasonReady)
	deprecatedListenerEntryTypes   = strs(gwv1.ListenerEntryConditionReady)
	deprecatedListenerEntryReasons = strs(gwv1.ListenerEntryReasonReady)
	deprecatedGatewayClassReasons  = strs(gwv1.GatewayClassReasonWaiting)
)
