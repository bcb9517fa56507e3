package render

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// ciReport has a finding of every severity, from files (one with a Windows path,
// one without a line), from the cluster and from stdin, with newlines, commas,
// colons and percent signs in messages and fixes.
func ciReport() Report {
	return Report{
		APIVersion: ReportAPIVersion, Kind: "Report",
		Findings: []analyze.Finding{
			{Rule: rules.RouteAcceptedNoMatchingParent, Severity: analyze.SeverityError,
				Object: model.Ref{Kind: "HTTPRoute", Namespace: "shop", Name: "checkout"}, Field: "spec.parentRefs[0]",
				Source:  model.Source{File: "testdata/examples/shop/routes.yaml", Line: 20},
				Message: `Gateway infra/edge has no listener named "htps"`, Fix: `did you mean sectionName "https"?`},
			{Rule: rules.RouteResolvedRefsRefNotPermitted, Severity: analyze.SeverityError,
				Object: model.Ref{Kind: "TLSRoute", Namespace: "shop", Name: "payments"}, Field: "spec.rules[].backendRefs",
				Source:  model.Source{File: `deploy\routes\tls.yaml`, Line: 7},
				Message: "backendRef Service payments/psp is not permitted: no ReferenceGrant, 100% sure",
				Fix:     "apply this ReferenceGrant:\r\nkind: ReferenceGrant\nspec:\n  from: [a, b]"},
			{Rule: rules.ListenerOverlappingTLSConfigOverlappingHostnames, Severity: analyze.SeverityWarning,
				Object: model.Ref{Kind: "Gateway", Namespace: "infra", Name: "edge"}, Field: "listener https",
				Source:  model.Source{File: "gw, prod:1.yaml", Line: 3},
				Message: "hostname *.example.com overlaps a.example.com, b.example.com", Fix: "use distinct certificates"},
			{Rule: rules.RouteNoParentRefs, Severity: analyze.SeverityWarning,
				Object:  model.Ref{Kind: "GRPCRoute", Namespace: "apps", Name: "orphan"},
				Source:  model.Source{File: "cluster"},
				Message: "the route names no parentRefs, so it attaches to nothing", Fix: "add spec.parentRefs"},
			{Rule: rules.ReferenceExternal, Severity: analyze.SeverityInfo,
				Object: model.Ref{Kind: "Gateway", Namespace: "infra", Name: "edge"}, Field: "listener https",
				Source:  model.Source{File: "<stdin>", Line: 1},
				Message: "certificate Secret edge-cert is declared external and was not verified"},
			{Rule: rules.LoadUnreadable, Severity: analyze.SeverityWarning,
				Object:  model.Ref{Kind: "Secret", Namespace: "apps"},
				Message: "could not read Secret: forbidden", Fix: "grant get/list"},
			{Rule: rules.BackendTLSPolicyAcceptedInvalid, Severity: analyze.SeverityError,
				Object: model.Ref{Kind: "BackendTLSPolicy", Namespace: "apps", Name: "tls"},
				Source: model.Source{File: "no-line.yaml"}, Message: "validation sets neither caCertificateRefs nor wellKnownCACertificates"},
		},
	}
}

func sarifOf(t *testing.T, r Report) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := r.SARIF(&buf, "v1.2.3"); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// sarifSchema compiles the official SARIF 2.1.0 schema in testdata (see its
// README for where it comes from), asserting formats such as uri.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func validateSARIF(t *testing.T, sch *jsonschema.Schema, out []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	return sch.Validate(inst)
}

func TestSARIFValidatesAgainstSchema(t *testing.T) {
	sch := sarifSchema(t)
	for name, r := range map[string]Report{
		"findings": ciReport(),
		"clean":    {APIVersion: ReportAPIVersion, Kind: "Report", Findings: []analyze.Finding{}},
	} {
		t.Run(name, func(t *testing.T) {
			out := sarifOf(t, r)
			if err := validateSARIF(t, sch, out); err != nil {
				t.Fatalf("SARIF output does not validate: %v\n%s", err, out)
			}
		})
	}
	// The validator does reject what the schema forbids, so the check above means something.
	var log map[string]any
	if err := json.Unmarshal(sarifOf(t, ciReport()), &log); err != nil {
		t.Fatal(err)
	}
	result := log["runs"].([]any)[0].(map[string]any)["results"].([]any)[0].(map[string]any)
	result["level"] = "fatal"
	bad, _ := json.Marshal(log)
	if err := validateSARIF(t, sch, bad); err == nil {
		t.Fatal("a result with level \"fatal\" validated; the schema check is not working")
	}
}

