package explain

import (
	"fmt"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/drift"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// Written is what one controller wrote for a section's part of the status,
// beside what the spec says: each condition on both sides, and the other
// fields compared (a listener's attachedRoutes and supportedKinds).
type Written struct {
	// Part is the part of the status (a listener, a route parent, a policy
	// ancestor; "" for the object's own conditions).
	Part       string `json:"part,omitempty"`
	Controller string `json:"controller,omitempty"`
	// NotCompared says why the controller's status was not compared (none
	// written, or written about an older spec); "" when it was.
	NotCompared string        `json:"notCompared,omitempty"`
	Conditions  []Comparison  `json:"conditions,omitempty"`
	Counts      []drift.Count `json:"counts,omitempty"`
}

// Comparison is one condition type: what the spec says, what the controller
// wrote, and when they differ, the check that decides the spec's answer and
// the text behind it.
type Comparison struct {
	Type      string        `json:"type"`
	SpecSays  *StatusReason `json:"specSays,omitempty"`
	Wrote     *StatusReason `json:"controllerWrote,omitempty"`
	Verdict   drift.Verdict `json:"verdict"`
	DecidedBy string        `json:"decidedBy,omitempty"`
}

// StatusReason is a condition's status and reason (and, written, the
// generation it was written about).
type StatusReason struct {
	Status             string `json:"status"`
	Reason             string `json:"reason"`
	ObservedGeneration int64  `json:"observedGeneration,omitempty"`
}

func (s *StatusReason) String() string {
	if s == nil {
		return "—"
	}
	return s.Status + " (" + s.Reason + ")"
}

// written turns a part's drift entries into what a section shows; steps are
// the checks that decide a condition type (nil: none recorded), whose
// decisive one (or, for a healthy answer, the whole list) decides the spec's
// answer. inherited is the object's own
// entry, for a part that has none of its own because the object was not
// compared.
func written(entries []*drift.Entry, steps func(conditionType string) []Step, inherited []*drift.Entry) []Written {
	if len(entries) == 0 {
		for _, e := range inherited {
			if e.NotCompared != "" {
				entries = append(entries, e)
			}
		}
	}
	out := make([]Written, 0, len(entries))
	for _, e := range entries {
		w := Written{Part: e.Part, Controller: string(e.Controller), NotCompared: e.NotCompared, Counts: e.Counts}
		for _, c := range e.Conditions {
			cmp := Comparison{Type: c.Type, Verdict: c.Verdict}
			if c.Computed != nil {
				cmp.SpecSays = &StatusReason{Status: string(c.Computed.Status), Reason: c.Computed.Reason}
			}
			if c.Written != nil {
				cmp.Wrote = &StatusReason{Status: string(c.Written.Status), Reason: c.Written.Reason, ObservedGeneration: c.Written.ObservedGeneration}
			}
			if c.Verdict == drift.Differs {
				var ss []Step
				if steps != nil {
					ss = steps(c.Type)
				}
				cmp.DecidedBy = decidedBy(e, c, ss)
			}
			w.Conditions = append(w.Conditions, cmp)
		}
		out = append(out, w)
	}
	return out
}

// decidedBy names the check that decides the spec's answer and why: the
// decisive failing check of the section when the answer is a failure, every
// check when it is healthy, with the rule or doc comment behind it.
func decidedBy(e *drift.Entry, c drift.Condition, steps []Step) string {
	why := e.Decided(c)
	if c.Computed == nil {
		return fmt.Sprintf("the spec writes %s only when it is True; no check found it true", c.Type)
	}
	check := "every check above passed"
	if !healthy(c.Computed) {
		check = "the check that decided it: " + c.Computed.Message
		for _, s := range steps {
			if s.Decisive {
				check = fmt.Sprintf("the check marked ◀ (%s): %s", s.Rule, s.Detail)
				break
			}
		}
	}
	if why == "" {
		return check
	}
	return check + "; per " + why
}

// healthy reports whether a computed condition is in its healthy state.
func healthy(c *analyze.Condition) bool {
	want, known := rules.Healthy(c.Type)
	return !known || c.Status == want
}
