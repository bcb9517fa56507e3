package render

import (
	"strconv"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// appendRouteStatusJSON appends st as json.Marshal writes it. Routes are most
// of the objects render status writes, and marshalling each status through
// reflection was a tenth of the command's time; TestRouteStatusJSON holds
// this to json.Marshal.
func appendRouteStatusJSON(b []byte, st gwv1.RouteStatus) []byte {
	b = append(b, `{"parents":`...)
	if st.Parents == nil {
		return append(b, "null}"...)
	}
	b = append(b, '[')
	for i, p := range st.Parents {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"parentRef":`...)
		b = appendParentRefJSON(b, p.ParentRef)
		b = append(b, `,"controllerName":`...)
		b = appendJSONString(b, string(p.ControllerName))
		if len(p.Conditions) > 0 {
			b = append(b, `,"conditions":[`...)
			for j, c := range p.Conditions {
				if j > 0 {
					b = append(b, ',')
				}
				b = appendConditionJSON(b, c)
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

func appendParentRefJSON(b []byte, r gwv1.ParentReference) []byte {
	b = append(b, '{')
	if r.Group != nil {
		b = append(b, `"group":`...)
		b = appendJSONString(b, string(*r.Group))
		b = append(b, ',')
	}
	if r.Kind != nil {
		b = append(b, `"kind":`...)
		b = appendJSONString(b, string(*r.Kind))
		b = append(b, ',')
	}
	if r.Namespace != nil {
		b = append(b, `"namespace":`...)
		b = appendJSONString(b, string(*r.Namespace))
		b = append(b, ',')
	}
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
