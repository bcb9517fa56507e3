package annotations_test

import (
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/annotations"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// TestIngressControllerSets: the Ingress controllers' sets are data like
// Gwin's; their annotations on an Ingress are checked by the same generic
// code: unknown keys under a controller's prefix, values of the wrong type,
// and keys the controller reads outside its prefix.
func TestIngressControllerSets(t *testing.T) {
	var names []string
	for _, s := range annotations.IngressControllers() {
		names = append(names, s.Implementation)
		if len(s.Effects()) == 0 {
			t.Errorf("%s: no key has an effect", s.Implementation)
		}
		for _, k := range s.Keys {
			if !strings.HasPrefix(k.URL, "https://") {
				t.Errorf("%s: %s cites no page (url %q)", s.Implementation, k.Key, k.URL)
			}
		}
	}
	if got := strings.Join(names, ", "); got != "ingress-nginx, NGINX Ingress Controller" {
		t.Errorf("Ingress controllers: %s", got)
	}
	for _, c := range []struct {
		name string
		ann  map[string]string
		want []string // rule ID and key of each problem
	}{
		{"documented keys with documented values", map[string]string{
			"nginx.ingress.kubernetes.io/ssl-redirect": "false", "nginx.ingress.kubernetes.io/backend-protocol": "https",
			"nginx.org/redirect-to-https": "true", "nginx.org/path-regex": "case_insensitive", "ingress.kubernetes.io/ssl-redirect": "false"}, nil},
		{"a misspelt key under a controller's prefix", map[string]string{"nginx.ingress.kubernetes.io/ssl-redirct": "false"},
			[]string{"annotation/unknown-key nginx.ingress.kubernetes.io/ssl-redirct"}},
		{"a value of the wrong type", map[string]string{"nginx.org/path-regex": "true", "nginx.ingress.kubernetes.io/backend-protocol": "TLS"},
			[]string{"annotation/invalid-value nginx.ingress.kubernetes.io/backend-protocol", "annotation/invalid-value nginx.org/path-regex"}},
		{"a key the controller reads outside its prefix is checked; others there are not its", map[string]string{
			"ingress.kubernetes.io/ssl-redirect": "yes", "ingress.kubernetes.io/force-ssl-redirect": "true"},
			[]string{"annotation/invalid-value ingress.kubernetes.io/ssl-redirect"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, p := range annotations.Validate("Ingress", c.ann) {
				if p.Rule == rules.AnnotationInvalidValue && p.Severity != rules.Error {
					t.Errorf("%s: severity %v", p.Key, p.Severity)
				}
				got = append(got, string(p.Rule.ID)+" "+p.Key)
			}
			if strings.Join(got, "; ") != strings.Join(c.want, "; ") {
				t.Errorf("problems %q, want %q", got, c.want)
			}
		})
	}
}

// TestEffectsAreChecked: a set's effects are held to the vocabulary package
// ingress implements, and to the key's own values.
func TestEffectsAreChecked(t *testing.T) {
	const head = "implementation: X\nprefix: x.example/\nkinds: [Ingress]\nsource: test\n" +
		"ingress: {controllers: [x], classes: [x], paths: {Exact: exact, Prefix: element-prefix, ImplementationSpecific: string-prefix}, regexPaths: regex-prefix, tlsHosts: listed, hostCollision: merge, httpPorts: [80], httpsPorts: [443], invalidAnnotation: reject-ingress, notes: [n]}\n"
	for _, c := range []struct{ name, keys, want string }{
		{"an unknown effect", "keys: [{key: x.example/a, type: string, description: d, section: s, effect: {does: teleport}}]", "unknown effect"},
		{"a switch without the values that switch it on", "keys: [{key: x.example/a, type: boolean, description: d, section: s, effect: {does: passthrough}}]", "onValues"},
		{"an on-value the enum does not have", "keys: [{key: x.example/a, type: enum, values: [enabled, disabled], description: d, section: s, effect: {does: passthrough, onValues: [active]}}]", "not one of its values"},
		{"a redirect without a 3xx code", "keys: [{key: x.example/a, type: boolean, description: d, section: s, effect: {does: redirect-https, onValues: [\"true\"], statusCode: 200}}]", "3xx"},
		{"a redirect that overrides a key the set does not have", "keys: [{key: x.example/a, type: boolean, description: d, section: s, effect: {does: redirect-https, onValues: [\"true\"], statusCode: 301, overrides: [x.example/old]}}]", "not a key of the set"},
		{"overrides on an effect other than a redirect", "keys: [{key: x.example/a, type: boolean, description: d, section: s, effect: {does: passthrough, onValues: [\"true\"], overrides: [x.example/b]}}, {key: x.example/b, type: boolean, description: d, section: s, effect: {does: passthrough, onValues: [\"true\"]}}]", "overrides applies to"},
		{"a key outside the prefix not marked so", "keys: [{key: y.example/a, type: string, description: d, section: s}]", "not under prefix"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := annotations.ParseSet([]byte(head + c.keys))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want %q", err, c.want)
			}
		})
	}
	if _, err := annotations.ParseSet([]byte(strings.Replace(head, "tlsHosts: listed", "tlsHosts: all", 1) + "keys: []")); err == nil || !strings.Contains(err.Error(), "tlsHosts") {
		t.Errorf("a controller's tlsHosts outside the vocabulary: err = %v", err)
	}
}
