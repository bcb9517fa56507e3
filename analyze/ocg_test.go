package analyze_test

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testcert"
)

func caSecret(ns, name string, certs ...*testcert.Cert) string {
	var pem []byte
	for _, c := range certs {
		pem = append(pem, c.CertPEM...)
	}
	return fmt.Sprintf("apiVersion: v1\nkind: Secret\nmetadata: {name: %s, namespace: %s}\ndata:\n  ca.crt: %s\n", name, ns, base64.StdEncoding.EncodeToString(pem))
}

// TestOutOfClusterGateway: GEP-3792 (spec 002) trust bundles on the Gateway
// (spec.mesh) and the Mesh (spec.ocg), and the meshed-route selector, read from the
// raw objects and reported as provisional.
func TestOutOfClusterGateway(t *testing.T) {
	ca := testcert.Must(testcert.Options{CommonName: "mesh root", IsCA: true}, nil)
	leaf := testcert.Must(testcert.Options{CommonName: "not-a-ca.example.com", DNSNames: []string{"not-a-ca.example.com"}}, ca)
	old := testcert.Must(testcert.Options{CommonName: "old root", IsCA: true, NotAfter: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)}, nil)
	gw := `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: ocg, namespace: infra}
spec:
  gatewayClassName: gc
  listeners: [{name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}]
  mesh:
    trustBundle: [{name: mesh-root}, {name: leaf-only}, {name: old-root}, {name: missing, namespace: elsewhere}]
    selector: {matchLabels: {linkerd.io/inject: enabled}}`
	docs := []string{classDoc, gw,
		caSecret("infra", "mesh-root", ca), caSecret("infra", "leaf-only", leaf), caSecret("infra", "old-root", old),
		"apiVersion: v1\nkind: Namespace\nmetadata: {name: meshed, labels: {linkerd.io/inject: enabled}}",
		"apiVersion: v1\nkind: Namespace\nmetadata: {name: plain}",
		"apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: in-mesh, namespace: meshed}\nspec: {parentRefs: [{name: ocg, namespace: infra}]}",
		"apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: labelled, namespace: plain, labels: {linkerd.io/inject: enabled}}\nspec: {parentRefs: [{name: ocg, namespace: infra}]}",
		"apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: outside, namespace: plain}\nspec: {parentRefs: [{name: ocg, namespace: infra}]}",
		"apiVersion: gateway.networking.x-k8s.io/v1alpha1\nkind: XMesh\nmetadata: {name: mesh}\nspec:\n  ocg:\n    trustBundle: []",
	}
	res := analyzeDocsAsWritten(t, analyze.Options{}, docs...)
	m := res.Gateways[0].Mesh
	if m == nil {
		t.Fatal("spec.mesh not read")
	}
	if len(m.TrustBundle) != 1 || m.TrustBundle[0].Subject.CommonName != "mesh root" {
		t.Errorf("trust bundle = %d certificates, want only the valid CA", len(m.TrustBundle))
	}
	var meshed []string
	for _, rr := range m.MeshedRoutes {
		meshed = append(meshed, rr.Route.ObjectMeta.Name)
	}
	if strings.Join(meshed, ",") != "in-mesh,labelled" {
		t.Errorf("meshed routes = %v, want in-mesh (namespace label) and labelled (route label)", meshed)
	}
	got := map[string]string{}
	for _, f := range res.Findings {
		if id := string(f.Rule.ID); strings.HasPrefix(id, "ocg/") {
			got[id] += f.Message + "\n"
			if !strings.Contains(f.Message, "provisional") {
				t.Errorf("%s is not marked provisional: %s", f.Rule, f.Message)
			}
		}
	}
	for _, rule := range []string{"ocg/TrustBundleNotCA", "ocg/TrustBundleExpired", "ocg/TrustBundleNotFound", "ocg/TrustBundleMissing", "ocg/MeshedRoute"} {
		if got[rule] == "" {
			t.Errorf("no %s finding; got %v", rule, got)
		}
	}
	if !strings.Contains(got["ocg/MeshedRoute"], analyze.OCGALPN) {
		t.Errorf("meshed route finding must name the ALPN: %s", got["ocg/MeshedRoute"])
	}
}
