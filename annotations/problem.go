package annotations

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// Problem is a problem of one annotation: an instance of an annotation/* rule
// (rules.AnnotationUnknownKey, ...) with the key and value it is about, which
// its caller places in front of the message (the engine writes "annotation
// KEY: MESSAGE").
type Problem struct {
	rules.Problem
	// Key is the annotation key.
	Key string
	// Value is the value, cut to about 40 characters; PEM data is replaced
	// by its size.
	Value string
}

// problem is an instance of r about key and its value as shown.
func problem(r *rules.Rule, key, value, message, fix string) Problem {
	return Problem{Problem: r.Problem(message, fix), Key: key, Value: value}
}

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
