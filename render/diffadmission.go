package render

import "fmt"

// diffAdmission is what a diff says of the CRDs each side was held to, as
// label and sentence pairs: one "admission" pair when both sides were held to
// the same CRDs (the usual case: one Admitter reads both), with each side's
// refusals counted when they differ; else one pair per side, "base admission"
// and "head admission". Nil when neither side was judged.
func (r DiffReport) diffAdmission() [][2]string {
	base, head := r.Base.Admission, r.Head.Admission
	switch {
	case base == nil && head == nil:
		return nil
	case base != nil && head != nil && sameCRDs(base, head):
		s := base.String()
		if base.Enabled {
			// One count would not say whose objects it counts.
			s = fmt.Sprintf("%s; %s refused in base, %d in head", crdsSentence(base), plural(base.Refused, "object"), head.Refused)
		}
		return [][2]string{{"admission", s}}
	}
	var pairs [][2]string
	for _, side := range []struct {
		label string
		a     *Admission
	}{{"base admission", base}, {"head admission", head}} {
		s := "not judged"
		if side.a != nil {
			s = side.a.String()
		}
		pairs = append(pairs, [2]string{side.label, s})
	}
	return pairs
}

// sameCRDs reports whether two sides were held to the same CRDs, in the same
// way (validated or only defaulted, and for the same reason).
func sameCRDs(a, b *Admission) bool {
	return a.Enabled == b.Enabled && a.CRDs == b.CRDs && a.Note == b.Note
}

// crdsSentence is Admission.String without the refusals.
func crdsSentence(a *Admission) string {
	if a.Note != "" {
		return a.CRDs + " (" + a.Note + ")"
	}
	return a.CRDs
}
