package hostname

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
	"unicode/utf8"
)

const (
	// maxHostnameLength is the MaxLength of the Gateway API Hostname and
	// PreciseHostname types, and the limit of RFC 1123 section 2.1 / RFC 1035
	// section 2.3.4 for a name in text form.
	maxHostnameLength = 253
	// maxLabelLength is the limit of RFC 1035 section 2.3.4 for one label.
	maxLabelLength = 63
)

// ValidationError reports why a string is not a valid Gateway API hostname.
// Its message names the hostname and says what is wrong in user terms, for
// example: hostname "10.0.0.1" is an IP address; Gateway API hostnames must be
// DNS names.
type ValidationError struct {
	// Hostname is the rejected value, as given.
	Hostname string
	// Reason completes the sentence "hostname %q ...".
	Reason string
}

func (e *ValidationError) Error() string {
	return fmt.Sprintf("hostname %q %s", e.Hostname, e.Reason)
}

func invalid(h, format string, args ...any) error {
	return &ValidationError{Hostname: h, Reason: fmt.Sprintf(format, args...)}
}

// Validate reports whether h is a valid value for a Gateway API Hostname
// field (Listener hostname, Route spec.hostnames), and if not, why.
//
// The rules are those of the Hostname type (sigs.k8s.io/gateway-api
// apis/v1/shared_types.go) and spec 003 "Where and how can you configure a
// hostname?" and "Hostname wildcards":
//
//   - an RFC 1123 DNS name of at most 253 characters, written without the
//     trailing dot, whose labels are 1-63 lowercase letters, digits or '-',
//     starting and ending with a letter or digit (the type's validation
//     pattern accepts lowercase only, so uppercase is an error here; matching
//     functions in this package compare case-insensitively instead);
//   - optionally prefixed by the wildcard label `*.`: the wildcard is
//     "supported only as the leftmost character in the hostname, and must be
//     immediately followed by a `.`", so `*`, `f*.example.com`,
//     `*oo.example.com` and `foo.*.example.com` are invalid;
//   - never an IP address (spec 003 warning: "IP addresses are never valid
//     hostnames in Gateway API"). Besides literal IPv4 and IPv6 addresses, a
//     name whose last label is all digits is rejected: no top-level domain is
//     numeric (RFC 3696 section 2), and resolvers read such names (`1.2.3`,
//     `010.0.0.1`) as IPv4 addresses.
//
// The empty string is not a valid hostname: to match any hostname, leave the
// field unset.
func Validate(h string) error { return validate(h, true) }

// ValidatePrecise is Validate for the Gateway API PreciseHostname type, which
// is a Hostname that does not allow wildcards (spec 003 "Hostname Type
// details"). A Host header or an SNI must be a precise hostname (spec 003 "SNI
// matching", "`Host` header matching").
func ValidatePrecise(h string) error { return validate(h, false) }

// IsWildcard reports whether h is a wildcard hostname, that is, begins with
// the wildcard label `*.` (spec 003 "Hostname wildcards"). It does not
// validate the rest of h, and the match-all value `*` is not a wildcard
// hostname in this sense: see IsMatchAll.
func IsWildcard(h string) bool { return strings.HasPrefix(h, "*.") }

// IsMatchAll reports whether h matches any hostname: the empty string (no
// hostname set) or the special wildcard `*` (spec 003 "Hostname
// Intersection": "The special wildcard `*` (with no other characters), matches
// any other hostname", "Having no hostname set is equivalent to having a
// hostname field set to `*`").
func IsMatchAll(h string) bool { return h == "" || h == "*" }

func validate(h string, allowWildcard bool) error {
	if wellFormed(h, allowWildcard) {
		return nil
	}
	if h == "" {
		return invalid(h, "is empty; leave the hostname field unset to match any hostname")
	}
	if strings.Contains(h, "://") {
		return invalid(h, "is a URL; write only the host name, without scheme, port or path (for example %q)", "www.example.com")
	}
	if isIPAddress(h) {
		return invalid(h, "is an IP address; Gateway API hostnames must be DNS names")
	}
	if len(h) > maxHostnameLength {
		return invalid(h, "is %d characters long; a hostname may have at most %d", len(h), maxHostnameLength)
	}
	if h == "*" {
		return invalid(h, "is a bare wildcard; leave the hostname unset to match any hostname, or use a wildcard label followed by a domain, such as %q", "*.example.com")
	}
	name := h
	if IsWildcard(h) {
		if !allowWildcard {
			return invalid(h, "is a wildcard; this field takes a precise hostname such as %q", "www"+h[1:])
		}
		name = h[2:]
		if name == "" {
			return invalid(h, "has nothing after the wildcard label; a wildcard must be followed by a domain, such as %q", "*.example.com")
		}
	}
	if strings.Contains(name, "*") {
		if !allowWildcard {
			return invalid(h, "contains the wildcard character '*'; this field takes a precise hostname")
		}
		return invalid(h, "has a misplaced wildcard; '*' is only allowed as the whole leftmost label followed by a dot, as in %q", "*.example.com")
	}
	if strings.HasSuffix(name, ".") && strings.Trim(name, ".") != "" {
		return invalid(h, "ends with a dot; Gateway API hostnames are written without the trailing dot (use %q)", strings.TrimRight(h, "."))
	}
	if i := strings.LastIndexByte(name, ':'); i >= 0 {
		if isPort(name[i+1:]) {
			return invalid(h, "includes a port (%q); a hostname never carries a port, the Listener's port field does", name[i:])
		}
	}
	if lower := toLowerASCII(h); lower != h {
		return invalid(h, "contains uppercase letters; Gateway API hostnames must be lowercase (use %q)", lower)
	}
	last := ""
	for rest := name; ; {
		label, tail, more := strings.Cut(rest, ".")
		if err := validateLabel(h, label); err != nil {
			return err
		}
		last = label
		if !more {
			break
		}
		rest = tail
	}
	if allDigits(last) {
		return invalid(h, "ends in the all-numeric label %q and would be read as an IP address; Gateway API hostnames must be DNS names, and no top-level domain is numeric (RFC 3696 section 2)", last)
	}
	return nil
}

