package analyze

// tracer records the decision steps of one object for explain (Options.Trace):
// steps go to *steps, each about subject. A tracer that is off records nothing,
// and its callers build no detail for it: untraced, the decisions run for every
// object of a large input.
type tracer struct {
	on      bool
	steps   *[]Step
	subject string
}

// step records one decision; a step that passed carries no fix.
func (t tracer) step(rule string, passed bool, detail, fix string, inputs map[string]string) {
	if !t.on {
		return
	}
	if passed {
		fix = ""
	}
	*t.steps = append(*t.steps, Step{Rule: rule, Subject: t.subject, Passed: passed, Detail: detail, Fix: fix, Inputs: inputs})
}
