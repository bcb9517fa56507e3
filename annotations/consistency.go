package annotations

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// BackendTLSPolicy is what Consistency needs to know about the
// BackendTLSPolicy that applies to one backend of a route (spec 004).
type BackendTLSPolicy struct {
	// Policy and Backend name the two objects in messages, e.g.
	// "ns/policy" and "ns/service:8443".
	Policy, Backend string
	// Hostname is spec.validation.hostname: the SNI sent to the backend and
	// the name its certificate is verified against.
	Hostname string
	// CACertificateRefs is whether spec.validation.caCertificateRefs is set.
	CACertificateRefs bool
	// WellKnownCACertificates is spec.validation.wellKnownCACertificates
	// ("System"), or "".
	WellKnownCACertificates string
}

// Consistency compares a route's annotations with the BackendTLSPolicy of
// one of its backends, using the embedded sets. See Validator.Consistency.
func Consistency(kind string, annotations map[string]string, policy BackendTLSPolicy) []Problem {
	return Default().Consistency(kind, annotations, policy)
}

// Consistency compares the annotations of a route of the given kind with
// the BackendTLSPolicy of one of its backends; call it once per backend
// that has a policy. The reference documents the annotations without
// mentioning BackendTLSPolicy, so which one Gwin obeys is unknown; only
// settings that cannot both hold are reported:
//
//   - the annotated backend SNI and the policy's hostname differ (error:
//     one connection has one SNI);
//   - the annotated SNI is "", which the reference defines as TLS with no
//     SNI and no certificate verification, while the policy requires
//     verification against its hostname (error);
//   - both the annotations and the policy name trusted CAs (warning: the
//     reference does not say which is used).
//
// Annotations without a policy, or a policy without annotations, are not
// reported: the reference does not relate the two.
func (v *Validator) Consistency(kind string, annotations map[string]string, policy BackendTLSPolicy) []Problem {
	var out []Problem
	for i := range v.sets {
		s := &v.sets[i]
		if !slices.Contains(s.Kinds, kind) {
			continue
		}
		for j := range s.Keys {
			k := &s.Keys[j]
			value, ok := annotations[k.Key]
			if !ok || !k.appliesTo(s, kind) {
				continue
			}
			switch k.Role {
			case RoleBackendSNI:
				out = append(out, sniConflict(s, k, value, policy)...)
			case RoleBackendTrustedCA:
				if policy.CACertificateRefs || policy.WellKnownCACertificates != "" {
					p := problem(rules.AnnotationBackendTLSPolicyConflict, k.Key, valueFor(k, value),
						fmt.Sprintf("%s and BackendTLSPolicy %s both set the CA that backend %s is verified against; the %s reference does not say which is used",
							k.Key, policy.Policy, policy.Backend, s.Implementation),
						fmt.Sprintf("keep one: remove %s, or the CA of BackendTLSPolicy %s", k.Key, policy.Policy))
					p.Severity = rules.Warning // both may hold; which wins is unknown
					out = append(out, p)
				}
			}
		}
	}
	return finishAll(out)
}

func sniConflict(s *Set, k *Key, value string, policy BackendTLSPolicy) []Problem {
	if policy.Hostname == "" {
		return nil
	}
	p := problem(rules.AnnotationBackendTLSPolicyConflict, k.Key, showValue(value), "", "")
	switch {
	case value == "":
		p.Message = fmt.Sprintf("%s is \"\" (TLS without SNI or certificate verification, %s: %s), but BackendTLSPolicy %s requires backend %s to present a certificate for %s",
			k.Key, s.Implementation, k.Section, policy.Policy, policy.Backend, cut(policy.Hostname, maxValueLen))
		p.Fix = fmt.Sprintf("set %s to %q, or remove it", k.Key, cut(policy.Hostname, maxValueLen))
	case !strings.EqualFold(value, policy.Hostname):
		p.Message = fmt.Sprintf("%s is %s, but BackendTLSPolicy %s sets hostname %s for backend %s; a connection has one SNI",
			k.Key, quoteValue(value), policy.Policy, quoteValue(policy.Hostname), policy.Backend)
		p.Fix = fmt.Sprintf("make them equal, or remove %s and let the BackendTLSPolicy decide", k.Key)
	default:
		return nil
	}
	return []Problem{p}
}
