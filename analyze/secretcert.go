package analyze

import (
	"fmt"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// SecretCertificate resolves a kubernetes.io/tls Secret that an object outside
// Gateway API names (an Ingress's spec.tls[].secretName) as a listener's
// certificateRef is resolved: read and parsed, or assumed to exist and not
// checked (declared external, or of a kind the loader could not read), or
// why it cannot be served. ReferenceGrants play no part: such an object names
// Secrets of its own namespace. A comparison of what both configurations
// present then reads one model of certificates (CertificateRef.Covers).
func SecretCertificate(m *model.Model, opts Options, namespace, name string) *CertificateRef {
	cr := &CertificateRef{Ref: gwv1.SecretObjectReference{Name: gwv1.ObjectName(name)}, Namespace: namespace}
	var s *model.Secret
	for _, c := range m.Secrets {
		if c.Obj.Namespace == namespace && c.Obj.Name == name {
			s = c
			break
		}
	}
	switch ok, why := unverifiedIn(&opts, m, "Secret", namespace, name); {
	case s == nil && ok:
		cr.External, cr.Unverified = true, why
	case s == nil:
		cr.Problem = fmt.Sprintf("Secret %s does not exist", cr.NamespacedName())
	default:
		cr.Secret = s
		if kp := parseKeyPair(s.Obj); kp.err != nil {
			cr.Problem = fmt.Sprintf("Secret %s: %v", cr.NamespacedName(), kp.err)
		} else {
			cr.Chain = kp.chain
		}
	}
	return cr
}
