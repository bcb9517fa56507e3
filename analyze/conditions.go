package analyze

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// cond builds a condition as a controller writes it; generation is the object's
// metadata.generation (observedGeneration), now the transition time.
func cond[T, R ~string](t T, isTrue bool, reason R, message, fix string, generation int64, now metav1.Time) Condition {
	status := metav1.ConditionFalse
	if isTrue {
		status = metav1.ConditionTrue
	}
	return Condition{
		Condition: metav1.Condition{
			Type:               string(t),
			Status:             status,
			Reason:             string(reason),
			Message:            message,
			ObservedGeneration: generation,
			LastTransitionTime: now,
		},
		Fix: fix,
	}
}

// failed is the condition a problem of a condition rule writes: the rule's
// condition type and reason at the status the rule reports, with the
// problem's message and fix.
func failed(p rules.Problem, generation int64, now metav1.Time) Condition {
	rc := p.Rule.Condition
	c := cond(rc.Type, rc.Unhealthy() == metav1.ConditionTrue, rc.Reason, p.Message, p.Fix, generation, now)
	c.Rule = p.Rule
	return c
}

// problemOf is a rule's problem, for a field that holds a decision only when
// there is a problem.
func problemOf(r *rules.Rule, message, fix string) *rules.Problem {
	p := r.Problem(message, fix)
	return &p
}

// Find returns the condition of a type, or nil.
func Find(cs []Condition, t string) *Condition {
	for i := range cs {
		if cs[i].Type == t {
			return &cs[i]
		}
	}
	return nil
}

// IsTrue reports whether the condition of a type is present and True.
func IsTrue(cs []Condition, t string) bool {
	c := Find(cs, t)
	return c != nil && c.Status == metav1.ConditionTrue
}

// Plain strips fixes: the conditions as they go into status.
func Plain(cs []Condition) []metav1.Condition {
	out := make([]metav1.Condition, len(cs))
	for i, c := range cs {
		out[i] = c.Condition
	}
	return out
}
