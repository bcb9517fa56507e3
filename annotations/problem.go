package annotations

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Problem is one finding about an annotation.
type Problem struct {
	// Key is the annotation key.
	Key string
	// Value is the value, cut to about 40 characters; PEM data is replaced
	// by its size.
	Value string
	// Severity is SeverityError or SeverityWarning.
	Severity string
	// Rule is a stable identifier of the check (the Rule* constants).
	Rule string
	// Message says what is wrong; Fix says what to do.
	Message, Fix string
}

const (
	SeverityError   = "error"
	SeverityWarning = "warning"
)

// Stable rule identifiers.
const (
	// RuleUnknownKey: a key under a known prefix that the set does not list.
	RuleUnknownKey = "annotation-unknown-key"
	// RuleWrongKind: a documented key on a kind it is not documented for.
	RuleWrongKind = "annotation-wrong-kind"
	// RuleInvalidValue: a value that does not have the documented type.
	RuleInvalidValue = "annotation-invalid-value"
	// RuleNoEffect: a key that another annotation's value makes moot.
	RuleNoEffect = "annotation-no-effect"
	// RuleBackendTLSPolicyConflict: annotations disagree with the
	// BackendTLSPolicy of the same backend.
	RuleBackendTLSPolicyConflict = "annotation-backendtlspolicy-conflict"
)

const (
	maxValueLen   = 40  // characters of a value shown in a Problem
	maxKeyLen     = 120 // characters of a key shown; real keys are at most 253+63
	maxMessageLen = 300 // characters of a Message or Fix
)

// cut shortens s to at most n characters, marking the cut with "...".
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, count := 0, 0
	for i = range s {
		if count == n-3 {
			break
		}
		count++
	}
	return s[:i] + "..."
}

// redactPEM keeps PEM armour out of output: a value is never echoed whole,
// and a PEM body is private to the user even when it is only a certificate.
func redactPEM(s string) string {
	return strings.ReplaceAll(s, "-----", "--")
}

// showValue is a value as a Problem may show it.
func showValue(v string) string {
	if strings.Contains(v, "-----") {
		return "<" + strconv.Itoa(len(v)) + " bytes of PEM data>"
	}
	return cut(v, maxValueLen)
}

// quoteValue is showValue quoted for a message, with control characters
// escaped so that a value cannot break the line it is printed on.
func quoteValue(v string) string {
	if strings.Contains(v, "-----") {
		return showValue(v)
	}
	return strconv.Quote(cut(v, maxValueLen))
}

// showKey is a key as a Problem may show it.
func showKey(k string) string {
	return redactPEM(cut(strings.ToValidUTF8(k, "\uFFFD"), maxKeyLen))
}

// finish applies the output limits to every text field; the checks build
// their messages within them, this is the guarantee.
func (p Problem) finish() Problem {
	p.Key = showKey(p.Key)
	p.Value = redactPEM(p.Value)
	p.Message = redactPEM(cut(p.Message, maxMessageLen))
	p.Fix = redactPEM(cut(p.Fix, maxMessageLen))
	return p
}
