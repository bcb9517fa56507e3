package analyze

import (
	"fmt"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// Severity orders findings; --fail-on compares against it.
type Severity int

const (
	SeverityInfo Severity = iota
	SeverityWarning
	SeverityError
)

func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	}
	return "info"
}

// MarshalText writes the severity as its name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// ParseSeverity reads error, warning, info (and none, which no finding reaches).
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(s) {
	case "error":
		return SeverityError, nil
	case "warning", "warn":
		return SeverityWarning, nil
	case "info":
		return SeverityInfo, nil
	case "none", "never":
		return SeverityError + 1, nil
	}
	return 0, fmt.Errorf("severity %q: want error, warning, info or none", s)
}

// Finding is one problem a user must act on: a stable rule ID, the object and where
// it came from, what is wrong and how to fix it.
type Finding struct {
	Rule     string       `json:"rule"`
	Severity Severity     `json:"severity"`
	Object   model.Ref    `json:"object"`
	Field    string       `json:"field,omitempty"`
	Source   model.Source `json:"source"`
	Message  string       `json:"message"`
	Fix      string       `json:"fix,omitempty"`
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

// ConditionRule is the stable rule ID of a condition finding: the object it is on,
// the condition type and the reason, as gateway-api names them
// (for example route/Accepted/NoMatchingListenerHostname).
func ConditionRule(object, conditionType, reason string) string {
	return object + "/" + conditionType + "/" + reason
}

// findingList collects findings; the engine fills several at once and merges
// them. It grows by blocks, so that a list of tens of thousands is not copied
// each time it doubles.
type findingList struct {
	blocks [][]Finding
	n      int
}

const findingBlock = 256

func (fl *findingList) add(f Finding) {
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

// fromCondition turns an unhealthy condition into a finding.
func (fl *findingList) fromCondition(object string, c Condition, sev Severity, ref model.Ref, src model.Source, field string) {
	fl.add(Finding{Rule: ConditionRule(object, c.Type, c.Reason), Severity: sev, Object: ref, Field: field, Source: src, Message: c.Message, Fix: c.Fix})
}

func refOf(kind string, m metav1.ObjectMeta) model.Ref {
	return model.Ref{Kind: kind, Namespace: m.Namespace, Name: m.Name}
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
	routes := e.routeFindings
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
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.Source.File != b.Source.File {
			return a.Source.File < b.Source.File
		}
		if a.Source.Line != b.Source.Line {
			return a.Source.Line < b.Source.Line
		}
		if a.Object != b.Object {
			return a.Object.String() < b.Object.String()
		}
		if a.Field != b.Field {
			return a.Field < b.Field
		}
		return a.Rule < b.Rule
	})
	if len(all) > 0 {
		e.res.Findings = all
	}
}

// parentFindings: Gateways, ListenerSets and their listeners.
func (e *engine) parentFindings(fl *findingList) {
	for _, g := range e.res.Gateways {
		gw := g.Gateway
		ref := refOf("Gateway", gw.Obj.ObjectMeta)
		if g.ClassMissing {
			fl.add(Finding{Rule: "gateway/GatewayClassNotFound", Severity: SeverityWarning, Object: ref, Source: gw.Source,
				Message: fmt.Sprintf("GatewayClass %q is not in the input; analyzed as a conformant controller supporting every feature", gw.Obj.Spec.GatewayClassName),
				Fix:     "include the GatewayClass (with status.supportedFeatures) or pass --supported-features"})
		}
		for _, c := range g.Conditions {
			switch {
			case c.Type == string(gwv1.GatewayConditionAccepted) && c.Status == metav1.ConditionFalse:
				fl.fromCondition("gateway", c, SeverityError, ref, gw.Source, "")
			case c.Type == string(gwv1.GatewayConditionResolvedRefs) && c.Status == metav1.ConditionFalse && c.Reason != string(gwv1.GatewayReasonListenersNotResolved):
				fl.fromCondition("gateway", c, SeverityError, ref, gw.Source, "spec.tls.backend.clientCertificateRef")
			}
		}
		for _, l := range g.Listeners {
			listenerFindings(fl, l, ref, gw.Source)
		}
	}
	for _, ls := range e.res.ListenerSets {
		o := ls.ListenerSet
		ref := refOf("ListenerSet", o.Obj.ObjectMeta)
		if c := Find(ls.Conditions, "Accepted"); c != nil && c.Status == metav1.ConditionFalse {
			fl.fromCondition("listenerset", *c, SeverityError, ref, o.Source, "")
		}
		if ls.Allowed {
			for _, l := range ls.Listeners {
				listenerFindings(fl, l, ref, o.Source)
			}
		}
	}
}

// routeFindings are a route's findings from its own decision; the route step
// collects them while the route is at hand (lintFindings come later).
func routeFindings(fl *findingList, rr *RouteResult) {
	r := rr.Route
	ref := refOf(r.Kind, r.ObjectMeta)
	if len(r.ParentRefs) == 0 {
		fl.add(Finding{Rule: "route/NoParentRefs", Severity: SeverityWarning, Object: ref, Source: r.Source,
			Message: "the route names no parentRefs, so it attaches to nothing", Fix: "add spec.parentRefs naming a Gateway or ListenerSet"})
	}
	for _, p := range rr.Parents {
		if p.rejected != nil {
			c, _ := p.AcceptedCondition()
			fl.fromCondition("route", c, SeverityError, ref, r.Source, fmt.Sprintf("spec.parentRefs[%d]", p.Index))
		}
	}
	if rr.unresolved != nil {
		fl.fromCondition("route", *rr.unresolved, SeverityError, ref, r.Source, "spec.rules[].backendRefs")
	}
	for _, b := range rr.Backends {
		switch {
		case b.External:
			fl.add(Finding{Rule: "reference/External", Severity: SeverityInfo, Object: ref, Source: r.Source, Field: fmt.Sprintf("spec.rules[%d].backendRefs", b.Rule),
				Message: fmt.Sprintf("backend %s/%s is %s: not verified", b.Namespace, b.Ref.Name, b.Unverified)})
		case b.portMissing:
			fl.add(Finding{Rule: "route/BackendPortNotFound", Severity: SeverityWarning, Object: ref, Source: r.Source, Field: fmt.Sprintf("spec.rules[%d].backendRefs", b.Rule),
				Message: fmt.Sprintf("Service %s/%s has no port %d; traffic to this backend fails", b.Namespace, b.Ref.Name, *b.Ref.Port),
				Fix:     "set backendRefs[].port to one of the Service's spec.ports[].port"})
		}
	}
}

