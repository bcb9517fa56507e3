package gwtls

import (
	"errors"
	"strings"
	"testing"
)

// TestFlagsRefuseNonsense: a flag value the command cannot use is a usage
// error (exit 2) that names what the flag accepts; the values it accepts pass.
func TestFlagsRefuseNonsense(t *testing.T) {
	const shop = "../../testdata/examples/shop"
	for _, c := range []struct {
		name string
		args []string
		want []string // in the error; nil: accepted
	}{
		{"--port -1", []string{"simulate", "-f", shop, "--sni", "www.shop.example.com", "--port", "-1"}, []string{"--port -1: want a port from 1 to 65535"}},
		{"--port 0", []string{"simulate", "-f", shop, "--sni", "www.shop.example.com", "--port", "0"}, []string{"want a port from 1 to 65535"}},
		{"--port 65536", []string{"simulate", "-f", shop, "--sni", "www.shop.example.com", "--port", "65536"}, []string{"--port 65536: want a port from 1 to 65535"}},
		{"--port 443", []string{"simulate", "-f", shop, "--sni", "www.shop.example.com", "--port", "443"}, nil},
		{"--warn-expiry -5h", []string{"analyze", "-f", shop, "--warn-expiry", "-5h"}, []string{"--warn-expiry -5h0m0s: want a positive duration, such as 720h"}},
		{"--warn-expiry 0", []string{"analyze", "-f", shop, "--warn-expiry", "0"}, []string{"want a positive duration"}},
		{"--warn-expiry 168h", []string{"analyze", "-f", shop, "--warn-expiry", "168h", "--fail-on", "none"}, nil},
		{"--supported-features Bogus", []string{"analyze", "-f", shop, "--supported-features", "Bogus"},
			[]string{`"Bogus" is not a Gateway API feature; the features are: `, "TLSRoute", "HTTPRouteQueryParamMatching", "BackendTLSPolicy"}},
		{"--supported-features with a typo", []string{"analyze", "-f", shop, "--supported-features", "HTTPRoute,TLSRout"},
			[]string{`"TLSRout" is not a Gateway API feature (did you mean TLSRoute?)`}},
		{"--supported-features of a newer release", []string{"analyze", "-f", shop, "--supported-features", "HTTPRoute,HTTPRouteBackendURLRewrite", "--fail-on", "none"}, nil},
		{"--supported-features of known names", []string{"analyze", "-f", shop, "--supported-features", "Gateway, HTTPRoute,TLSRoute", "--fail-on", "none"}, nil},
		{"--issuer a/b/c", []string{"render", "plan", "-f", shop, "-o", "certificate", "--issuer", "a/b/c"},
			[]string{`--issuer "a/b/c": want KIND/NAME, such as ClusterIssuer/letsencrypt or Issuer/ca`}},
		{"--issuer without a kind", []string{"render", "plan", "-f", shop, "-o", "certificate", "--issuer", "letsencrypt"}, []string{"want KIND/NAME"}},
		{"--issuer ClusterIssuer/letsencrypt", []string{"render", "plan", "-f", shop, "-o", "certificate", "--issuer", "ClusterIssuer/letsencrypt"}, nil},
		{"--ttl -5", []string{"render", "plan", "-f", shop, "-o", "dnsendpoint", "--ttl", "-5"},
			[]string{"--ttl -5: want seconds from 0 (the DNS provider's default) to 2147483647 (RFC 2181 §8)"}},
		{"--ttl 0", []string{"render", "plan", "-f", shop, "-o", "dnsendpoint", "--ttl", "0"}, nil},
		{"--listen-address with a port", []string{"probe", "-f", shop, "--listen-address", "127.0.0.1:8443"},
			[]string{`--listen-address "127.0.0.1:8443": want an IP address or a hostname, without a port`}},
		{"--max-connections 0", []string{"probe", "-f", shop, "--max-connections", "0"}, []string{"--max-connections"}},
		{"--gateway without a namespace", []string{"simulate", "-f", shop, "--all", "--gateway", "edge"}, []string{`--gateway "edge": want NAMESPACE/NAME`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, stderr, code := run(t, "", c.args...)
			if c.want == nil {
				if code == ExitError {
					t.Fatalf("refused: %s", stderr)
				}
				return
			}
			err := execute(c.args...)
			if code != ExitError || !errors.As(err, new(usageError)) {
				t.Fatalf("exit %d (%v), want a usage error", code, err)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
		})
	}
}

// TestNewerFeaturesAreReportedAndIgnored: a feature name of a Gateway API
// family that this build's gateway-api does not define (a newer release's, as
// a GatewayClass of that release lists it) is not a typo: the run goes on, and
// stderr says the name is ignored.
func TestNewerFeaturesAreReportedAndIgnored(t *testing.T) {
	const shop = "../../testdata/examples/shop"
	base, _, baseCode := run(t, "", "analyze", "-f", shop, "--supported-features", "Gateway,HTTPRoute,TLSRoute")
	out, stderr, code := run(t, "", "analyze", "-f", shop, "--supported-features", "Gateway,HTTPRoute,TLSRoute,GatewayInfrastructurePropagation")
	if code != baseCode || out != base {
		t.Errorf("exit %d, want %d; output differs from the run without the newer name:\n%s", code, baseCode, out)
	}
	if !strings.Contains(stderr, "GatewayInfrastructurePropagation: not features of Gateway API v1.6.3") || !strings.Contains(stderr, "ignored") {
		t.Errorf("stderr does not report the ignored name:\n%s", stderr)
	}
}

// TestSimulateGateway: --gateway narrows --all to that Gateway, and a
// --gateway the input does not hold is an error (exit 2) that says so, lists
// the Gateways and suggests the one meant.
func TestSimulateGateway(t *testing.T) {
	const two = "../../testdata/golden/route-not-allowed-namespace-same.yaml" // Gateways infra/same-only and infra/all
	all, _, code := run(t, "", "simulate", "-f", two, "--all")
	if code != ExitClean || !strings.Contains(all, "infra/same-only") || !strings.Contains(all, "infra/all") {
		t.Fatalf("--all: exit %d\n%s", code, all)
	}
	one, _, code := run(t, "", "simulate", "-f", two, "--all", "--gateway", "infra/all")
	if code != ExitClean || strings.Contains(one, "infra/same-only") || !strings.Contains(one, "infra/all") || !strings.Contains(one, "HTTPRoute/apps/cross-ns") {
		t.Errorf("--all --gateway infra/all: exit %d\n%s", code, one)
	}
	json, _, _ := run(t, "", "simulate", "-f", two, "--all", "--gateway", "infra/same-only", "-o", "json")
	if strings.Contains(json, `"gateway": "infra/all"`) || !strings.Contains(json, `"gateway": "infra/same-only"`) {
		t.Errorf("-o json --all --gateway infra/same-only:\n%s", json)
	}

	for _, args := range [][]string{
		{"--all", "--gateway", "infra/same-onyl"},
		{"--host", "example.test", "--gateway", "infra/same-onyl"},
	} {
		stdout, stderr, code := run(t, "", append([]string{"simulate", "-f", two}, args...)...)
		if code != ExitError || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q; want exit 2 and no table", args, code, stdout)
		}
		want := "error: --gateway infra/same-onyl: no Gateway of that name in the input; did you mean infra/same-only? (its Gateways: infra/all, infra/same-only)"
		if !strings.Contains(stderr, want) {
			t.Errorf("%v: stderr %q, want %q", args, stderr, want)
		}
	}
}

// TestProbeWarnsWhenListeningBeyondLoopback: --listen-address 0.0.0.0 opens
// the proxy and its built-in backends to every host that can reach this one;
// probe says so on stderr, and not on loopback.
func TestProbeWarnsWhenListeningBeyondLoopback(t *testing.T) {
	const shop = "../../testdata/examples/shop"
	const warning = "warning: --listen-address 0.0.0.0 is not loopback: the proxy and its built-in backends accept connections from any host that can reach this one on every interface"
	_, stderr, code := run(t, "", "probe", "-f", shop, "--listen-address", "0.0.0.0")
	if code == ExitError || !strings.Contains(stderr, warning) {
		t.Errorf("exit %d, stderr %q; want the warning", code, stderr)
	}
	for _, addr := range []string{"127.0.0.1", "::1", "localhost"} {
		if _, stderr, _ := run(t, "", "probe", "-f", shop, "--listen-address", addr); strings.Contains(stderr, "warning: --listen-address") {
			t.Errorf("%s: %s", addr, stderr)
		}
	}
}
