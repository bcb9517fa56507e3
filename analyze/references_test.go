package analyze_test

import (
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testcert"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
)

// referenceScene is a Gateway with an HTTP listener taking routes from every
// namespace, Services web and shadow in default and Service shadow in other.
func referenceScene() []string {
	return []string{classDoc,
		gatewayDoc("{name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: All}, kinds: [{kind: HTTPRoute}, {kind: GRPCRoute}]}}",
			"{name: tcp, port: 5432, protocol: TCP}", "{name: udp, port: 53, protocol: UDP}", "{name: tls, port: 443, protocol: TLS, tls: {mode: Passthrough}}"),
		"apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: default}\nspec: {ports: [{port: 8080}]}",
		"apiVersion: v1\nkind: Service\nmetadata: {name: shadow, namespace: default}\nspec: {ports: [{port: 8080}]}",
		"apiVersion: v1\nkind: Service\nmetadata: {name: shadow, namespace: other}\nspec: {ports: [{port: 8080}]}",
		"apiVersion: v1\nkind: Service\nmetadata: {name: dns, namespace: default}\nspec: {ports: [{port: 53, protocol: UDP}, {port: 5432, protocol: TCP}]}",
	}
}

// routeDoc is HTTPRoute (or kind) default/r on the Gateway with the rules given
// as YAML list items.
func routeDoc(kind string, rules ...string) string {
	return "apiVersion: gateway.networking.k8s.io/v1\nkind: " + kind + "\nmetadata: {name: r, namespace: default}\nspec:\n  parentRefs: [{name: gw}]\n  rules:\n  - " +
		strings.Join(rules, "\n  - ") + "\n"
}

// resolvedRefs is the route's ResolvedRefs as "Status/Reason".
func resolvedRefs(rr *analyze.RouteResult) string {
	c := rr.ResolvedRefs()
	return string(c.Status) + "/" + c.Reason
}

