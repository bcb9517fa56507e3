package drift

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

func written(t, status, reason string) *metav1.Condition {
	return &metav1.Condition{Type: t, Status: metav1.ConditionStatus(status), Reason: reason}
}

func computed(t, status, reason string) *analyze.Condition {
	return &analyze.Condition{Condition: metav1.Condition{Type: t, Status: metav1.ConditionStatus(status), Reason: reason}}
}

func TestVerdict(t *testing.T) {
	accepted, programmed := string(gwv1.RouteConditionAccepted), string(gwv1.GatewayConditionProgrammed)
	tests := []struct {
		name string
		w    *metav1.Condition
		c    *analyze.Condition
		want Verdict
	}{
		{"same status and reason", written(accepted, "True", "Accepted"), computed(accepted, "True", "Accepted"), Same},
		{"another status", written(accepted, "True", "Accepted"), computed(accepted, "False", "NotAllowedByListeners"), Differs},
		{"same status, another reason of the vocabulary", written(accepted, "False", "NoMatchingParent"), computed(accepted, "False", "NotAllowedByListeners"), Differs},
		{"same status, an implementation-specific reason: compared by status only", written(accepted, "True", "AttachedToGateway"), computed(accepted, "True", "Accepted"), StatusOnly},
		{"an implementation-specific reason, another status", written(accepted, "False", "QuotaExceeded"), computed(accepted, "True", "Accepted"), Differs},
		{"Programmed=False with no address yet is the data plane's", written(programmed, "False", "AddressNotAssigned"), computed(programmed, "True", "Programmed"), DataPlane},
		{"Programmed=False, Pending", written(programmed, "False", "Pending"), computed(programmed, "True", "Programmed"), DataPlane},
		{"Programmed=False, Invalid is the configuration's", written(programmed, "False", "Invalid"), computed(programmed, "True", "Programmed"), Differs},
		{"Accepted=Unknown, Pending: not decided yet", written(accepted, "Unknown", "Pending"), computed(accepted, "True", "Accepted"), DataPlane},
		{"Accepted=False, Pending is not the data plane's", written(accepted, "False", "Pending"), computed(accepted, "True", "Accepted"), Differs},
		{"a healthy condition not written", nil, computed(string(gwv1.ListenerConditionConflicted), "False", "NoConflicts"), NotWritten},
		{"an unhealthy condition not written", nil, computed(accepted, "False", "NotAllowedByListeners"), Differs},
		// GRPCRouteSpec.Hostnames requires Accepted=False of the route it refuses and names no reason.
		{"a reason the spec does not name for the entry: any reason of that status agrees", written(accepted, "False", "NoMatchingParent"),
			computed(accepted, "False", string(rules.RouteAcceptedHostnameConflict.Condition.Reason)), StatusOnly},
		{"a route's ResolvedRefs with the policy's reason: the spec names no route reason for it", written(string(gwv1.RouteConditionResolvedRefs), "False", "BackendNotFound"),
			computed(string(gwv1.RouteConditionResolvedRefs), "False", string(rules.RouteResolvedRefsNoValidCACertificate.Condition.Reason)), StatusOnly},
		{"a reason the spec does not name for the entry, another status", written(accepted, "True", "Accepted"),
			computed(accepted, "False", string(rules.RouteAcceptedHostnameConflict.Condition.Reason)), Differs},
	}
	// The entry each condition type of the table is on.
	kinds := map[string]entryKind{accepted: routeParentEntry, string(gwv1.RouteConditionResolvedRefs): routeParentEntry, programmed: gatewayEntry, string(gwv1.ListenerConditionConflicted): listenerEntry}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := verdict(kinds[tt.c.Type], tt.w, tt.c); got != tt.want {
				t.Errorf("verdict = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestUnmatchedVerdict(t *testing.T) {
	tests := []struct {
		name string
		k    entryKind
		w    *metav1.Condition
		want Verdict
	}{
		{"a type the spec does not define", routeParentEntry, written("example.com/Synced", "True", "Synced"), ImplementationSpecific},
		{"a listener type on a route", routeParentEntry, written(string(gwv1.ListenerConditionConflicted), "False", "NoConflicts"), ImplementationSpecific},
		{"a spec type the engine does not decide", routeParentEntry, written(string(gwv1.RouteConditionPartiallyInvalid), "True", "UnsupportedValue"), NotDecided},
		{"OverlappingTLSConfig=True where the spec finds no overlap", listenerEntry, written(string(gwv1.ListenerConditionOverlappingTLSConfig), "True", "OverlappingHostnames"), Differs},
		{"OverlappingTLSConfig=False, as the spec finds", listenerEntry, written(string(gwv1.ListenerConditionOverlappingTLSConfig), "False", "OverlappingHostnames"), Same},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unmatchedVerdict(tt.k, tt.w); got != tt.want {
				t.Errorf("verdict = %s, want %s", got, tt.want)
			}
		})
	}
}

