package rules_test

import (
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// released is every rule ID the tool has shipped. Users filter, suppress and
// baseline findings by these IDs, so a registered ID never changes: renaming a
// rule (or a gateway-api constant a condition rule is built from) fails here.
var released = []rules.ID{
	"analysis/WorkBounded",
	"annotation/backendtlspolicy-conflict",
	"annotation/invalid-value",
	"annotation/no-effect",
	"annotation/unknown-key",
	"annotation/wrong-kind",
	"backendtlspolicy/Accepted/Conflicted",
	"backendtlspolicy/Accepted/Invalid",
	"backendtlspolicy/Accepted/NoValidCACertificate",
	"backendtlspolicy/NoAncestors",
	"backendtlspolicy/ResolvedRefs/InvalidCACertificateRef",
	"backendtlspolicy/ResolvedRefs/InvalidKind",
	"backendtlspolicy/SectionNameNotFound",
	"backendtlspolicy/TargetNotFound",
	"backendtlspolicy/UnprefixedOption",
	"certificate/ChainExpired",
	"certificate/ChainOrder",
	"certificate/ChainUntrusted",
	"certificate/ExpiresSoon",
	"certificate/Expired",
	"certificate/KeyTooLargeForClients",
	"certificate/NoSubjectAltNames",
	"certificate/NotYetValid",
	"certificate/SHA1Signature",
	"certificate/SNINotCovered",
	"certificate/WeakKey",
	"drift/AttachedRoutesMismatch",
	"drift/ConditionMismatch",
	"drift/OrphanedStatus",
	"drift/StaleGeneration",
	"drift/StatusMissing",
	"drift/SupportedKindsMismatch",
	"gateway/Accepted/InvalidParameters",
	"gateway/Accepted/ListenersNotValid",
	"gateway/GatewayClassNotFound",
	"gateway/ResolvedRefs/InvalidClientCertificateRef",
	"gateway/ResolvedRefs/RefNotPermitted",
	"listener/Accepted/HostnameConflict",
	"listener/Accepted/NoValidCACertificate",
	"listener/Accepted/ProtocolConflict",
	"listener/Accepted/UnsupportedProtocol",
	"listener/Accepted/UnsupportedValue",
	"listener/CertificateRefsIgnored",
	"listener/OverlappingTLSConfig/OverlappingCertificates",
	"listener/OverlappingTLSConfig/OverlappingHostnames",
	"listener/ResolvedRefs/InvalidCACertificateKind",
	"listener/ResolvedRefs/InvalidCACertificateRef",
	"listener/ResolvedRefs/InvalidCertificateRef",
	"listener/ResolvedRefs/InvalidRouteKinds",
	"listener/ResolvedRefs/RefNotPermitted",
	"listenerset/Accepted/ListenersNotValid",
	"listenerset/Accepted/NotAllowed",
	"listenerset/Accepted/ParentNotAccepted",
	"load/Unreadable",
	"migration/BackendChanged",
	"migration/BackendProtocolChanged",
	"migration/BackendTLSAdded",
	"migration/BackendTLSChanged",
	"migration/BackendTLSLost",
	"migration/CanaryUnverified",
	"migration/CertificateChanged",
	"migration/CertificateNotCovering",
	"migration/HostNotServed",
	"migration/IngressNotServed",
	"migration/PassthroughLost",
	"migration/PathMatchNarrowed",
	"migration/PathMatchUnverified",
	"migration/PathNotServed",
	"migration/RedirectAdded",
	"migration/RedirectChanged",
	"migration/RedirectLost",
	"migration/RewriteChanged",
	"ocg/FeatureNotSupported",
	"ocg/MeshedRoute",
	"ocg/SelectorInvalid",
	"ocg/SelectorMissing",
	"ocg/TrustBundleExpired",
	"ocg/TrustBundleInvalid",
	"ocg/TrustBundleMissing",
	"ocg/TrustBundleNotCA",
	"ocg/TrustBundleNotFound",
	"reference/External",
	"route/Accepted/HostnameConflict",
	"route/Accepted/NoMatchingListenerHostname",
	"route/Accepted/NoMatchingParent",
	"route/Accepted/NotAllowedByListeners",
	"route/Accepted/UnsupportedValue",
	"route/BackendPortNotFound",
	"route/HostnameConflictOnListener",
	"route/NoParentRefs",
	"route/ResolvedRefs/BackendNotFound",
	"route/ResolvedRefs/Invalid",
	"route/ResolvedRefs/InvalidKind",
	"route/ResolvedRefs/NoValidCACertificate",
	"route/ResolvedRefs/RefNotPermitted",
	"schema/ExperimentalOnly",
	"schema/Invalid",
	"suppression/MissingReason",
	"suppression/UnknownRule",
	"suppression/Unused",
}

func ids(rs []*rules.Rule) []rules.ID {
	out := make([]rules.ID, len(rs))
	for i, r := range rs {
		out[i] = r.ID
	}
	return out
}

func TestReleasedIDsAreRegistered(t *testing.T) {
	got := ids(rules.All())
	for _, id := range released {
		if !slices.Contains(got, id) {
			t.Errorf("released rule %s is not registered", id)
		}
	}
	for _, id := range got {
		if !slices.Contains(released, id) {
			t.Errorf("rule %s is registered but not in the released list: add it there when it ships", id)
		}
	}
	seen := map[rules.ID]bool{}
	for _, id := range got {
		if seen[id] {
			t.Errorf("rule %s is registered twice", id)
		}
		seen[id] = true
	}
}

// Every rule says, in the user's terms, what it checks, how it is fixed and
// which text it enforces: the catalog and SARIF's rule help print exactly this.
func TestEveryRuleIsDocumented(t *testing.T) {
	for _, r := range rules.All() {
		if r.Summary == "" || r.Help == "" || r.Fix == "" {
			t.Errorf("%s: summary, help and fix must all be set: %+v", r.ID, r)
		}
		for _, text := range []string{r.Summary, r.Help, r.Fix} {
			if !strings.HasSuffix(text, ".") || strings.Contains(text, "See the finding") || strings.Contains(text, "Finding "+string(r.ID)) {
				t.Errorf("%s: %q is not a sentence about the rule", r.ID, text)
			}
		}
		if len(r.Spec) == 0 {
			t.Errorf("%s: cites no spec", r.ID)
		}
		for _, s := range r.Spec {
			if s.Document == "" || s.Section == "" {
				t.Errorf("%s: spec %+v needs a document and a section", r.ID, s)
			}
		}
		if r.Severity < rules.Info || r.Severity > rules.Error {
			t.Errorf("%s: severity %d", r.ID, r.Severity)
		}
	}
}

// A condition rule is named after what it reports, and knows which status is
// the healthy one.
func TestConditionRules(t *testing.T) {
	n := 0
	for _, r := range rules.All() {
		c := r.Condition
		if c == nil {
			if strings.Count(string(r.ID), "/") != 1 {
				t.Errorf("%s: a rule that is not a condition is family/Name", r.ID)
			}
			continue
		}
		n++
		if want := rules.ID(c.Object + "/" + c.Type + "/" + c.Reason); r.ID != want {
			t.Errorf("%s: condition %+v makes the ID %s", r.ID, c, want)
		}
		healthy, known := rules.Healthy(c.Type)
		if !known || c.Healthy != healthy || c.Unhealthy() == c.Healthy {
			t.Errorf("%s: healthy status %q, unhealthy %q", r.ID, c.Healthy, c.Unhealthy())
		}
		if !strings.Contains(r.Summary, c.Type+"="+string(c.Unhealthy())) || !strings.Contains(r.Help, "reason "+c.Reason+": ") {
			t.Errorf("%s: summary %q and help %q must name the condition and what its reason means", r.ID, r.Summary, r.Help)
		}
	}
	if n == 0 {
		t.Fatal("no condition rules registered")
	}
}

func TestHealthy(t *testing.T) {
	for _, tc := range []struct {
		conditionType string
		want          metav1.ConditionStatus
	}{
		{"Accepted", metav1.ConditionTrue},
		{"Programmed", metav1.ConditionTrue},
		{"ResolvedRefs", metav1.ConditionTrue},
		{"Conflicted", metav1.ConditionFalse},
		{"OverlappingTLSConfig", metav1.ConditionFalse},
	} {
		if got, known := rules.Healthy(tc.conditionType); !known || got != tc.want {
			t.Errorf("Healthy(%s) = %q, %v; want %q", tc.conditionType, got, known, tc.want)
		}
	}
	if _, known := rules.Healthy("SomethingNew"); known {
		t.Error("an unknown condition type has a known polarity")
	}
}

// Anchors are the catalog's link targets: unique, and stable with the ID.
func TestAnchors(t *testing.T) {
	seen := map[string]rules.ID{}
	for _, r := range rules.All() {
		a := r.Anchor()
		if other, ok := seen[a]; ok {
			t.Errorf("%s and %s share the anchor %s", r.ID, other, a)
		}
		seen[a] = r.ID
		if strings.ContainsAny(a, "/ ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			t.Errorf("%s: anchor %q", r.ID, a)
		}
	}
	r, _ := rules.Lookup("route/Accepted/NoMatchingParent")
	if got, want := r.HelpURI(), "https://github.com/kubectl-gwtls/kubectl-gwtls/blob/main/docs/rules.md#route-accepted-nomatchingparent"; got != want {
		t.Errorf("HelpURI = %s, want %s", got, want)
	}
}

func TestLookup(t *testing.T) {
	if r, ok := rules.Lookup("certificate/WeakKey"); !ok || r != rules.CertificateWeakKey {
		t.Errorf("Lookup(certificate/WeakKey) = %v, %v", r, ok)
	}
	if r, ok := rules.Lookup("certificate/weakkey"); ok {
		t.Errorf("IDs are case-sensitive, got %v", r)
	}
}

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		name, pattern string
		want          []rules.ID // nil: an error
		contains      rules.ID
		count         int
	}{
		{name: "an ID matches itself", pattern: "load/Unreadable", want: []rules.ID{"load/Unreadable"}},
		{name: "a family", pattern: "certificate/*", contains: "certificate/WeakKey", count: 11},
		{name: "a star crosses slashes", pattern: "route/*", contains: "route/Accepted/NoMatchingParent", count: 13},
		{name: "a condition type across objects", pattern: "*/ResolvedRefs/*", contains: "gateway/ResolvedRefs/RefNotPermitted", count: 14},
		{name: "a reason across objects", pattern: "*/RefNotPermitted", contains: "listener/ResolvedRefs/RefNotPermitted", count: 3},
		{name: "star in the middle", pattern: "listener/*Conflict", contains: "listener/Accepted/ProtocolConflict", count: 2},
		{name: "everything", pattern: "*", count: len(released)},
		{name: "a prefix is not a match", pattern: "certificate"},
		{name: "case matters", pattern: "Certificate/*"},
		{name: "an unknown rule", pattern: "certificate/Weak"},
	} {
		got, err := rules.Match(tc.pattern)
		switch {
		case tc.want == nil && tc.count == 0:
			if err == nil {
				t.Errorf("%s: Match(%q) = %v, want an error", tc.name, tc.pattern, ids(got))
			}
			continue
		case err != nil:
			t.Errorf("%s: Match(%q): %v", tc.name, tc.pattern, err)
			continue
		}
		g := ids(got)
		if tc.want != nil && !slices.Equal(g, tc.want) {
			t.Errorf("%s: Match(%q) = %v, want %v", tc.name, tc.pattern, g, tc.want)
		}
		if tc.count != 0 && (len(g) != tc.count || (tc.contains != "" && !slices.Contains(g, tc.contains))) {
			t.Errorf("%s: Match(%q) = %v (%d), want %d containing %s", tc.name, tc.pattern, g, len(g), tc.count, tc.contains)
		}
	}
}

