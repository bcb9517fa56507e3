// Package explain turns the decisions the engine recorded into an explanation of
// one object: each check in the order a controller makes it, what it looked at,
// what it decided, and how to change the outcome. It reads the Result's trace and
// recomputes nothing.
package explain

import (
	"fmt"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/drift"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// Explanation is the decision trace of one object.
type Explanation struct {
	Object   model.Ref    `json:"object"`
	Source   model.Source `json:"source"`
	Sections []Section    `json:"sections"`
}

// Section groups the checks of one part of the object (a parentRef, a listener, the
// backends) with the conditions they produced.
type Section struct {
	Title string `json:"title"`
	// Text is preformatted detail (a certificate as certinfo prints it).
	Text       string      `json:"text,omitempty"`
	Steps      []Step      `json:"steps"`
	Conditions []Condition `json:"conditions,omitempty"`
	// Written is what each controller wrote for the section's conditions,
	// beside them; set when drift compares statuses.
	Written  []Written `json:"written,omitempty"`
	Sections []Section `json:"sections,omitempty"`
}

// Step is one recorded check; Decisive marks the failing check that set the outcome.
type Step struct {
	analyze.Step
	Decisive bool `json:"decisive,omitempty"`
}

// Condition is a final condition, as render status prints it, with the fix.
type Condition struct {
	Type    string `json:"type"`
	Status  string `json:"status"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
	Fix     string `json:"fix,omitempty"`
}

func conditions(cs []analyze.Condition) []Condition {
	out := make([]Condition, 0, len(cs))
	for _, c := range cs {
		out = append(out, Condition{Type: c.Type, Status: string(c.Status), Reason: c.Reason, Message: c.Message, Fix: c.Fix})
	}
	return out
}

// steps copies a trace and marks the first failing step as decisive when the
// outcome it led to is a failure.
func steps(trace []analyze.Step, failed bool) []Step {
	out := make([]Step, len(trace))
	marked := !failed
	for i, s := range trace {
		out[i] = Step{Step: s}
		if !marked && !s.Passed {
			out[i].Decisive = true
			marked = true
		}
	}
	return out
}

// Kind names accepted on the command line, lower-case, with kubectl-style short names.
var kinds = map[string]string{
	"httproute": "HTTPRoute", "httproutes": "HTTPRoute",
	"grpcroute": "GRPCRoute", "grpcroutes": "GRPCRoute",
	"tlsroute": "TLSRoute", "tlsroutes": "TLSRoute",
	"tcproute": "TCPRoute", "tcproutes": "TCPRoute",
	"udproute": "UDPRoute", "udproutes": "UDPRoute",
	"gateway": "Gateway", "gateways": "Gateway", "gtw": "Gateway",
	"listenerset": "ListenerSet", "listenersets": "ListenerSet", "lset": "ListenerSet",
	"backendtlspolicy": "BackendTLSPolicy", "backendtlspolicies": "BackendTLSPolicy", "btlspolicy": "BackendTLSPolicy",
	"secret": "Secret", "secrets": "Secret",
}

// ParseRef reads KIND/NAME (kubectl style) in a namespace.
func ParseRef(arg, namespace string) (model.Ref, error) {
	k, name, ok := strings.Cut(arg, "/")
	kind := kinds[strings.ToLower(strings.SplitN(k, ".", 2)[0])]
	if !ok || name == "" || kind == "" {
		return model.Ref{}, fmt.Errorf("%q: want KIND/NAME with KIND one of httproute, grpcroute, tlsroute, tcproute, udproute, gateway, listenerset, backendtlspolicy, secret", arg)
	}
	return model.Ref{Kind: kind, Namespace: namespace, Name: name}, nil
}

// NotFoundError says the object is not in the Result and lists what is.
type NotFoundError struct {
	Ref        model.Ref
	Candidates []string
	// Refusal is why the API server refuses the object, when that is why it is
	// not in the Result.
	Refusal *model.Refusal
}

func (e *NotFoundError) Error() string {
	if r := e.Refusal; r != nil {
		where, why := r.Source, r.Reason
		if len(r.Errors) > 0 {
			where, why = r.Errors[0].Source, r.Errors[0].Field+": "+r.Errors[0].Message
		}
		return fmt.Sprintf("%s %s is refused by the API server (%s: %s), so it is not analyzed: analyze reports it as schema/Invalid", e.Ref.Kind, e.Ref.NamespacedName(), where, why)
	}
	msg := fmt.Sprintf("%s %s is not in the input", e.Ref.Kind, e.Ref.NamespacedName())
	if len(e.Candidates) > 0 {
		msg += "; " + e.Ref.Kind + "s present: " + strings.Join(e.Candidates, ", ")
	} else {
		msg += "; the input has no " + e.Ref.Kind
	}
	return msg
}

// Options narrow an explanation.
type Options struct {
	// Listener limits a Gateway's explanation to one listener.
	Listener string
	// Drift, when set, puts what controllers wrote beside each condition.
	Drift *drift.View
}

// Explain builds the explanation of one object.
func Explain(res *analyze.Result, ref model.Ref, opts Options) (*Explanation, error) {
	var names []string
	note := func(o model.Named) { names = append(names, model.NameOf(o).String()) }
	switch ref.Kind {
	case "Gateway":
		for _, g := range res.Gateways {
			o := g.Gateway.Obj
			if o.Namespace == ref.Namespace && o.Name == ref.Name {
				return gateway(g, opts)
			}
			note(o)
		}
	case "ListenerSet":
		for _, ls := range res.ListenerSets {
			o := ls.ListenerSet.Obj
			if o.Namespace == ref.Namespace && o.Name == ref.Name {
				return listenerSet(ls, opts.Drift), nil
			}
			note(o)
		}
	case "Secret":
		for _, c := range res.Certificates {
			o := c.Secret.Obj
			if o.Namespace == ref.Namespace && o.Name == ref.Name {
				return secret(c)
			}
			note(o)
		}
		for _, s := range res.Model.Secrets {
			if s.Obj.Namespace == ref.Namespace && s.Obj.Name == ref.Name {
				return nil, fmt.Errorf("the Secret %s is not served by any accepted terminating listener, so nothing was checked; explain the listener that references it", ref.NamespacedName())
			}
		}
	case "BackendTLSPolicy":
		for _, p := range res.BackendTLSPolicies {
			o := p.Policy.Obj
			if o.Namespace == ref.Namespace && o.Name == ref.Name {
				return policy(p, opts.Drift), nil
			}
			note(o)
		}
	default:
		for _, rr := range res.Routes {
			r := rr.Route
			if r.Kind != ref.Kind {
				continue
			}
			if r.ObjectMeta.Namespace == ref.Namespace && r.ObjectMeta.Name == ref.Name {
				return route(rr, opts.Drift), nil
			}
			note(&r.ObjectMeta)
		}
	}
	sort.Strings(names)
	if len(names) > 10 {
		names = append(names[:10], "...")
	}
	return nil, &NotFoundError{Ref: ref, Candidates: names, Refusal: refusalOf(res.Model.Admission, ref)}
}

func route(rr *analyze.RouteResult, view *drift.View) *Explanation {
	r := rr.Route
	x := &Explanation{Object: model.Ref{Kind: r.Kind, Namespace: r.ObjectMeta.Namespace, Name: r.ObjectMeta.Name}, Source: r.Source}
	backends := backendsSection(rr)
	var compared *drift.Object
	if view != nil {
		compared = view.Route(rr)
	}
	for _, p := range rr.Parents {
		parent := model.NamespacedName{Namespace: nsOr(p.Ref.Namespace, r.ObjectMeta.Namespace), Name: string(p.Ref.Name)}
		title := fmt.Sprintf("parentRefs[%d] → %s %s", p.Index, *p.Ref.Kind, parent)
		if p.Ref.SectionName != nil {
			title += ", sectionName " + string(*p.Ref.SectionName)
		}
		if p.Ref.Port != nil {
			title += fmt.Sprintf(", port %d", *p.Ref.Port)
		}
		if s := rr.Skipped; s != nil {
			x.Sections = append(x.Sections, Section{Title: title + " (not attached: past the analysis's work bound)",
				Steps: []Step{{Step: analyze.Step{Rule: "route.attach.bounded", Subject: string(*p.Ref.Kind) + " " + parent.String(), Detail: s.Message, Fix: s.Fix}, Decisive: true}}})
			continue
		}
		cs := p.Conditions()
		if cs == nil {
			x.Sections = append(x.Sections, Section{Title: title + " (not a parent any selected controller owns; skipped)"})
			continue
		}
		accepted := p.Accepted()
		sec := Section{Title: title, Steps: steps(p.Trace(), !accepted), Conditions: conditions(cs)}
		for _, a := range p.Attachments {
			hs := strings.Join(a.Hostnames, ", ")
			if len(a.Hostnames) == 1 && a.Hostnames[0] == "" || len(a.Hostnames) == 0 {
				hs = "any hostname"
			}
			sec.Steps = append(sec.Steps, Step{Step: analyze.Step{Rule: "attached", Subject: "listener " + a.Listener.Name(), Passed: true,
				Detail: fmt.Sprintf("attached to listener %s (port %d, %s), serving %s", a.Listener.Name(), a.Listener.Listener.Port, a.Listener.Listener.Protocol, hs)}})
		}
		if compared != nil {
			sec.Written = written(compared.EntriesOf(drift.ParentPart(int(p.Index))), func(conditionType string) []Step {
				if conditionType == string(gwv1.RouteConditionResolvedRefs) {
					return backends.Steps // the route's backends decide it, for every parent
				}
				return sec.Steps
			}, compared.EntriesOf(drift.ObjectPart))
		}
		x.Sections = append(x.Sections, sec)
	}
	if len(rr.Parents) == 0 {
		x.Sections = append(x.Sections, Section{Title: "parentRefs", Steps: []Step{{Step: analyze.Step{Rule: "route.parentRefs", Detail: "the route names no parentRefs, so it attaches to nothing", Fix: "add spec.parentRefs naming a Gateway or ListenerSet"}, Decisive: true}}})
	}
	if compared != nil {
		x.Sections = append(x.Sections, orphaned(compared, "status.parents")...)
	}
	x.Sections = append(x.Sections, backends)
	return x
}

// backendsSection checks each backendRef of a route; the route's
// ResolvedRefs condition is theirs.
func backendsSection(rr *analyze.RouteResult) Section {
	resolved := rr.ResolvedRefs()
	backends := Section{Title: "backendRefs", Conditions: conditions([]analyze.Condition{resolved})}
	failed := resolved.Status != metav1.ConditionTrue
	for _, b := range rr.Backends {
		s := analyze.Step{Rule: "route.backendRef", Subject: fmt.Sprintf("rules[%d] %s", b.Rule, b.NamespacedName()), Passed: b.Problem == nil}
		port := ""
		if b.Ref.Port != nil {
			port = fmt.Sprintf(":%d", *b.Ref.Port)
		}
		switch {
		case b.Problem != nil:
			s.Detail, s.Fix = b.Problem.Message, b.Problem.Fix
		case b.External():
			s.Detail = fmt.Sprintf("%s%s is declared external: not verified", b.NamespacedName(), port)
		default:
			s.Detail = fmt.Sprintf("Service %s%s resolves", b.NamespacedName(), port)
		}
		backends.Steps = append(backends.Steps, Step{Step: s})
	}
	for _, m := range rr.Mirrors() {
		s := analyze.Step{Rule: "route.requestMirror", Subject: fmt.Sprintf("rules[%d] mirror %s", m.Rule, m.NamespacedName()), Passed: m.Problem == nil}
		switch {
		case m.Problem != nil:
			s.Detail, s.Fix = m.Problem.Message, m.Problem.Fix
		case m.External():
			s.Detail = fmt.Sprintf("mirror %s%s is declared external: not verified", m.NamespacedName(), portSuffix(m.Ref.Port))
		default:
			s.Detail = fmt.Sprintf("requests are mirrored to Service %s%s (responses ignored)", m.NamespacedName(), portSuffix(m.Ref.Port))
		}
		backends.Steps = append(backends.Steps, Step{Step: s})
	}
	for _, x := range rr.Extensions() {
		target := model.NamespacedName{Namespace: rr.Route.ObjectMeta.Namespace, Name: string(x.Ref.Name)}
		s := analyze.Step{Rule: "route.extensionRef", Subject: fmt.Sprintf("rules[%d] filter %s %s", x.Rule, x.Ref.Kind, target), Passed: x.Problem == nil}
		switch {
		case x.Problem != nil:
			s.Detail, s.Fix = x.Problem.Message, x.Problem.Fix
		default:
			s.Detail = fmt.Sprintf("ExtensionRef filter %s %s is %s: not verified", x.Ref.Kind, target, x.Unverified)
		}
		backends.Steps = append(backends.Steps, Step{Step: s})
	}
	backends.Steps = markFirstFailure(backends.Steps, failed)
	return backends
}

// orphaned are sections for the entries a controller wrote that the spec no
// longer gives (their part names the status field, prefix).
func orphaned(compared *drift.Object, prefix string) []Section {
	var out []Section
	for _, e := range compared.Entries {
		if strings.HasPrefix(e.Part, prefix) {
			out = append(out, Section{Title: e.Part + ": written by " + string(e.Controller) + ", not in the spec", Written: written([]*drift.Entry{e}, nil, nil)})
		}
	}
	return out
}

func portSuffix(p *gwv1.PortNumber) string {
	if p == nil {
		return ""
	}
	return fmt.Sprintf(":%d", *p)
}

func markFirstFailure(ss []Step, failed bool) []Step {
	if !failed {
		return ss
	}
	for i := range ss {
		if !ss[i].Passed {
			ss[i].Decisive = true
			break
		}
	}
	return ss
}

func nsOr(ns *gwv1.Namespace, def string) string {
	if ns == nil || *ns == "" {
		return def
	}
	return string(*ns)
}

func gateway(g *analyze.GatewayResult, opts Options) (*Explanation, error) {
	o := g.Gateway.Obj
	x := &Explanation{Object: model.Ref{Kind: "Gateway", Namespace: o.Namespace, Name: o.Name}, Source: g.Gateway.Source}
	top := Section{Title: fmt.Sprintf("Gateway (class %s, controller %s)", o.Spec.GatewayClassName, g.Controller), Conditions: conditions(g.Conditions)}
	if g.ClassMissing {
		top.Steps = append(top.Steps, Step{Step: analyze.Step{Rule: "gateway.class", Detail: fmt.Sprintf("GatewayClass %s is not in the input: analyzed as a conformant controller supporting every feature", o.Spec.GatewayClassName),
			Fix: "include the GatewayClass in the input, or pass --supported-features"}})
	}
	top.Steps = append(top.Steps, steps(g.Trace, false)...)
	// What controllers wrote: the Gateway's own listeners are in its status,
	// a ListenerSet's in the ListenerSet's.
	var compared *drift.Object
	sets := map[*analyze.ListenerSetResult]*drift.Object{}
	if opts.Drift != nil {
		compared = opts.Drift.Gateway(g)
		top.Written = written(compared.EntriesOf(drift.ObjectPart), stepsOf(top.Steps), nil)
	}
	if opts.Listener == "" {
		x.Sections = append(x.Sections, top)
	}
	var names []string
	for _, l := range g.AllListeners() {
		names = append(names, l.Name())
		if opts.Listener != "" && l.Name() != opts.Listener {
			continue
		}
		sec := listener(l)
		if opts.Drift != nil {
			owner := compared
			if ls := l.ListenerSet; ls != nil {
				if sets[ls] == nil {
					sets[ls] = opts.Drift.ListenerSet(ls)
				}
				owner = sets[ls]
			}
			sec.Written = listenerWritten(owner, l, sec)
		}
		x.Sections = append(x.Sections, sec)
	}
	if opts.Listener != "" && len(x.Sections) == 0 {
		return nil, fmt.Errorf("the Gateway %s has no listener %q; listeners: %s", model.NameOf(o), opts.Listener, strings.Join(names, ", "))
	}
	return x, nil
}

// stepsOf is a section's checks, for every condition type.
func stepsOf(ss []Step) func(string) []Step { return func(string) []Step { return ss } }

// listenerWritten is what the controller wrote for a listener, from the
// comparison of the Gateway or ListenerSet that declares it (nil: not in
// scope).
func listenerWritten(owner *drift.Object, l *analyze.ListenerResult, sec Section) []Written {
	if owner == nil {
		return nil
	}
	return written(owner.EntriesOf(drift.ListenerPart(l.Name())), stepsOf(sec.Steps), owner.EntriesOf(drift.ObjectPart))
}

func listener(l *analyze.ListenerResult) Section {
	li := l.Listener
	title := fmt.Sprintf("listener %s: port %d, %s", l.Name(), li.Port, li.Protocol)
	if m := l.TLSMode(); m != "" {
		title += "/" + string(m)
	}
	if h := l.Hostname(); h != "" {
		title += ", hostname " + h
	} else {
		title += ", no hostname (any)"
	}
	if l.ListenerSet != nil {
		title += fmt.Sprintf(" (from ListenerSet %s)", l.Owner().NamespacedName())
	}
	failed := !l.Accepted || !analyze.IsTrue(l.Conditions, string(gwv1.ListenerConditionResolvedRefs))
	sec := Section{Title: title, Steps: steps(l.Trace, failed), Conditions: conditions(l.Conditions)}
	kinds := make([]string, len(l.SupportedKinds))
	for i, k := range l.SupportedKinds {
		kinds[i] = string(k.Kind)
	}
	sec.Steps = append(sec.Steps, Step{Step: analyze.Step{Rule: "listener.supportedKinds", Passed: len(kinds) > 0, Detail: "takes " + orNone(kinds)}})
	for _, a := range l.Attachments {
		r := a.Route.Route
		hs := strings.Join(a.Hostnames, ", ")
		if len(a.Hostnames) == 0 || len(a.Hostnames) == 1 && a.Hostnames[0] == "" {
			hs = "any hostname"
		}
		sec.Steps = append(sec.Steps, Step{Step: analyze.Step{Rule: "attached", Passed: true,
			Detail: fmt.Sprintf("%s %s serves %s", r.Kind, model.NameOf(&r.ObjectMeta), hs)}})
	}
	for _, rr := range l.Inactive {
		r := rr.Route
		sec.Steps = append(sec.Steps, Step{Step: analyze.Step{Rule: "attached", Passed: false,
			Detail: fmt.Sprintf("%s %s would attach (counted in attachedRoutes) but the listener is not accepted", r.Kind, model.NameOf(&r.ObjectMeta))}})
	}
	for _, o := range l.Outranked {
		r, w := o.Route.Route, o.By.Route.Route
		counted := "not counted in attachedRoutes"
		if o.Counted {
			counted = "counted in attachedRoutes: accepted through another listener"
		}
		sec.Steps = append(sec.Steps, Step{Step: analyze.Step{Rule: "attached", Passed: false,
			Detail: fmt.Sprintf("%s %s refused: %s %s serves intersecting hostnames here and comes first (%s, %s)",
				r.Kind, model.NameOf(&r.ObjectMeta), w.Kind, model.NameOf(&w.ObjectMeta), rules.RouteAcceptedHostnameConflict.ID, counted)}})
	}
	return sec
}

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "no route kinds"
	}
	return strings.Join(xs, ", ")
}

func listenerSet(ls *analyze.ListenerSetResult, view *drift.View) *Explanation {
	o := ls.ListenerSet.Obj
	x := &Explanation{Object: model.Ref{Kind: "ListenerSet", Namespace: o.Namespace, Name: o.Name}, Source: ls.ListenerSet.Source}
	accepted := analyze.IsTrue(ls.Conditions, string(gwv1.ListenerSetConditionAccepted))
	top := Section{Title: "ListenerSet", Steps: steps(ls.Trace, !accepted), Conditions: conditions(ls.Conditions)}
	var compared *drift.Object
	if view != nil {
		compared = view.ListenerSet(ls)
	}
	if compared != nil {
		top.Written = written(compared.EntriesOf(drift.ObjectPart), stepsOf(top.Steps), nil)
	}
	x.Sections = append(x.Sections, top)
	if ls.Allowed {
		for _, l := range ls.Listeners {
			if l.Conditions != nil {
				sec := listener(l)
				sec.Written = listenerWritten(compared, l, sec)
				x.Sections = append(x.Sections, sec)
			}
		}
	}
	return x
}

func policy(p *analyze.PolicyResult, view *drift.View) *Explanation {
	o := p.Policy.Obj
	x := &Explanation{Object: model.Ref{Kind: "BackendTLSPolicy", Namespace: o.Namespace, Name: o.Name}, Source: p.Policy.Source}
	var targets []Step
	for _, t := range o.Spec.TargetRefs {
		found := false
		for _, s := range p.Targets {
			if s.Obj.Name == string(t.Name) {
				found = true
			}
		}
		detail := fmt.Sprintf("%s %s", t.Kind, model.NamespacedName{Namespace: o.Namespace, Name: string(t.Name)})
		if t.SectionName != nil {
			detail += " port " + string(*t.SectionName)
		}
		if found {
			detail += " exists"
		} else {
			detail += " is not in the input"
		}
		targets = append(targets, Step{Step: analyze.Step{Rule: "backendtlspolicy.targetRefs", Passed: found, Detail: detail}})
	}
	var ancestors []string
	for _, g := range p.Ancestors {
		ancestors = append(ancestors, model.NameOf(g.Gateway.Obj).String())
	}
	anc := "no Gateway: no attached route reaches a targeted Service"
	if len(ancestors) > 0 {
		anc = "Gateways whose routes reach a targeted Service: " + strings.Join(ancestors, ", ")
	}
	targets = append(targets, Step{Step: analyze.Step{Rule: "backendtlspolicy.ancestors", Passed: len(ancestors) > 0, Detail: anc}})
	accepted := analyze.IsTrue(p.Conditions, string(gwv1.PolicyConditionAccepted)) && analyze.IsTrue(p.Conditions, string(gwv1.BackendTLSPolicyConditionResolvedRefs))
	validation := Section{Title: "validation", Steps: steps(p.Trace, !accepted), Conditions: conditions(p.Conditions)}
	if view != nil {
		// One entry per ancestor and controller, each with the policy's
		// conditions.
		validation.Written = written(view.Policy(p).Entries, stepsOf(validation.Steps), nil)
	}
	x.Sections = append(x.Sections, Section{Title: "targets", Steps: targets}, validation)
	return x
}

// refusalOf is the API server's refusal of the object ref names, which keeps
// it out of the Result; nil when it did not refuse it.
func refusalOf(a *model.Admission, ref model.Ref) *model.Refusal {
	if a == nil {
		return nil
	}
	for i := range a.Refused {
		if r := &a.Refused[i]; !r.Stored && r.Object == ref {
			return r
		}
	}
	return nil
}
