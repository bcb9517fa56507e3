package e2e

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testcert"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/tlstest"
)

// probeManifests is an HTTPS Gateway for *.example.com whose Secret covers
// www.example.com only, while its route also serves shop.example.com. leaf is
// the Secret's certificate, issued by ca.
func probeManifests(t *testing.T) (dir, caFile string, leaf, ca *testcert.Cert) {
	ca = testcert.Must(testcert.Options{CommonName: "probe e2e CA", IsCA: true}, nil)
	leaf = testcert.Must(testcert.Options{CommonName: "www.example.com", DNSNames: []string{"www.example.com"}}, ca)
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
	return dir, caFile, leaf, ca
}

func TestProbeReplaysThroughTheLocalProxy(t *testing.T) {
	dir, ca, _, _ := probeManifests(t)
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
	dir, _, _, _ := probeManifests(t)
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

// dataPlane is a TLS server standing in for a live gateway: it serves certs by
// SNI and completes every handshake. It returns its address.
func dataPlane(t *testing.T, certs map[string]*testcert.Cert, ca *testcert.Cert) string {
	t.Helper()
	pairs := map[string]*tls.Certificate{}
	for sni, c := range certs {
		pair, err := tls.X509KeyPair(append(append([]byte{}, c.CertPEM...), ca.CertPEM...), c.KeyPEM)
		if err != nil {
			t.Fatal(err)
		}
		pairs[sni] = &pair
	}
	return tlstest.Serve(t, &tls.Config{GetCertificate: func(h *tls.ClientHelloInfo) (*tls.Certificate, error) {
		if p := pairs[h.ServerName]; p != nil {
			return p, nil
		}
		return nil, fmt.Errorf("no certificate for %q", h.ServerName)
	}}, tlstest.Handshake)
}

// TestProbeTargetCatchesAStaleCertificate: probe --target handshakes with a live
// data plane for every intersected hostname. www.example.com gets the Secret's
// certificate; shop.example.com gets one that covers the name but is not the
// Secret's, as from a data plane that missed a rotation: a finding, exit 1.
func TestProbeTargetCatchesAStaleCertificate(t *testing.T) {
	dir, caFile, leaf, ca := probeManifests(t)
	stale := testcert.Must(testcert.Options{CommonName: "shop.example.com", DNSNames: []string{"www.example.com", "shop.example.com"}}, ca)
	addr := dataPlane(t, map[string]*testcert.Cert{"www.example.com": leaf, "shop.example.com": stale}, ca)

	r := gwtls(t, "", nil, "probe", "-f", dir, "--ca-bundle", caFile, "--target", addr)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (shop.example.com is served a stale certificate)\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"ADDRESS", "SAME AS SECRET", addr, "true (default/shop-cert)", "false (default/shop-cert)",
		"FINDING shop.example.com at " + addr + ": stale certificate", "2 handshakes, 1 findings"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "FINDING www.example.com") {
		t.Errorf("www.example.com is served the Secret's certificate, yet is a finding:\n%s", r.stdout)
	}

	j := gwtls(t, "", nil, "probe", "-f", dir, "--ca-bundle", caFile, "--target", addr, "-o", "json")
	var out struct {
		Live []struct {
			Address      string `json:"address"`
			SNI          string `json:"sni"`
			SameAsSecret *bool  `json:"sameAsSecret"`
			Verdict      string `json:"verdict"`
		} `json:"live"`
	}
	if err := json.Unmarshal([]byte(j.stdout), &out); err != nil {
		t.Fatalf("%v\n%s", err, j.stdout)
	}
	got := map[string]string{}
	for _, l := range out.Live {
		if l.Address != addr || l.SameAsSecret == nil {
			t.Errorf("json: %+v", l)
		}
		got[l.SNI] = l.Verdict
	}
	if want := map[string]string{"www.example.com": "ok", "shop.example.com": "finding"}; !maps.Equal(got, want) {
		t.Errorf("verdicts %v, want %v", got, want)
	}
}

