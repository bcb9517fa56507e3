package analyze

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// Severity is the registry's severity, named here too so that a consumer of a
// Result compares findings without importing the registry.
type Severity = rules.Severity

const (
	SeverityInfo    = rules.Info
	SeverityWarning = rules.Warning
	SeverityError   = rules.Error
)

// ParseSeverity reads error, warning, info (and none, which no finding reaches).
func ParseSeverity(s string) (Severity, error) { return rules.ParseSeverity(s) }

// Finding is one problem a user must act on, placed on the object and field it
// is about and where that came from. It is the output record of analyze
// (docs/output.md: its fields in that order, the rule written as its ID), so
// it stays flat rather than embedding the rules.Problem it is made from.
type Finding struct {
	Rule     *rules.Rule  `json:"rule"`
	Severity Severity     `json:"severity"`
	Object   model.Ref    `json:"object"`
	Field    string       `json:"field,omitempty"`
	Source   model.Source `json:"source"`
	Message  string       `json:"message"`
	Fix      string       `json:"fix,omitempty"`
	// Suppression is set on a finding the manifest suppresses (Result.Suppressed).
	Suppression *Suppression `json:"suppression,omitempty"`
	// BaselineState is set when the run is compared with a baseline.
	BaselineState BaselineState `json:"baselineState,omitempty"`
}

// FindingKey is what makes two findings the same finding across runs: the
// rule, the object and the field. Lines and messages are left out, so that an
// edit elsewhere in a file, or a message that names today's date, does not
// make a known finding new. Baselines and SARIF fingerprints match by it.
type FindingKey struct {
	Rule   rules.ID
	Object model.Ref
	Field  string
}

// Key is the finding's identity across runs.
func (f Finding) Key() FindingKey {
	return FindingKey{Rule: f.Rule.ID, Object: f.Object, Field: f.Field}
}

// CompareFindings orders findings by where they come from (file, line), then
// object, field and rule: the order every output lists them in.
func CompareFindings(a, b Finding) int {
	if a.Source.File != b.Source.File {
		return strings.Compare(a.Source.File, b.Source.File)
	}
	if a.Source.Line != b.Source.Line {
		return cmp.Compare(a.Source.Line, b.Source.Line)
	}
	if a.Object != b.Object {
		return strings.Compare(a.Object.String(), b.Object.String())
	}
	if a.Field != b.Field {
		return strings.Compare(a.Field, b.Field)
	}
	return strings.Compare(string(a.Rule.ID), string(b.Rule.ID))
}

// CountAtOrAbove is the number of findings of severity sev or higher: the
// findings that fail a run with --fail-on sev.
func (r *Result) CountAtOrAbove(sev Severity) int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity >= sev {
			n++
		}
	}
	return n
}

// findingList collects findings; the engine fills several at once and merges
// them. It grows by blocks, so that a list of tens of thousands is not copied
// each time it doubles.
type findingList struct {
	blocks [][]Finding
	n      int
}

const findingBlock = 256

// add places a problem on an object.
func (fl *findingList) add(p rules.Problem, object model.Ref, src model.Source, field string) {
	f := Finding{Rule: p.Rule, Severity: p.Severity, Object: object, Field: field, Source: src, Message: p.Message, Fix: p.Fix}
	last := len(fl.blocks) - 1
	if last < 0 || len(fl.blocks[last]) == cap(fl.blocks[last]) {
		fl.blocks = append(fl.blocks, make([]Finding, 0, findingBlock))
		last++
	}
	fl.blocks[last] = append(fl.blocks[last], f)
	fl.n++
}

// appendTo appends the findings, in the order they were added.
func (fl *findingList) appendTo(all []Finding) []Finding {
	for _, b := range fl.blocks {
		all = append(all, b...)
	}
	return all
}

// fromConditions adds a finding for every condition that reports a rule (the
// unhealthy ones a finding is due for).
func (fl *findingList) fromConditions(cs []Condition, ref model.Ref, src model.Source, field func(Condition) string) {
	for _, c := range cs {
		if c.Rule != nil {
			fl.add(c.Rule.Problem(c.Message, c.Fix), ref, src, field(c))
		}
	}
}

func noField(Condition) string { return "" }

func refOf(kind string, m metav1.ObjectMeta) model.Ref {
	return model.Ref{Kind: kind, Namespace: m.Namespace, Name: m.Name}
}

// routeRef is the route's reference.
func routeRef(r *model.Route) model.Ref {
	return model.Ref{Kind: r.Kind, Namespace: r.ObjectMeta.Namespace, Name: r.ObjectMeta.Name}
}

