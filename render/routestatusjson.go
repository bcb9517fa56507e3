package render

import (
	"strconv"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
)

// appendRouteResultStatusJSON appends rr.Status() as json.Marshal writes it.
// Routes are most of the objects render status writes: marshalling each
// status through reflection was a tenth of the command's time, and building
// the RouteStatus, its condition slices and copies of the conditions a tenth
// of the writer's allocations. TestRouteResultStatusJSON holds this to
// json.Marshal on every input of the repository, TestRouteStatusPartsJSON
// the parent reference and condition writers on strings it escapes.
func appendRouteResultStatusJSON(b []byte, rr *analyze.RouteResult) []byte {
	b = append(b, `{"parents":[`...)
	// resolved is the route's, the same for every parent; a value, not a
	// pointer to one, which would move it to the heap for every route.
	var resolved analyze.Condition
	haveResolved := false
	n := 0
	for _, p := range rr.Parents {
		if !p.Written {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = append(b, `{"parentRef":`...)
		b = appendParentRefJSON(b, *p.Ref)
		b = append(b, `,"controllerName":`...)
		b = appendJSONString(b, string(p.Controller()))
		// As ParentResult.Conditions: Accepted, ResolvedRefs, then
		// PartiallyInvalid for an accepting parent.
		if accepted, ok := p.AcceptedCondition(); ok {
			if !haveResolved {
				resolved, haveResolved = rr.ResolvedRefs(), true
			}
			b = append(b, `,"conditions":[`...)
			b = appendConditionJSON(b, accepted.Condition)
			b = append(b, ',')
			b = appendConditionJSON(b, resolved.Condition)
			if p.Accepted() {
				if pi, ok := rr.PartiallyInvalid(); ok {
					b = append(b, ',')
					b = appendConditionJSON(b, pi.Condition)
				}
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

// appendOptionalJSONField appends `"key":"value",` when v is set: a string
// field with omitempty that a required field follows.
func appendOptionalJSONField[S ~string](b []byte, key string, v *S) []byte {
	if v == nil {
		return b
	}
	b = append(b, '"')
	b = append(b, key...)
	b = append(b, `":`...)
	b = appendJSONString(b, string(*v))
	return append(b, ',')
}

func appendParentRefJSON(b []byte, r gwv1.ParentReference) []byte {
	b = append(b, '{')
	b = appendOptionalJSONField(b, "group", r.Group)
	b = appendOptionalJSONField(b, "kind", r.Kind)
	b = appendOptionalJSONField(b, "namespace", r.Namespace)
	b = append(b, `"name":`...)
	b = appendJSONString(b, string(r.Name))
	if r.SectionName != nil {
		b = append(b, `,"sectionName":`...)
		b = appendJSONString(b, string(*r.SectionName))
	}
	if r.Port != nil {
		b = append(b, `,"port":`...)
		b = strconv.AppendInt(b, int64(*r.Port), 10)
	}
	return append(b, '}')
}

func appendConditionJSON(b []byte, c metav1.Condition) []byte {
	b = append(b, `{"type":`...)
	b = appendJSONString(b, c.Type)
	b = append(b, `,"status":`...)
	b = appendJSONString(b, string(c.Status))
	if c.ObservedGeneration != 0 {
		b = append(b, `,"observedGeneration":`...)
		b = strconv.AppendInt(b, c.ObservedGeneration, 10)
	}
	b = append(b, `,"lastTransitionTime":`...)
	// metav1.Time's MarshalJSON.
	if c.LastTransitionTime.IsZero() {
		b = append(b, "null"...)
	} else {
		b = append(b, '"')
		b = c.LastTransitionTime.UTC().AppendFormat(b, time.RFC3339)
		b = append(b, '"')
	}
	b = append(b, `,"reason":`...)
	b = appendJSONString(b, c.Reason)
	b = append(b, `,"message":`...)
	b = appendJSONString(b, c.Message)
	return append(b, '}')
}
