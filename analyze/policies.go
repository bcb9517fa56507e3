package analyze

import (
	"crypto/x509"
	"fmt"
	"slices"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/hostname"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// PolicyResult is the decision about one BackendTLSPolicy (GEP-1897, spec 004).
type PolicyResult struct {
	Policy *model.BackendTLSPolicy
	// Targets are the Services the policy targets that exist in the input.
	Targets []*model.Service
	// Ancestors are the Gateways whose attached routes reach a targeted Service;
	// the policy's status has one entry per ancestor.
	Ancestors []*GatewayResult
	// Conditions are the same for every ancestor: Accepted, ResolvedRefs.
	Conditions []Condition
	// CACertificates are the trust anchors parsed from caCertificateRefs, and
	// CASources the ConfigMaps they came from.
	CACertificates []*x509.Certificate
	CASources      []string
	Trace          []Step
	// Lints are problems that do not change the policy's conditions.
	Lints []rules.Problem
}

// policyTarget is one (Service, sectionName) a policy applies to; two policies on
// the same target conflict.
type policyTarget struct {
	service nn
	section string
}

// policyDecisions decides every BackendTLSPolicy's conditions. It runs before
// routes resolve their backends: a backend whose policy cannot be met does not
// resolve (rules.RouteResolvedRefsNoValidCACertificate, RouteResolvedRefsInvalid), and resolving a
// backend records the policy that applies to it (backendPolicy). Which
// Gateways a policy reaches needs the routes: policyAncestors, after them.
func (e *engine) policyDecisions() {
	// The Services some policy targets: only backends to them look a policy up.
	e.targeted = map[*model.Service]bool{}
	e.policyTargets = map[policyTarget][]*PolicyResult{}
	byTarget := e.policyTargets
	for _, p := range e.res.Model.BackendTLSPolicies {
		pr := &PolicyResult{Policy: p}
		e.res.BackendTLSPolicies = append(e.res.BackendTLSPolicies, pr)
		o := p.Obj
		for _, t := range o.Spec.TargetRefs {
			if string(t.Group) != "" || string(t.Kind) != "Service" {
				continue
			}
			k := nn{Namespace: o.Namespace, Name: string(t.Name)}
			section := ""
			if t.SectionName != nil {
				section = string(*t.SectionName)
			}
			byTarget[policyTarget{k, section}] = append(byTarget[policyTarget{k, section}], pr)
			svc := e.ix.service(k)
			if svc == nil {
				continue
			}
			e.targeted[svc] = true
			if !slices.Contains(pr.Targets, svc) {
				pr.Targets = append(pr.Targets, svc)
			}
		}
	}

	// Precedence (GEP-713 conflict resolution, as GEP-1897 applies it): the oldest
	// policy wins, then the first by namespace/name; the others are Conflicted.
	targets := make([]policyTarget, 0, len(byTarget))
	for t := range byTarget {
		targets = append(targets, t)
	}
	sort.Slice(targets, func(i, j int) bool {
		a, b := targets[i], targets[j]
		if a.service != b.service {
			return a.service.String() < b.service.String()
		}
		return a.section < b.section
	})
	conflicted := map[*PolicyResult]*PolicyResult{}
	for _, t := range targets {
		ps := byTarget[t]
		if len(ps) < 2 {
			continue
		}
		sort.SliceStable(ps, func(i, j int) bool { return policyBefore(ps[i].Policy, ps[j].Policy) })
		for _, loser := range ps[1:] {
			if _, ok := conflicted[loser]; !ok && loser != ps[0] {
				conflicted[loser] = ps[0]
			}
		}
	}
	for _, pr := range e.res.BackendTLSPolicies {
		e.policyConditions(pr, conflicted[pr])
	}
}

// policyAncestors records on every policy the Gateways whose attached routes
// reach a Service it targets, through a backendRef or a RequestMirror filter
// (GEP-1897: a policy applies to a mirror's backend too); the policy's status
// has one entry per ancestor.
func (e *engine) policyAncestors() {
	if len(e.targeted) == 0 {
		return
	}
	reach := map[*model.Service][]*GatewayResult{}
	for _, rr := range e.res.Routes {
		var gws []*GatewayResult
		reached := func(b *BackendResult) bool {
			if b.Service == nil || !e.targeted[b.Service] {
				return true
			}
			if gws == nil {
				for _, p := range rr.Parents {
					if len(p.Attachments) > 0 && p.Gateway != nil {
						gws = append(gws, p.Gateway)
					}
				}
				if len(gws) == 0 {
					return false // the route reaches nothing
				}
			}
			for _, g := range gws {
				if !slices.Contains(reach[b.Service], g) {
					reach[b.Service] = append(reach[b.Service], g)
				}
			}
			return true
		}
		for _, b := range rr.Backends {
			if !reached(b) {
				break
			}
		}
		for _, m := range rr.Mirrors() {
			if !reached(&m.BackendResult) {
				break
			}
		}
	}
	for _, pr := range e.res.BackendTLSPolicies {
		for _, svc := range pr.Targets {
			for _, g := range reach[svc] {
				if !slices.Contains(pr.Ancestors, g) {
					pr.Ancestors = append(pr.Ancestors, g)
				}
			}
		}
	}
}

// backendPolicy decides the BackendTLSPolicy of a backend on Service svc at
// port. The most specific target decides: a policy on the Service port's name
// (sectionName) before one on the whole Service (GEP-1897 targetRefs with
// sectionName); of the policies on one target, the one with precedence (older,
// then first by namespace/name: BackendTLSPolicySpec.TargetRefs), the others
// being Conflicted. If it is accepted it applies. If it is not accepted for any
// other reason than Conflicted (Invalid, NoValidCACertificate) it is unmet: "For
// an invalid BackendTLSPolicy, implementations MUST NOT fall back to unencrypted
// (plaintext) connections" (GEP-1897), and the backendRef is invalid
// (HTTPBackendRef: "a BackendTLSPolicy is present that refers to the Service,
// and the implementation is unable to meet the requirement"). A policy with
// precedence that is Conflicted lost on another of its targets and applies
// nowhere, so the next target decides.
func (e *engine) backendPolicy(svc *model.Service, port *gwv1.PortNumber) (applies, unmet *PolicyResult) {
	k := nn{Namespace: svc.Obj.Namespace, Name: svc.Obj.Name}
	var sections [2]policyTarget
	n := 0
	if port != nil {
		for _, p := range svc.Obj.Spec.Ports {
			if p.Port == int32(*port) && p.Name != "" {
				sections[n] = policyTarget{k, p.Name}
				n++
				break
			}
		}
	}
	sections[n] = policyTarget{k, ""}
	n++
	for _, t := range sections[:n] {
		ps := e.policyTargets[t] // sorted by policyBefore when it holds two or more
		if len(ps) == 0 {
			continue
		}
		switch c := Find(ps[0].Conditions, string(gwv1.PolicyConditionAccepted)); {
		case c.Status == metav1.ConditionTrue:
			return ps[0], nil
		case c.Reason == string(gwv1.PolicyReasonConflicted):
			continue
		default:
			return nil, ps[0]
		}
	}
	return nil, nil
}

// policyBefore orders policies by precedence (BackendTLSPolicySpec.TargetRefs):
// creation time (oldest first, a policy not created yet last:
// model.CreatedOrder), then namespace/name.
func policyBefore(a, b *model.BackendTLSPolicy) bool {
	if c := model.CreatedOrder(&a.Obj.CreationTimestamp, &b.Obj.CreationTimestamp); c != 0 {
		return c < 0
	}
	return model.NameOf(a.Obj).String() < model.NameOf(b.Obj).String()
}

// policyConditions applies GEP-1897's validation rules and writes Accepted and
// ResolvedRefs.
func (e *engine) policyConditions(pr *PolicyResult, winner *PolicyResult) {
	o := pr.Policy.Obj
	gen := o.Generation
	v := o.Spec.Validation
	trace := tracer{on: e.tracing("BackendTLSPolicy", o.Namespace, o.Name), steps: &pr.Trace}
	if trace.on {
		trace.subject = "BackendTLSPolicy " + model.NameOf(o).String()
	}
	var invalid []rules.Problem
	var udpWarnings []string
	for i, t := range o.Spec.TargetRefs {
		if string(t.Group) != "" || string(t.Kind) != "Service" {
			invalid = append(invalid, rules.BackendTLSPolicyAcceptedInvalid.Problem(
				fmt.Sprintf("targetRefs[%d] is a %s; a BackendTLSPolicy targets Services", i, groupKindString(string(t.Group), string(t.Kind))),
				"target a core Service (group \"\", kind Service)"))
			continue
		}
		target := model.NamespacedName{Namespace: o.Namespace, Name: string(t.Name)}
		svc := e.ix.service(target)
		if svc == nil {
			if !e.isUnverified("Service", o.Namespace, string(t.Name)) {
				pr.Lints = append(pr.Lints, rules.BackendTLSPolicyTargetNotFound.Problem(
					fmt.Sprintf("targetRefs[%d]: Service %s is not in the input", i, target),
					"fix the name (the Service must be in the policy's namespace), or declare it with --external"))
			}
			continue
		}
		// GEP-1897: BackendTLSPolicy applies to TCP only; a policy on a single UDP port
		// is Invalid, one on a mix of TCP and UDP ports only warns.
		ports := svc.Obj.Spec.Ports
		var selected []corev1.ServicePort
		if t.SectionName != nil && *t.SectionName != "" {
			for _, p := range ports {
				if p.Name == string(*t.SectionName) {
					selected = append(selected, p)
				}
			}
			if len(selected) == 0 && len(ports) > 0 {
				pr.Lints = append(pr.Lints, rules.BackendTLSPolicySectionNameNotFound.Problem(
					fmt.Sprintf("targetRefs[%d].sectionName %q names no port of Service %s", i, *t.SectionName, target),
					"set sectionName to the name of one of the Service's spec.ports"))
			}
		} else {
			selected = ports
		}
		udp := 0
		for _, p := range selected {
			if p.Protocol == corev1.ProtocolUDP {
				udp++
			}
		}
		switch {
		case udp > 0 && udp == len(selected) && len(selected) == 1:
			invalid = append(invalid, rules.BackendTLSPolicyAcceptedInvalid.Problem(
				fmt.Sprintf("targetRefs[%d] selects UDP port %q of Service %s; BackendTLSPolicy applies only to TCP", i, selected[0].Name, target),
				"target a TCP port with sectionName, or remove the target"))
		case udp > 0:
			udpWarnings = append(udpWarnings, fmt.Sprintf("Service %s has UDP ports; the policy applies to its TCP ports only", target))
		}
	}
	for k := range o.Spec.Options {
		if !strings.Contains(string(k), "/") {
			pr.Lints = append(pr.Lints, rules.BackendTLSPolicyUnprefixedOption.Problem(
				fmt.Sprintf("options key %q has no domain prefix; un-prefixed names are reserved for Gateway API", k),
				"use the implementation's domain-prefixed key, such as example.com/"+string(k)))
		}
	}
	sort.Slice(pr.Lints, func(i, j int) bool { return pr.Lints[i].Message < pr.Lints[j].Message })
	hasRefs, hasWellKnown := len(v.CACertificateRefs) > 0, v.WellKnownCACertificates != nil && *v.WellKnownCACertificates != ""
	switch {
	case hasRefs && hasWellKnown:
		invalid = append(invalid, rules.BackendTLSPolicyAcceptedInvalid.Problem("validation sets both caCertificateRefs and wellKnownCACertificates",
			"keep exactly one: caCertificateRefs for a private CA, or wellKnownCACertificates: System"))
	case !hasRefs && !hasWellKnown:
		invalid = append(invalid, rules.BackendTLSPolicyAcceptedInvalid.Problem("validation sets neither caCertificateRefs nor wellKnownCACertificates",
			"add caCertificateRefs naming a ConfigMap with ca.crt, or wellKnownCACertificates: System"))
	case hasWellKnown && *v.WellKnownCACertificates != gwv1.WellKnownCACertificatesSystem:
		invalid = append(invalid, rules.BackendTLSPolicyAcceptedInvalid.Problem(fmt.Sprintf("wellKnownCACertificates %q is not supported", *v.WellKnownCACertificates),
			"use wellKnownCACertificates: System"))
	}
	if err := hostname.ValidatePrecise(string(v.Hostname)); err != nil {
		invalid = append(invalid, rules.BackendTLSPolicyAcceptedInvalid.Problem("validation.hostname: "+err.Error(),
			"set validation.hostname to the DNS name the backend's certificate is issued for (no wildcard, no IP)"))
	}
	for i, san := range v.SubjectAltNames {
		switch {
		case san.Type == gwv1.HostnameSubjectAltNameType && (san.Hostname == "" || san.URI != ""):
			invalid = append(invalid, rules.BackendTLSPolicyAcceptedInvalid.Problem(fmt.Sprintf("subjectAltNames[%d] of type Hostname needs hostname and no uri", i), "set subjectAltNames[].hostname"))
		case san.Type == gwv1.URISubjectAltNameType && (san.URI == "" || san.Hostname != ""):
			invalid = append(invalid, rules.BackendTLSPolicyAcceptedInvalid.Problem(fmt.Sprintf("subjectAltNames[%d] of type URI needs uri and no hostname", i), "set subjectAltNames[].uri"))
		case san.Type != gwv1.HostnameSubjectAltNameType && san.Type != gwv1.URISubjectAltNameType:
			invalid = append(invalid, rules.BackendTLSPolicyAcceptedInvalid.Problem(fmt.Sprintf("subjectAltNames[%d] has type %q", i, san.Type), "use type Hostname or URI"))
		case san.Type == gwv1.HostnameSubjectAltNameType:
			if err := hostname.Validate(string(san.Hostname)); err != nil {
				invalid = append(invalid, rules.BackendTLSPolicyAcceptedInvalid.Problem(fmt.Sprintf("subjectAltNames[%d]: %v", i, err), "use a DNS name"))
			}
		}
	}

	// CA certificate references: LocalObjectReference in the policy's namespace.
	var unresolved []rules.Problem
	valid := 0
	for i, ref := range v.CACertificateRefs {
		group, kind := string(ref.Group), string(ref.Kind)
		key := model.NamespacedName{Namespace: o.Namespace, Name: string(ref.Name)}
		var p *rules.Problem
		if group != "" || kind != "ConfigMap" {
			p = problemOf(rules.BackendTLSPolicyResolvedRefsInvalidKind, fmt.Sprintf("caCertificateRefs[%d] is a %s; only core ConfigMaps are supported", i, groupKindString(group, kind)),
				"reference a ConfigMap holding the CA certificate in ca.crt")
		} else if cm := e.ix.configMaps[key]; cm == nil {
			if !e.isUnverified("ConfigMap", key.Namespace, key.Name) {
				p = problemOf(rules.BackendTLSPolicyResolvedRefsInvalidCACertificateRef, fmt.Sprintf("caCertificateRefs[%d]: ConfigMap %s does not exist", i, key),
					"create the ConfigMap with the backend's CA certificate in ca.crt, or fix the name")
			}
		} else if b := e.certs.bundle(cm); b.err != nil {
			p = problemOf(rules.BackendTLSPolicyResolvedRefsInvalidCACertificateRef, fmt.Sprintf("caCertificateRefs[%d]: ConfigMap %s: %v", i, key, b.err),
				"put the PEM-encoded CA certificate in ca.crt")
		} else {
			pr.CACertificates = append(pr.CACertificates, b.certs...)
			pr.CASources = append(pr.CASources, "ConfigMap "+key.String())
		}
		if p != nil {
			unresolved = append(unresolved, *p)
			trace.step("backendtlspolicy.caCertificateRefs", false, p.Message, p.Fix, nil)
		} else {
			valid++
			if trace.on {
				trace.step("backendtlspolicy.caCertificateRefs", true, fmt.Sprintf("caCertificateRefs[%d] resolves", i), "", nil)
			}
		}
	}

	var accepted, resolved Condition
	if len(unresolved) > 0 {
		resolved = failed(joined(unresolved), gen, e.now)
	} else {
		resolved = cond(gwv1.BackendTLSPolicyConditionResolvedRefs, true, gwv1.BackendTLSPolicyReasonResolvedRefs, "all references resolved", "", gen, e.now)
	}
	switch {
	case len(invalid) > 0:
		for _, p := range invalid {
			trace.step("backendtlspolicy.validation", false, p.Message, p.Fix, nil)
		}
		accepted = failed(invalid[0], gen, e.now)
	case hasRefs && valid == 0:
		accepted = failed(rules.BackendTLSPolicyAcceptedNoValidCACertificate.Problem(
			"no caCertificateRef resolves to a usable CA certificate", resolved.Fix), gen, e.now)
	case winner != nil:
		w := winner.Policy.Obj
		p := rules.BackendTLSPolicyAcceptedConflicted.Problem(
			fmt.Sprintf("BackendTLSPolicy %s targets the same Service and takes precedence (older, or first by name)", model.NameOf(w)),
			"merge the two policies, or target a different Service port with sectionName")
		trace.step("backendtlspolicy.precedence", false, p.Message, p.Fix, nil)
		accepted = failed(p, gen, e.now)
	default:
		msg := "policy is accepted"
		if len(udpWarnings) > 0 {
			msg += "; " + strings.Join(udpWarnings, "; ")
		}
		accepted = cond(gwv1.PolicyConditionAccepted, true, gwv1.PolicyReasonAccepted, msg, "", gen, e.now)
	}
	pr.Conditions = []Condition{accepted, resolved}
}
