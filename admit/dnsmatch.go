package admit

import "strings"

// The CRDs hold most names and hostnames to DNS-1123 subdomain patterns, and
// the regexp package matches them by backtracking: at 100k routes, a tenth of
// the shortcut's time. dnsMatcher matches the three forms the CRDs use
// (a subdomain; empty or a subdomain; a subdomain after an optional "*."
// label) directly, as the patterns spell them; FuzzDNSMatchers holds each to
// the regexp it stands for. So are the patterns of a single DNS label (a
// namespace) and of a kind. Any other pattern is matched by its regexp.

// subdomainPattern is a DNS-1123 subdomain: labels of [-a-z0-9], separated
// by dots, none empty, none starting or ending with '-'.
const subdomainPattern = `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`

// dnsPatterns are the patterns dnsMatcher matches without the regexp package.
var dnsPatterns = map[string]func(string) bool{
	subdomainPattern: isSubdomain,
	// The same, grouped, as the TLSRoute hostnames' CEL rule spells it.
	`^(` + subdomainPattern[1:len(subdomainPattern)-1] + `)$`: isSubdomain,
	`^$|` + subdomainPattern:                                  func(s string) bool { return s == "" || isSubdomain(s) },
	// A subdomain cannot start with '*': the optional prefix is there or
	// not, never both.
	`^(\*\.)?` + subdomainPattern[1:]: func(s string) bool { return isSubdomain(strings.TrimPrefix(s, "*.")) },
	// A DNS-1123 label: a subdomain of one label.
	`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`:       func(s string) bool { return !strings.Contains(s, ".") && isSubdomain(s) },
	`^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$`: isKind,
}

// dnsMatcher returns what matches exactly the strings pattern matches, for
// one of dnsPatterns, else nil.
func dnsMatcher(pattern string) func(string) bool {
	return dnsPatterns[pattern]
}

// isKind reports whether s is a letter, then letters, digits and '-', not
// ending with '-'.
func isKind(s string) bool {
	if s == "" || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '-')) {
			return false
		}
	}
	return true
}

// isSubdomain reports whether s matches subdomainPattern.
func isSubdomain(s string) bool {
	if s == "" {
		return false
	}
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			label := s[start:i]
			if label == "" || label[0] == '-' || label[len(label)-1] == '-' {
				return false
			}
			start = i + 1
			continue
		}
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