// HTTPRequestMirrorFilter.BackendRef: "If the referent cannot be found, this
// BackendRef is invalid and must be dropped from the Gateway. The controller
// must ensure the "ResolvedRefs" condition on the Route status is set to
// `status: False`", and a cross-namespace reference without a ReferenceGrant
// is RefNotPermitted. A mirror is resolved as a backendRef is, on an
// HTTPRoute rule, on a backendRef's filters and on a GRPCRoute rule; the
// route's own backends still serve (a mirror only copies requests).
func TestRequestMirrorResolvedAsBackendRef(t *testing.T) {
	mirror := func(ref string) string {
		return "{type: RequestMirror, requestMirror: {backendRef: " + ref + "}}"
	}
	grant := "apiVersion: gateway.networking.k8s.io/v1\nkind: ReferenceGrant\nmetadata: {name: g, namespace: other}\nspec:\n  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: default}]\n  to: [{group: \"\", kind: Service}]"
	for _, tc := range []struct {
		name, route, extra, want, field string
	}{
		{"a mirror to a Service that exists", routeDoc("HTTPRoute", "{filters: ["+mirror("{name: shadow, port: 8080}")+"], backendRefs: [{name: web, port: 8080}]}"), "", "True/ResolvedRefs", ""},
		{"a mirror to a missing Service", routeDoc("HTTPRoute", "{filters: ["+mirror("{name: gone, port: 8080}")+"], backendRefs: [{name: web, port: 8080}]}"), "", "False/BackendNotFound", "spec.rules[0].filters[0].requestMirror.backendRef"},
		{"a mirror to an unsupported kind", routeDoc("HTTPRoute", "{filters: ["+mirror("{group: example.com, kind: Bucket, name: b}")+"], backendRefs: [{name: web, port: 8080}]}"), "", "False/InvalidKind", "spec.rules[0].filters[0].requestMirror.backendRef"},
		{"a mirror to another namespace without a ReferenceGrant", routeDoc("HTTPRoute", "{filters: ["+mirror("{name: shadow, namespace: other, port: 8080}")+"], backendRefs: [{name: web, port: 8080}]}"), "", "False/RefNotPermitted", "spec.rules[0].filters[0].requestMirror.backendRef"},
		{"a mirror to another namespace with a ReferenceGrant", routeDoc("HTTPRoute", "{filters: ["+mirror("{name: shadow, namespace: other, port: 8080}")+"], backendRefs: [{name: web, port: 8080}]}"), grant, "True/ResolvedRefs", ""},
		{"a backendRef's mirror to a missing Service", routeDoc("HTTPRoute", "{backendRefs: [{name: web, port: 8080, filters: ["+mirror("{name: gone, port: 8080}")+"]}]}"), "", "False/BackendNotFound", "spec.rules[0].backendRefs[0].filters[0].requestMirror.backendRef"},
		{"a GRPCRoute mirror to a missing Service", routeDoc("GRPCRoute", "{filters: ["+mirror("{name: gone, port: 8080}")+"], backendRefs: [{name: web, port: 8080}]}"), "", "False/BackendNotFound", "spec.rules[0].filters[0].requestMirror.backendRef"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			docs := append(referenceScene(), tc.route)
			if tc.extra != "" {
				docs = append(docs, tc.extra)
			}
			res := analyzeDocs(t, analyze.Options{}, docs...)
			rr := res.Routes[0]
			if got := resolvedRefs(rr); got != tc.want {
				t.Fatalf("ResolvedRefs = %s (%s), want %s", got, rr.ResolvedRefs().Message, tc.want)
			}
			if len(rr.Mirrors()) != 1 {
				t.Fatalf("%d mirrors, want 1", len(rr.Mirrors()))
			}
			if tc.field != "" {
				found := false
				for _, f := range res.Findings {
					found = found || (f.Field == tc.field && f.Rule.Condition != nil && f.Rule.Condition.Reason == strings.Split(tc.want, "/")[1])
				}
				if !found {
					t.Errorf("no finding at %s; findings %+v", tc.field, res.Findings)
				}
			}
			// The serving table keeps the mirror beside the route's backends, and
			// the backends serve the request whether the mirror resolves or not.
			d := serving.Build(res).Gateway(model.NamespacedName{Namespace: "default", Name: "gw"}).Port(80).Decide(serving.Request{Host: "www.example.test"})
			if d.Refusal != serving.Served {
				t.Fatalf("refusal %s, want Served", d.Refusal)
			}
			ms := d.Route().Mirrors()
			if len(ms) != 1 || !ms[0].Mirror || ms[0].Weight != 0 || ms[0].Resolved != (tc.field == "") {
				t.Errorf("serving mirrors %+v, want one, resolved %v", ms, tc.field == "")
			}
		})
	}
}

