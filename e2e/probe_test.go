package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testcert"
)

// probeManifests is an HTTPS Gateway for *.example.com whose Secret covers
// www.example.com only, while its route also serves shop.example.com.
func probeManifests(t *testing.T) (dir, caFile string) {
	ca := testcert.Must(testcert.Options{CommonName: "probe e2e CA", IsCA: true}, nil)
	leaf := testcert.Must(testcert.Options{CommonName: "www.example.com", DNSNames: []string{"www.example.com"}}, ca)
	dir = t.TempDir()
	docs := []string{`apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gc}
spec: {controllerName: example.com/gc}`, `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: default}
spec:
  gatewayClassName: gc
  listeners:
  - {name: https, port: 443, protocol: HTTPS, hostname: "*.example.com", tls: {certificateRefs: [{name: shop-cert}]}}`, `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: default}
spec:
  parentRefs: [{name: edge}]
  hostnames: [www.example.com, shop.example.com]
  rules: [{backendRefs: [{name: shop, port: 8080}]}]`,
		"apiVersion: v1\nkind: Service\nmetadata: {name: shop, namespace: default}\nspec: {ports: [{port: 8080}]}",
		testcert.SecretYAML("default", "shop-cert", []*testcert.Cert{leaf, ca})}
	if err := os.WriteFile(filepath.Join(dir, "gw.yaml"), []byte(strings.Join(docs, "\n---\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	caFile = filepath.Join(dir, "ca.pem")
	os.WriteFile(caFile, ca.CertPEM, 0o600)
	return dir, caFile
}

func TestProbeReplaysThroughTheLocalProxy(t *testing.T) {
	dir, ca := probeManifests(t)
	r := gwtls(t, "", nil, "probe", "-f", dir, "--ca-bundle", ca, "--sni", "nope.other.com")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (shop.example.com is not covered)\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"default/edge", "www.example.com", "shop.example.com", "nope.other.com", "refused",
		"default/shop:8080", "TLS 1.3", "http/1.1", "FINDING shop.example.com", "does not cover SNI shop.example.com", "3 handshakes, 2 as the configuration promises, 1 findings"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}

	j := gwtls(t, "", nil, "probe", "-f", dir, "--ca-bundle", ca, "-o", "json")
	var out struct {
		Replays []struct {
			SNI     string `json:"sni"`
			Verdict string `json:"verdict"`
			Reached *struct {
				Route string `json:"route"`
			} `json:"reached"`
		} `json:"replays"`
	}
	if err := json.Unmarshal([]byte(j.stdout), &out); err != nil {
		t.Fatalf("%v\n%s", err, j.stdout)
	}
	if len(out.Replays) != 2 || out.Replays[0].Reached == nil || out.Replays[0].Reached.Route != "HTTPRoute/default/shop" {
		t.Errorf("json: %s", j.stdout)
	}
}

func TestProbeRefusesUnnamedBackendAndBadFlags(t *testing.T) {
	dir, _ := probeManifests(t)
	for _, args := range [][]string{
		{"--backend", "default/other:80=127.0.0.1:9"},
		{"--backend", "default/shop:8080"},
		{"--ocg"},
		{"--target", "nocolon"},
	} {
		r := gwtls(t, "", nil, append([]string{"probe", "-f", dir}, args...)...)
		if r.code != 2 {
			t.Errorf("%v: exit %d, want 2\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}
}
