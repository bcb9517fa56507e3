package annotations_test

import (
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/annotations"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testcert"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

const gwin = "gwin.yandex.cloud/"

// Sections of the Gwin TLSRoute reference (spec 001,
// shared/spec/001_ed064400a18757f2.txt) that the rows below cite.
const (
	secBalancing  = "spec 001 Annotations reference > Backend group configuration"
	secHCCommon   = "spec 001 Annotations reference > Health check configuration > Common health check settings"
	secHCStream   = "spec 001 Annotations reference > Health check configuration > Stream health checks"
	secHCTLS      = "spec 001 Annotations reference > Health check configuration > Health check transport settings"
	secBackendTLS = "spec 001 Annotations reference > Backend TLS configuration"
	secStream     = "spec 001 Annotations reference > Stream backend configuration"
	secAffinity   = "spec 001 Annotations reference > Session affinity"
)

type valueCase struct {
	name     string
	key      string // without the gwin prefix
	value    string
	severity string // "" when the value is valid
	contains string // part of the message
	cite     string
}

func gwinValueCases(t testing.TB) []valueCase {
	ca := testcert.Must(testcert.Options{CommonName: "Test CA", IsCA: true}, nil)
	leaf := testcert.Must(testcert.Options{CommonName: "backend", DNSNames: []string{"backend.example.com"}}, ca)
	bundle := string(ca.CertPEM) + string(leaf.CertPEM)
	garbage := "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n"
	return []valueCase{
		// balancing.mode: (string) "Possible values: RANDOM, ROUND_ROBIN, LEAST_REQUEST".
		{"mode ROUND_ROBIN", "rules.backends.balancing.mode", "ROUND_ROBIN", "", "", secBalancing},
		{"mode RANDOM", "rules.backends.balancing.mode", "RANDOM", "", "", secBalancing},
		{"mode LEAST_REQUEST", "rules.backends.balancing.mode", "LEAST_REQUEST", "", "", secBalancing},
		{"mode lowercase is case-sensitive", "rules.backends.balancing.mode", "round_robin", "error", "did you mean ROUND_ROBIN?", secBalancing},
		{"mode typo", "rules.backends.balancing.mode", "LEAST_REQUESTS", "error", "did you mean LEAST_REQUEST?", secBalancing},
		{"mode unrelated", "rules.backends.balancing.mode", "MAGLEV_HASH", "error", "allowed: RANDOM, ROUND_ROBIN, LEAST_REQUEST", secBalancing},
		{"mode empty", "rules.backends.balancing.mode", "", "error", "not a valid value", secBalancing},

		// localityAwareRouting: (number) "Percentage of traffic".
		{"locality 80", "rules.backends.balancing.localityAwareRouting", "80", "", "", secBalancing},
		{"locality 0", "rules.backends.balancing.localityAwareRouting", "0", "", "", secBalancing},
		{"locality 100", "rules.backends.balancing.localityAwareRouting", "100", "", "", secBalancing},
		{"locality 101 is not a percentage", "rules.backends.balancing.localityAwareRouting", "101", "error", "out of range: expected from 0 to 100", secBalancing},
		{"locality negative", "rules.backends.balancing.localityAwareRouting", "-1", "error", "out of range", secBalancing},
		{"locality percent sign", "rules.backends.balancing.localityAwareRouting", "80%", "error", "is not a number", secBalancing},
		{"locality fraction", "rules.backends.balancing.localityAwareRouting", "80.5", "error", "is not a whole number", secBalancing},

		// strictLocality: (boolean).
		{"strictLocality false", "rules.backends.balancing.strictLocality", "false", "", "", secBalancing},
		{"strictLocality true", "rules.backends.balancing.strictLocality", "true", "", "", secBalancing},
		{"strictLocality yes", "rules.backends.balancing.strictLocality", "yes", "error", "is not a boolean", secBalancing},
		{"strictLocality True is undocumented", "rules.backends.balancing.strictLocality", "True", "warning", `documented boolean values "true" and "false"`, secBalancing},

		// panicThreshold: (number) "threshold percentage".
		{"panic 50", "rules.backends.balancing.panicThreshold", "50", "", "", secBalancing},
		{"panic 150", "rules.backends.balancing.panicThreshold", "150", "error", "out of range: expected from 0 to 100", secBalancing},
		{"panic word", "rules.backends.balancing.panicThreshold", "half", "error", "is not a number", secBalancing},

		// hc.timeout, hc.interval: (duration), examples 5s and 10s.
		{"timeout 5s", "rules.backends.hc.timeout", "5s", "", "", secHCCommon},
		{"timeout 1m30s", "rules.backends.hc.timeout", "1m30s", "", "", secHCCommon},
		{"timeout 500ms", "rules.backends.hc.timeout", "500ms", "", "", secHCCommon},
		{"timeout in words", "rules.backends.hc.timeout", "5 seconds", "error", `"5 seconds" is not a duration; use Go/Kubernetes duration syntax such as 5s`, secHCCommon},
		{"timeout without unit", "rules.backends.hc.timeout", "5", "error", "has no unit; a duration needs one, e.g. 5s", secHCCommon},
		{"timeout negative", "rules.backends.hc.timeout", "-5s", "error", "is negative", secHCCommon},
		{"timeout zero", "rules.backends.hc.timeout", "0s", "error", "is zero", secHCCommon},
		{"interval 10s", "rules.backends.hc.interval", "10s", "", "", secHCCommon},
		{"interval ISO 8601", "rules.backends.hc.interval", "PT10S", "error", "is not a duration", secHCCommon},
		{"interval zero", "rules.backends.hc.interval", "0", "error", "is zero", secHCCommon},

		// hc.healthyThreshold, hc.unhealthyThreshold: (number), counts.
		{"healthy 2", "rules.backends.hc.healthyThreshold", "2", "", "", secHCCommon},
		{"healthy negative", "rules.backends.hc.healthyThreshold", "-2", "error", "expected 0 or more", secHCCommon},
		{"healthy word", "rules.backends.hc.healthyThreshold", "two", "error", "is not a number", secHCCommon},
		{"unhealthy 3", "rules.backends.hc.unhealthyThreshold", "3", "", "", secHCCommon},
		{"unhealthy fraction", "rules.backends.hc.unhealthyThreshold", "2.5", "error", "is not a whole number", secHCCommon},
		{"unhealthy overflow", "rules.backends.hc.unhealthyThreshold", "99999999999999999999", "error", "out of range", secHCCommon},

		// hc.port: (number) "Port for health checks".
		{"port 8443", "rules.backends.hc.port", "8443", "", "", secHCCommon},
		{"port 0", "rules.backends.hc.port", "0", "error", "expected from 1 to 65535", secHCCommon},
		{"port 65536", "rules.backends.hc.port", "65536", "error", "expected from 1 to 65535", secHCCommon},
		{"port name", "rules.backends.hc.port", "https", "error", "is not a number", secHCCommon},

		// hc.stream.send, hc.stream.receive: (string), any data.
		{"send PING", "rules.backends.hc.stream.send", "PING", "", "", secHCStream},
		{"send empty", "rules.backends.hc.stream.send", "", "", "", secHCStream},
		{"receive PONG", "rules.backends.hc.stream.receive", "PONG", "", "", secHCStream},

		// hc.transportSettings.*
		{"hc plaintext true", "rules.backends.hc.transportSettings.plaintext", "true", "", "", secHCTLS},
		{"hc plaintext on", "rules.backends.hc.transportSettings.plaintext", "on", "error", "is not a boolean", secHCTLS},
		{"hc sni", "rules.backends.hc.transportSettings.tls.sni", "health.example.com", "", "", secHCTLS},
		{"hc sni empty works like backend sni", "rules.backends.hc.transportSettings.tls.sni", "", "", "", secHCTLS},
		{"hc sni wildcard", "rules.backends.hc.transportSettings.tls.sni", "*.example.com", "error", "is a wildcard", secHCTLS},
		{"hc sni with port", "rules.backends.hc.transportSettings.tls.sni", "health.example.com:443", "error", "includes a port", secHCTLS},
		{"hc trustedCA.id", "rules.backends.hc.transportSettings.tls.trustedCA.id", "health-cert-123", "", "", secHCTLS},
		{"hc trustedCA.bytes bundle", "rules.backends.hc.transportSettings.tls.trustedCA.bytes", bundle, "", "", secHCTLS},
		{"hc trustedCA.bytes doc placeholder", "rules.backends.hc.transportSettings.tls.trustedCA.bytes", "-----BEGIN CERTIFICATE-----...", "error", "contains no PEM block", secHCTLS},

		// Backend TLS configuration.
		{"sni", "rules.backends.tls.sni", "backend.example.com", "", "", secBackendTLS},
		{"sni empty is TLS as is", "rules.backends.tls.sni", "", "", "", secBackendTLS},
		{"sni IP", "rules.backends.tls.sni", "10.0.0.1", "error", "is an IP address", secBackendTLS},
		{"sni URL", "rules.backends.tls.sni", "https://backend.example.com", "error", "is a URL", secBackendTLS},
		{"sni uppercase", "rules.backends.tls.sni", "Backend.example.com", "error", "uppercase", secBackendTLS},
		{"sni wildcard", "rules.backends.tls.sni", "*.example.com", "error", "is a wildcard", secBackendTLS},
		{"trustedCA.id", "rules.backends.tls.trustedCA.id", "cert-123456", "", "", secBackendTLS},
		{"trustedCA.bytes one CA", "rules.backends.tls.trustedCA.bytes", string(ca.CertPEM), "", "", secBackendTLS},
		{"trustedCA.bytes garbage block", "rules.backends.tls.trustedCA.bytes", garbage, "error", "PEM block 1 does not parse", secBackendTLS},
		{"trustedCA.bytes good then garbage", "rules.backends.tls.trustedCA.bytes", string(ca.CertPEM) + garbage, "error", "PEM block 2 does not parse", secBackendTLS},
		{"trustedCA.bytes not PEM", "rules.backends.tls.trustedCA.bytes", "MIIBszCCAVmgAwIBAgIU", "error", "contains no PEM block", secBackendTLS},
		{"trustedCA.bytes empty", "rules.backends.tls.trustedCA.bytes", "", "error", "is empty", secBackendTLS},
		{"trustedCA.bytes private key", "rules.backends.tls.trustedCA.bytes", string(ca.CertPEM) + string(ca.KeyPEM), "error", "PEM block 2 is a private key", secBackendTLS},
		{"trustedCA.bytes key only", "rules.backends.tls.trustedCA.bytes", string(leaf.KeyPEM), "error", "PEM block 1 is a private key", secBackendTLS},

		// Stream backend configuration.
		{"enableProxy true", "rules.backends.stream.enableProxy", "true", "", "", secStream},
		{"enableProxy 1", "rules.backends.stream.enableProxy", "1", "warning", "not one of the documented boolean values", secStream},
		{"enableProxy enabled", "rules.backends.stream.enableProxy", "enabled", "error", "is not a boolean", secStream},
		{"keepConnections false", "rules.backends.stream.keepConnectionsOnHostHealthFailure", "false", "", "", secStream},
		{"keepConnections FALSE", "rules.backends.stream.keepConnectionsOnHostHealthFailure", "FALSE", "warning", "not one of the documented boolean values", secStream},
		{"keepConnections no", "rules.backends.stream.keepConnectionsOnHostHealthFailure", "no", "error", "is not a boolean", secStream},

		// Session affinity.
		{"header name", "rules.sessionAffinity.header.name", "X-Session-ID", "", "", secAffinity},
		{"header name with space", "rules.sessionAffinity.header.name", "X Session", "error", `' ' is not allowed`, secAffinity},
		{"header name with colon", "rules.sessionAffinity.header.name", "X-Session-ID:", "error", `':' is not allowed`, secAffinity},
		{"cookie name", "rules.sessionAffinity.cookie.name", "session", "", "", secAffinity},
		{"cookie name empty", "rules.sessionAffinity.cookie.name", "", "error", "is empty", secAffinity},
		{"cookie name with equals", "rules.sessionAffinity.cookie.name", "session=1", "error", `'=' is not allowed`, secAffinity},
		{"cookie ttl 3600s", "rules.sessionAffinity.cookie.ttl", "3600s", "", "", secAffinity},
		{"cookie ttl 0s is allowed", "rules.sessionAffinity.cookie.ttl", "0s", "", "", secAffinity},
		{"cookie ttl 1h", "rules.sessionAffinity.cookie.ttl", "1h", "", "", secAffinity},
		{"cookie ttl days", "rules.sessionAffinity.cookie.ttl", "1d", "error", "is not a duration", secAffinity},
		{"cookie ttl negative", "rules.sessionAffinity.cookie.ttl", "-1s", "error", "is negative", secAffinity},
		{"sourceIP true", "rules.sessionAffinity.sourceIP", "true", "", "", secAffinity},
		{"sourceIP word", "rules.sessionAffinity.sourceIP", "client", "error", "is not a boolean", secAffinity},
	}
}

func TestValidateGwinValues(t *testing.T) {
	for _, tc := range gwinValueCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			key := gwin + tc.key
			got := annotations.Validate("TLSRoute", map[string]string{key: tc.value})
			if tc.severity == "" {
				if len(got) != 0 {
					t.Fatalf("%s=%q: want no problem (%s), got %+v", tc.key, cut(tc.value), tc.cite, got)
				}
				return
			}
			var found bool
			for _, p := range got {
				if p.Key != key {
					t.Errorf("problem for key %q, want %q", p.Key, key)
				}
				if p.Severity.String() == tc.severity && strings.Contains(p.Message, tc.contains) {
					found = true
				}
				if p.Fix == "" {
					t.Errorf("problem without a fix: %+v", p)
				}
				if p.Rule != rules.AnnotationInvalidValue {
					t.Errorf("rule = %s, want %s", p.Rule, rules.AnnotationInvalidValue)
				}
				assertSafe(t, p)
			}
			if !found {
				t.Fatalf("%s=%q (%s): want a %s containing %q, got %+v", tc.key, cut(tc.value), tc.cite, tc.severity, tc.contains, got)
			}
		})
	}
}