// meshedWorkload is a TLS server standing in for a meshed backend: it requires a
// client certificate issued by clientCA and selects the ALPNs it knows.
func meshedWorkload(t *testing.T, server, clientCA *testcert.Cert, alpn ...string) string {
	t.Helper()
	pair, err := tls.X509KeyPair(server.CertPEM, server.KeyPEM)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(clientCA.Cert)
	return tlstest.Serve(t, &tls.Config{Certificates: []tls.Certificate{pair},
		ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool, NextProtos: alpn}, tlstest.HandshakeAndWait)
}

// TestProbeOCGHandshake: probe --ocg performs an out-of-cluster Gateway's mTLS
// handshake (GEP-3792) with the Gateway's spec.mesh.trustBundle from the
// manifests: it succeeds against a workload that takes the OCG ALPN and the
// Gateway's certificate, and is a finding (exit 1) when the workload does not
// speak the ALPN or the client certificate is from another CA.
func TestProbeOCGHandshake(t *testing.T) {
	meshCA := testcert.Must(testcert.Options{CommonName: "mesh CA", IsCA: true}, nil)
	gatewayCA := testcert.Must(testcert.Options{CommonName: "gateway CA", IsCA: true}, nil)
	otherCA := testcert.Must(testcert.Options{CommonName: "other CA", IsCA: true}, nil)
	workload := testcert.Must(testcert.Options{CommonName: "svc.mesh", DNSNames: []string{"svc.mesh"}}, meshCA)
	client := testcert.Must(testcert.Options{CommonName: "gateway", DNSNames: []string{"gateway.infra"}}, gatewayCA)
	stranger := testcert.Must(testcert.Options{CommonName: "stranger", DNSNames: []string{"stranger"}}, otherCA)

	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	caSecret := func(name string, c *testcert.Cert) string {
		return fmt.Sprintf("apiVersion: v1\nkind: Secret\nmetadata: {name: %s, namespace: infra}\ndata:\n  ca.crt: %s\n", name, base64.StdEncoding.EncodeToString(c.CertPEM))
	}
	write("ocg.yaml", []byte(strings.Join([]string{`apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gc}
spec: {controllerName: example.com/gc}`, `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: ocg, namespace: infra}
spec:
  gatewayClassName: gc
  listeners: [{name: http, port: 80, protocol: HTTP}]
  mesh:
    trustBundle: [{name: mesh-ca}]`, caSecret("mesh-ca", meshCA)}, "\n---\n")))
	clientCrt, clientKey := write("gw.crt", client.CertPEM), write("gw.key", client.KeyPEM)
	strangerCrt, strangerKey := write("stranger.crt", stranger.CertPEM), write("stranger.key", stranger.KeyPEM)
	manifests := filepath.Join(dir, "ocg.yaml")
	// GEP-3792 is provisional: no CRD has spec.mesh, so the API server refuses
	// the Gateway; the probe reads it as written.
	asWritten := "--admission=false"

	good := meshedWorkload(t, workload, gatewayCA, "ocg.gateway.networking.k8s.io/v1")
	for _, tc := range []struct {
		name, target, crt, key string
		code                   int
		want                   []string
	}{
		{"mTLS with the OCG ALPN", good, clientCrt, clientKey, 0,
			[]string{"ALPN selected", "ocg.gateway.networking.k8s.io/v1", "backend chain verifies (Gateway trust bundle)", "client certificate accepted", "verdict"}},
		{"a workload without the OCG ALPN", meshedWorkload(t, workload, gatewayCA, "h2"), clientCrt, clientKey, 1,
			[]string{"FINDING:", "did not select ALPN"}},
		{"a client certificate from another CA", good, strangerCrt, strangerKey, 1,
			[]string{"FINDING:", "rejected the client certificate"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := gwtls(t, "", nil, "probe", "-f", manifests, asWritten, "--ocg", "--ocg-target", tc.target, "--sni", "svc.mesh",
				"--client-cert", tc.crt, "--client-key", tc.key, "--timeout", "3s")
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\n%s%s", r.code, tc.code, r.stdout, r.stderr)
			}
			for _, want := range tc.want {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("output lacks %q:\n%s", want, r.stdout)
				}
			}
			if tc.code == 0 && !regexp.MustCompile(`(?m)^backend chain verifies \(Gateway trust bundle\)\s+true$`).MatchString(r.stdout) {
				t.Errorf("the workload's chain, issued by the CA in spec.mesh.trustBundle, does not verify:\n%s", r.stdout)
			}
		})
	}

	t.Run("json", func(t *testing.T) {
		r := gwtls(t, "", nil, "probe", "-f", manifests, asWritten, "--ocg", "--ocg-target", good, "--sni", "svc.mesh",
			"--client-cert", clientCrt, "--client-key", clientKey, "-o", "json")
		var out struct {
			OCG struct {
				ALPNSelected   string `json:"alpnSelected"`
				ServerVerified bool   `json:"serverVerified"`
				Verdict        string `json:"verdict"`
			} `json:"ocg"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatalf("%v\n%s", err, r.stdout)
		}
		if r.code != 0 || out.OCG.Verdict != "ok" || !out.OCG.ServerVerified || out.OCG.ALPNSelected != "ocg.gateway.networking.k8s.io/v1" {
			t.Errorf("exit %d, %+v\n%s", r.code, out.OCG, r.stdout)
		}
	})

	t.Run("an unreadable client key is a usage error", func(t *testing.T) {
		r := gwtls(t, "", nil, "probe", "-f", manifests, asWritten, "--ocg", "--ocg-target", good, "--client-cert", clientCrt, "--client-key", manifests)
		if r.code != 2 || !strings.Contains(r.stderr, "--client-cert/--client-key") {
			t.Errorf("exit %d, want 2 naming the flags\n%s%s", r.code, r.stdout, r.stderr)
		}
	})
}

// TestProbePassthroughWithCABundleAndNow: --ca-bundle and --now are about the
// configuration's certificates. The built-in passthrough backend's certificate
// is the probe's own, issued for the run, so neither makes it a finding: the
// GEP-2643 mixed-termination Gateway probes clean with both.
func TestProbePassthroughWithCABundleAndNow(t *testing.T) {
	ca := testcert.Must(testcert.Options{CommonName: "probe e2e CA", IsCA: true}, nil)
	leaf := testcert.Must(testcert.Options{CommonName: "rtmp.example.com", DNSNames: []string{"rtmp.example.com"}}, ca)
	mixed, err := os.ReadFile("../testdata/gep2643/mixed-termination.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "gw.yaml"), []byte(string(mixed)+"\n---\n"+testcert.SecretYAML("default", "listener", []*testcert.Cert{leaf, ca})), 0o600)
	caFile := filepath.Join(dir, "ca.pem")
	os.WriteFile(caFile, ca.CertPEM, 0o600)

	r := gwtls(t, "", nil, "probe", "-f", dir, "--ca-bundle", caFile, "--now", "2030-06-01T00:00:00Z")
	if r.code != 0 || !strings.Contains(r.stdout, "2 handshakes, 2 as the configuration promises, 0 findings") {
		t.Errorf("exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
	// The terminating listener's certificate is still held to --now.
	r = gwtls(t, "", nil, "probe", "-f", dir, "--ca-bundle", caFile, "--now", "2037-01-01T00:00:00Z")
	if r.code != 1 || !strings.Contains(r.stdout, "FINDING rtmp.example.com") || strings.Contains(r.stdout, "FINDING direct.example.com") {
		t.Errorf("exit %d, want 1 for rtmp.example.com only\n%s%s", r.code, r.stdout, r.stderr)
	}
}