// findings derives findings from every decision, then orders them by where they
// come from so output is stable. Gateways, routes' lints and the rest are read
// at once into separate lists (routes' own findings were collected by the route
// step, in ranges), merged in a fixed order before sorting, so the result does
// not depend on scheduling.
func (e *engine) findings() {
	var parents, lints, rest findingList
	concurrently(func() {
		e.parentFindings(&parents)
	}, func() {
		for _, rr := range e.res.Routes {
			lintFindings(&lints, rr)
		}
	}, func() {
		e.otherFindings(&rest)
	})
	routes := append(e.routeFindings, e.crossFindings)
	n := parents.n + lints.n + rest.n
	for _, part := range routes {
		n += part.n
	}
	all := parents.appendTo(make([]Finding, 0, n))
	for _, part := range routes {
		all = part.appendTo(all)
	}
	all = lints.appendTo(all)
	all = rest.appendTo(all)
	slices.SortStableFunc(all, CompareFindings)
	if len(all) > 0 {
		e.res.Findings = all
	}
}

// AddFindings adds the findings of a view of the Result that is not the
// engine's own (drift), merged into the order every finding is kept in; of
// two findings in the same place, the engine's comes first.
func (r *Result) AddFindings(fs []Finding) {
	if len(fs) == 0 {
		return
	}
	added := slices.Clone(fs)
	slices.SortStableFunc(added, CompareFindings)
	merged := make([]Finding, 0, len(r.Findings)+len(added))
	i, j := 0, 0
	for i < len(r.Findings) && j < len(added) {
		if CompareFindings(added[j], r.Findings[i]) < 0 {
			merged = append(merged, added[j])
			j++
		} else {
			merged = append(merged, r.Findings[i])
			i++
		}
	}
	merged = append(merged, r.Findings[i:]...)
	r.Findings = append(merged, added[j:]...)
}

// parentFindings: Gateways, ListenerSets and their listeners.
func (e *engine) parentFindings(fl *findingList) {
	for _, g := range e.res.Gateways {
		gw := g.Gateway
		ref := refOf("Gateway", gw.Obj.ObjectMeta)
		if g.ClassMissing {
			msg := fmt.Sprintf("GatewayClass %q is not in the input", gw.Obj.Spec.GatewayClassName)
			fix := "include the GatewayClass (with status.supportedFeatures) or pass --supported-features"
			if why, refused := e.ix.refusal("GatewayClass", model.NamespacedName{Name: string(gw.Obj.Spec.GatewayClassName)}); refused {
				msg, fix = why, refusalFix("GatewayClass")
			}
			fl.add(rules.GatewayClassNotFound.Problem(msg+"; analyzed as a conformant controller supporting every feature", fix), ref,
				e.referrerSource(ref, "spec.gatewayClassName", gw.Source), "")
		}
		fl.fromConditions(g.Conditions, ref, gw.Source, func(c Condition) string {
			if c.Type == string(gwv1.GatewayConditionResolvedRefs) {
				return "spec.tls.backend.clientCertificateRef" // the Gateway's own reference; listeners' are theirs
			}
			return ""
		})
		for _, l := range g.Listeners {
			listenerFindings(fl, l, ref, gw.Source)
		}
	}
	for _, ls := range e.res.ListenerSets {
		o := ls.ListenerSet
		ref := refOf("ListenerSet", o.Obj.ObjectMeta)
		src := o.Source
		if ls.Parent == nil {
			src = e.referrerSource(ref, "spec.parentRef", src)
		}
		fl.fromConditions(ls.Conditions, ref, src, noField)
		if ls.Allowed {
			for _, l := range ls.Listeners {
				listenerFindings(fl, l, ref, o.Source)
			}
		}
	}
}

// ownRouteFindings are a route's findings from its own decision; the route step
// collects them while the route is at hand (lintFindings come later).
func (e *engine) ownRouteFindings(fl *findingList, rr *RouteResult) {
	r := rr.Route
	ref := routeRef(r)
	if len(r.ParentRefs) == 0 {
		fl.add(rules.RouteNoParentRefs.Problem("the route names no parentRefs, so it attaches to nothing", "add spec.parentRefs naming a Gateway or ListenerSet"),
			ref, r.Source, "")
	}
	if rr.Skipped != nil {
		fl.add(*rr.Skipped, ref, r.Source, "spec.parentRefs")
	}
	for _, p := range rr.Parents {
		if p.rejected != nil {
			e.rejectedFinding(fl, p)
		}
	}
	// One finding per reference that does not resolve, at its field; the
	// ResolvedRefs condition joins their messages.
	for _, b := range rr.Backends {
		if b.Problem != nil || b.External() {
			backendFindings(fl, b, b.Field(), ref, r.Source)
		}
	}
	for _, m := range rr.Mirrors() {
		backendFindings(fl, &m.BackendResult, m.Field(), ref, r.Source)
	}
	for _, x := range rr.Extensions() {
		switch {
		case x.Problem != nil:
			fl.add(x.Problem.Rule.Problem(x.Problem.Message, x.Problem.Fix), ref, r.Source, x.Field())
		case x.External:
			fl.add(rules.ReferenceExternal.Problem(fmt.Sprintf("ExtensionRef filter %s %s/%s is %s: not verified",
				groupKindString(string(x.Ref.Group), string(x.Ref.Kind)), r.ObjectMeta.Namespace, x.Ref.Name, x.Unverified), ""), ref, r.Source, x.Field())
		}
	}
}