// TestEveryGwinKeyIsTested keeps the table above complete: each key the
// reference lists has a valid row and an invalid row where the type can be
// wrong at all.
func TestEveryGwinKeyIsTested(t *testing.T) {
	valid, invalid := map[string]bool{}, map[string]bool{}
	for _, tc := range gwinValueCases(t) {
		if tc.severity == "" {
			valid[gwin+tc.key] = true
		} else {
			invalid[gwin+tc.key] = true
		}
	}
	for _, k := range gwinSet(t).Keys {
		if !valid[k.Key] {
			t.Errorf("%s (%s): no valid-value row", k.Key, k.Section)
		}
		if k.Type != annotations.TypeString && !invalid[k.Key] {
			t.Errorf("%s (%s): no invalid-value row", k.Key, k.Section)
		}
	}
}

// TestGwinSetMatchesReference pins the keys to the reference: every
// annotation in spec 001's "Annotations reference", in its order.
func TestGwinSetMatchesReference(t *testing.T) {
	want := []string{
		"rules.backends.balancing.mode",
		"rules.backends.balancing.localityAwareRouting",
		"rules.backends.balancing.strictLocality",
		"rules.backends.balancing.panicThreshold",
		"rules.backends.hc.timeout",
		"rules.backends.hc.interval",
		"rules.backends.hc.healthyThreshold",
		"rules.backends.hc.unhealthyThreshold",
		"rules.backends.hc.port",
		"rules.backends.hc.stream.send",
		"rules.backends.hc.stream.receive",
		"rules.backends.hc.transportSettings.plaintext",
		"rules.backends.hc.transportSettings.tls.sni",
		"rules.backends.hc.transportSettings.tls.trustedCA.id",
		"rules.backends.hc.transportSettings.tls.trustedCA.bytes",
		"rules.backends.tls.sni",
		"rules.backends.tls.trustedCA.id",
		"rules.backends.tls.trustedCA.bytes",
		"rules.backends.stream.enableProxy",
		"rules.backends.stream.keepConnectionsOnHostHealthFailure",
		"rules.sessionAffinity.header.name",
		"rules.sessionAffinity.cookie.name",
		"rules.sessionAffinity.cookie.ttl",
		"rules.sessionAffinity.sourceIP",
	}
	s := gwinSet(t)
	if len(s.Keys) != len(want) {
		t.Fatalf("%d keys, want %d", len(s.Keys), len(want))
	}
	for i, k := range s.Keys {
		if k.Key != gwin+want[i] {
			t.Errorf("key %d = %s, want %s", i, k.Key, gwin+want[i])
		}
		if k.Section == "" || k.Description == "" || k.DocType == "" {
			t.Errorf("%s: section, description and docType must cite the reference", k.Key)
		}
		if len(k.Kinds) != 1 || k.Kinds[0] != "TLSRoute" {
			t.Errorf("%s: kinds = %v, want [TLSRoute]", k.Key, k.Kinds)
		}
	}
}

