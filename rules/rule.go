// Package rules is what a rule of kubectl-gwtls is: its stable ID, default
// severity, what it checks in the user's terms, the general fix, the spec text
// it enforces and, for a rule that reports a status condition, the condition
// type, reason and which status is healthy. Every rule the tool can emit is
// registered here; the engine emits findings through these values, and the
// renderers, the catalog and the configuration read them: Lookup and Match find
// rules by ID or by glob, and a severity a user configures for a rule replaces
// Rule.Severity in that rule's findings. It imports nothing of this module, so
// everything else may import it.
package rules

import (
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ID is a rule's stable identifier, as findings print it. IDs are released:
// users filter, suppress and baseline by them, so one never changes.
//
// A condition rule's ID is OBJECT/ConditionType/Reason (route/Accepted/NoMatchingParent);
// every other rule's is family/Name (certificate/WeakKey, annotation/unknown-key).
type ID string

// Severity orders findings; --fail-on compares against it.
type Severity int

const (
	Info Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "info"
}

// MarshalText writes the severity as its name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a severity a finding can have: error, warning or info.
func (s *Severity) UnmarshalText(text []byte) error {
	v, err := ParseSeverity(string(text))
	if err != nil || v > Error {
		return fmt.Errorf("severity %q: want error, warning or info", text)
	}
	*s = v
	return nil
}

// ParseSeverity reads error, warning, info (and none, which no finding reaches).
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(s) {
	case "error":
		return Error, nil
	case "warning", "warn":
		return Warning, nil
	case "info":
		return Info, nil
	case "none", "never":
		return Error + 1, nil
	}
	return 0, fmt.Errorf("severity %q: want error, warning, info or none", s)
}

// Rule is one check the tool makes. Rules are only made by this package: a
// *Rule anywhere else is an entry of the registry.
type Rule struct {
	ID ID
	// Severity is the rule's default severity. A finding may carry a lower one
	// where the rule says so in its Help (an annotation value the implementation
	// may still accept is a warning).
	Severity Severity
	// Summary is one line: what is wrong.
	Summary string
	// Help says what the rule checks and why it matters, in the user's terms.
	Help string
	// Fix is the general fix; each finding carries a fix for its own case.
	Fix string
	// Spec is the text the rule enforces, most specific first.
	Spec []Spec
	// Condition is the status condition the rule reports; nil for rules that
	// are not conditions.
	Condition *Condition
}

// Spec cites the text a rule enforces.
type Spec struct {
	// Document names it: "Gateway API v1.6 (sigs.k8s.io/gateway-api apis/v1)",
	// "GEP-1897 BackendTLSPolicy", "RFC 6125".
	Document string
	// Section is where in it: a type's or constant's doc comment, a heading, a
	// numbered section.
	Section string
	// File is the project's copy of a reference document (../shared/spec), when
	// the text is one of them.
	File string
}

func (s Spec) String() string {
	out := s.Document
	if s.Section != "" {
		out += ", " + s.Section
	}
	if s.File != "" {
		out += " (" + s.File + ")"
	}
	return out
}

// Condition is the status condition a condition rule reports: the object it is
// on (the first part of the rule's ID), the gateway-api condition type and
// reason, and the status that is healthy. The rule fires on the other status.
type Condition struct {
	Object  string
	Type    string
	Reason  string
	Healthy metav1.ConditionStatus
}

// Unhealthy is the status the rule reports: False for a condition that is
// healthy when True (Accepted, ResolvedRefs), True for one that is healthy when
// False (Conflicted, OverlappingTLSConfig).
func (c *Condition) Unhealthy() metav1.ConditionStatus {
	if c.Healthy == metav1.ConditionTrue {
		return metav1.ConditionFalse
	}
	return metav1.ConditionTrue
}

// MarshalText writes the rule as its ID, which is how findings name it.
func (r *Rule) MarshalText() ([]byte, error) { return []byte(r.ID), nil }

func (r *Rule) String() string { return string(r.ID) }

// CatalogURL is the rule catalog, docs/rules.md, in the project's repository
// (the repository SARIF names as the tool's informationUri).
const CatalogURL = "https://github.com/kubectl-gwtls/kubectl-gwtls/blob/main/docs/rules.md"

// Anchor is the rule's anchor in the catalog: its ID lower-cased, with '/' as
// '-' (route/Accepted/NoMatchingParent: route-accepted-nomatchingparent). The
// catalog writes an explicit <a id="..."> per rule, so links do not depend on
// how a Markdown renderer turns headings into anchors. Anchors are released
// with the IDs.
func (r *Rule) Anchor() string {
	return strings.ToLower(strings.ReplaceAll(string(r.ID), "/", "-"))
}

// HelpURI is the rule's entry in the catalog.
func (r *Rule) HelpURI() string { return CatalogURL + "#" + r.Anchor() }

// Problem is one instance of a rule: what is wrong, in the user's terms, and
// the fix to paste. The engine decides problems; a finding places one on an
// object.
type Problem struct {
	Rule     *Rule
	Severity Severity
	Message  string
	Fix      string
}

// Problem is an instance of the rule at its default severity.
func (r *Rule) Problem(message, fix string) Problem {
	return Problem{Rule: r, Severity: r.Severity, Message: message, Fix: fix}
}
