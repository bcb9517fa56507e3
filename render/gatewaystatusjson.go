package render

import (
	"strconv"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
)

// appendGatewayResultStatusJSON appends g.Status() as json.Marshal writes it.
// It builds no status and uses no reflection (docs/performance.md, "render
// status: smaller chunks, Gateway and policy statuses by hand").
// TestGatewayAndPolicyStatusJSON
// holds this to json.Marshal on every Gateway of every input of the
// repository.
func appendGatewayResultStatusJSON(b []byte, g *analyze.GatewayResult) []byte {
	b = append(b, '{')
	comma := false
	// addresses,omitempty: the ones the input recorded.
	if addrs := g.Gateway.Obj.Status.Addresses; len(addrs) > 0 {
		b = append(b, `"addresses":[`...)
		for i, a := range addrs {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '{')
			b = appendOptionalJSONField(b, "type", a.Type)
			b = append(b, `"value":`...)
			b = appendJSONString(b, a.Value)
			b = append(b, '}')
		}
		b = append(b, ']')
		comma = true
	}
	if len(g.Conditions) > 0 { // conditions,omitempty
		if comma {
			b = append(b, ',')
		}
		b = append(b, `"conditions":`...)
		b = appendConditionsJSON(b, g.Conditions)
		comma = true
	}
	if len(g.Listeners) > 0 { // listeners,omitempty
		if comma {
			b = append(b, ',')
		}
		b = append(b, `"listeners":[`...)
		for i, l := range g.Listeners {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"name":`...)
			b = appendJSONString(b, string(l.Listener.Name))
			if l.SupportedKinds != nil { // supportedKinds,omitzero
				b = append(b, `,"supportedKinds":[`...)
				for j, k := range l.SupportedKinds {
					if j > 0 {
						b = append(b, ',')
					}
					b = append(b, '{')
					b = appendOptionalJSONField(b, "group", k.Group)
					b = append(b, `"kind":`...)
					b = appendJSONString(b, string(k.Kind))
					b = append(b, '}')
				}
				b = append(b, ']')
			}
			b = append(b, `,"attachedRoutes":`...)
			b = strconv.AppendInt(b, int64(l.AttachedRoutes()), 10)
			// conditions without omitempty: Plain makes an empty slice, not nil.
			b = append(b, `,"conditions":`...)
			b = appendConditionsJSON(b, l.Conditions)
			b = append(b, '}')
		}
		b = append(b, ']')
		comma = true
	}
	if comma {
		b = append(b, ',')
	}
	b = append(b, `"attachedListenerSets":`...)
	b = strconv.AppendInt(b, int64(g.AttachedListenerSets), 10)
	return append(b, '}')
}

// appendPolicyResultStatusJSON appends pr.Status() as json.Marshal writes it:
// one entry per ancestor Gateway, each with the policy's conditions.
func appendPolicyResultStatusJSON(b []byte, pr *analyze.PolicyResult) []byte {
	b = append(b, `{"ancestors":[`...)
	for i, g := range pr.Ancestors {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"ancestorRef":`...)
		b = appendParentRefJSON(b, analyze.AncestorRef(g))
		b = append(b, `,"controllerName":`...)
		b = appendJSONString(b, string(g.Controller))
		if len(pr.Conditions) > 0 { // conditions,omitempty
			b = append(b, `,"conditions":`...)
			b = appendConditionsJSON(b, pr.Conditions)
		}
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

// appendConditionsJSON appends analyze.Plain(cs) as json.Marshal writes it.
func appendConditionsJSON(b []byte, cs []analyze.Condition) []byte {
	b = append(b, '[')
	for i := range cs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendConditionJSON(b, cs[i].Condition)
	}
	return append(b, ']')
}