// TestGwinExamplesAreValid checks the reference's own example values (the
// cheatsheet and the "Example:" of each row) against the set.
func TestGwinExamplesAreValid(t *testing.T) {
	all := map[string]string{}
	for _, k := range gwinSet(t).Keys {
		if k.Example == "" {
			if k.Type != annotations.TypePEMCertificates {
				t.Errorf("%s: no example; the reference gives one", k.Key)
			}
			continue // the reference's "-----BEGIN CERTIFICATE-----..." is a placeholder
		}
		if got := annotations.Validate("TLSRoute", map[string]string{k.Key: k.Example}); len(got) != 0 {
			t.Errorf("%s: example %q: %+v", k.Key, k.Example, got)
		}
		all[k.Key] = k.Example
	}
	// Together, the cheatsheet has plaintext health checks and TLS settings
	// for them: the only problems are those the reference implies.
	for _, p := range annotations.Validate("TLSRoute", all) {
		if p.Rule != rules.AnnotationNoEffect {
			t.Errorf("cheatsheet: unexpected %+v", p)
		}
	}
}

func gwinSet(t testing.TB) annotations.Set {
	t.Helper()
	sets, err := annotations.EmbeddedSets()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sets {
		if s.Implementation == "Gwin" {
			return s
		}
	}
	t.Fatal("no Gwin set embedded")
	return annotations.Set{}
}

func cut(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// assertSafe is the output contract: no PEM armour, bounded messages.
func assertSafe(t testing.TB, p annotations.Problem) {
	t.Helper()
	for _, f := range []string{p.Key, p.Value, p.Message, p.Fix} {
		if strings.Contains(f, "-----BEGIN") || strings.Contains(f, "-----END") {
			t.Errorf("PEM armour in output: %q", f)
		}
	}
	if n := len([]rune(p.Message)); n > 300 {
		t.Errorf("message is %d characters: %q", n, p.Message)
	}
	if n := len([]rune(p.Fix)); n > 300 {
		t.Errorf("fix is %d characters: %q", n, p.Fix)
	}
	if n := len([]rune(p.Value)); n > 45 {
		t.Errorf("value is %d characters: %q", n, p.Value)
	}
	if p.Severity != rules.Error && p.Severity != rules.Warning {
		t.Errorf("severity %v", p.Severity)
	}
}