// wellFormed is validate's fast path: one pass over h that accepts exactly the
// valid hostnames of the common shape (lowercase LDH labels, an optional leading
// wildcard label) without allocating. Anything it does not accept goes through
// the checks below, which say what is wrong. The fuzz test holds both paths to
// the Gateway API pattern.
func wellFormed(h string, allowWildcard bool) bool {
	if len(h) == 0 || len(h) > maxHostnameLength {
		return false
	}
	name := h
	if len(h) >= 2 && h[0] == '*' && h[1] == '.' {
		if !allowWildcard {
			return false
		}
		name = h[2:]
	}
	start, digits := 0, true
	for i := 0; i <= len(name); i++ {
		if i == len(name) || name[i] == '.' {
			n := i - start
			if n == 0 || n > maxLabelLength || name[start] == '-' || name[i-1] == '-' {
				return false
			}
			if i == len(name) {
				return !digits // a numeric last label reads as an IP address
			}
			start, digits = i+1, true
			continue
		}
		switch c := name[i]; {
		case 'a' <= c && c <= 'z' || c == '-':
			digits = false
		case '0' <= c && c <= '9':
		default:
			return false
		}
	}
	return false
}

// validateLabel checks one DNS label against RFC 1123 section 2.1 (which
// relaxes RFC 1035 section 2.3.1 to allow a leading digit): 1-63 characters,
// letters, digits and '-', not starting or ending with '-'. Uppercase has
// already been rejected by the caller.
func validateLabel(h, label string) error {
	if label == "" {
		return invalid(h, "has an empty label (a leading dot or two dots in a row)")
	}
	if len(label) > maxLabelLength {
		return invalid(h, "has the label %q of %d characters; a DNS label may have at most %d", label, len(label), maxLabelLength)
	}
	for i := 0; i < len(label); i++ {
		c := label[i]
		if isLDH(c) {
			continue
		}
		if c >= utf8.RuneSelf {
			r, _ := utf8.DecodeRuneInString(label[i:])
			return invalid(h, "contains the non-ASCII character %q; write internationalized names in their ASCII (punycode, \"xn--\") form", r)
		}
		return invalid(h, "contains %q; a label may only contain lowercase letters, digits and '-'", string(c))
	}
	if label[0] == '-' || label[len(label)-1] == '-' {
		return invalid(h, "has the label %q, which starts or ends with '-'; labels must start and end with a letter or digit", label)
	}
	return nil
}

func isLDH(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-'
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isPort reports whether s is the port of a host:port authority (RFC 3986
// section 3.2.3: port = *DIGIT, so it may be empty).
func isPort(s string) bool { return s == "" || allDigits(s) }

// isIPAddress reports whether s is an IPv4 or IPv6 address literal, possibly
// in brackets or followed by a port, so that the error can say so instead of
// complaining about a colon.
func isIPAddress(s string) bool {
	// Every IP literal contains ':' or '[', or ends in a digit; skip the
	// parsers (and their error allocations) for ordinary names.
	if !strings.ContainsAny(s, ":[") && (s == "" || s[len(s)-1] < '0' || s[len(s)-1] > '9') {
		return false
	}
	if _, err := netip.ParseAddr(s); err == nil {
		return true
	}
	if host, _, err := net.SplitHostPort(s); err == nil {
		s = host
	}
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	_, err := netip.ParseAddr(s)
	return err == nil
}

// toLowerASCII lowercases the ASCII letters of s and leaves every other byte
// alone (RFC 4343: DNS names compare case-insensitively, for ASCII only). Like
// crypto/x509's helper, it avoids Unicode case mapping on DNS labels and does
// not allocate when s is already lowercase.
func toLowerASCII(s string) string {
	i := 0
	for i < len(s) && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if 'A' <= b[i] && b[i] <= 'Z' {
			b[i] += 'a' - 'A'
		}
	}
	return string(b)
}
