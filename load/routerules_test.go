package load

import (
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// TestRouteRulesKeepMatchesAndFilters: a rule keeps its matches, its filters
// (RequestMirror and ExtensionRef are references to resolve, RequestRedirect
// is what the serving table shows) and each backendRef's filters; a
// GRPCRoute's filters read as HTTPRouteFilters of the same type.
func TestRouteRulesKeepMatchesAndFilters(t *testing.T) {
	m, _ := mustLoad(t, `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web}
spec:
  rules:
  - matches: [{path: {type: PathPrefix, value: /api}}]
    filters:
    - type: RequestMirror
      requestMirror: {backendRef: {name: shadow, port: 8080}}
    - type: ExtensionRef
      extensionRef: {group: example.com, kind: Auth, name: sso}
    backendRefs:
    - name: api
      port: 8080
    - name: api-v2
      port: 8080
      filters:
      - type: RequestMirror
        requestMirror: {backendRef: {name: shadow-v2, port: 8080}}
  - filters:
    - type: RequestRedirect
      requestRedirect: {scheme: https, hostname: www.example.com, port: 443, statusCode: 301}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GRPCRoute
metadata: {name: rpc}
spec:
  rules:
  - matches: [{method: {service: echo.Echo, method: Say}}]
    filters:
    - type: RequestMirror
      requestMirror: {backendRef: {name: shadow, port: 9000}}
    backendRefs:
    - name: echo
      port: 9000
      filters:
      - type: ExtensionRef
        extensionRef: {group: example.com, kind: Limit, name: slow}
`)
	if len(m.Routes) != 2 {
		t.Fatalf("%d routes, want 2", len(m.Routes))
	}
	web, rpc := m.Routes[0].Rules, m.Routes[1].Rules
	if len(web) != 2 || len(rpc) != 1 {
		t.Fatalf("rules: HTTPRoute %d, GRPCRoute %d; want 2 and 1", len(web), len(rpc))
	}

	r := web[0]
	if len(r.Matches) != 1 || r.Matches[0].Path == nil || *r.Matches[0].Path.Value != "/api" {
		t.Errorf("matches = %+v, want the /api prefix", r.Matches)
	}
	if len(r.Filters) != 2 || r.Filters[0].RequestMirror == nil || r.Filters[0].RequestMirror.BackendRef.Name != "shadow" ||
		r.Filters[1].ExtensionRef == nil || r.Filters[1].ExtensionRef.Kind != "Auth" {
		t.Errorf("rule filters = %+v", r.Filters)
	}
	if len(r.BackendRefs) != 2 || r.BackendRefs[0].Filters != nil || len(r.BackendRefs[1].Filters) != 1 ||
		r.BackendRefs[1].Filters[0].RequestMirror.BackendRef.Name != "shadow-v2" {
		t.Errorf("backendRefs = %+v, want no filters on the first backendRef and a mirror on the second", r.BackendRefs)
	}
	redirect := web[1].Filters
	if len(redirect) != 1 || redirect[0].Type != gwv1.HTTPRouteFilterRequestRedirect {
		t.Fatalf("second rule filters = %+v, want a RequestRedirect", redirect)
	}
	if rr := redirect[0].RequestRedirect; *rr.Scheme != "https" || *rr.Hostname != "www.example.com" || *rr.Port != 443 || *rr.StatusCode != 301 {
		t.Errorf("redirect = %+v", rr)
	}
	if web[1].BackendRefs != nil {
		t.Errorf("a rule without backendRefs has backendRefs %+v", web[1].BackendRefs)
	}

	g := rpc[0]
	if len(g.GRPCMatches) != 1 || g.GRPCMatches[0].Method == nil || *g.GRPCMatches[0].Method.Service != "echo.Echo" || g.Matches != nil {
		t.Errorf("GRPCRoute matches = %+v / %+v", g.GRPCMatches, g.Matches)
	}
	if len(g.Filters) != 1 || g.Filters[0].Type != gwv1.HTTPRouteFilterRequestMirror || g.Filters[0].RequestMirror.BackendRef.Name != "shadow" {
		t.Errorf("GRPCRoute filters = %+v", g.Filters)
	}
	if len(g.BackendRefs) != 1 || len(g.BackendRefs[0].Filters) != 1 || g.BackendRefs[0].Filters[0].Type != gwv1.HTTPRouteFilterExtensionRef {
		t.Errorf("GRPCRoute backendRefs = %+v", g.BackendRefs)
	}
}

// TestServiceImportIdentity: a ServiceImport is read for its name and
// namespace, which is all a backendRef to it needs.
func TestServiceImportIdentity(t *testing.T) {
	m, _ := mustLoad(t, "apiVersion: multicluster.x-k8s.io/v1alpha1\nkind: ServiceImport\nmetadata: {name: api, namespace: apps}\nspec: {type: ClusterSetIP, ports: [{port: 80, protocol: TCP}]}\n")
	if len(m.ServiceImports) != 1 || m.ServiceImports[0].ObjectMeta.Name != "api" || m.ServiceImports[0].ObjectMeta.Namespace != "apps" {
		t.Fatalf("ServiceImports = %+v", m.ServiceImports)
	}
	if len(m.Skipped) != 0 {
		t.Errorf("skipped %v", m.Skipped)
	}
}
