package analyze_test

import (
	"fmt"
	"strings"
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testcert"
)

// backendScene is a Gateway with an HTTPRoute to Service "be" (ports: https 443/TCP,
// dns 53/UDP) and a second Service "udp-only" with one UDP port.
func backendScene() []string {
	return []string{classDoc, `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: default}
spec:
  gatewayClassName: gc
  listeners: [{name: http, port: 80, protocol: HTTP}]`, `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: default}
spec:
  parentRefs: [{name: gw}]
  rules: [{backendRefs: [{name: be, port: 443}]}]`, `apiVersion: v1
kind: Service
metadata: {name: be, namespace: default}
spec: {ports: [{name: https, port: 443, protocol: TCP}, {name: dns, port: 53, protocol: UDP}]}`, `apiVersion: v1
kind: Service
metadata: {name: udp-only, namespace: default}
spec: {ports: [{name: dns, port: 53, protocol: UDP}]}`}
}

// refusedPolicies are the cases of TestBackendTLSPolicy whose policy the
// v1.6.3 CRD's schema or CEL rules refuse, with what the API server says: the
// engine's own answer for them is checked with admission off.
var refusedPolicies = map[string]string{
	"an unsupported wellKnownCACertificates value is Invalid (MUST ... Accepted False, Reason Invalid)": `spec.validation.wellKnownCACertificates: Invalid value: "Mozilla"`,
	"both CA sources is Invalid (only one may be specified)":                                            "spec.validation: Invalid value: must not contain both CACertificateRefs and WellKnownCACertificates",
	"neither CA source is Invalid":                                                                      "spec.validation: Invalid value: must specify either CACertificateRefs or WellKnownCACertificates",
	"a wildcard hostname is Invalid (PreciseHostname)":                                                  `spec.validation.hostname: Invalid value: "*.example.com"`,
}

// policyResult is the result of the BackendTLSPolicy named name, nil when the
// API server refused it.
func policyResult(res *analyze.Result, name string) *analyze.PolicyResult {
	for _, pr := range res.BackendTLSPolicies {
		if pr.Policy.Obj.Name == name {
			return pr
		}
	}
	return nil
}

func policy(name, created, targets, validation string) string {
	ts := ""
	if created != "" {
		ts = fmt.Sprintf(", creationTimestamp: %q", created)
	}
	return fmt.Sprintf("apiVersion: gateway.networking.k8s.io/v1\nkind: BackendTLSPolicy\nmetadata: {name: %s, namespace: default%s}\nspec:\n  targetRefs: %s\n  validation: %s\n", name, ts, targets, validation)
}

