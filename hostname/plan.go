package hostname

import "errors"

// Skipped is an intersected hostname that a provisioning plan leaves out, and
// why. Reason completes the sentence "hostname %q ...", like
// ValidationError.Reason.
type Skipped struct {
	Hostname string `json:"hostname"`
	Reason   string `json:"reason"`
}

// Reasons a provisioning plan skips an intersected hostname.
const (
	// ReasonMatchAll: spec 003 "Programmatic use of the hostname field": "If
	// no intersected hostname can be determined, then Integrations MUST
	// ignore that Listener and/or those attached Routes".
	ReasonMatchAll = "matches any hostname, so no intersected hostname can be determined; integrations must ignore it (spec 003)"
	// ReasonWildcardCertificate: spec 003 "Handling Wildcard certificates":
	// "Integrations MUST NOT use the hostname field to programmatically
	// generate wildcard certificates".
	ReasonWildcardCertificate = "is a wildcard; integrations must not generate wildcard certificates from hostname fields (spec 003), so an administrator must provide a certificate for it"
)

// DNSRecordNames returns the names that DNS records must exist for, given the
// intersected hostnames of the Listeners on one Gateway (spec 003 "Automatic
// Provisioning of DNS records": "All intersected hostnames represented in all
// Listeners on the Gateway MUST resolve to all addresses in that Gateway's
// status.addresses"), and the ones it leaves out.
//
// Precise hostnames and wildcards are kept; a wildcard becomes a wildcard
// record, which spec 003 lists as one acceptable way to satisfy the rule.
// Only the given names appear: no intermediate names (`quux.example.com` for
// `baz.quux.example.com`), which spec 003 says SHOULD NOT be created.
// Match-all values ("" or `*`) and invalid hostnames are skipped. Names are
// lowercased, deduplicated and sorted by specificity (Compare).
func DNSRecordNames(intersected []string) (names []string, skipped []Skipped) {
	return plan(intersected, true)
}

// CertificateNames returns the names a generated certificate for a Listener
// must carry, given the intersected hostnames of that Listener (spec 003
// "Automatic Provisioning of TLS Certificates": "Every intersected hostname on
// the Listener must be represented in a generated certificate used on that
// Listener"), and the ones it leaves out.
//
// Only precise hostnames are kept: "if the intersected hostname includes a
// wildcard character, then TLS Certificate integrations MUST ignore it" (spec
// 003 "Handling Wildcard certificates"). Match-all values and invalid
// hostnames are skipped too. Names are lowercased, deduplicated and sorted by
// specificity (Compare).
func CertificateNames(intersected []string) (names []string, skipped []Skipped) {
	return plan(intersected, false)
}

func plan(intersected []string, allowWildcards bool) (names []string, skipped []Skipped) {
	seen := make(map[string]bool, len(intersected))
	for _, h := range intersected {
		c := toLowerASCII(h)
		if seen[c] {
			continue
		}
		seen[c] = true
		var verr *ValidationError
		switch {
		case IsMatchAll(c):
			skipped = append(skipped, Skipped{Hostname: h, Reason: ReasonMatchAll})
		case errors.As(Validate(c), &verr):
			skipped = append(skipped, Skipped{Hostname: h, Reason: verr.Reason})
		case IsWildcard(c) && !allowWildcards:
			skipped = append(skipped, Skipped{Hostname: h, Reason: ReasonWildcardCertificate})
		default:
			names = append(names, c)
		}
	}
	SortBySpecificity(names)
	return names, skipped
}