// lintFindings are the problems of a route's annotations (annotations step).
func lintFindings(fl *findingList, rr *RouteResult) {
	r := rr.Route
	for _, l := range rr.Lints {
		fl.add(Finding{Rule: l.Rule, Severity: l.Severity, Object: refOf(r.Kind, r.ObjectMeta), Source: r.Source, Field: "metadata.annotations", Message: l.Message, Fix: l.Fix})
	}
}

// otherFindings: certificates, BackendTLSPolicies, meshes and unreadable kinds.
func (e *engine) otherFindings(fl *findingList) {
	for _, cr := range e.res.Certificates {
		s := cr.Secret
		ref := refOf("Secret", s.Obj.ObjectMeta)
		var served []string
		for _, l := range cr.Listeners {
			o := l.Owner()
			served = append(served, fmt.Sprintf("%s %s/%s listener %s", o.Kind, o.Namespace, o.Name, l.Name()))
		}
		for _, p := range cr.Problems {
			fl.add(Finding{Rule: p.Rule, Severity: p.Severity, Object: ref, Source: s.Source, Field: "data[tls.crt]",
				Message: fmt.Sprintf("certificate %s: %s (served by %s)", s.Obj.Namespace+"/"+s.Obj.Name, p.Message, strings.Join(served, ", ")), Fix: p.Fix})
		}
	}
	for _, pr := range e.res.BackendTLSPolicies {
		p := pr.Policy
		ref := refOf("BackendTLSPolicy", p.Obj.ObjectMeta)
		for _, c := range pr.Conditions {
			if c.Status == metav1.ConditionFalse {
				fl.fromCondition("backendtlspolicy", c, SeverityError, ref, p.Source, "")
			}
		}
		for _, l := range pr.Lints {
			fl.add(Finding{Rule: l.Rule, Severity: l.Severity, Object: ref, Source: p.Source, Message: l.Message, Fix: l.Fix})
		}
		if len(pr.Ancestors) == 0 && IsTrue(pr.Conditions, "Accepted") {
			fl.add(Finding{Rule: "backendtlspolicy/NoAncestors", Severity: SeverityInfo, Object: ref, Source: p.Source,
				Message: "no route attached to a Gateway in the input reaches a Service this policy targets, so no controller reports on it",
				Fix:     "check spec.targetRefs, or include the routes that use the Service"})
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
			fl.add(Finding{Rule: l.Rule, Severity: l.Severity, Object: m.Owner, Source: m.Source, Message: l.Message, Fix: l.Fix})
		}
		for _, rr := range m.MeshedRoutes {
			r := rr.Route
			fl.add(Finding{Rule: "ocg/MeshedRoute", Severity: SeverityInfo, Object: refOf(r.Kind, r.ObjectMeta), Source: r.Source,
				Message: fmt.Sprintf("[provisional GEP-3792] meshed through %s %s/%s: the Gateway must reach its backends over mTLS, offering ALPN %s and verifying them against the Gateway's trust bundle (%d CA certificates)",
					m.Owner.Kind, m.Owner.Namespace, m.Owner.Name, OCGALPN, len(m.TrustBundle)),
				Fix: "make sure the mesh trusts the Gateway (a Mesh with spec.ocg.trustBundle naming the CA of the Gateway's client certificate)"})
		}
	}
	for _, u := range e.res.Model.Unreadable {
		fl.add(Finding{Rule: "load/Unreadable", Severity: SeverityWarning, Object: model.Ref{Kind: u.Kind, Namespace: u.Namespace},
			Message: fmt.Sprintf("could not read %s: %s; checks that need them were skipped", u.Kind, u.Reason),
			Fix:     "grant get/list on them to this identity, or analyze manifests with -f"})
	}
}

func listenerFindings(fl *findingList, l *ListenerResult, owner model.Ref, src model.Source) {
	field := fmt.Sprintf("listener %s", l.Name())
	for _, c := range l.Conditions {
		switch {
		case c.Type == string(gwv1.ListenerConditionAccepted) && c.Status == metav1.ConditionFalse:
			fl.fromCondition("listener", c, SeverityError, owner, src, field)
		case c.Type == string(gwv1.ListenerConditionResolvedRefs) && c.Status == metav1.ConditionFalse:
			fl.fromCondition("listener", c, SeverityError, owner, src, field)
		case c.Type == string(gwv1.ListenerConditionOverlappingTLSConfig):
			fl.fromCondition("listener", c, SeverityWarning, owner, src, field)
		}
	}
	for _, cr := range l.Certificates {
		if cr.External {
			fl.add(Finding{Rule: "reference/External", Severity: SeverityInfo, Object: owner, Source: src, Field: field,
				Message: fmt.Sprintf("certificate Secret %s/%s is %s: certificate checks skipped", cr.Namespace, cr.Ref.Name, cr.Unverified)})
		}
	}
}
