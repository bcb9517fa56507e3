package e2e

import (
	"encoding/base64"
	"os"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// No private key byte or Secret value appears in any output: every command and
// format is run on a configuration whose Secrets hold keys, and the output is
// searched for the keys (PEM and base64) and for PEM key headers.
func TestNoSecretDataInAnyOutput(t *testing.T) {
	files := []string{"testdata/examples/shop", "testdata/golden/plan-addresses.yaml", "testdata/golden/listener-certificate-cross-namespace.yaml"}
	var secrets []string
	for _, f := range []string{"../testdata/examples/shop/gateway.yaml", "../testdata/golden/plan-addresses.yaml", "../testdata/golden/listener-certificate-cross-namespace.yaml"} {
		secrets = append(secrets, secretValues(t, f)...)
	}
	if len(secrets) == 0 {
		t.Fatal("no Secret values found in the inputs: the test would prove nothing")
	}
	commands := [][]string{
		{"analyze"}, {"analyze", "-o", "wide"}, {"analyze", "-o", "json"}, {"analyze", "-o", "yaml"},
		{"render", "status", "-o", "json"}, {"render", "status", "-o", "yaml"},
		{"render", "plan"}, {"render", "plan", "-o", "json"}, {"render", "plan", "-o", "yaml"}, {"render", "plan", "-o", "dnsendpoint"},
		{"render", "plan", "-o", "certificate", "--issuer", "ClusterIssuer/x"},
		{"simulate", "--all"}, {"simulate", "--all", "-o", "json"}, {"simulate", "--all", "-o", "yaml"},
		{"explain", "gateway/edge", "-n", "infra"}, {"explain", "gateway/edge", "-n", "infra", "-o", "json"},
		// Against a base that serves none of it: every certificate is new.
		{"diff", "--base", "testdata/diff/unchanged/base.yaml"}, {"diff", "--base", "testdata/diff/unchanged/base.yaml", "-o", "json"},
		{"diff", "--base", "testdata/diff/unchanged/base.yaml", "-o", "markdown"}, {"diff", "--base", "testdata/diff/unchanged/base.yaml", "-o", "github"},
	}
	pemKey := regexp.MustCompile(`PRIVATE KEY|BEGIN CERTIFICATE`)
	for _, f := range files {
		for _, c := range commands {
			args := append(append([]string{}, c...), "-f", f, "--now", "2026-01-01T00:00:00Z", "--color", "always")
			if c[0] == "render" && c[1] == "status" {
				args = append(append([]string{}, c...), "-f", f)
			}
			r := gwtls(t, "", nil, args...)
			out := r.stdout + r.stderr
			if pemKey.MatchString(out) {
				t.Errorf("%v on %s: PEM material in output", c, f)
			}
			for _, s := range secrets {
				if strings.Contains(out, s) {
					t.Errorf("%v on %s: a Secret value appears in the output", c, f)
				}
			}
		}
	}
}

// secretValues returns every Secret data value of a file, base64 and decoded, and
// a recognisable slice of each, so that a partial leak is found too.
func secretValues(t *testing.T, path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, doc := range strings.Split(string(data), "\n---") {
		var obj struct {
			Kind string            `json:"kind"`
			Data map[string]string `json:"data"`
		}
		if yaml.Unmarshal([]byte(doc), &obj) != nil || obj.Kind != "Secret" {
			continue
		}
		for _, v := range obj.Data {
			out = append(out, v[len(v)/3:len(v)/3+24])
			if dec, err := base64.StdEncoding.DecodeString(v); err == nil && len(dec) > 80 {
				s := string(dec)
				out = append(out, s[40:72])
			}
		}
	}
	return out
}
