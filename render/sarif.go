package render

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// SARIF constants: the format version, the schema URI the log names, and where
// the tool is documented (the repository rules.CatalogURL is in).
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
	// Properties is the run's property bag (SARIF 2.1.0 section 3.8): which
	// CRDs the objects were admitted against (docs/output.md).
	Properties map[string]any `json:"properties,omitempty"`
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
	HelpURI              string             `json:"helpUri"`
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
	// Suppressions is empty, never null, on a result no suppression matches:
	// suppression information is available for every result, and SARIF
	// (section 3.27.23) wants it on all results or none.
	Suppressions []sarifSuppression `json:"suppressions"`
	// BaselineState is set on every result when a baseline was compared, on
	// none otherwise (section 3.27.24).
	BaselineState string `json:"baselineState,omitempty"`
}

// sarifSuppression is an in-source suppression and its reason (section 3.35).
type sarifSuppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification"`
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
// rule the results report (sorted by ID), described from the registry, and one
// result per finding. The results are every finding found, in the report's
// order: those reported, those the manifest suppresses (with their
// suppression) and those a baseline knows; then the baseline's findings no
// longer found, with baselineState absent.
func (r Report) SARIF(w io.Writer, toolVersion string) error {
	found := r.Findings
	var absent []analyze.Finding
	if len(r.Suppressed) > 0 || r.baseline != nil && len(r.baseline.Known) > 0 {
		found = slices.Concat(r.Findings, r.Suppressed)
		if r.baseline != nil {
			found = append(found, r.baseline.Known...)
		}
		slices.SortStableFunc(found, analyze.CompareFindings)
	}
	if r.baseline != nil {
		absent = r.baseline.Absent
	}
	all := slices.Concat(found, absent)
	index := map[*rules.Rule]int{}
	var reported []*rules.Rule
	for _, f := range all {
		if _, ok := index[f.Rule]; !ok {
			index[f.Rule] = 0
			reported = append(reported, f.Rule)
		}
	}
	slices.SortFunc(reported, func(a, b *rules.Rule) int { return strings.Compare(string(a.ID), string(b.ID)) })
	descriptors := make([]sarifRule, len(reported))
	for i, rule := range reported {
		index[rule] = i
		descriptors[i] = sarifRuleOf(rule)
	}
	results := make([]sarifResult, 0, len(all))
	for _, f := range all {
		results = append(results, sarifResultOf(f, index[f.Rule]))
	}
	log := sarifLog{
		Schema:  sarifSchemaURI,
		Version: sarifVersion,
		Runs: []sarifRun{{
			Tool:    sarifTool{Driver: sarifDriver{Name: toolName, InformationURI: toolInformationURI, Version: toolVersion, Rules: descriptors}},
			Results: results,
		}},
	}
	if r.Admission != nil {
		log.Runs[0].Properties = map[string]any{"admission": r.Admission}
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
	suppressions := []sarifSuppression{}
	if s := f.Suppression; s != nil {
		suppressions = append(suppressions, sarifSuppression{Kind: s.Kind, Justification: s.Justification})
	}
	return sarifResult{
		RuleID: string(f.Rule.ID), RuleIndex: ruleIndex, Level: sarifLevel(f.Severity),
		Message:             sarifText{Text: text},
		Locations:           []sarifLocation{loc},
		PartialFingerprints: map[string]string{fingerprintKey: findingFingerprint(f.Key())},
		Suppressions:        suppressions,
		BaselineState:       string(f.BaselineState),
	}
}

// findingFingerprint identifies a finding across runs independently of lines
// moving: its key, the rule, the object and the field, as baselines match it.
func findingFingerprint(k analyze.FindingKey) string {
	sum := sha256.Sum256([]byte(string(k.Rule) + "\x00" + k.Object.String() + "\x00" + k.Field))
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

// ruleName is the rule ID as one PascalCase identifier: route/Accepted/NoMatchingParent
// becomes RouteAcceptedNoMatchingParent.
func ruleName(id rules.ID) string {
	var b strings.Builder
	for _, part := range strings.Split(string(id), "/") {
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

// sarifRuleOf describes a rule as code-scanning UIs show it: the registry's
// summary, help, fix and the spec text it enforces, and a link to its entry in
// the catalog.
func sarifRuleOf(r *rules.Rule) sarifRule {
	var text, md strings.Builder
	text.WriteString(r.Help + "\nFix: " + r.Fix)
	md.WriteString("**" + string(r.ID) + "**\n\n" + r.Help + "\n\n**Fix:** " + r.Fix)
	for i, s := range r.Spec {
		if i == 0 {
			text.WriteString("\nSpec: ")
			md.WriteString("\n\n**Spec:** ")
		} else {
			text.WriteString("; ")
			md.WriteString("; ")
		}
		text.WriteString(s.String())
		md.WriteString(s.String())
	}
	return sarifRule{
		ID:                   string(r.ID),
		Name:                 ruleName(r.ID),
		ShortDescription:     sarifText{Text: r.Summary},
		FullDescription:      sarifText{Text: r.Help},
		Help:                 sarifMultiText{Text: text.String(), Markdown: md.String()},
		HelpURI:              r.HelpURI(),
		DefaultConfiguration: sarifConfiguration{Level: sarifLevel(r.Severity)},
	}
}
