package render

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// TestRouteStatusJSON: appendRouteStatusJSON writes what json.Marshal writes,
// for statuses with and without each optional field, and strings that
// json.Marshal escapes.
func TestRouteStatusJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	texts := []string{"", "gw", "a<b>&c", `quote " and \ backslash`, "é \u2028 \xff", "line\nbreak", "Accepted"}
	text := func() string { return texts[rng.IntN(len(texts))] }
	ptr := func() *string {
		if rng.IntN(2) == 0 {
			return nil
		}
		s := text()
		return &s
	}
	for i := range 2000 {
		var st gwv1.RouteStatus
		switch i % 7 {
		case 0: // nil parents: "parents": null
		case 1:
			st.Parents = []gwv1.RouteParentStatus{}
		default:
			for range rng.IntN(3) + 1 {
				p := gwv1.RouteParentStatus{ControllerName: gwv1.GatewayController(text())}
				p.ParentRef.Name = gwv1.ObjectName(text())
				if s := ptr(); s != nil {
					p.ParentRef.Group = (*gwv1.Group)(s)
				}
				if s := ptr(); s != nil {
					p.ParentRef.Kind = (*gwv1.Kind)(s)
				}
				if s := ptr(); s != nil {
					p.ParentRef.Namespace = (*gwv1.Namespace)(s)
				}
				if s := ptr(); s != nil {
					p.ParentRef.SectionName = (*gwv1.SectionName)(s)
				}
				if rng.IntN(2) == 0 {
					port := gwv1.PortNumber(rng.Int32N(70000))
					p.ParentRef.Port = &port
				}
				switch rng.IntN(3) {
				case 0:
				case 1:
					p.Conditions = []metav1.Condition{}
				default:
					for range rng.IntN(3) + 1 {
						c := metav1.Condition{Type: text(), Status: metav1.ConditionStatus(text()), Reason: text(), Message: text(),
							ObservedGeneration: rng.Int64N(3) - 1}
						if rng.IntN(3) > 0 {
							c.LastTransitionTime = metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, rng.IntN(2)*999, time.FixedZone("x", 3600*rng.IntN(3))))
						}
						p.Conditions = append(p.Conditions, c)
					}
				}
				st.Parents = append(st.Parents, p)
			}
		}
		want, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendRouteStatusJSON(nil, st); string(got) != string(want) {
			t.Fatalf("appendRouteStatusJSON:\n%s\njson.Marshal:\n%s", got, want)
		}
	}
}