// HTTPRouteFilter.Type: "If a reference to a custom filter type cannot be
// resolved, the filter MUST NOT be skipped. Instead, requests that would have
// been processed by that filter MUST receive a HTTP error response." An
// ExtensionRef of a kind the implementation does not know (not declared with
// --external) is ResolvedRefs=False/InvalidKind; an undeclared object of a
// declared kind is BackendNotFound ("a reference to a resource that does not
// exist"). A rule whose own filter does not resolve is dropped, and a route
// left with valid rules is PartiallyInvalid=True/UnsupportedValue with a
// message starting "Dropped Rule" (RouteConditionPartiallyInvalid); a route
// with none left is not ("MUST NOT be set if a Route is ... fully invalid").
func TestExtensionRefFilter(t *testing.T) {
	auth := "{type: ExtensionRef, extensionRef: {group: example.com, kind: Auth, name: sso}}"
	valid := "{backendRefs: [{name: web, port: 8080}]}"
	filtered := "{filters: [" + auth + "], backendRefs: [{name: web, port: 8080}]}"
	for _, tc := range []struct {
		name     string
		rules    []string
		external []string
		want     string // ResolvedRefs
		partial  bool   // PartiallyInvalid=True
		extFinds bool   // a reference/External finding for the filter
	}{
		{"an unknown kind on one of two rules", []string{valid, filtered}, nil, "False/InvalidKind", true, false},
		{"an unknown kind on the only rule", []string{filtered}, nil, "False/InvalidKind", false, false},
		{"an unknown kind on a backendRef's filters drops no rule", []string{valid, "{backendRefs: [{name: web, port: 8080, filters: [" + auth + "]}]}"}, nil, "False/InvalidKind", false, false},
		{"a kind declared with --external", []string{valid, filtered}, []string{"Auth"}, "True/ResolvedRefs", false, true},
		{"the object declared with --external", []string{valid, filtered}, []string{"Auth/default/sso"}, "True/ResolvedRefs", false, true},
		{"another object of a declared kind", []string{valid, filtered}, []string{"Auth/default/other"}, "False/BackendNotFound", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opts analyze.Options
			for _, x := range tc.external {
				e, err := analyze.ParseExternal(x)
				if err != nil {
					t.Fatal(err)
				}
				opts.External = append(opts.External, e)
			}
			res := analyzeDocs(t, opts, append(referenceScene(), routeDoc("HTTPRoute", tc.rules...))...)
			rr := res.Routes[0]
			if got := resolvedRefs(rr); got != tc.want {
				t.Errorf("ResolvedRefs = %s (%s), want %s", got, rr.ResolvedRefs().Message, tc.want)
			}
			p := rr.Parents[0]
			if !p.Accepted() {
				t.Fatalf("the route is not accepted: %+v", p.Conditions())
			}
			pi := analyze.Find(p.Conditions(), "PartiallyInvalid")
			if (pi != nil) != tc.partial {
				t.Fatalf("PartiallyInvalid %+v, want %v", pi, tc.partial)
			}
			if pi != nil && (pi.Status != "True" || pi.Reason != "UnsupportedValue" || !strings.HasPrefix(pi.Message, "Dropped Rule 1")) {
				t.Errorf("PartiallyInvalid %s/%s %q, want True/UnsupportedValue \"Dropped Rule 1...\"", pi.Status, pi.Reason, pi.Message)
			}
			if _, ok := ruleMessages(res)["reference/External"]; ok != tc.extFinds {
				t.Errorf("reference/External reported %v, want %v", ok, tc.extFinds)
			}
		})
	}
}

