package ingress

import (
	"net/http"

	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
)

// CanaryBy are the conditions that send a request to a canary Ingress's
// backend by what it carries (ingress-nginx, Annotations > Canary,
// https://kubernetes.github.io/ingress-nginx/user-guide/nginx-configuration/annotations/#canary):
// "Canary rules are evaluated in order of precedence. Precedence is as
// follows: canary-by-header -> canary-by-cookie -> canary-weight". A header
// or cookie whose value neither sends the request nor keeps it off "will be
// ignored and the request compared against the other canary rules by
// precedence".
type CanaryBy struct {
	// Header is the header that decides (canary-by-header), HeaderKey the
	// annotation that names it; "" for none. HeaderAlways and HeaderNever
	// are its values that send a request to the canary and keep it off.
	Header, HeaderKey         string
	HeaderAlways, HeaderNever string
	// HeaderValue replaces HeaderAlways, and "never" is then an ordinary
	// value (canary-by-header-value: "The annotation is an extension of
	// the canary-by-header to allow customizing the header value instead of
	// using hardcoded values"). HeaderPattern is a PCRE of such values,
	// ignored beside HeaderValue ("when canary-by-header-value is set this
	// annotation will be ignored").
	HeaderValue, HeaderPattern string
	HeaderValueKey             string
	// Cookie is the cookie that decides (canary-by-cookie), CookieKey the
	// annotation; CookieAlways and CookieNever its deciding values.
	Cookie, CookieKey         string
	CookieAlways, CookieNever string
}

// Conditional reports whether a header or cookie may decide a request.
func (b CanaryBy) Conditional() bool { return b.Header != "" || b.Cookie != "" }

// PatternOnly reports whether the header's deciding values are a regular
// expression: no request this package builds is known to match it.
func (b CanaryBy) PatternOnly() bool {
	return b.Header != "" && b.HeaderValue == "" && b.HeaderPattern != ""
}

// CanaryProbe is a request header that exercises a canary's condition, and
// where the controller sends the request that carries it.
type CanaryProbe struct {
	Header serving.Header
	// ToCanary: the request goes to the canary. Otherwise Decided says it
	// goes to the main backend; not Decided, it falls through to the
	// canary's weight, as a request without the header does.
	ToCanary, Decided bool
	// Key is the annotation whose condition the header exercises.
	Key string
}

// Probes are the requests that exercise the conditions: the header with the
// value that sends a request to the canary and, without
// canary-by-header-value, the one that keeps it off; the cookie with both.
// A header decided by a pattern only has none.
func (b CanaryBy) Probes() []CanaryProbe {
	var out []CanaryProbe
	if b.Header != "" {
		name := http.CanonicalHeaderKey(b.Header)
		switch {
		case b.HeaderValue != "":
			out = append(out, CanaryProbe{Header: serving.Header{Name: name, Value: b.HeaderValue}, ToCanary: true, Decided: true, Key: b.HeaderValueKey})
		case b.HeaderPattern != "":
		default:
			out = append(out,
				CanaryProbe{Header: serving.Header{Name: name, Value: b.HeaderAlways}, ToCanary: true, Decided: true, Key: b.HeaderKey},
				CanaryProbe{Header: serving.Header{Name: name, Value: b.HeaderNever}, Decided: true, Key: b.HeaderKey})
		}
	}
	if b.Cookie != "" {
		out = append(out,
			CanaryProbe{Header: serving.Header{Name: "Cookie", Value: b.Cookie + "=" + b.CookieAlways}, ToCanary: true, Decided: true, Key: b.CookieKey},
			CanaryProbe{Header: serving.Header{Name: "Cookie", Value: b.Cookie + "=" + b.CookieNever}, Decided: true, Key: b.CookieKey})
	}
	return out
}
