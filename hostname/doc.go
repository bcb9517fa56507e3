// Package hostname implements the hostname rules of Gateway API as described in
// spec 003 ("Hostnames in Gateway API"): validation of Hostname and
// PreciseHostname values, hostname intersection between a Listener and a
// Route, specificity ordering, Host header and SNI matching, certificate name
// matching (RFC 2818 / RFC 6125), and which intersected hostnames DNS records
// and certificates are provisioned for.
//
// Two wildcard semantics live side by side, and mixing them up is the most
// common mistake this package exists to prevent:
//
//   - In hostname intersection, Listener selection and Host header matching a
//     wildcard label `*.` matches ONE OR MORE DNS labels: `*.example.com`
//     matches `foo.example.com` and `foo.bar.example.com` (spec 003 "Hostname
//     wildcards", "`Host` header matching").
//   - In SNI matching and certificate name matching a wildcard matches exactly
//     ONE label, per RFC 2818 section 3.1 and RFC 6125 section 6.4.3:
//     `*.example.com` covers `foo.example.com` but not `foo.bar.example.com`
//     (spec 003 "SNI matching").
//
// A Listener without a hostname and the special value `*` both match any
// hostname (spec 003 "Hostname Intersection": "Having no hostname set is
// equivalent to having a hostname field set to `*`"). Functions here accept
// both spellings as "match all"; IsMatchAll reports it.
//
// All functions are pure, allocation-light and safe on untrusted input.
package hostname
