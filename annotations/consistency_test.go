package annotations_test

import (
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/annotations"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

func TestConsistencyWithBackendTLSPolicy(t *testing.T) {
	const (
		sni     = gwin + "rules.backends.tls.sni"
		caID    = gwin + "rules.backends.tls.trustedCA.id"
		caBytes = gwin + "rules.backends.tls.trustedCA.bytes"
		hcSNI   = gwin + "rules.backends.hc.transportSettings.tls.sni"
	)
	policy := annotations.BackendTLSPolicy{Policy: "apps/backend-tls", Backend: "apps/tls-service:8443", Hostname: "backend.example.com", CACertificateRefs: true}
	noCA := policy
	noCA.CACertificateRefs = false
	wellKnown := noCA
	wellKnown.WellKnownCACertificates = "System"

	for _, tc := range []struct {
		name   string
		kind   string
		ann    map[string]string
		policy annotations.BackendTLSPolicy
		want   []string // "severity key: message part"
	}{
		{"same SNI", "TLSRoute", map[string]string{sni: "backend.example.com"}, noCA, nil},
		{"same SNI, other case", "TLSRoute", map[string]string{sni: "Backend.Example.com"}, noCA, nil},
		{"two SNIs for one backend", "TLSRoute", map[string]string{sni: "other.example.com"}, policy,
			[]string{`error ` + sni + `: BackendTLSPolicy apps/backend-tls sets hostname "backend.example.com"`}},
		{`"TLS as is" against a policy that verifies (Backend TLS configuration)`, "TLSRoute", map[string]string{sni: ""}, noCA,
			[]string{`error ` + sni + `: TLS without SNI or certificate verification`}},
		{"two CA sources: refs", "TLSRoute", map[string]string{sni: "backend.example.com", caID: "cert-123456"}, policy,
			[]string{"warning " + caID + ": does not say which is used"}},
		{"two CA sources: well-known", "TLSRoute", map[string]string{caBytes: "x"}, wellKnown,
			[]string{"warning " + caBytes + ": both set the CA"}},
		{"annotation CA, policy hostname only", "TLSRoute", map[string]string{caID: "cert-123456"}, noCA, nil},
		{"health check SNI is configured separately", "TLSRoute", map[string]string{hcSNI: "health.example.com"}, policy, nil},
		{"no annotations: the reference does not relate the two", "TLSRoute", nil, policy, nil},
		{"other kinds are not Gwin TLSRoute annotations", "HTTPRoute", map[string]string{sni: "other.example.com"}, policy, nil},
		{"policy without hostname", "TLSRoute", map[string]string{sni: "other.example.com"}, annotations.BackendTLSPolicy{Policy: "p"}, nil},
		{"all at once, sorted by key", "TLSRoute", map[string]string{sni: "other.example.com", caID: "c", caBytes: "b"}, policy, []string{
			"error " + sni + ": a connection has one SNI",
			"warning " + caBytes + ": both set the CA",
			"warning " + caID + ": both set the CA",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := annotations.Consistency(tc.kind, tc.ann, tc.policy)
			if len(got) != len(tc.want) {
				t.Fatalf("got %+v, want %v", got, tc.want)
			}
			for i, p := range got {
				head, part, _ := strings.Cut(tc.want[i], ": ")
				if p.Severity.String()+" "+p.Key != head || !strings.Contains(p.Message, part) || p.Rule != rules.AnnotationBackendTLSPolicyConflict || p.Fix == "" {
					t.Errorf("problem %d = %+v, want %q", i, p, tc.want[i])
				}
				assertSafe(t, p)
			}
		})
	}
}
