package drift

import (
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// compareConditions pairs the conditions a controller wrote for one status
// entry with the ones the spec gives, by type: the spec's first, in the
// engine's order, then the written types the engine does not write.
func compareConditions(k entryKind, written []metav1.Condition, computed []analyze.Condition) []Condition {
	out := make([]Condition, 0, max(len(written), len(computed)))
	for i := range computed {
		c := &computed[i]
		w := findWritten(written, c.Type)
		out = append(out, Condition{Type: c.Type, Written: w, Computed: c, Verdict: verdict(k, w, c)})
	}
	for i := range written {
		w := &written[i]
		if analyze.Find(computed, w.Type) != nil || seen(out, w.Type) {
			continue
		}
		out = append(out, Condition{Type: w.Type, Written: w, Verdict: unmatchedVerdict(k, w)})
	}
	return out
}

func findWritten(cs []metav1.Condition, t string) *metav1.Condition {
	for i := range cs {
		if cs[i].Type == t {
			return &cs[i]
		}
	}
	return nil
}

func seen(cs []Condition, t string) bool {
	for _, c := range cs {
		if c.Type == t {
			return true
		}
	}
	return false
}

// conditionsDiffer reports whether any condition of an entry Differs, as
// compareConditions would find, without building the comparison: most
// entries agree, and a large dump has one per route parent.
func conditionsDiffer(k entryKind, written []metav1.Condition, computed []analyze.Condition) bool {
	for i := range computed {
		c := &computed[i]
		if verdictOf(k, findWritten(written, c.Type), c.Type, c.Status, c.Reason) == Differs {
			return true
		}
	}
	for i := range written {
		if w := &written[i]; absentMeansHealthy[w.Type] && analyze.Find(computed, w.Type) == nil && unmatchedVerdict(k, w) == Differs {
			return true
		}
	}
	return false
}

// verdict compares a written condition (nil: not written) of an entry of
// kind k with the spec's.
func verdict(k entryKind, w *metav1.Condition, c *analyze.Condition) Verdict {
	return verdictOf(k, w, c.Type, c.Status, c.Reason)
}

// verdictOf compares a written condition (nil: not written) of an entry of
// kind k with the spec's condition of type t, status and reason. Reasons are
// compared when both are the Gateway API's and the spec's is one the Gateway
// API gives this kind of entry: where the spec requires a status and names no
// reason (route/Accepted/HostnameConflict), any reason the controller writes
// with that status agrees.
func verdictOf(k entryKind, w *metav1.Condition, t string, status metav1.ConditionStatus, reason string) Verdict {
	if w == nil {
		if healthy(t, status) {
			return NotWritten
		}
		return Differs
	}
	if w.Status != status {
		if dataPlane(w) {
			return DataPlane
		}
		return Differs
	}
	switch {
	case w.Reason == reason:
		return Same
	case inVocabulary(w.Reason) && citation(k, reason) != "":
		return Differs
	}
	return StatusOnly
}

// dataPlane reports whether a written condition reports the data plane's
// state: Programmed not True, or a condition the controller has not decided
// (Unknown), for a data-plane reason.
func dataPlane(w *metav1.Condition) bool {
	if !dataPlaneReasons[w.Reason] {
		return false
	}
	return w.Status == metav1.ConditionUnknown || w.Type == string(gwv1.GatewayConditionProgrammed)
}

// unmatchedVerdict is the verdict on a written condition of a type the engine
// does not write for the entry.
func unmatchedVerdict(k entryKind, w *metav1.Condition) Verdict {
	switch {
	case !vocabularies[k].types[w.Type]:
		return ImplementationSpecific
	case absentMeansHealthy[w.Type]:
		// The engine writes it only when True: absent, it is False.
		if w.Status == metav1.ConditionFalse {
			return Same
		}
		return Differs
	}
	return NotDecided
}

// healthy reports whether a condition is in its healthy state, as the rule
// registry defines it per type.
func healthy(t string, status metav1.ConditionStatus) bool {
	want, known := rules.Healthy(t)
	return !known || status == want
}

// conditionFindings reports the conditions of an entry that differ.
func (o *Object) conditionFindings(k entryKind, field string, controller gwv1.GatewayController, cs []Condition) {
	for _, c := range cs {
		if c.Verdict == Differs {
			o.add(rules.DriftConditionMismatch, field, mismatchMessage(k, who(controller), c), explainFix(o.Ref))
		}
	}
}

// compareEntry compares the conditions of one status entry, reports those
// that differ and, when the object keeps them, records the entry. The
// comparison is only built when something differs or is kept.
// A finding is placed on field, or on the part when field is "" (the
// object's own part is its status).
func (o *Object) compareEntry(k entryKind, part func() string, field string, controller gwv1.GatewayController, written []metav1.Condition, computed []analyze.Condition) *Entry {
	if !o.keep && !conditionsDiffer(k, written, computed) {
		return nil
	}
	e := &Entry{Part: part(), Controller: controller, Conditions: compareConditions(k, written, computed), kind: k}
	o.entry(e)
	if field == "" {
		field = e.Part
	}
	if field == ObjectPart {
		field = "status"
	}
	o.conditionFindings(k, field, controller, e.Conditions)
	return e
}

// mismatchMessage names both answers and what decides the spec's: the
// engine's decision in its words (the step that decided it) and the rule or
// doc comment behind it.
func mismatchMessage(k entryKind, controller string, c Condition) string {
	var b strings.Builder
	b.WriteString(c.Type + ": " + controller)
	w := c.Written
	switch {
	case w == nil:
		fmt.Fprintf(&b, " wrote no %s condition", c.Type)
	default:
		fmt.Fprintf(&b, " wrote %s (%s", w.Status, w.Reason)
		if !inVocabulary(w.Reason) {
			b.WriteString(", a reason outside the Gateway API's vocabulary: compared by status only")
		}
		b.WriteString(")")
	}
	if c.Computed == nil {
		fmt.Fprintf(&b, "; the spec says %s is not True here (written only when True)", c.Type)
		return b.String()
	}
	cc := c.Computed
	fmt.Fprintf(&b, "; the spec says %s (%s)", cc.Status, cc.Reason)
	if cc.Message != "" {
		b.WriteString(": " + cc.Message)
	}
	if d := decidedBy(k, cc); d != "" {
		b.WriteString("; decided by " + d)
	}
	return b.String()
}

// decidedBy names what decides a computed condition: the rule that reports
// it when it is unhealthy, with the text it enforces, or the doc comment of
// its reason.
func decidedBy(k entryKind, c *analyze.Condition) string {
	if c.Rule != nil {
		if len(c.Rule.Spec) > 0 {
			return string(c.Rule.ID) + " (" + c.Rule.Spec[0].Section + ")"
		}
		return string(c.Rule.ID)
	}
	if cite := citation(k, c.Reason); cite != "" {
		return "gateway-api " + cite
	}
	return ""
}

// Decided is what decides a computed condition, for explain: the rule that
// reports it, or the doc comment of its reason.
func (e *Entry) Decided(c Condition) string {
	if c.Computed == nil {
		return ""
	}
	return decidedBy(e.kind, c.Computed)
}