// Decoded view of what the tests look at.
type sarifView struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name, InformationURI, Version string
				Rules                         []struct {
					ID, Name             string
					ShortDescription     struct{ Text string }
					FullDescription      struct{ Text string }
					Help                 struct{ Text, Markdown string }
					HelpURI              string
					DefaultConfiguration struct{ Level string }
				}
			}
		}
		Results []struct {
			RuleID    string
			RuleIndex int
			Level     string
			Message   struct{ Text string }
			Locations []struct {
				PhysicalLocation *struct {
					ArtifactLocation struct{ URI string }
					Region           *struct{ StartLine int }
				}
				LogicalLocations []struct{ Name, FullyQualifiedName, Kind string }
			}
			PartialFingerprints map[string]string
		}
	}
}

func TestSARIFContent(t *testing.T) {
	r := ciReport()
	out := sarifOf(t, r)
	if again := sarifOf(t, r); !bytes.Equal(out, again) {
		t.Fatal("same report gave different SARIF bytes")
	}
	var v sarifView
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	if v.Schema != "https://json.schemastore.org/sarif-2.1.0.json" || v.Version != "2.1.0" || len(v.Runs) != 1 {
		t.Fatalf("header: %q %q, %d runs", v.Schema, v.Version, len(v.Runs))
	}
	run := v.Runs[0]
	d := run.Tool.Driver
	if d.Name != "kubectl-gwtls" || d.Version != "v1.2.3" || d.InformationURI == "" {
		t.Errorf("driver %+v", d)
	}
	wantRules := []string{
		"backendtlspolicy/Accepted/Invalid", "listener/OverlappingTLSConfig/OverlappingHostnames", "load/Unreadable",
		"reference/External", "route/Accepted/NoMatchingParent", "route/NoParentRefs", "route/ResolvedRefs/RefNotPermitted",
	}
	if len(d.Rules) != len(wantRules) {
		t.Fatalf("%d rules, want %d", len(d.Rules), len(wantRules))
	}
	levels := map[string]string{}
	for i, rule := range d.Rules {
		if rule.ID != wantRules[i] {
			t.Errorf("rule %d is %q, want %q (sorted)", i, rule.ID, wantRules[i])
		}
		if rule.Name == "" || rule.ShortDescription.Text == "" || rule.FullDescription.Text == "" ||
			!strings.Contains(rule.Help.Text, "Fix: ") || !strings.Contains(rule.Help.Markdown, "**Fix:**") {
			t.Errorf("rule %s lacks documentation: %+v", rule.ID, rule)
		}
		if strings.Contains(rule.Help.Text, "See the finding's") || !strings.Contains(rule.Help.Text, "\nSpec: ") {
			t.Errorf("rule %s lacks its help or the spec it enforces: %q", rule.ID, rule.Help.Text)
		}
		if want := "https://github.com/kubectl-gwtls/kubectl-gwtls/blob/main/docs/rules.md#" + strings.ToLower(strings.ReplaceAll(rule.ID, "/", "-")); rule.HelpURI != want {
			t.Errorf("rule %s helpUri %q, want %q", rule.ID, rule.HelpURI, want)
		}
		levels[rule.ID] = rule.DefaultConfiguration.Level
	}
	if d.Rules[4].Name != "RouteAcceptedNoMatchingParent" {
		t.Errorf("rule name %q", d.Rules[4].Name)
	}
	if !strings.Contains(d.Rules[4].FullDescription.Text, "Accepted condition to False with reason NoMatchingParent") {
		t.Errorf("condition rule description %q", d.Rules[4].FullDescription.Text)
	}
	if !strings.Contains(d.Rules[1].FullDescription.Text, "OverlappingTLSConfig condition to True") {
		t.Errorf("OverlappingTLSConfig description %q", d.Rules[1].FullDescription.Text)
	}
	for id, want := range map[string]string{"route/Accepted/NoMatchingParent": "error", "route/NoParentRefs": "warning", "reference/External": "note"} {
		if levels[id] != want {
			t.Errorf("rule %s default level %q, want %q", id, levels[id], want)
		}
	}

	if len(run.Results) != len(r.Findings) {
		t.Fatalf("%d results for %d findings", len(run.Results), len(r.Findings))
	}
	type loc struct {
		uri  string
		line int
	}
	wantLoc := []*loc{
		{"testdata/examples/shop/routes.yaml", 20},
		{"deploy/routes/tls.yaml", 7},
		{"./gw,%20prod:1.yaml", 3}, // escaped; "./" keeps the colon from reading as a scheme
		nil,                        // cluster
		nil,                        // stdin
		nil,                        // no source
		{"no-line.yaml", 0},
	}
	wantLevel := []string{"error", "error", "warning", "warning", "note", "warning", "error"}
	seen := map[string]bool{}
	for i, res := range run.Results {
		f := r.Findings[i]
		if res.RuleID != string(f.Rule.ID) || d.Rules[res.RuleIndex].ID != string(f.Rule.ID) {
			t.Errorf("result %d: ruleId %q, ruleIndex %d, want %q", i, res.RuleID, res.RuleIndex, f.Rule)
		}
		if res.Level != wantLevel[i] {
			t.Errorf("result %d: level %q, want %q", i, res.Level, wantLevel[i])
		}
		wantText := f.Message
		if f.Fix != "" {
			wantText += "\nFix: " + f.Fix
		}
		if res.Message.Text != wantText {
			t.Errorf("result %d: message %q, want %q", i, res.Message.Text, wantText)
		}
		if len(res.Locations) != 1 {
			t.Fatalf("result %d: %d locations", i, len(res.Locations))
		}
		l := res.Locations[0]
		if len(l.LogicalLocations) != 1 || l.LogicalLocations[0].FullyQualifiedName != f.Object.String() {
			t.Errorf("result %d: logical locations %+v", i, l.LogicalLocations)
		}
		switch w := wantLoc[i]; {
		case w == nil && l.PhysicalLocation != nil:
			t.Errorf("result %d: physical location %+v for a finding without a file", i, *l.PhysicalLocation)
		case w == nil:
		case l.PhysicalLocation == nil:
			t.Errorf("result %d: no physical location, want %s", i, w.uri)
		case l.PhysicalLocation.ArtifactLocation.URI != w.uri:
			t.Errorf("result %d: uri %q, want %q", i, l.PhysicalLocation.ArtifactLocation.URI, w.uri)
		case w.line == 0 && l.PhysicalLocation.Region != nil:
			t.Errorf("result %d: region without a line", i)
		case w.line != 0 && (l.PhysicalLocation.Region == nil || l.PhysicalLocation.Region.StartLine != w.line):
			t.Errorf("result %d: region %+v, want startLine %d", i, l.PhysicalLocation.Region, w.line)
		}
		fp := res.PartialFingerprints["gwtlsFinding/v1"]
		if len(fp) != 32 || seen[fp] {
			t.Errorf("result %d: fingerprint %q (length 32, unique here)", i, fp)
		}
		seen[fp] = true
	}

	// The fingerprint ignores where the object is in the file, so code scanning
	// keeps tracking an alert when lines move.
	moved := ciReport()
	moved.Findings[0].Source.Line = 99
	var mv sarifView
	if err := json.Unmarshal(sarifOf(t, moved), &mv); err != nil {
		t.Fatal(err)
	}
	if a, b := mv.Runs[0].Results[0].PartialFingerprints, run.Results[0].PartialFingerprints; a["gwtlsFinding/v1"] != b["gwtlsFinding/v1"] {
		t.Errorf("fingerprint changed when only the line moved: %v vs %v", a, b)
	}
}

