package annotations_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/annotations"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testcert"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

func TestEmbeddedSetsParse(t *testing.T) {
	sets, err := annotations.EmbeddedSets()
	if err != nil {
		t.Fatal(err)
	}
	if len(sets) == 0 {
		t.Fatal("no embedded sets")
	}
}

func TestUnknownKeySuggestsClosest(t *testing.T) {
	for _, tc := range []struct {
		name, key, want string
	}{
		{"typo in leaf", gwin + "rules.backends.hc.timout", "did you mean gwin.yandex.cloud/rules.backends.hc.timeout?"},
		{"wrong case", gwin + "rules.backends.tls.SNI", "did you mean gwin.yandex.cloud/rules.backends.tls.sni?"},
		{"missing segment", gwin + "rules.backends.trustedCA.bytes", "did you mean gwin.yandex.cloud/rules.backends.tls.trustedCA.bytes?"},
		{"plural", gwin + "rules.backend.balancing.mode", "did you mean gwin.yandex.cloud/rules.backends.balancing.mode?"},
		{"far away still names the closest", gwin + "x", "the closest documented key is gwin.yandex.cloud/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := annotations.Validate("TLSRoute", map[string]string{tc.key: "v"})
			if len(got) != 1 {
				t.Fatalf("got %+v", got)
			}
			p := got[0]
			if p.Severity != rules.Warning || p.Rule != rules.AnnotationUnknownKey || !strings.Contains(p.Message, tc.want) {
				t.Fatalf("want an unknown-key warning containing %q, got %+v", tc.want, p)
			}
		})
	}
}

func TestIgnoredKeys(t *testing.T) {
	for _, tc := range []struct {
		name, kind string
		ann        map[string]string
	}{
		{"other prefixes", "TLSRoute", map[string]string{
			"kubectl.kubernetes.io/last-applied-configuration": "{}",
			"example.com/rules.backends.hc.timeout":            "5 seconds",
			"gwin.yandex.cloud.evil/x":                         "y",
			"yandex.cloud/rules.backends.tls.sni":              "*.bad",
		}},
		{"kind the set does not document", "HTTPRoute", map[string]string{
			gwin + "rules.backends.hc.timeout": "5 seconds",
			gwin + "unknown":                   "x",
		}},
		{"nil map", "TLSRoute", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := annotations.Validate(tc.kind, tc.ann); len(got) != 0 {
				t.Fatalf("want nothing, got %+v", got)
			}
		})
	}
}

// TestOverrides covers keys the reference says another setting makes moot.
func TestOverrides(t *testing.T) {
	ca := testcert.Must(testcert.Options{CommonName: "CA", IsCA: true}, nil)
	for _, tc := range []struct {
		name string
		ann  map[string]string
		want []string // keys warned about, in order
	}{
		{"plaintext health checks ignore health check TLS (Health check transport settings)", map[string]string{
			gwin + "rules.backends.hc.transportSettings.plaintext":           "true",
			gwin + "rules.backends.hc.transportSettings.tls.sni":             "health.example.com",
			gwin + "rules.backends.hc.transportSettings.tls.trustedCA.bytes": string(ca.CertPEM),
		}, []string{
			gwin + "rules.backends.hc.transportSettings.tls.sni",
			gwin + "rules.backends.hc.transportSettings.tls.trustedCA.bytes",
		}},
		{"plaintext false keeps them", map[string]string{
			gwin + "rules.backends.hc.transportSettings.plaintext": "false",
			gwin + "rules.backends.hc.transportSettings.tls.sni":   "health.example.com",
		}, nil},
		{`empty SNI is TLS as is, without verification (Backend TLS configuration)`, map[string]string{
			gwin + "rules.backends.tls.sni":          "",
			gwin + "rules.backends.tls.trustedCA.id": "cert-123456",
		}, []string{gwin + "rules.backends.tls.trustedCA.id"}},
		{"SNI with trusted CA is fine", map[string]string{
			gwin + "rules.backends.tls.sni":          "backend.example.com",
			gwin + "rules.backends.tls.trustedCA.id": "cert-123456",
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var keys []string
			for _, p := range annotations.Validate("TLSRoute", tc.ann) {
				if p.Rule != rules.AnnotationNoEffect || p.Severity != rules.Warning {
					t.Errorf("unexpected %+v", p)
				}
				assertSafe(t, p)
				keys = append(keys, p.Key)
			}
			if !reflect.DeepEqual(keys, tc.want) {
				t.Fatalf("warned about %v, want %v", keys, tc.want)
			}
		})
	}
}

