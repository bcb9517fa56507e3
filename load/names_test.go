package load

import (
	"strings"
	"testing"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
)

// TestInvalidNames: names the API server refuses are errors at the line of
// the name, for every kind, with the rule of that kind.
func TestInvalidNames(t *testing.T) {
	tests := []struct {
		name    string
		content string
		line    int
		want    []string
	}{
		{
			name:    "a Gateway name with an upper-case letter",
			content: "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: Web\n  namespace: infra\n",
			line:    4,
			want:    []string{`Gateway "Web": metadata.name is not a valid Gateway name`, "RFC 1123 subdomain", "rename it"},
		},
		{
			name:    "a Secret name with a newline and an escape sequence",
			content: "apiVersion: v1\nkind: Secret\nmetadata:\n  name: \"a\\nb\\e[31m\"\n",
			line:    4,
			want:    []string{`Secret "a\nb\x1b[31m"`},
		},
		{
			name:    "a Service name with a dot is a subdomain, not a DNS-1035 label",
			content: "apiVersion: v1\nkind: Service\nmetadata:\n  name: web.v1\n",
			line:    4,
			want:    []string{`Service "web.v1"`, "DNS-1035 label"},
		},
		{
			name:    "a Service name starting with a digit",
			content: "apiVersion: v1\nkind: Service\nmetadata:\n  name: 1web\n",
			line:    4,
			want:    []string{"DNS-1035 label"},
		},
		{
			name:    "a Namespace name with a dot",
			content: "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team.a\n",
			line:    4,
			want:    []string{`Namespace "team.a"`, "must not contain dots"},
		},
		{
			name:    "a namespace that is not a DNS label",
			content: "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: r\n  namespace: Team_A\n",
			line:    5,
			want:    []string{`HTTPRoute "r": metadata.namespace "Team_A" is not a valid namespace name`},
		},
		{
			name:    "a name too long to print whole",
			content: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + strings.Repeat("a", 300) + "\n",
			line:    4,
			want:    []string{`ConfigMap "` + strings.Repeat("a", 80) + `"...`, "no more than 253 characters"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			le, p := mustFail(t, tt.content)
			if le.Source.File != p || le.Source.Line != tt.line {
				t.Errorf("Source = %v, want line %d", le.Source, tt.line)
			}
			for _, w := range tt.want {
				if !strings.Contains(le.Error(), w) {
					t.Errorf("error %q does not contain %q", le, w)
				}
			}
		})
	}
	// Valid names of each rule load.
	mustLoad(t, "apiVersion: v1\nkind: Service\nmetadata:\n  name: web-1\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n---\n"+
		"apiVersion: v1\nkind: Secret\nmetadata:\n  name: tls.example.com\n  namespace: team-a\n")
}

// FuzzNameChecksAgree holds the written-out grammars to apimachinery's: the
// same verdict on every name.
func FuzzNameChecksAgree(f *testing.F) {
	for _, s := range []string{"", "a", "a-b", "-a", "a-", "A", "1a", "a.b", "a..b", ".a", "a.", "a_b", "é", strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("a.", 126) + "a", strings.Repeat("a", 254)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		for _, c := range []struct {
			rule string
			nameCheck
			oracle apivalidation.ValidateNameFunc
		}{
			{"DNS-1123 subdomain", dns1123Subdomain, apivalidation.NameIsDNSSubdomain},
			{"DNS-1123 label", dns1123Label, apivalidation.ValidateNamespaceName},
			{"DNS-1035 label", dns1035Label, apivalidation.NameIsDNS1035Label},
		} {
			if fast, api := c.valid(name), len(c.oracle(name, false)) == 0; fast != api {
				t.Errorf("%s %q: written-out grammar says %v, apimachinery %v", c.rule, name, fast, api)
			}
		}
	})
}
