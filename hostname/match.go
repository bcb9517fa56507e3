package hostname

import "strings"

// MatchesHost reports whether an HTTP request whose Host (or :authority)
// header is host matches pattern, an intersected hostname (or any Listener or
// Route hostname), per spec 003 "`Host` header matching": an exact hostname
// must be equal, and a wildcard matches ONE OR MORE labels, so
// `*.example.com` matches `foo.bar.example.com` but not `example.com`.
//
// Choices made where spec 003 is silent:
//
//   - A port in host is ignored: `www.example.com:8080` matches
//     `www.example.com`. The Gateway API HTTPRouteSpec.Hostnames field says
//     "Implementations MUST ignore any port value specified in the HTTP Host
//     header while performing a match".
//   - Comparison is case-insensitive (RFC 4343; RFC 9110 section 4.2.3).
//   - Apart from its port, host must be a precise hostname in Gateway API
//     terms (spec 003: "a `Host` header must be a precise hostname"), so an IP
//     literal, a wildcard or a name with a trailing dot (`www.example.com.`)
//     matches no hostname pattern.
//   - A match-all pattern ("" or `*`) matches every request, whatever its
//     Host, because a Listener without a hostname does not discriminate
//     (spec 003 "Listener").
//
// An invalid pattern matches nothing.
func MatchesHost(pattern, host string) bool {
	if IsMatchAll(pattern) {
		return true
	}
	p, ok := canonical(pattern)
	if !ok {
		return false
	}
	h, ok := preciseInput(stripPort(host))
	if !ok {
		return false
	}
	if IsWildcard(p) {
		return wildcardMatchesLabels(p, h)
	}
	return p == h
}

// MatchesSNI reports whether a TLS ClientHello's server name sni matches
// pattern, an intersected hostname, per spec 003 "SNI matching": "the SNI
// hostname must match the intersected hostname using the rules given in
// RFC-2818 for Server Identity matching", under which a wildcard matches
// exactly ONE label. So `*.example.com` matches `foo.example.com` but not
// `foo.bar.example.com`, unlike Host header matching ("the SNI behavior is
// subtly different to the hostname intersection and Listener selection
// behavior").
//
// sni must be a precise hostname (spec 003: "an SNI may not include a
// wildcard"), which also excludes IP addresses (RFC 6066 section 3 forbids
// them in server_name) and a trailing dot. Comparison is case-insensitive. A
// match-all pattern ("" or `*`) matches every ClientHello, including one
// without SNI, because a Listener without a hostname does not discriminate
// (spec 003 "Listener"). An invalid pattern matches nothing.
func MatchesSNI(pattern, sni string) bool {
	if IsMatchAll(pattern) {
		return true
	}
	p, ok := canonical(pattern)
	if !ok {
		return false
	}
	s, ok := preciseInput(sni)
	if !ok {
		return false
	}
	if IsWildcard(p) {
		return wildcardMatchesOneLabel(p, s)
	}
	return p == s
}

// CertificateCovers reports whether a certificate DNS name (a dNSName SAN, or
// a CN used as one) covers the server name sni, by the server identity rules
// of RFC 2818 section 3.1 and RFC 6125 section 6.4, which spec 003 "SNI
// matching" requires for certificates on terminating Listeners:
//
//   - names compare case-insensitively (RFC 6125 section 6.4.1);
//   - a wildcard is allowed only as the complete leftmost label, `*.` followed
//     by a precise domain; partial-label wildcards such as `f*.example.com`
//     (an RFC 6125 section 6.4.3 MAY) are not honoured, like crypto/x509 and
//     like spec 003, for which they are not valid hostnames;
//   - the wildcard covers exactly one label: `*.example.com` covers
//     `foo.example.com` but neither `foo.bar.example.com` nor `example.com`.
//
// sni must be a precise DNS name; IP addresses, wildcards and names with a
// trailing dot are never covered. As in crypto/x509, no public-suffix check
// is made, so `*.com` covers `example.com`.
func CertificateCovers(name, sni string) bool {
	s, ok := preciseInput(sni)
	if !ok {
		return false
	}
	n := toLowerASCII(name)
	if IsWildcard(n) {
		if ValidatePrecise(n[2:]) != nil {
			return false
		}
		return wildcardMatchesOneLabel(n, s)
	}
	return ValidatePrecise(n) == nil && n == s
}

// preciseInput lowercases a Host or SNI value and reports whether it is a
// precise hostname.
func preciseInput(h string) (string, bool) {
	h = toLowerASCII(h)
	return h, ValidatePrecise(h) == nil
}

// stripPort removes a port from a Host header value (RFC 9110 section 7.2:
// Host = uri-host [ ":" port ]). A bracketed IPv6 literal is returned as is;
// it is not a hostname and will not match.
func stripPort(host string) string {
	if strings.HasPrefix(host, "[") {
		return host
	}
	if i := strings.LastIndexByte(host, ':'); i >= 0 && isPort(host[i+1:]) {
		return host[:i]
	}
	return host
}