func TestPEMNeverQuoted(t *testing.T) {
	ca := testcert.Must(testcert.Options{CommonName: "CA", IsCA: true}, nil)
	body := string(ca.KeyPEM) + "-----BEGIN CERTIFICATE-----\ngarbage\n-----END CERTIFICATE-----\n"
	ann := map[string]string{
		gwin + "rules.backends.tls.trustedCA.bytes": body,
		gwin + "rules.backends.tls.sni":             string(ca.CertPEM), // PEM in the wrong key
		gwin + "rules.backends.tls.trustedCA":       string(ca.CertPEM), // unknown key
		gwin + "rules.backends.hc.stream.send":      string(ca.KeyPEM),  // valid string, never shown
	}
	got := annotations.Validate("TLSRoute", ann)
	if len(got) < 3 {
		t.Fatalf("got %+v", got)
	}
	for _, p := range got {
		assertSafe(t, p)
		if strings.Contains(p.Message+p.Value+p.Fix, "MII") {
			t.Errorf("base64 body in output: %+v", p)
		}
	}
}

func TestLongValuesAreCut(t *testing.T) {
	long := strings.Repeat("a", 5000)
	got := annotations.Validate("TLSRoute", map[string]string{
		gwin + "rules.backends.balancing.mode": long,
		gwin + "rules.backends.tls.sni":        long + ".example.com",
		gwin + strings.Repeat("k", 400):        long,
	})
	if len(got) != 3 {
		t.Fatalf("got %d problems", len(got))
	}
	for _, p := range got {
		assertSafe(t, p)
	}
}

func TestValidateOrderIsDeterministic(t *testing.T) {
	ann := map[string]string{}
	for _, k := range []string{"z", "a", "m", "rules.backends.hc.port", "rules.backends.hc.timeout", "rules.backends.tls.sni", "rules.backends.balancing.mode"} {
		ann[gwin+k] = "bad value"
	}
	ca := testcert.Must(testcert.Options{CommonName: "CA", IsCA: true}, nil)
	ann[gwin+"rules.backends.tls.trustedCA.bytes"] = string(ca.KeyPEM) + "junk"
	ann[gwin+"rules.backends.hc.transportSettings.plaintext"] = "true"
	ann[gwin+"rules.backends.hc.transportSettings.tls.sni"] = "Bad"

	first := annotations.Validate("TLSRoute", ann)
	for i := 1; i < len(first); i++ {
		if first[i-1].Key > first[i].Key {
			t.Fatalf("not sorted by key at %d: %q > %q", i, first[i-1].Key, first[i].Key)
		}
	}
	for range 50 {
		if got := annotations.Validate("TLSRoute", ann); !reflect.DeepEqual(got, first) {
			t.Fatalf("order changed:\n%+v\n%+v", first, got)
		}
	}
	// One key can have several problems; they keep the order the checks run.
	var sni []*rules.Rule
	for _, p := range first {
		if p.Key == gwin+"rules.backends.hc.transportSettings.tls.sni" {
			sni = append(sni, p.Rule)
		}
	}
	if want := []*rules.Rule{rules.AnnotationInvalidValue, rules.AnnotationNoEffect}; !reflect.DeepEqual(sni, want) {
		t.Fatalf("hc sni rules = %v, want %v", sni, want)
	}
}
