package annotations_test

import (
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/annotations"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// synthetic is a second implementation's set, written as a file under sets/
// would be. TestSecondSetNeedsNoCode proves the checks are generic: nothing
// in the package knows these keys.
const synthetic = `
implementation: Acme Gateway
prefix: gw.acme.example/
kinds: [TLSRoute, TCPRoute]
source: Acme annotation reference (synthetic, for tests)
keys:
  - key: gw.acme.example/retries
    type: integer
    min: 0
    max: 5
    description: Connection retries.
    section: Retries
  - key: gw.acme.example/idle-timeout
    kinds: [TCPRoute]
    type: duration
    description: Idle timeout.
    section: Timeouts
  - key: gw.acme.example/backend.<port>.sni
    type: hostname
    description: SNI per backend port.
    section: Backend TLS
  - key: gw.acme.example/sni
    type: hostname
    role: backend-sni
    description: SNI towards backends.
    section: Backend TLS
  - key: gw.acme.example/algorithm
    type: enum
    values: [maglev, ring]
    description: Hashing algorithm.
    section: Balancing
overrides:
  - when: gw.acme.example/algorithm
    equals: ring
    unused: [gw.acme.example/retries]
    reason: ring hashing never retries
    section: Balancing
`

func TestSecondSetNeedsNoCode(t *testing.T) {
	s, err := annotations.ParseSet([]byte(synthetic))
	if err != nil {
		t.Fatal(err)
	}
	sets, err := annotations.EmbeddedSets()
	if err != nil {
		t.Fatal(err)
	}
	v, err := annotations.NewValidator(append(sets, s)...)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, kind string
		ann        map[string]string
		want       []string // "severity rule: message part", in order
	}{
		{"valid", "TLSRoute", map[string]string{
			"gw.acme.example/retries": "3", "gw.acme.example/backend.https.sni": "api.acme.example", "gw.acme.example/algorithm": "maglev",
		}, nil},
		{"range", "TLSRoute", map[string]string{"gw.acme.example/retries": "9"},
			[]string{"error annotation/invalid-value: out of range: expected from 0 to 5"}},
		{"pattern key, bad hostname", "TLSRoute", map[string]string{"gw.acme.example/backend.8443.sni": "*.acme.example"},
			[]string{"error annotation/invalid-value: is a wildcard"}},
		{"pattern placeholder is one segment", "TLSRoute", map[string]string{"gw.acme.example/backend.a.b.sni": "x.example"},
			[]string{"warning annotation/unknown-key: did you mean gw.acme.example/backend.<port>.sni?"}},
		{"enum is case-sensitive", "TCPRoute", map[string]string{"gw.acme.example/algorithm": "Ring"},
			[]string{"error annotation/invalid-value: did you mean ring?"}},
		{"key for another kind", "TLSRoute", map[string]string{"gw.acme.example/idle-timeout": "5m"},
			[]string{"warning annotation/wrong-kind: documented for TCPRoute, not TLSRoute"}},
		{"unknown key for this kind suggests only keys of this kind", "TLSRoute", map[string]string{"gw.acme.example/idle-timeouts": "5m"},
			[]string{"warning annotation/unknown-key: closest documented key is gw.acme.example/"}},
		{"override", "TLSRoute", map[string]string{"gw.acme.example/algorithm": "ring", "gw.acme.example/retries": "1"},
			[]string{"warning annotation/no-effect: ring hashing never retries"}},
		{"both sets at once", "TLSRoute", map[string]string{"gw.acme.example/retrys": "1", gwin + "rules.backends.hc.port": "0"},
			[]string{"warning annotation/unknown-key: did you mean gw.acme.example/retries?", "error annotation/invalid-value: expected from 1 to 65535"}},
		{"kind neither set documents", "UDPRoute", map[string]string{"gw.acme.example/retries": "x"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := v.Validate(tc.kind, tc.ann)
			if len(got) != len(tc.want) {
				t.Fatalf("got %+v, want %v", got, tc.want)
			}
			for i, p := range got {
				sevRule, part, _ := strings.Cut(tc.want[i], ": ")
				if p.Severity.String()+" "+string(p.Rule.ID) != sevRule || !strings.Contains(p.Message, part) {
					t.Errorf("problem %d = %+v, want %q", i, p, tc.want[i])
				}
			}
		})
	}

	// Consistency uses the set's roles, not Gwin's key names.
	got := v.Consistency("TLSRoute", map[string]string{"gw.acme.example/sni": "a.acme.example", "gw.acme.example/backend.https.sni": "c.acme.example"},
		annotations.BackendTLSPolicy{Policy: "ns/p", Backend: "ns/svc:443", Hostname: "b.acme.example"})
	if len(got) != 1 || got[0].Key != "gw.acme.example/sni" || got[0].Rule != rules.AnnotationBackendTLSPolicyConflict {
		t.Fatalf("consistency with the synthetic set: %+v", got)
	}
}

func TestParseSetRejectsBrokenData(t *testing.T) {
	base := "implementation: X\nprefix: x.example/\nkinds: [TLSRoute]\nkeys:\n"
	for _, tc := range []struct{ name, yaml, want string }{
		{"unknown field", base + "  - key: x.example/a\n    type: string\n    colour: red\n", "colour"},
		{"unknown type", base + "  - key: x.example/a\n    type: float\n", "unknown type"},
		{"key outside prefix", base + "  - key: y.example/a\n    type: string\n", "not under prefix"},
		{"enum without values", base + "  - key: x.example/a\n    type: enum\n", "enum without values"},
		{"inverted range", base + "  - key: x.example/a\n    type: integer\n    min: 5\n    max: 1\n", "min 5 > max 1"},
		{"duplicate", base + "  - key: x.example/a\n    type: string\n  - key: x.example/a\n    type: string\n", "twice"},
		{"unknown role", base + "  - key: x.example/a\n    type: hostname\n    role: magic\n", "unknown role"},
		{"role on a pattern", base + "  - key: x.example/<p>.sni\n    type: hostname\n    role: backend-sni\n", "cannot have a role"},
		{"dangling override", base + "  - key: x.example/a\n    type: string\noverrides:\n  - when: x.example/b\n    equals: x\n", "not in keys"},
		{"prefix without slash", "implementation: X\nprefix: x.example\nkinds: [TLSRoute]\n", "must end in '/'"},
		{"no kinds", "implementation: X\nprefix: x.example/\n", "kinds is empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := annotations.ParseSet([]byte(tc.yaml))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}