// HTTPBackendRef: a backendRef is invalid when "a BackendTLSPolicy is present
// that refers to the Service, and the implementation is unable to meet the
// requirement". The policy that decides is the most specific one (sectionName
// before the whole Service) with precedence (older, then namespace/name:
// backendtlspolicy_types.go BackendTLSPolicySpec.TargetRefs). When it is not
// accepted, for any reason but Conflicted, the route is ResolvedRefs=False
// with the policy's reason and requests are refused: GEP-1897 (spec
// 004_a187aee97b1f2c77.txt) "For an invalid BackendTLSPolicy, implementations
// MUST NOT fall back to unencrypted (plaintext) connections. Instead, the
// corresponding TLS connection MUST fail, and the client MUST receive an HTTP
// 5xx error response", and BackendTLSPolicyValidation.WellKnownCACertificates
// "the supplied value is not recognized ... `status: False`, with a Reason
// `Invalid`".
func TestBackendTLSPolicyThatCannotBeMet(t *testing.T) {
	ca := testcert.ConfigMapYAML("default", "ca", testcert.Must(testcert.Options{CommonName: "backend CA", IsCA: true}, nil))
	route := routeDoc("HTTPRoute", "{backendRefs: [{name: web, port: 8080}]}")
	validCA := `{caCertificateRefs: [{group: "", kind: ConfigMap, name: ca}], hostname: web.example.com}`
	unknownCAs := `{wellKnownCACertificates: example.com/internal-cas, hostname: web.example.com}`
	for _, tc := range []struct {
		name     string
		policies []string
		want     string
		applies  string // the policy the backend connects with, when it resolves
	}{
		{"no valid CA", []string{policy("p", "", `[{group: "", kind: Service, name: web}]`, `{caCertificateRefs: [{group: "", kind: ConfigMap, name: gone}], hostname: web.example.com}`)}, "False/NoValidCACertificate", ""},
		{"a valid CA", []string{ca, policy("p", "", `[{group: "", kind: Service, name: web}]`, `{caCertificateRefs: [{group: "", kind: ConfigMap, name: ca}], hostname: web.example.com}`)}, "True/ResolvedRefs", "p"},
		{"no valid CA on the whole Service, a valid one on the port", []string{ca,
			policy("p", "", `[{group: "", kind: Service, name: web}]`, `{caCertificateRefs: [{group: "", kind: ConfigMap, name: gone}], hostname: web.example.com}`),
			policy("q", "", `[{group: "", kind: Service, name: web, sectionName: http}]`, `{caCertificateRefs: [{group: "", kind: ConfigMap, name: ca}], hostname: web.example.com}`)}, "True/ResolvedRefs", "q"},
		{"a policy on another Service", []string{policy("p", "", `[{group: "", kind: Service, name: shadow}]`, `{caCertificateRefs: [{group: "", kind: ConfigMap, name: gone}], hostname: web.example.com}`)}, "True/ResolvedRefs", ""},
		{"an unsupported wellKnownCACertificates value is Invalid: no plaintext", []string{policy("p", "", `[{group: "", kind: Service, name: web}]`, unknownCAs)}, "False/Invalid", ""},
		{"a target that is not a Service beside the Service makes the policy Invalid", []string{ca, policy("p", "", `[{group: "", kind: Service, name: web}, {group: example.com, kind: Backend, name: web}]`, validCA)}, "False/Invalid", ""},
		{"an older invalid policy wins the conflict: the newer valid one does not apply", []string{ca,
			policy("a-old", "2025-01-01T00:00:00Z", `[{group: "", kind: Service, name: web}]`, unknownCAs),
			policy("b-new", "2025-06-01T00:00:00Z", `[{group: "", kind: Service, name: web}]`, validCA)}, "False/Invalid", ""},
		{"an older valid policy wins the conflict over a newer invalid one", []string{ca,
			policy("a-old", "2025-01-01T00:00:00Z", `[{group: "", kind: Service, name: web}]`, validCA),
			policy("b-new", "2025-06-01T00:00:00Z", `[{group: "", kind: Service, name: web}]`, unknownCAs)}, "True/ResolvedRefs", "a-old"},
		{"an invalid policy on the port decides over a valid one on the whole Service", []string{ca,
			policy("p", "", `[{group: "", kind: Service, name: web}]`, validCA),
			policy("q", "", `[{group: "", kind: Service, name: web, sectionName: http}]`, unknownCAs)}, "False/Invalid", ""},
		{"a valid policy on the port decides over an invalid one on the whole Service", []string{ca,
			policy("p", "", `[{group: "", kind: Service, name: web}]`, unknownCAs),
			policy("q", "", `[{group: "", kind: Service, name: web, sectionName: http}]`, validCA)}, "True/ResolvedRefs", "q"},
		{"a policy that lost on another target applies nowhere, and nothing else targets the Service", []string{ca,
			policy("a-old", "2025-01-01T00:00:00Z", `[{group: "", kind: Service, name: shadow}]`, validCA),
			policy("b-new", "2025-06-01T00:00:00Z", `[{group: "", kind: Service, name: shadow}, {group: "", kind: Service, name: web}]`, validCA)}, "True/ResolvedRefs", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			docs := referenceScene()
			docs[2] = "apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: default}\nspec: {ports: [{name: http, port: 8080}]}"
			res := analyzeDocs(t, analyze.Options{}, append(append(docs, route), tc.policies...)...)
			if got := resolvedRefs(res.Routes[0]); got != tc.want {
				t.Errorf("ResolvedRefs = %s (%s), want %s", got, res.Routes[0].ResolvedRefs().Message, tc.want)
			}
			applies := ""
			if p := res.Routes[0].Backends[0].Policy; p != nil {
				applies = p.Policy.Obj.Name
			}
			if applies != tc.applies {
				t.Errorf("the backend connects with policy %q, want %q", applies, tc.applies)
			}
			if tc.want != "True/ResolvedRefs" {
				d := serving.Build(res).Gateway(model.NamespacedName{Namespace: "default", Name: "gw"}).Port(80).Decide(serving.Request{Host: "www.example.test"})
				if d.Refusal != serving.NoBackendResolves {
					t.Errorf("serving: %s, want NoBackendResolves", d.Refusal)
				}
			}
		})
	}
}

