package render

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"sort"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// SARIF constants: the format version, the schema URI the log names, and where
// the tool is documented.
const (
	sarifVersion        = "2.1.0"
	sarifSchemaURI      = "https://json.schemastore.org/sarif-2.1.0.json"
	toolName            = "kubectl-gwtls"
	toolInformationURI  = "https://github.com/kubectl-gwtls/kubectl-gwtls"
	fingerprintKey      = "gwtlsFinding/v1"
	sarifLogicalKindObj = "object"
)

// The SARIF 2.1.0 subset this tool writes. Field order is fixed by the structs
// and maps are written with sorted keys, so the same report gives the same bytes.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Version        string      `json:"version,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string             `json:"id"`
	Name                 string             `json:"name"`
	ShortDescription     sarifText          `json:"shortDescription"`
	FullDescription      sarifText          `json:"fullDescription"`
	Help                 sarifMultiText     `json:"help"`
	DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifMultiText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
}

type sarifLocation struct {
	PhysicalLocation *sarifPhysicalLocation `json:"physicalLocation,omitempty"`
	LogicalLocations []sarifLogicalLocation `json:"logicalLocations,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

type sarifLogicalLocation struct {
	Name               string `json:"name,omitempty"`
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

// SARIF writes the findings as a SARIF 2.1.0 log with one run: one rule per
// distinct rule ID (sorted), one result per finding in the report's order.
func (r Report) SARIF(w io.Writer, toolVersion string) error {
	ids := map[string]analyze.Severity{}
	for _, f := range r.Findings {
		if s, ok := ids[f.Rule]; !ok || f.Severity > s {
			ids[f.Rule] = f.Severity
		}
	}
	sorted := make([]string, 0, len(ids))
	for id := range ids {
		sorted = append(sorted, id)
	}
	sort.Strings(sorted)
	index := make(map[string]int, len(sorted))
	rules := make([]sarifRule, 0, len(sorted))
	for i, id := range sorted {
		index[id] = i
		rules = append(rules, sarifRuleOf(id, ids[id]))
	}
	results := make([]sarifResult, 0, len(r.Findings))
	for _, f := range r.Findings {
		results = append(results, sarifResultOf(f, index[f.Rule]))
	}
	log := sarifLog{
		Schema:  sarifSchemaURI,
		Version: sarifVersion,
		Runs: []sarifRun{{
			Tool:    sarifTool{Driver: sarifDriver{Name: toolName, InformationURI: toolInformationURI, Version: toolVersion, Rules: rules}},
			Results: results,
		}},
	}
	b, err := json.MarshalIndent(log, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// sarifLevel maps a severity to a SARIF level.
func sarifLevel(s analyze.Severity) string {
	switch s {
	case analyze.SeverityError:
		return "error"
	case analyze.SeverityWarning:
		return "warning"
	}
	return "note"
}

func sarifResultOf(f analyze.Finding, ruleIndex int) sarifResult {
	text := f.Message
	if f.Fix != "" {
		text += "\nFix: " + f.Fix
	}
	loc := sarifLocation{LogicalLocations: []sarifLogicalLocation{{
		Name: f.Object.Name, FullyQualifiedName: f.Object.String(), Kind: sarifLogicalKindObj,
	}}}
	if file, ok := sourceFile(f.Source); ok {
		loc.PhysicalLocation = &sarifPhysicalLocation{ArtifactLocation: sarifArtifactLocation{URI: fileURI(file)}}
		if f.Source.Line > 0 {
			loc.PhysicalLocation.Region = &sarifRegion{StartLine: f.Source.Line}
		}
	}
	return sarifResult{
		RuleID: f.Rule, RuleIndex: ruleIndex, Level: sarifLevel(f.Severity),
		Message:             sarifText{Text: text},
		Locations:           []sarifLocation{loc},
		PartialFingerprints: map[string]string{fingerprintKey: findingFingerprint(f)},
	}
}

// findingFingerprint identifies a finding across runs independently of lines
// moving: the rule, the object and the field.
func findingFingerprint(f analyze.Finding) string {
	sum := sha256.Sum256([]byte(f.Rule + "\x00" + f.Object.String() + "\x00" + f.Field))
	return hex.EncodeToString(sum[:16])
}

// sourceFile is the file a finding came from, if it came from one: objects read
// from a cluster or from stdin have none a code scanner could open.
func sourceFile(s model.Source) (string, bool) {
	if s.File == "" || s.File == "cluster" || strings.HasPrefix(s.File, "<") {
		return "", false
	}
	return s.File, true
}

// fileURI is a file path as a relative URI reference: forward slashes, escaped
// where a URI needs it.
func fileURI(file string) string {
	u := url.URL{Path: strings.ReplaceAll(filepath.ToSlash(file), `\`, "/")}
	return u.String()
}

// ruleDoc is what a rule's help says: what the problem is and how it is fixed in
// general; each finding's own message and fix are specific.
type ruleDoc struct {
	short, full, fix string
}

// fixedRules documents the rules that are not conditions (docs/output.md).
var fixedRules = map[string]ruleDoc{
	"gateway/GatewayClassNotFound": {
		"The Gateway's GatewayClass is not in the input.",
		"The GatewayClass named by spec.gatewayClassName is not among the analyzed objects, so its supported features are unknown; the Gateway is analyzed as if its controller supported every feature.",
		"Include the GatewayClass (with status.supportedFeatures) in the input, or pass --supported-features."},
	"route/NoParentRefs": {
		"The route names no parentRefs, so it attaches to nothing.",
		"A route without spec.parentRefs is not attached to any Gateway or ListenerSet and serves no traffic.",
		"Add spec.parentRefs naming the Gateway (and optionally the listener with sectionName) or ListenerSet the route belongs to."},
	"route/BackendPortNotFound": {
		"A backendRef names a port the Service does not have.",
		"The backend Service exists but none of its spec.ports has the port the route's backendRef names, so traffic to this backend fails.",
		"Set backendRefs[].port to one of the Service's spec.ports[].port."},
	"reference/External": {
		"A reference declared external was not verified.",
		"The object references something declared with --external (for example a Secret issued by cert-manager at deploy time); it is assumed to exist and its contents were not checked.",
		"Nothing to fix; include the referenced object in the input to have it verified."},
	"backendtlspolicy/NoAncestors": {
		"No attached route reaches a Service the BackendTLSPolicy targets.",
		"No route attached to a Gateway in the input sends traffic to a Service this policy targets, so no Gateway would report the policy in its status.ancestors.",
		"Check spec.targetRefs, or include the routes and Gateways that use the Service."},
	"backendtlspolicy/TargetNotFound": {
		"A BackendTLSPolicy targets a Service that is not in the input.",
		"A targetRefs entry names a Service that is not among the analyzed objects (targets are always in the policy's namespace), so the policy applies to nothing that could be checked.",
		"Fix the name, include the Service in the input, or declare it with --external."},
	"backendtlspolicy/SectionNameNotFound": {
		"A BackendTLSPolicy's sectionName names no port of the Service.",
		"A targetRefs entry's sectionName must be the name of one of the target Service's spec.ports; otherwise the policy does not apply to any port.",
		"Set sectionName to the name of one of the Service's spec.ports."},
	"backendtlspolicy/UnprefixedOption": {
		"A BackendTLSPolicy option key has no domain prefix.",
		"Keys of spec.options without a domain prefix are reserved for Gateway API; implementation-specific options must be domain-prefixed.",
		"Use the implementation's domain-prefixed key (for example example.com/name)."},
	"certificate/SNINotCovered": {
		"A listener's certificate does not cover a hostname it is served for.",
		"The certificate a terminating listener serves lacks a DNS name (SAN) matching an intersected hostname clients will send as SNI; a wildcard certificate covers exactly one label, so *.example.com does not cover a.b.example.com. TLS clients will reject the connection.",
		"Reissue the certificate with the missing DNS names (cert-manager: spec.dnsNames), or add a certificateRef whose certificate covers them."},
	"load/Unreadable": {
		"A kind could not be listed from the cluster.",
		"The identity used to read the cluster may not list this kind; checks that need those objects were skipped.",
		"Grant get/list on the kind to this identity, or analyze manifests with -f."},
}

// conditionObjects names the object of a condition rule for people.
var conditionObjects = map[string]string{
	"gateway":          "Gateway",
	"listener":         "listener",
	"listenerset":      "ListenerSet",
	"route":            "route",
	"backendtlspolicy": "BackendTLSPolicy",
}

// conditionTypes says what each condition type being unhealthy means.
var conditionTypes = map[string]string{
	string(gwv1.GatewayConditionAccepted):              "is not accepted",
	string(gwv1.GatewayConditionResolvedRefs):          "has references that do not resolve",
	string(gwv1.ListenerConditionOverlappingTLSConfig): "has a TLS configuration that overlaps another listener's on the same port",
	string(gwv1.ListenerConditionConflicted):           "conflicts with another listener",
}

type reasonKey struct{ object, reason string }

type reasonDoc struct{ what, fix string }

// reasonDocs describes the reasons the engine emits, per object: what happened and
// the general fix. The reason strings are gateway-api's constants.
var reasonDocs = func() map[reasonKey]reasonDoc {
	m := map[reasonKey]reasonDoc{}
	add := func(object, reason, what, fix string) {
		m[reasonKey{object, reason}] = reasonDoc{what: what, fix: fix}
	}
	// Gateway
	add("gateway", string(gwv1.GatewayReasonInvalidParameters),
		"a parametersRef of the Gateway (spec.infrastructure.parametersRef) does not resolve",
		"Create the referenced object, fix the reference, or declare it with --external.")
	add("gateway", string(gwv1.GatewayReasonListenersNotValid),
		"none of the Gateway's listeners is valid",
		"Fix the listeners' own findings; a Gateway is accepted once at least one listener is.")
	add("gateway", string(gwv1.GatewayReasonInvalidClientCertificateRef),
		"spec.tls.backend.clientCertificateRef does not name an existing, valid kubernetes.io/tls Secret",
		"Reference a kubernetes.io/tls Secret that exists and holds a matching certificate and key.")
	add("gateway", string(gwv1.GatewayReasonRefNotPermitted),
		"a reference to another namespace is not allowed by any ReferenceGrant",
		"Create a ReferenceGrant in the target namespace that allows the Gateway's namespace, or move the object.")
	// Listener
	add("listener", string(gwv1.ListenerReasonUnsupportedProtocol),
		"the listener's protocol is not supported",
		"Use a protocol the implementation supports (HTTP, HTTPS, TLS, TCP, UDP) or one the GatewayClass lists.")
	add("listener", string(gwv1.ListenerReasonUnsupportedValue),
		"a field of the listener has a value that is invalid or unsupported (for example the TLS mode for its protocol, or its hostname)",
		"Correct the field the message names: HTTPS terminates TLS, TLS needs a tls block, Passthrough has no certificateRefs.")
	add("listener", string(gwv1.ListenerReasonHostnameConflict),
		"another listener on the same port has the same hostname, so clients cannot be routed between them",
		"Give the listeners distinct hostnames or ports; the older listener (by creationTimestamp, then namespace/name) wins.")
	add("listener", string(gwv1.ListenerReasonProtocolConflict),
		"another listener on the same port uses an incompatible protocol or TLS mode",
		"Move one listener to another port; TLS Passthrough cannot share a port with HTTPS or TLS Terminate.")
	add("listener", string(gwv1.ListenerReasonNoValidCACertificate),
		"none of the CA certificates for client certificate validation is usable",
		"Reference at least one ConfigMap holding a valid PEM CA certificate under ca.crt.")
	add("listener", string(gwv1.ListenerReasonInvalidCertificateRef),
		"a tls.certificateRefs entry is missing, is not a kubernetes.io/tls Secret, or holds an unusable certificate or key",
		"Reference a kubernetes.io/tls Secret whose certificate chain is valid, matches its key and covers the listener's hostnames.")
	add("listener", string(gwv1.ListenerReasonRefNotPermitted),
		"a reference to another namespace is not allowed by any ReferenceGrant",
		"Create a ReferenceGrant in the target namespace that allows Gateways from the listener's namespace.")
	add("listener", string(gwv1.ListenerReasonInvalidRouteKinds),
		"allowedRoutes.kinds names a route kind the listener's protocol cannot serve",
		"List only route kinds the protocol accepts (HTTPS: HTTPRoute, GRPCRoute; TLS: TLSRoute).")
	add("listener", string(gwv1.ListenerReasonInvalidCACertificateRef),
		"a CA certificate reference for client validation does not resolve to a usable ConfigMap",
		"Reference an existing ConfigMap with a PEM CA certificate under ca.crt.")
	add("listener", string(gwv1.ListenerReasonInvalidCACertificateKind),
		"a CA certificate reference for client validation names an unsupported kind",
		"Reference a core ConfigMap.")
	add("listener", string(gwv1.ListenerReasonOverlappingHostnames),
		"its hostname overlaps another listener's on the same port (for example a wildcard and a name under it), so HTTP/2 connection coalescing can send requests to the wrong listener",
		"Use distinct certificates per hostname, avoid overlapping hostnames on one port, or make sure the implementation returns 421 on misdirected requests.")
	add("listener", string(gwv1.ListenerReasonOverlappingCertificates),
		"its certificate covers hostnames served by another listener on the same port, so HTTP/2 connection coalescing can send requests to the wrong listener",
		"Issue certificates that cover only each listener's own hostnames.")
	// ListenerSet
	add("listenerset", string(gwv1.ListenerSetReasonNotAllowed),
		"the parent Gateway does not allow this ListenerSet (spec.allowedListeners)",
		"Allow the ListenerSet's namespace in the parent Gateway's spec.allowedListeners.namespaces.")
	add("listenerset", string(gwv1.ListenerSetReasonParentNotAccepted),
		"the parent Gateway does not exist or is not accepted",
		"Fix spec.parentRef, or fix the parent Gateway's own findings first.")
	add("listenerset", string(gwv1.ListenerSetReasonListenersNotValid),
		"none of the ListenerSet's listeners is valid",
		"Fix the listeners' own findings.")
	// Route
	add("route", string(gwv1.RouteReasonNoMatchingParent),
		"a parentRef names no Gateway, ListenerSet or listener (sectionName, port) that exists and is accepted",
		"Correct the parentRef's name, namespace, sectionName or port, or fix the parent's own findings.")
	add("route", string(gwv1.RouteReasonNoMatchingListenerHostname),
		"none of the route's hostnames intersects the hostname of any listener it could attach to",
		"Make a route hostname match a listener hostname; a wildcard listener *.example.com does not match example.com itself.")
	add("route", string(gwv1.RouteReasonNotAllowedByListeners),
		"the listeners' allowedRoutes (namespaces or kinds) do not admit this route",
		"Widen the listener's allowedRoutes.namespaces (Same, All or a Selector matching the route's namespace) or kinds, or move the route.")
	add("route", string(gwv1.RouteReasonUnsupportedValue),
		"a field of the route's parentRef has an unsupported value",
		"Correct the field the message names.")
	add("route", string(gwv1.RouteReasonRefNotPermitted),
		"a backendRef to another namespace is not allowed by any ReferenceGrant",
		"Create a ReferenceGrant in the backend's namespace that allows the route's kind from the route's namespace.")
	add("route", string(gwv1.RouteReasonInvalidKind),
		"a backendRef names a kind that is not supported as a backend",
		"Reference a core Service (or a kind the implementation supports).")
	add("route", string(gwv1.RouteReasonBackendNotFound),
		"a backendRef names a Service that does not exist",
		"Create the Service, fix the reference, or declare it with --external.")
	// BackendTLSPolicy
	add("backendtlspolicy", string(gwv1.PolicyReasonInvalid),
		"the policy's validation settings are invalid (for example both or neither of caCertificateRefs and wellKnownCACertificates, or a bad hostname or subjectAltName)",
		"Correct spec.validation as the message says.")
	add("backendtlspolicy", string(gwv1.PolicyReasonConflicted),
		"another BackendTLSPolicy targets the same Service (and sectionName) and takes precedence",
		"Merge the policies, or target a different Service port with sectionName.")
	add("backendtlspolicy", string(gwv1.BackendTLSPolicyReasonNoValidCACertificate),
		"none of the referenced CA certificates is usable",
		"Reference at least one ConfigMap holding a valid PEM CA certificate under ca.crt.")
	add("backendtlspolicy", string(gwv1.BackendTLSPolicyReasonInvalidKind),
		"a caCertificateRefs entry names an unsupported kind",
		"Reference a core ConfigMap.")
	add("backendtlspolicy", string(gwv1.BackendTLSPolicyReasonInvalidCACertificateRef),
		"a caCertificateRefs entry does not resolve to a ConfigMap with a valid CA certificate",
		"Reference an existing ConfigMap in the policy's namespace with a PEM CA certificate under ca.crt.")
	return m
}()

// ruleName is the rule ID as one PascalCase identifier: route/Accepted/NoMatchingParent
// becomes RouteAcceptedNoMatchingParent.
func ruleName(id string) string {
	var b strings.Builder
	for _, part := range strings.Split(id, "/") {
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

// docOf documents a rule: a fixed rule from its table, a condition rule from
// its object, condition type and reason.
func docOf(id string) ruleDoc {
	if d, ok := fixedRules[id]; ok {
		return d
	}
	parts := strings.Split(id, "/")
	if len(parts) != 3 {
		return ruleDoc{short: "Finding " + id + ".", full: "Finding " + id + ".", fix: "See the finding's message and fix."}
	}
	object, ctype, reason := parts[0], parts[1], parts[2]
	who := conditionObjects[object]
	if who == "" {
		who = object
	}
	state := conditionTypes[ctype]
	if state == "" {
		state = "has an unhealthy " + ctype + " condition"
	}
	status := "False"
	if ctype == string(gwv1.ListenerConditionOverlappingTLSConfig) || ctype == string(gwv1.ListenerConditionConflicted) {
		status = "True"
	}
	short := fmt.Sprintf("The %s %s (%s=%s, reason %s).", who, state, ctype, status, reason)
	cond := fmt.Sprintf("A conformant controller would set the %s's %s condition to %s with reason %s", who, ctype, status, reason)
	d, ok := reasonDocs[reasonKey{object, reason}]
	if !ok {
		return ruleDoc{short: short, full: cond + ".", fix: "See the finding's message and fix."}
	}
	return ruleDoc{short: short, full: cond + ": " + d.what + ".", fix: d.fix}
}

func sarifRuleOf(id string, sev analyze.Severity) sarifRule {
	d := docOf(id)
	return sarifRule{
		ID:               id,
		Name:             ruleName(id),
		ShortDescription: sarifText{Text: d.short},
		FullDescription:  sarifText{Text: d.full},
		Help: sarifMultiText{
			Text:     d.full + "\nFix: " + d.fix,
			Markdown: "**" + id + "**\n\n" + d.full + "\n\n**Fix:** " + d.fix,
		},
		DefaultConfiguration: sarifConfiguration{Level: sarifLevel(sev)},
	}
}