// Every rule the engine can emit is described in SARIF from the registry: its
// own summary and help, not a placeholder, and a link into the catalog.
func TestSARIFDescribesEveryRule(t *testing.T) {
	r := Report{APIVersion: ReportAPIVersion, Kind: "Report"}
	for _, rule := range rules.All() {
		r.Findings = append(r.Findings, analyze.Finding{Rule: rule, Severity: rule.Severity, Object: model.Ref{Kind: "Gateway", Namespace: "ns", Name: "x"}, Message: "m"})
	}
	out := sarifOf(t, r)
	if err := validateSARIF(t, sarifSchema(t), out); err != nil {
		t.Fatalf("SARIF with every rule does not validate: %v", err)
	}
	var v sarifView
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	d := v.Runs[0].Tool.Driver
	if len(d.Rules) != len(rules.All()) {
		t.Fatalf("%d rule descriptors for %d rules", len(d.Rules), len(rules.All()))
	}
	for _, rule := range d.Rules {
		reg, ok := rules.Lookup(rules.ID(rule.ID))
		switch {
		case !ok:
			t.Errorf("descriptor %s is not a registered rule", rule.ID)
		case rule.ShortDescription.Text != reg.Summary || rule.FullDescription.Text != reg.Help || rule.HelpURI != reg.HelpURI():
			t.Errorf("%s: descriptor %+v does not say what the registry says", rule.ID, rule)
		case strings.Contains(rule.Help.Text, "Finding "+rule.ID) || strings.Contains(rule.Help.Text, "See the finding's"):
			t.Errorf("%s: placeholder help %q", rule.ID, rule.Help.Text)
		}
	}
}
