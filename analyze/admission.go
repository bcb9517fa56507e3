package analyze

import (
	"fmt"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// refusedObjects indexes the objects the API server refuses (model.Admission)
// that are not in the model, so that what refers to one says why it is
// missing instead of that it is not in the input.
func refusedObjects(a *model.Admission) map[model.Ref]*model.Refusal {
	if a == nil {
		return nil
	}
	var out map[model.Ref]*model.Refusal
	for i := range a.Refused {
		r := &a.Refused[i]
		if r.Stored {
			continue // it exists: the cluster holds it
		}
		if out == nil {
			out = map[model.Ref]*model.Refusal{}
		}
		if _, seen := out[r.Object]; !seen {
			out[r.Object] = r
		}
	}
	return out
}

// refusal says why the object kind namespace/name does not exist when the API
// server refused it: "Gateway infra/gw is refused by the API server
// (gw.yaml:12: spec.listeners[1]: Duplicate value: ...)". ok is false when it
// was not refused.
func (ix *index) refusal(kind string, name model.NamespacedName) (why string, ok bool) {
	r := ix.refused[model.Ref{Kind: kind, Namespace: name.Namespace, Name: name.Name}]
	if r == nil {
		return "", false
	}
	return fmt.Sprintf("%s %s is refused by the API server (%s), so it does not exist", kind, name, refusalFirst(r)), true
}

// refusalFirst is where and why the API server refuses an object, by the
// first field it names.
func refusalFirst(r *model.Refusal) string {
	if len(r.Errors) == 0 {
		return withSource(r.Source, r.Reason)
	}
	return withSource(r.Errors[0].Source, fieldError(r.Errors[0]))
}

func withSource(src model.Source, msg string) string {
	if s := src.String(); s != "" {
		return s + ": " + msg
	}
	return msg
}

func fieldError(e model.FieldError) string {
	if e.Field == "" {
		return e.Message
	}
	return e.Field + ": " + e.Message
}

// referrerSource is where field of object is written when it names an
// object the API server refuses (model.Admission.Referrers): what is said of
// the reference points at it, a route's parentRefs entry rather than the
// route's first line. Else def, the object's Source.
func (e *engine) referrerSource(object model.Ref, field string, def model.Source) model.Source {
	a := e.res.Model.Admission
	if a == nil || a.Referrers == nil {
		return def
	}
	if src, ok := a.Referrers[model.FieldRef{Object: object, Field: field}]; ok {
		return src
	}
	return def
}

// refusalFix is the fix of what refers to a refused object.
func refusalFix(kind string) string {
	return fmt.Sprintf("correct the %s so that the API server admits it (see its schema/Invalid finding)", kind)
}

// admissionFindings reports what the API server refuses, one finding per field
// it names, at the line that field is written on: schema/Invalid for what it
// refuses, schema/ExperimentalOnly for what only the experimental channel's
// CRDs admit.
func admissionFindings(fl *findingList, a *model.Admission) {
	if a == nil {
		return
	}
	for i := range a.Refused {
		r := &a.Refused[i]
		p := rules.SchemaInvalid
		severity := p.Severity
		outcome := fmt.Sprintf("kubectl apply fails, and the %s is left out of the analysis", r.Object.Kind)
		switch {
		case r.Stored:
			// It exists: a cluster stored it under the CRDs of its day. Nothing
			// fails until it is created again or the field is changed.
			severity = rules.Warning
			outcome = fmt.Sprintf("the cluster stored it under earlier CRDs; creating it again, or an update that changes this field, fails (the %s is analyzed as stored)", r.Object.Kind)
		case r.StandardAdmits:
			outcome += "; a cluster with the standard channel's CRDs admits it: only the experimental channel's refuse it"
		}
		for _, e := range refusalErrors(r) {
			fix := fixField(e)
			if r.RulesNotChecked {
				fix += "; the API server runs the CRD's CEL rules only once this is right, so more errors may follow"
			}
			fl.add(rules.Problem{Rule: p, Severity: severity,
				Message: fmt.Sprintf("the API server refuses this %s: %s; %s", r.Object.Kind, fieldError(e), outcome),
				Fix:     fix}, r.Object, e.Source, e.Field)
		}
	}
	for i := range a.ExperimentalOnly {
		r := &a.ExperimentalOnly[i]
		for _, e := range refusalErrors(r) {
			fix := "use an apiVersion the standard channel serves"
			if e.Field != "" {
				fix = "do without " + e.Field
			}
			fl.add(rules.SchemaExperimentalOnly.Problem(
				fmt.Sprintf("a cluster with the standard channel's CRDs refuses this %s: %s", r.Object.Kind, fieldError(e)),
				"install the experimental channel's CRDs where it is applied, or "+fix), r.Object, e.Source, e.Field)
		}
	}
}

// refusalErrors are the field errors of a refusal, or one about the whole
// object that says the API server's reason when it names no field.
func refusalErrors(r *model.Refusal) []model.FieldError {
	if len(r.Errors) > 0 {
		return r.Errors
	}
	return []model.FieldError{{Message: r.Reason, Source: r.Source}}
}

func fixField(e model.FieldError) string {
	if e.Field == "" {
		return "correct the object as the API server's message says"
	}
	return "correct " + e.Field + " as the API server's message says"
}