// Conditions the controller wrote about an older spec, and the API server's
// defaults a controller never replaced.
func TestBehindAndWaiting(t *testing.T) {
	at := func(gen int64) metav1.Condition {
		return metav1.Condition{Type: "Accepted", Status: "True", Reason: "Accepted", ObservedGeneration: gen}
	}
	tests := []struct {
		name       string
		cs         []metav1.Condition
		generation int64
		want       int64
	}{
		{"current", []metav1.Condition{at(3)}, 3, 0},
		{"one behind", []metav1.Condition{at(3), at(2)}, 3, 2},
		{"the oldest is named", []metav1.Condition{at(2), at(1)}, 3, 1},
		{"observedGeneration not recorded", []metav1.Condition{at(0)}, 3, 0},
		{"generation not recorded (a file)", []metav1.Condition{at(1)}, 0, 0},
		{"ahead is not behind", []metav1.Condition{at(4)}, 3, 0},
	}
	for _, tt := range tests {
		if got := behind(tt.cs, tt.generation); got != tt.want {
			t.Errorf("%s: behind = %d, want %d", tt.name, got, tt.want)
		}
	}
	def := metav1.Condition{Type: "Accepted", Status: metav1.ConditionUnknown, Reason: "Pending", Message: "Waiting for controller"}
	if !waiting([]metav1.Condition{def, def}) || waiting(nil) || waiting([]metav1.Condition{def, at(1)}) {
		t.Error("waiting: only a non-empty list of Unknown/Pending conditions is the API server's default")
	}
	if !noStatus(nil, 0) || !noStatus([]metav1.Condition{def}, 0) || noStatus([]metav1.Condition{def}, 1) || noStatus([]metav1.Condition{at(1)}, 0) {
		t.Error("noStatus")
	}
}

func TestExisted(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		created time.Time
		want    string
	}{
		{time.Time{}, "its creationTimestamp is not recorded"},
		{now.Add(-45 * time.Second), "it has existed for 45s (created 2025-12-31T23:59:15Z): a controller that runs may not have caught up yet"},
		{now.Add(-12*time.Minute - 30*time.Second), "it has existed for 12m30s (created 2025-12-31T23:47:30Z)"},
		{now.Add(-3*time.Hour - 20*time.Minute), "it has existed for 3h20m (created 2025-12-31T20:40:00Z)"},
		{now.Add(-(4*24 + 6) * time.Hour), "it has existed for 4d6h (created 2025-12-27T18:00:00Z)"},
		{now.Add(time.Hour), "it was created at 2026-01-01T01:00:00Z, after --now"},
	}
	for _, tt := range tests {
		if got := existed(metav1.NewTime(tt.created), now); got != tt.want {
			t.Errorf("existed(%v) = %q, want %q", tt.created, got, tt.want)
		}
	}
}

// Every finding drift emits is a registered drift rule at its default
// severity, a warning.
func TestDriftRulesAreWarnings(t *testing.T) {
	for _, r := range []*rules.Rule{rules.DriftStatusMissing, rules.DriftStaleGeneration, rules.DriftConditionMismatch,
		rules.DriftAttachedRoutesMismatch, rules.DriftSupportedKindsMismatch, rules.DriftOrphanedStatus} {
		if reg, ok := rules.Lookup(r.ID); !ok || reg != r || r.Severity != rules.Warning {
			t.Errorf("%s: registered %v, severity %s", r.ID, ok, r.Severity)
		}
	}
}
