package analyze

import (
	"fmt"
	"sort"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/hostname"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
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
	// CACertificates are the parsed trust anchors from caCertificateRefs.
	CACertificates int
	Trace          []Step
}

// policyTarget is one (Service, sectionName) a policy applies to; two policies on
// the same target conflict.
type policyTarget struct {
	service nn
	section string
}

func (e *engine) policies() {
	// Gateways whose attached routes reach each Service.
	reach := map[nn][]*GatewayResult{}
	for _, rr := range e.res.Routes {
		var gws []*GatewayResult
		for _, p := range rr.Parents {
			if len(p.Attachments) > 0 && p.Gateway != nil {
				gws = append(gws, p.Gateway)
			}
		}
		if len(gws) == 0 {
			continue
		}
		for _, b := range rr.Backends {
			if b.Service == nil {
				continue
			}
			k := nn{Namespace: b.Service.Obj.Namespace, Name: b.Service.Obj.Name}
			for _, g := range gws {
				if !containsGateway(reach[k], g) {
					reach[k] = append(reach[k], g)
				}
			}
		}
	}

	byTarget := map[policyTarget][]*PolicyResult{}
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
			if svc := e.ix.services[k]; svc != nil && !containsService(pr.Targets, svc) {
				pr.Targets = append(pr.Targets, svc)
			}
			for _, g := range reach[k] {
				if !containsGateway(pr.Ancestors, g) {
					pr.Ancestors = append(pr.Ancestors, g)
				}
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

func policyBefore(a, b *model.BackendTLSPolicy) bool {
	ta, tb := a.Obj.CreationTimestamp, b.Obj.CreationTimestamp
	if !ta.Equal(&tb) {
		if ta.IsZero() != tb.IsZero() {
			return !ta.IsZero()
		}
		return ta.Before(&tb)
	}
	return a.Obj.Namespace+"/"+a.Obj.Name < b.Obj.Namespace+"/"+b.Obj.Name
}

func containsGateway(gs []*GatewayResult, g *GatewayResult) bool {
	for _, x := range gs {
		if x == g {
			return true
		}
	}
	return false
}

func containsService(ss []*model.Service, s *model.Service) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// policyConditions applies GEP-1897's validation rules and writes Accepted and
// ResolvedRefs.
func (e *engine) policyConditions(pr *PolicyResult, winner *PolicyResult) {
	o := pr.Policy.Obj
	gen := o.Generation
	v := o.Spec.Validation
	step := func(rule string, passed bool, detail, fix string) {
		if passed {
			fix = ""
		}
		pr.Trace = append(pr.Trace, Step{Rule: rule, Subject: "BackendTLSPolicy " + o.Namespace + "/" + o.Name, Passed: passed, Detail: detail, Fix: fix})
	}
	var invalid []problem
	for i, t := range o.Spec.TargetRefs {
		if string(t.Group) != "" || string(t.Kind) != "Service" {
			invalid = append(invalid, problem{string(gwv1.PolicyReasonInvalid),
				fmt.Sprintf("targetRefs[%d] is a %s; a BackendTLSPolicy targets Services", i, groupKindString(string(t.Group), string(t.Kind))),
				"target a core Service (group \"\", kind Service)"})
		}
	}
	hasRefs, hasWellKnown := len(v.CACertificateRefs) > 0, v.WellKnownCACertificates != nil && *v.WellKnownCACertificates != ""
	switch {
	case hasRefs && hasWellKnown:
		invalid = append(invalid, problem{string(gwv1.PolicyReasonInvalid), "validation sets both caCertificateRefs and wellKnownCACertificates",
			"keep exactly one: caCertificateRefs for a private CA, or wellKnownCACertificates: System"})
	case !hasRefs && !hasWellKnown:
		invalid = append(invalid, problem{string(gwv1.PolicyReasonInvalid), "validation sets neither caCertificateRefs nor wellKnownCACertificates",
			"add caCertificateRefs naming a ConfigMap with ca.crt, or wellKnownCACertificates: System"})
	case hasWellKnown && *v.WellKnownCACertificates != gwv1.WellKnownCACertificatesSystem:
		invalid = append(invalid, problem{string(gwv1.PolicyReasonInvalid), fmt.Sprintf("wellKnownCACertificates %q is not supported", *v.WellKnownCACertificates),
			"use wellKnownCACertificates: System"})
	}
	if err := hostname.ValidatePrecise(string(v.Hostname)); err != nil {
		invalid = append(invalid, problem{string(gwv1.PolicyReasonInvalid), "validation.hostname: " + err.Error(),
			"set validation.hostname to the DNS name the backend's certificate is issued for (no wildcard, no IP)"})
	}
	for i, san := range v.SubjectAltNames {
		switch {
		case san.Type == gwv1.HostnameSubjectAltNameType && (san.Hostname == "" || san.URI != ""):
			invalid = append(invalid, problem{string(gwv1.PolicyReasonInvalid), fmt.Sprintf("subjectAltNames[%d] of type Hostname needs hostname and no uri", i), "set subjectAltNames[].hostname"})
		case san.Type == gwv1.URISubjectAltNameType && (san.URI == "" || san.Hostname != ""):
			invalid = append(invalid, problem{string(gwv1.PolicyReasonInvalid), fmt.Sprintf("subjectAltNames[%d] of type URI needs uri and no hostname", i), "set subjectAltNames[].uri"})
		case san.Type != gwv1.HostnameSubjectAltNameType && san.Type != gwv1.URISubjectAltNameType:
			invalid = append(invalid, problem{string(gwv1.PolicyReasonInvalid), fmt.Sprintf("subjectAltNames[%d] has type %q", i, san.Type), "use type Hostname or URI"})
		case san.Type == gwv1.HostnameSubjectAltNameType:
			if err := hostname.Validate(string(san.Hostname)); err != nil {
				invalid = append(invalid, problem{string(gwv1.PolicyReasonInvalid), fmt.Sprintf("subjectAltNames[%d]: %v", i, err), "use a DNS name"})
			}
		}
	}

	// CA certificate references: LocalObjectReference in the policy's namespace.
	var unresolved []problem
	valid := 0
	for i, ref := range v.CACertificateRefs {
		group, kind := string(ref.Group), string(ref.Kind)
		var p *problem
		if group != "" || kind != "ConfigMap" {
			p = &problem{string(gwv1.BackendTLSPolicyReasonInvalidKind), fmt.Sprintf("caCertificateRefs[%d] is a %s; only core ConfigMaps are supported", i, groupKindString(group, kind)),
				"reference a ConfigMap holding the CA certificate in ca.crt"}
		} else if cm := e.ix.configMaps[nn{Namespace: o.Namespace, Name: string(ref.Name)}]; cm == nil {
			if !e.opts.isExternal("ConfigMap", o.Namespace, string(ref.Name)) {
				p = &problem{string(gwv1.BackendTLSPolicyReasonInvalidCACertificateRef), fmt.Sprintf("caCertificateRefs[%d]: ConfigMap %s/%s does not exist", i, o.Namespace, ref.Name),
					"create the ConfigMap with the backend's CA certificate in ca.crt, or fix the name"}
			}
		} else if b := e.certs.bundle(cm); b.err != nil {
			p = &problem{string(gwv1.BackendTLSPolicyReasonInvalidCACertificateRef), fmt.Sprintf("caCertificateRefs[%d]: ConfigMap %s/%s: %v", i, o.Namespace, ref.Name, b.err),
				"put the PEM-encoded CA certificate in ca.crt"}
		} else {
			pr.CACertificates += len(b.certs)
		}
		if p != nil {
			unresolved = append(unresolved, *p)
			step("backendtlspolicy.caCertificateRefs", false, p.message, p.fix)
		} else {
			valid++
			step("backendtlspolicy.caCertificateRefs", true, fmt.Sprintf("caCertificateRefs[%d] resolves", i), "")
		}
	}

	var accepted, resolved Condition
	if len(unresolved) > 0 {
		msgs := make([]string, len(unresolved))
		for i, p := range unresolved {
			msgs[i] = p.message
		}
		resolved = cond(gwv1.BackendTLSPolicyConditionResolvedRefs, false, unresolved[0].reason, strings.Join(msgs, "; "), unresolved[0].fix, gen, e.now)
	} else {
		resolved = cond(gwv1.BackendTLSPolicyConditionResolvedRefs, true, gwv1.BackendTLSPolicyReasonResolvedRefs, "all references resolved", "", gen, e.now)
	}
	switch {
	case len(invalid) > 0:
		for _, p := range invalid {
			step("backendtlspolicy.validation", false, p.message, p.fix)
		}
		accepted = cond(gwv1.PolicyConditionAccepted, false, gwv1.PolicyReasonInvalid, invalid[0].message, invalid[0].fix, gen, e.now)
	case hasRefs && valid == 0:
		accepted = cond(gwv1.PolicyConditionAccepted, false, gwv1.BackendTLSPolicyReasonNoValidCACertificate,
			"no caCertificateRef resolves to a usable CA certificate", resolved.Fix, gen, e.now)
	case winner != nil:
		w := winner.Policy.Obj
		msg := fmt.Sprintf("BackendTLSPolicy %s/%s targets the same Service and takes precedence (older, or first by name)", w.Namespace, w.Name)
		step("backendtlspolicy.precedence", false, msg, "merge the two policies, or target a different Service port with sectionName")
		accepted = cond(gwv1.PolicyConditionAccepted, false, gwv1.PolicyReasonConflicted, msg, "merge the two policies, or target a different Service port with sectionName", gen, e.now)
	default:
		accepted = cond(gwv1.PolicyConditionAccepted, true, gwv1.PolicyReasonAccepted, "policy is accepted", "", gen, e.now)
	}
	pr.Conditions = []Condition{accepted, resolved}
}
