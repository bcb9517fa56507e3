package analyze

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