// TestBackendTLSPolicy: the MUSTs of GEP-1897 (spec 004_a187aee97b1f2c77.txt) and
// BackendTLSPolicyValidation, one row each.
func TestBackendTLSPolicy(t *testing.T) {
	ca := testcert.Must(testcert.Options{CommonName: "backend CA", IsCA: true}, nil)
	caCM := testcert.ConfigMapYAML("default", "ca", ca)
	be := `[{group: "", kind: Service, name: be}]`
	okValidation := `{caCertificateRefs: [{group: "", kind: ConfigMap, name: ca}], hostname: be.example.com}`
	cases := []struct {
		name                     string
		docs                     []string
		policy                   string // name of the policy checked
		accepted, acceptedReason string
		resolved, resolvedReason string
		lint                     string
	}{
		{"a resolvable ConfigMap CA is Accepted and ResolvedRefs", []string{caCM, policy("p", "", be, okValidation)}, "p", "True", "Accepted", "True", "ResolvedRefs", ""},
		{"wellKnownCACertificates System is accepted", []string{policy("p", "", be, `{wellKnownCACertificates: System, hostname: be.example.com}`)}, "p", "True", "Accepted", "True", "ResolvedRefs", ""},
		{"an unsupported wellKnownCACertificates value is Invalid (MUST ... Accepted False, Reason Invalid)", []string{policy("p", "", be, `{wellKnownCACertificates: Mozilla, hostname: be.example.com}`)}, "p", "False", "Invalid", "True", "ResolvedRefs", ""},
		{"both CA sources is Invalid (only one may be specified)", []string{caCM, policy("p", "", be, `{caCertificateRefs: [{group: "", kind: ConfigMap, name: ca}], wellKnownCACertificates: System, hostname: be.example.com}`)}, "p", "False", "Invalid", "True", "ResolvedRefs", ""},
		{"neither CA source is Invalid", []string{policy("p", "", be, `{hostname: be.example.com}`)}, "p", "False", "Invalid", "True", "ResolvedRefs", ""},
		{"an unsupported kind is ResolvedRefs False InvalidKind, and with no valid CA Accepted False NoValidCACertificate", []string{policy("p", "", be, `{caCertificateRefs: [{group: example.com, kind: Bundle, name: ca}], hostname: be.example.com}`)}, "p", "False", "NoValidCACertificate", "False", "InvalidKind", ""},
		{"a missing ConfigMap is InvalidCACertificateRef", []string{policy("p", "", be, okValidation)}, "p", "False", "NoValidCACertificate", "False", "InvalidCACertificateRef", ""},
		{"a ConfigMap without ca.crt is InvalidCACertificateRef", []string{"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ca, namespace: default}\ndata: {other: x}", policy("p", "", be, okValidation)}, "p", "False", "NoValidCACertificate", "False", "InvalidCACertificateRef", ""},
		{"one bad and one good CA ref: ResolvedRefs False but still Accepted", []string{caCM, policy("p", "", be, `{caCertificateRefs: [{group: "", kind: ConfigMap, name: ca}, {group: "", kind: ConfigMap, name: gone}], hostname: be.example.com}`)}, "p", "True", "Accepted", "False", "InvalidCACertificateRef", ""},
		{"a wildcard hostname is Invalid (PreciseHostname)", []string{caCM, policy("p", "", be, `{caCertificateRefs: [{group: "", kind: ConfigMap, name: ca}], hostname: "*.example.com"}`)}, "p", "False", "Invalid", "True", "ResolvedRefs", ""},
		{"a single UDP port is Invalid (applies only to TCP)", []string{caCM, policy("p", "", `[{group: "", kind: Service, name: udp-only}]`, okValidation)}, "p", "False", "Invalid", "True", "ResolvedRefs", ""},
		{"a sectionName naming a UDP port is Invalid", []string{caCM, policy("p", "", `[{group: "", kind: Service, name: be, sectionName: dns}]`, okValidation)}, "p", "False", "Invalid", "True", "ResolvedRefs", ""},
		{"a mix of TCP and UDP ports is accepted with a warning", []string{caCM, policy("p", "", be, okValidation)}, "p", "True", "Accepted", "True", "ResolvedRefs", ""},
		{"the older policy wins; the newer is Conflicted", []string{caCM, policy("new", "2026-01-02T00:00:00Z", be, okValidation), policy("old", "2026-01-01T00:00:00Z", be, okValidation)}, "new", "False", "Conflicted", "True", "ResolvedRefs", ""},
		{"a policy not created yet (no creationTimestamp) is newer than one that exists, whatever its name", []string{caCM, policy("aa-new", "", be, okValidation), policy("zz-existing", "2025-01-01T00:00:00Z", be, okValidation)}, "aa-new", "False", "Conflicted", "True", "ResolvedRefs", ""},
		{"on a tie, the first name alphabetically wins (bar over baz)", []string{caCM, policy("baz", "", be, okValidation), policy("bar", "", be, okValidation)}, "baz", "False", "Conflicted", "True", "ResolvedRefs", ""},
		{"different sectionNames do not conflict", []string{caCM, policy("a", "", `[{group: "", kind: Service, name: be, sectionName: https}]`, okValidation), policy("b", "", be, okValidation)}, "b", "True", "Accepted", "True", "ResolvedRefs", ""},
		{"a sectionName that names no port is reported", []string{caCM, policy("p", "", `[{group: "", kind: Service, name: be, sectionName: htps}]`, okValidation)}, "p", "True", "Accepted", "True", "ResolvedRefs", "backendtlspolicy/SectionNameNotFound"},
		{"un-prefixed options keys are reserved", []string{caCM, strings.Replace(policy("p", "", be, okValidation), "  validation:", "  options: {minVersion: \"1.3\"}\n  validation:", 1)}, "p", "True", "Accepted", "True", "ResolvedRefs", "backendtlspolicy/UnprefixedOption"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			docs := append(backendScene(), c.docs...)
			res := analyzeDocs(t, analyze.Options{}, docs...)
			p := policyResult(res, c.policy)
			_, refused := refusedPolicies[c.name]
			switch {
			case p == nil && !refused:
				t.Fatalf("policy %s refused by the API server: %v", c.policy, ruleMessages(res)["schema/Invalid"])
			case p != nil && refused:
				t.Fatalf("policy %s admitted: drop the case from refusedPolicies", c.policy)
			case refused:
				// The CRD refuses it first (schema/Invalid); the engine's own
				// answer, for a cluster that admitted it, is held below.
				if msg := ruleMessages(res)["schema/Invalid"]; !strings.Contains(msg, refusedPolicies[c.name]) {
					t.Errorf("schema/Invalid %q does not say %q", msg, refusedPolicies[c.name])
				}
				res = analyzeDocsAsWritten(t, analyze.Options{}, docs...)
				p = policyResult(res, c.policy)
			}
			acc, ref := analyze.Find(p.Conditions, "Accepted"), analyze.Find(p.Conditions, "ResolvedRefs")
			if string(acc.Status) != c.accepted || acc.Reason != c.acceptedReason {
				t.Errorf("Accepted = %s/%s (%s), want %s/%s", acc.Status, acc.Reason, acc.Message, c.accepted, c.acceptedReason)
			}
			if string(ref.Status) != c.resolved || ref.Reason != c.resolvedReason {
				t.Errorf("ResolvedRefs = %s/%s (%s), want %s/%s", ref.Status, ref.Reason, ref.Message, c.resolved, c.resolvedReason)
			}
			if c.lint != "" {
				if _, ok := ruleMessages(res)[c.lint]; !ok {
					t.Errorf("want finding %s, got %v", c.lint, ruleMessages(res))
				}
			}
			if c.name == "a mix of TCP and UDP ports is accepted with a warning" && !strings.Contains(acc.Message, "UDP") {
				t.Errorf("no UDP warning in %q", acc.Message)
			}
			// Ancestors: the Gateway whose route reaches Service be (spec 004 status).
			if strings.Contains(c.docs[len(c.docs)-1], "name: be}") && len(p.Ancestors) != 1 {
				t.Errorf("ancestors = %d, want the one Gateway", len(p.Ancestors))
			}
		})
	}
}