// BackendObjectReference.Port is the destination port; a Service port
// carries one protocol, so a TCPRoute's backend must be a TCP port and a
// UDPRoute's a UDP port. Another is ResolvedRefs=False/BackendNotFound,
// reported as route/BackendPortNotFound (rules.RouteBackendPortNotFound).
func TestBackendPortOfTheRouteProtocol(t *testing.T) {
	for _, tc := range []struct {
		name, kind, port, want string
	}{
		{"a TCPRoute to a TCP port", "TCPRoute", "5432", "True/ResolvedRefs"},
		{"a TCPRoute to a UDP port", "TCPRoute", "53", "False/BackendNotFound"},
		{"a UDPRoute to a UDP port", "UDPRoute", "53", "True/ResolvedRefs"},
		{"a UDPRoute to a TCP port", "UDPRoute", "5432", "False/BackendNotFound"},
		{"a UDPRoute to a port the Service lacks", "UDPRoute", "54", "False/BackendNotFound"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := analyzeDocs(t, analyze.Options{}, append(referenceScene(), routeDoc(tc.kind, "{backendRefs: [{name: dns, port: "+tc.port+"}]}"))...)
			if got := resolvedRefs(res.Routes[0]); got != tc.want {
				t.Errorf("ResolvedRefs = %s, want %s", got, tc.want)
			}
			msg, reported := ruleMessages(res)["route/BackendPortNotFound"]
			if reported != (tc.want != "True/ResolvedRefs") {
				t.Errorf("route/BackendPortNotFound reported %v (%s)", reported, msg)
			}
		})
	}
}

// HTTPBackendRef ("Support: Extended for Kubernetes ServiceImport"), likewise
// GRPCBackendRef and TLSRouteRule.BackendRefs: a multicluster.x-k8s.io
// ServiceImport is a backend kind, found or not found, not InvalidKind; a
// TCPRoute's is implementation-specific and stays InvalidKind.
func TestServiceImportBackend(t *testing.T) {
	imp := "apiVersion: multicluster.x-k8s.io/v1alpha1\nkind: ServiceImport\nmetadata: {name: api, namespace: default}\nspec: {type: ClusterSetIP, ports: [{port: 8080, protocol: TCP}]}"
	ref := func(name string) string {
		return "{backendRefs: [{group: multicluster.x-k8s.io, kind: ServiceImport, name: " + name + ", port: 8080}]}"
	}
	for _, tc := range []struct {
		name, kind, backend, want string
	}{
		{"an HTTPRoute to a ServiceImport that exists", "HTTPRoute", "api", "True/ResolvedRefs"},
		{"an HTTPRoute to a missing ServiceImport", "HTTPRoute", "gone", "False/BackendNotFound"},
		{"a GRPCRoute to a ServiceImport", "GRPCRoute", "api", "True/ResolvedRefs"},
		{"a TLSRoute to a missing ServiceImport", "TLSRoute", "gone", "False/BackendNotFound"},
		{"a TCPRoute to a ServiceImport", "TCPRoute", "api", "False/InvalidKind"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			route := routeDoc(tc.kind, ref(tc.backend))
			if tc.kind == "TLSRoute" { // the v1 CRD requires hostnames
				route = strings.Replace(route, "spec:\n", "spec:\n  hostnames: [app.example.com]\n", 1)
			}
			res := analyzeDocs(t, analyze.Options{}, append(referenceScene(), imp, route)...)
			if len(res.Routes) != 1 {
				t.Fatalf("the API server refuses the route: %s", ruleMessages(res)["schema/Invalid"])
			}
			if got := resolvedRefs(res.Routes[0]); got != tc.want {
				t.Errorf("ResolvedRefs = %s (%s), want %s", got, res.Routes[0].ResolvedRefs().Message, tc.want)
			}
		})
	}
}