// rejectedFinding is the finding of a parentRef its parent rejects, at the
// parentRef.
func (e *engine) rejectedFinding(fl *findingList, p *ParentResult) {
	r := p.Route.Route
	ref := routeRef(r)
	field := parentField(p)
	fl.add(*p.rejected, ref, e.referrerSource(ref, field, r.Source), field)
}

// parentField is the parentRef's field in its route.
func parentField(p *ParentResult) string { return fmt.Sprintf("spec.parentRefs[%d]", p.Index) }

// backendFindings are the findings of one backendRef (or mirror) of a route
// at field.
func backendFindings(fl *findingList, b *BackendResult, field string, ref model.Ref, src model.Source) {
	switch {
	case b.Problem != nil:
		fl.add(b.Problem.Rule.Problem(b.Problem.Message, b.Problem.Fix), ref, src, field)
	case b.External():
		fl.add(rules.ReferenceExternal.Problem(fmt.Sprintf("backend %s is %s: not verified", b.NamespacedName(), b.Unverified()), ""), ref, src, field)
	}
}

// lintFindings are the problems of a route's annotations (annotations step).
func lintFindings(fl *findingList, rr *RouteResult) {
	r := rr.Route
	for _, l := range rr.lints() {
		fl.add(l, routeRef(r), r.Source, "metadata.annotations")
	}
}

// otherFindings: certificates, BackendTLSPolicies, meshes, what the API server
// refuses and unreadable kinds.
func (e *engine) otherFindings(fl *findingList) {
	for _, cr := range e.res.Certificates {
		s := cr.Secret
		ref := refOf("Secret", s.Obj.ObjectMeta)
		var served []string
		for _, l := range cr.Listeners {
			served = append(served, fmt.Sprintf("%s %s listener %s", l.Owner().Kind, l.Owner().NamespacedName(), l.Name()))
		}
		for _, p := range cr.Problems {
			p.Message = fmt.Sprintf("certificate %s: %s (served by %s)", ref.NamespacedName(), p.Message, strings.Join(served, ", "))
			fl.add(p, ref, s.Source, "data[tls.crt]")
		}
	}
	for _, pr := range e.res.BackendTLSPolicies {
		p := pr.Policy
		ref := refOf("BackendTLSPolicy", p.Obj.ObjectMeta)
		fl.fromConditions(pr.Conditions, ref, p.Source, noField)
		for _, l := range pr.Lints {
			fl.add(l, ref, p.Source, "")
		}
		if len(pr.Ancestors) == 0 && IsTrue(pr.Conditions, string(gwv1.PolicyConditionAccepted)) {
			fl.add(rules.BackendTLSPolicyNoAncestors.Problem(
				"no route attached to a Gateway in the input reaches a Service this policy targets, so no controller reports on it",
				"check spec.targetRefs, or include the routes that use the Service"), ref, p.Source, "")
		}
	}
	meshes := e.res.Meshes
	for _, g := range e.res.Gateways {
		if g.Mesh != nil {
			meshes = append(meshes, g.Mesh)
		}
	}
	for _, m := range meshes {
		for _, l := range m.Lints {
			fl.add(l, m.Owner, m.Source, "")
		}
		for _, rr := range m.MeshedRoutes {
			r := rr.Route
			fl.add(rules.OCGMeshedRoute.Problem(
				fmt.Sprintf("[provisional GEP-3792] meshed through %s %s: the Gateway must reach its backends over mTLS, offering ALPN %s and verifying them against the Gateway's trust bundle (%d CA certificates)",
					m.Owner.Kind, m.Owner.NamespacedName(), OCGALPN, len(m.TrustBundle)),
				"make sure the mesh trusts the Gateway (a Mesh with spec.ocg.trustBundle naming the CA of the Gateway's client certificate)"),
				routeRef(r), r.Source, "")
		}
	}
	admissionFindings(fl, e.res.Model.Admission)
	for _, u := range e.res.Model.Unreadable {
		fl.add(rules.LoadUnreadable.Problem(fmt.Sprintf("could not read %s: %s; checks that need them were skipped", u.Kind, u.Reason),
			"grant get/list on them to this identity, or analyze manifests with -f"),
			model.Ref{Kind: u.Kind, Namespace: u.Namespace}, model.Source{}, "")
	}
}

func listenerFindings(fl *findingList, l *ListenerResult, owner model.Ref, src model.Source) {
	field := "listener " + l.Name()
	fl.fromConditions(l.Conditions, owner, src, func(Condition) string { return field })
	if l.state != nil && l.state.notAccepted == nil {
		if p := ignoredCertificateRefs(l); p != nil {
			fl.add(*p, owner, src, field)
		}
	}
	for _, cr := range l.Certificates {
		if cr.External {
			fl.add(rules.ReferenceExternal.Problem(fmt.Sprintf("certificate Secret %s is %s: certificate checks skipped", cr.NamespacedName(), cr.Unverified), ""),
				owner, src, field)
		}
	}
}