// TestBackendPortNotFound: a backendRef's port must be one of the Service's
// spec.ports[].port, of the transport the route carries (TCP but for a
// UDPRoute); a Service that declares no ports has none to check. The route's
// ResolvedRefs is then False/BackendNotFound (rules.RouteBackendPortNotFound).
// A Service backendRef without a port is refused by the HTTPRoute CRD's CEL
// rule first; the engine's answer, for a cluster that stored it, checks none.
func TestBackendPortNotFound(t *testing.T) {
	for _, tc := range []struct {
		name, backend string
		want          bool
		refused       string
	}{
		{"a declared port", "{name: be, port: 443}", false, ""},
		{"a port the Service lacks", "{name: be, port: 8443}", true, ""},
		{"a UDP port does not carry an HTTPRoute", "{name: udp-only, port: 53}", true, ""},
		{"no port", "{name: be}", false, "Must have port for Service reference"},
		{"a Service without ports", "{name: headless, port: 9000}", false, ""},
		{"the second backend lacks it", "{name: be, port: 443}, {name: udp-only, port: 54}", true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			docs := backendScene()
			docs[2] = strings.Replace(docs[2], "{name: be, port: 443}", tc.backend, 1)
			docs = append(docs, "apiVersion: v1\nkind: Service\nmetadata: {name: headless, namespace: default}\nspec: {clusterIP: None}")
			res := analyzeDocs(t, analyze.Options{}, docs...)
			if refusal := ruleMessages(res)["schema/Invalid"]; tc.refused != "" || refusal != "" {
				if tc.refused == "" || !strings.Contains(refusal, tc.refused) || len(res.Routes) != 0 {
					t.Fatalf("schema/Invalid %q, %d routes; want the route refused: %q", refusal, len(res.Routes), tc.refused)
				}
				res = analyzeDocsAsWritten(t, analyze.Options{}, docs...)
			}
			msg, got := ruleMessages(res)["route/BackendPortNotFound"]
			if got != tc.want {
				t.Fatalf("route/BackendPortNotFound reported %v (%q), want %v", got, msg, tc.want)
			}
			if got && !strings.Contains(msg, "has no") {
				t.Errorf("message %q does not say which port is missing", msg)
			}
			rr := res.Routes[0].ResolvedRefs()
			if gotFalse := rr.Status == "False" && rr.Reason == string(gwv1.RouteReasonBackendNotFound); gotFalse != tc.want {
				t.Errorf("route ResolvedRefs %s/%s, want False/BackendNotFound: %v", rr.Status, rr.Reason, tc.want)
			}
		})
	}
}
