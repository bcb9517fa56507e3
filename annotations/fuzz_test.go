package annotations_test

import (
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/annotations"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testcert"
)

// FuzzValidate: whatever the annotations, Validate and Consistency do not
// panic, keep messages short and never echo PEM armour.
func FuzzValidate(f *testing.F) {
	ca := testcert.Must(testcert.Options{CommonName: "CA", IsCA: true}, nil)
	f.Add("rules.backends.tls.trustedCA.bytes", string(ca.CertPEM), "rules.backends.tls.sni", "backend.example.com")
	f.Add("rules.backends.tls.trustedCA.bytes", string(ca.KeyPEM)+"-----BEGIN X-----BEGIN Y-----\n-----END X-----BEGIN Y-----\n", "rules.backends.tls.sni", "")
	f.Add("rules.backends.hc.timeout", "5 seconds", "rules.backends.hc.transportSettings.plaintext", "true")
	f.Add("rules.backends.balancing.mode", "round_robin", "rules.backends.hc.port", "99999999999999999999999")
	f.Add("rules.backends.tls.sni", "-----BEGIN CERTIFICATE-----", "-----BEGIN", "\x00\xff\n")
	f.Add("rules.sessionAffinity.cookie.name", strings.Repeat("é", 300), "rules.backends.hc.transportSettings.tls.sni", "*.x")
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2 string) {
		ann := map[string]string{gwin + k1: v1, gwin + k2: v2, k1: v1}
		var all []annotations.Problem
		all = append(all, annotations.Validate("TLSRoute", ann)...)
		all = append(all, annotations.Consistency("TLSRoute", ann, annotations.BackendTLSPolicy{
			Policy: "ns/p", Backend: "ns/s:443", Hostname: v2, CACertificateRefs: true,
		})...)
		for _, p := range all {
			assertSafe(t, p)
		}
	})
}
