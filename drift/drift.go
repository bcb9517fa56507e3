// Package drift compares the status each controller wrote, kept in the model
// beside the spec, with the status the engine computed for the same objects
// (the one render status prints): stale, missing, orphaned or different. It is
// a view of the one Result: it reads decisions and decides nothing, so no
// attachment, hostname or certificate logic lives here.
//
// Only objects in scope are compared: those of the selected GatewayClasses'
// controllers. Route parents and policy ancestors are keyed by their ref and
// controllerName, as the spec keys them; another controller's entries are its
// own. Messages and lastTransitionTime are never compared.
package drift

import (
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// Verdict is how one written condition compares with the one the spec gives.
type Verdict string

const (
	// Same: same status and reason.
	Same Verdict = "same"
	// Differs: a different status, or a different reason of the Gateway API's
	// vocabulary (drift/ConditionMismatch).
	Differs Verdict = "differs"
	// StatusOnly: the same status, with a reason outside the Gateway API's
	// vocabulary, which is compared by status only.
	StatusOnly Verdict = "status-only"
	// ImplementationSpecific: a condition type the spec does not define for
	// this status entry.
	ImplementationSpecific Verdict = "implementation-specific"
	// NotDecided: a condition type the spec defines that the engine does not
	// decide from configuration (Ready, Scheduled, PartiallyInvalid, ...).
	NotDecided Verdict = "not-decided"
	// DataPlane: Programmed not True, or any condition Unknown, for a reason
	// that reports the data plane's state (Pending, NoResources,
	// AddressNotAssigned, AddressNotUsable), which configuration cannot decide.
	DataPlane Verdict = "data-plane"
	// NotWritten: a healthy condition the spec gives that the controller did
	// not write. An unhealthy one not written Differs.
	NotWritten Verdict = "not-written"
)

// Condition is one condition type of one status entry, on both sides.
type Condition struct {
	Type string `json:"type"`
	// Written is the controller's condition; nil when it wrote none.
	Written *metav1.Condition `json:"written,omitempty"`
	// Computed is the spec's; nil when the engine writes none of the type.
	Computed *analyze.Condition `json:"-"`
	Verdict  Verdict            `json:"verdict"`
}

// Entry is one part of an object's status as one controller wrote it: the
// object's own conditions, a listener's, a route parent's or a policy
// ancestor's.
type Entry struct {
	// Part names the part (see ObjectPart, ListenerPart, ParentPart,
	// AncestorPart).
	Part       string                 `json:"part"`
	Controller gwv1.GatewayController `json:"controller,omitempty"`
	// NotCompared says why the entry was not compared; "" when it was.
	NotCompared string      `json:"notCompared,omitempty"`
	Conditions  []Condition `json:"conditions,omitempty"`
	// Counts are the entry's other fields compared: a listener's
	// attachedRoutes and supportedKinds, a Gateway's attachedListenerSets.
	Counts []Count `json:"counts,omitempty"`

	kind entryKind
}

// Count is one field of a status entry other than its conditions, on both
// sides, as text.
type Count struct {
	Field   string `json:"field"`
	Spec    string `json:"spec"`
	Written string `json:"written"`
	Differs bool   `json:"differs,omitempty"`
}

// ObjectPart names the object's own conditions among its parts; the other
// parts are named by ListenerPart, ParentPart and AncestorPart.
const ObjectPart = ""

// ListenerPart is a listener's part of a Gateway's or ListenerSet's status.
func ListenerPart(name string) string { return "listener " + name }

// ParentPart is the status.parents entry for spec.parentRefs[i].
func ParentPart(i int) string { return fmt.Sprintf("spec.parentRefs[%d]", i) }

// AncestorPart is a policy's status.ancestors entry for an ancestor Gateway.
func AncestorPart(gateway model.NamespacedName) string { return "ancestor Gateway " + gateway.String() }

// Object is the comparison of one object's written and computed status.
type Object struct {
	Ref    model.Ref
	Source model.Source
	// Entries are the compared parts, in the order the computed status lists
	// them (orphaned entries last). Explain reads them; Findings does not keep
	// them.
	Entries []*Entry

	keep     bool // record Entries
	findings []analyze.Finding
	// underClasses and underGateways are where a missing status is reported
	// instead: the object's class no controller serves, or its Gateway whose
	// own status is missing. Findings counts the object there.
	underClasses  []*classState
	underGateways []*gatewayState
}

func (o *Object) underClass(c *classState) {
	if !slices.Contains(o.underClasses, c) {
		o.underClasses = append(o.underClasses, c)
	}
}

func (o *Object) underGateway(g *gatewayState) {
	if !slices.Contains(o.underGateways, g) {
		o.underGateways = append(o.underGateways, g)
	}
}

// EntriesOf is every entry of a part (one, for the parts an object has; a
// policy's entries are each an ancestor's part).
func (o *Object) EntriesOf(part string) []*Entry {
	var out []*Entry
	for _, e := range o.Entries {
		if e.Part == part {
			out = append(out, e)
		}
	}
	return out
}

// reset empties an Object for the next object, keeping its storage.
func (o *Object) reset() {
	o.Entries, o.findings = o.Entries[:0], o.findings[:0]
	o.underClasses, o.underGateways = o.underClasses[:0], o.underGateways[:0]
}

func (o *Object) entry(e *Entry) {
	if o.keep {
		o.Entries = append(o.Entries, e)
	}
}

func (o *Object) add(r *rules.Rule, field, message, fix string) {
	p := r.Problem(message, fix)
	o.findings = append(o.findings, analyze.Finding{Rule: p.Rule, Severity: p.Severity, Object: o.Ref, Field: field, Source: o.Source, Message: p.Message, Fix: p.Fix})
}

// Carried reports whether any object of the model carries status a controller
// wrote about the decisions drift compares: conditions, listeners, route
// parents or policy ancestors. A GatewayClass's supportedFeatures and a
// Gateway's addresses are inputs of the analysis, not decisions, and do not
// count.
func Carried(m *model.Model) bool {
	for _, c := range m.GatewayClasses {
		if len(c.Obj.Status.Conditions) > 0 {
			return true
		}
	}
	for _, g := range m.Gateways {
		if st := g.Obj.Status; len(st.Conditions) > 0 || len(st.Listeners) > 0 {
			return true
		}
	}
	for _, ls := range m.ListenerSets {
		if st := ls.Obj.Status; len(st.Conditions) > 0 || len(st.Listeners) > 0 {
			return true
		}
	}
	for _, r := range m.Routes {
		if len(r.Status.Parents) > 0 {
			return true
		}
	}
	for _, p := range m.BackendTLSPolicies {
		if len(p.Obj.Status.Ancestors) > 0 {
			return true
		}
	}
	return false
}

// Findings compares every object in scope and returns the findings, in no
// particular order (analyze.Result.AddFindings orders them).
func Findings(res *analyze.Result) []analyze.Finding {
	v := New(res)
	var out []analyze.Finding
	for _, g := range res.Gateways {
		o := v.compareGateway(g, false)
		out = append(out, o.findings...)
		for _, c := range o.underClasses {
			c.gateways++
		}
	}
	for _, ls := range res.ListenerSets {
		if o := v.compareListenerSet(ls, false); o != nil {
			out = append(out, o.findings...)
			for _, c := range o.underClasses {
				c.listenerSets++
			}
			for _, g := range o.underGateways {
				g.listenerSets++
			}
		}
	}
	out = append(out, v.routeFindings(res.Routes)...)
	for _, pr := range res.BackendTLSPolicies {
		o := v.comparePolicy(pr, false)
		out = append(out, o.findings...)
		for _, c := range o.underClasses {
			c.policies++
		}
		for _, g := range o.underGateways {
			g.policies++
		}
	}
	// Missing statuses are reported where they start, with what they take
	// along: a class no controller serves, a Gateway its controller does not
	// write, each counting the objects under it.
	for _, c := range res.GatewayClasses {
		out = append(out, v.classFindings(c)...)
	}
	for _, g := range res.Gateways {
		out = append(out, v.gatewayMissingFindings(g)...)
	}
	return out
}

// Gateway compares one Gateway's status: its conditions and its listeners'.
func (v *View) Gateway(g *analyze.GatewayResult) *Object { return v.compareGateway(g, true) }

// ListenerSet compares one ListenerSet's status; nil when the ListenerSet is
// not in scope (its parent Gateway is not in the input).
func (v *View) ListenerSet(ls *analyze.ListenerSetResult) *Object {
	return v.compareListenerSet(ls, true)
}

// Route compares one route's status, parent by parent.
func (v *View) Route(rr *analyze.RouteResult) *Object {
	o := &Object{keep: true}
	v.compareRoute(o, rr)
	return o
}

// Policy compares one BackendTLSPolicy's status, ancestor by ancestor.
func (v *View) Policy(pr *analyze.PolicyResult) *Object { return v.comparePolicy(pr, true) }

// who names the controller that wrote (or should have written) a status.
func who(c gwv1.GatewayController) string {
	if c == "" || c == analyze.AssumedController {
		return "the controller"
	}
	return "controller " + string(c)
}

// explainFix is the fix of a finding whose two sides explain shows; extra
// are explain's further arguments.
func explainFix(ref model.Ref, extra ...string) string {
	args := append([]string{strings.ToLower(ref.Kind) + "/" + ref.Name, "-n", ref.Namespace}, extra...)
	return "run explain " + strings.Join(args, " ") + ": it shows what the controller wrote beside what the spec says, and the check that decides"
}