func TestParseSeverity(t *testing.T) {
	for in, want := range map[string]rules.Severity{"error": rules.Error, "Warning": rules.Warning, "warn": rules.Warning, "info": rules.Info, "none": rules.Error + 1} {
		if got, err := rules.ParseSeverity(in); err != nil || got != want {
			t.Errorf("ParseSeverity(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := rules.ParseSeverity("fatal"); err == nil {
		t.Error("ParseSeverity(fatal): want an error")
	}
}

// Every rule has a minimal failing manifest in rules/examples (the catalog
// prints it; cmd/gwtls's TestRuleExamples proves it fires exactly its rule),
// or says why none can exist; and every file there belongs to a rule.
func TestEveryRuleHasAnExample(t *testing.T) {
	files := map[string]bool{}
	names, err := rules.ExampleNames()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		files[n] = true
	}
	for _, r := range rules.All() {
		ex, ok := r.Example()
		why := r.WithoutExample()
		switch {
		case ok && why != "":
			t.Errorf("%s has an example and a reason not to: drop it from withoutExample", r.ID)
		case !ok && why == "":
			t.Errorf("%s has no example: add rules/examples/%s.yaml, a minimal manifest that fires it", r.ID, r.Anchor())
		case ok:
			delete(files, ex.Name)
			for name := range ex.Files {
				delete(files, name)
			}
			for _, f := range ex.Flags {
				if strings.HasSuffix(f, ".pem") && ex.Files[f] == nil {
					t.Errorf("%s: its flags name %s, which is not beside it", r.ID, f)
				}
			}
			for _, also := range ex.AlsoFires {
				if _, ok := rules.Lookup(also.Rule); !ok || also.Why == "" || also.Rule == r.ID {
					t.Errorf("%s: also fires %q (%q): want another registered rule, and why", r.ID, also.Rule, also.Why)
				}
			}
		}
	}
	for n := range files {
		t.Errorf("rules/examples/%s belongs to no rule (examples are named after the rule's anchor)", n)
	}
}
