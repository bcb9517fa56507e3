package analyze

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"fmt"
	"slices"
	"strings"
	"time"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/hostname"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// CertificateResult is what the engine found about one Secret that terminating
// listeners serve: its chain, the listeners that serve it, the hostnames it must and
// does cover, and its problems.
type CertificateResult struct {
	Secret    *model.Secret
	Chain     []*x509.Certificate
	Listeners []*ListenerResult
	// Covered and Uncovered are the SNI names (intersected hostnames, wildcards
	// exercised with a sample label) this certificate is served for.
	Covered   []string
	Uncovered []string
	Problems  []rules.Problem
}

// Covers reports whether the certificate is valid for a TLS client that sent name
// as SNI: a DNS SAN matches it by RFC 6125 (a wildcard covers exactly one label).
// The subject CN is ignored, as modern clients ignore it. A certificate declared
// external is assumed to cover every name.
func (c *CertificateRef) Covers(name string) bool {
	if c.External {
		return true
	}
	for _, n := range c.DNSNames() {
		if hostname.CertificateCovers(n, name) {
			return true
		}
	}
	return false
}

// CertificateFor is the certificate a terminating listener serves to a client that
// sends sni: of the usable certificateRefs that cover it, the one whose matching
// SAN is the longest match (Listener.TLS: "The GatewayClass MUST use the longest
// matching SNI out of all available certificates for any TLS handshake"), the
// first in list order on a tie; if none covers it, the first usable one (the
// default certificate, which then does not cover it). nil when none is usable.
// An expired certificate is usable: the implementation serves it, and the
// handshake fails. This is the one model of per-SNI certificate selection
// (ListenerTLSConfig certificateRefs); simulate, probe, the certificate plan
// and the covered/uncovered names of each certificate use it.
func (l *ListenerResult) CertificateFor(sni string) (cert *CertificateRef, covers bool) {
	best := noMatch
	for _, c := range l.Certificates {
		if !c.Usable() {
			continue
		}
		if cert == nil {
			cert = c
		}
		if m := c.match(sni); m > best {
			cert, best = c, m
			if m == exactMatch {
				break
			}
		}
	}
	return cert, best != noMatch
}

// sniMatch ranks how closely a certificate matches an SNI name. A wildcard
// SAN covers exactly one label (RFC 6125), so every SAN that covers a name has
// as many labels as the name: the longest match is an exact SAN, then a
// wildcard.
type sniMatch uint8

const (
	noMatch sniMatch = iota
	// wildcardMatch is a wildcard SAN, or a certificate declared external:
	// assumed to cover every name, it is not known to name this one exactly.
	wildcardMatch
	exactMatch
)

// match is the closest of the certificate's DNS SANs to sni.
func (c *CertificateRef) match(sni string) sniMatch {
	if c.External {
		return wildcardMatch
	}
	m := noMatch
	for _, n := range c.DNSNames() {
		if hostname.CertificateCovers(n, sni) {
			if !hostname.IsWildcard(n) {
				return exactMatch
			}
			m = wildcardMatch
		}
	}
	return m
}

// SampleSNI is a name a client could send for an intersected hostname: the name
// itself, a wildcard with the label "test", and "any hostname" as the listener's
// hostname or example.test.
func SampleSNI(intersected, listenerHostname string) string {
	h := intersected
	if h == "" || h == "*" {
		h = listenerHostname
	}
	switch {
	case h == "" || h == "*":
		return "example.test"
	case strings.HasPrefix(h, "*."):
		return "test." + h[2:]
	}
	return h
}

// certificates checks every Secret that a terminating listener serves: validity
// window, key strength, signature algorithm, SANs, chain order and trust, and
// whether it covers every intersected hostname it is selected for (spec 003 "SNI
// matching": "*.example.com on a certificate does not match foo.bar.example.com").
func (e *engine) certificates() {
	// Each core walks a contiguous range of Gateways, in order, into
	// results of its own; the ranges' results are then joined in Gateway
	// order, as one walk of every Gateway in order makes them (the names a
	// certificate serves are sorted below). At 100k routes the names served
	// are 100,000.
	type walk struct {
		bySecret map[*model.Secret]*CertificateResult
		order    []*CertificateResult
	}
	gws := e.res.Gateways
	walks := make([]walk, chunks(len(gws)))
	forEachChunk(len(gws), func(k, lo, hi int) {
		bySecret := map[*model.Secret]*CertificateResult{}
		var order []*CertificateResult
		for _, g := range gws[lo:hi] {
			for _, r := range mergedListeners(g) {
				l := r.l
				if l.TLSMode() != gwv1.TLSModeTerminate {
					continue
				}
				for _, c := range l.Certificates {
					if c.Secret == nil || len(c.Chain) == 0 {
						continue
					}
					cr := bySecret[c.Secret]
					if cr == nil {
						cr = &CertificateResult{Secret: c.Secret, Chain: c.Chain}
						bySecret[c.Secret] = cr
						order = append(order, cr)
					}
					if !slices.Contains(cr.Listeners, l) {
						cr.Listeners = append(cr.Listeners, l)
					}
				}
				if !l.Accepted {
					continue
				}
				for _, a := range l.Attachments {
					for _, h := range a.Hostnames {
						sni := SampleSNI(h, l.Hostname())
						if h == "" && l.Hostname() == "" {
							continue // any hostname: nothing to check a certificate against
						}
						c, covers := l.CertificateFor(sni)
						if c == nil || c.Secret == nil {
							continue
						}
						cr := bySecret[c.Secret]
						// Duplicates go at the end: a wildcard certificate may serve
						// thousands of names, so no linear search per name.
						if covers {
							cr.Covered = append(cr.Covered, sni)
						} else {
							cr.Uncovered = append(cr.Uncovered, sni)
						}
					}
				}
			}
		}
		walks[k] = walk{bySecret, order}
	})
	bySecret := walks[0].bySecret
	order := walks[0].order
	for _, w := range walks[1:] {
		for _, part := range w.order {
			cr := bySecret[part.Secret]
			if cr == nil {
				bySecret[part.Secret] = part
				order = append(order, part)
				continue
			}
			for _, l := range part.Listeners {
				if !slices.Contains(cr.Listeners, l) {
					cr.Listeners = append(cr.Listeners, l)
				}
			}
			cr.Covered = append(cr.Covered, part.Covered...)
			cr.Uncovered = append(cr.Uncovered, part.Uncovered...)
		}
	}
	forEach(len(order), func(i int) {
		cr := order[i]
		cr.Problems = certificateProblems(cr.Chain, e.opts.Now, e.opts.warnExpiry(), e.opts.CABundle)
		slices.Sort(cr.Covered)
		cr.Covered = slices.Compact(cr.Covered)
		if len(cr.Uncovered) > 0 {
			slices.Sort(cr.Uncovered)
			cr.Uncovered = slices.Compact(cr.Uncovered)
			cr.Problems = append(cr.Problems, rules.CertificateSNINotCovered.Problem(
				fmt.Sprintf("served for %s, which its names [%s] do not cover (a wildcard covers exactly one label); TLS clients will reject it",
					strings.Join(cr.Uncovered, ", "), strings.Join(cr.Chain[0].DNSNames, ", ")),
				fmt.Sprintf("reissue the certificate with DNS names %s (cert-manager: spec.dnsNames), or add a certificateRef that covers them", strings.Join(cr.Uncovered, ", "))))
		}
	})
	e.res.Certificates = order
	e.overlappingCertificates()
}

// appendUnique appends x unless xs holds it, keeping first-seen order.
func appendUnique(xs []string, x string) []string {
	if slices.Contains(xs, x) {
		return xs
	}
	return append(xs, x)
}

// certificateProblems checks one chain (leaf first) at a time now.
func certificateProblems(chain []*x509.Certificate, now time.Time, warnExpiry time.Duration, roots *x509.CertPool) []rules.Problem {
	var ps []rules.Problem
	add := func(rule *rules.Rule, msg, fix string) {
		ps = append(ps, rule.Problem(msg, fix))
	}
	leaf := chain[0]
	day := now.UTC().Format("2006-01-02")
	switch {
	case now.After(leaf.NotAfter):
		add(rules.CertificateExpired, fmt.Sprintf("expired on %s (now %s)", leaf.NotAfter.UTC().Format(time.RFC3339), day),
			"renew the certificate and update the Secret")
	case now.Before(leaf.NotBefore):
		add(rules.CertificateNotYetValid, fmt.Sprintf("not valid before %s (now %s)", leaf.NotBefore.UTC().Format(time.RFC3339), day),
			"check the issuer's clock, or wait; clients reject it until then")
	case now.Add(warnExpiry).After(leaf.NotAfter):
		days := int(leaf.NotAfter.Sub(now).Hours() / 24)
		add(rules.CertificateExpiresSoon, fmt.Sprintf("expires on %s, in %d days", leaf.NotAfter.UTC().Format(time.RFC3339), days),
			"renew it now (cert-manager renews at 2/3 of the lifetime by default)")
	}
	for i, c := range chain {
		which := "leaf"
		if i > 0 {
			which = fmt.Sprintf("chain certificate %d (%s)", i, c.Subject.CommonName)
		}
		switch bits := rsaBits(c); {
		case bits > 0 && bits < 2048:
			add(rules.CertificateWeakKey, fmt.Sprintf("%s has a %d-bit RSA key; clients require at least 2048 bits", which, bits),
				"reissue with an RSA key of 2048 bits or more, or an ECDSA P-256 key")
		case bits > rules.GoMaxRSAKeyBits:
			add(rules.CertificateKeyTooLargeForClients, fmt.Sprintf("%s has an RSA key of %d bits; Go's crypto/tls refuses keys over %d bits, so Go clients (kubectl, Go services) fail the handshake", which, bits, rules.GoMaxRSAKeyBits),
				"reissue with an RSA key of 2048 to 4096 bits, or an ECDSA P-256 key")
		}
		if i > 0 {
			if p := chainCertificateValidity(c, which, now); p != "" {
				add(rules.CertificateChainExpired, p, "replace it in tls.crt with the issuer's current certificate")
			}
		}
		selfSigned := c.CheckSignatureFrom(c) == nil
		if !selfSigned && (c.SignatureAlgorithm == x509.SHA1WithRSA || c.SignatureAlgorithm == x509.ECDSAWithSHA1 || c.SignatureAlgorithm == x509.DSAWithSHA1) {
			add(rules.CertificateSHA1Signature, fmt.Sprintf("%s is signed with %s, which browsers and Go reject", which, c.SignatureAlgorithm),
				"reissue it with a SHA-256 (or stronger) signature")
		}
		if i+1 < len(chain) {
			if err := c.CheckSignatureFrom(chain[i+1]); err != nil {
				add(rules.CertificateChainOrder, fmt.Sprintf("%s is not signed by the certificate after it in tls.crt (%s)", which, chain[i+1].Subject.CommonName),
					"put the leaf first, then each issuer in order, in tls.crt")
			}
		}
	}
	if len(leaf.DNSNames) == 0 && len(leaf.IPAddresses) == 0 {
		add(rules.CertificateNoSubjectAltNames, fmt.Sprintf("has no subjectAltName, only CN %q; modern clients (Go, Chrome) ignore the CN", leaf.Subject.CommonName),
			"reissue it with the hostnames as DNS subjectAltNames")
	}
	if roots != nil {
		inter := x509.NewCertPool()
		for _, c := range chain[1:] {
			inter.AddCert(c)
		}
		if _, err := leaf.Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter, CurrentTime: now, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageAny}}); err != nil {
			add(rules.CertificateChainUntrusted, fmt.Sprintf("does not verify against --ca-bundle: %v", err),
				"include the intermediate certificates in tls.crt after the leaf, or check that the issuer is in the bundle")
		}
	}
	return ps
}

// chainCertificateValidity says how a CA certificate served after the leaf is
// out of its validity period at now (RFC 5280 section 6.1.3: every certificate
// on the path must be valid at the time of verification); "" when it is valid.
func chainCertificateValidity(c *x509.Certificate, which string, now time.Time) string {
	switch {
	case now.After(c.NotAfter):
		return fmt.Sprintf("%s expired on %s; clients that build the path through it reject the chain", which, c.NotAfter.UTC().Format(time.RFC3339))
	case now.Before(c.NotBefore):
		return fmt.Sprintf("%s is not valid before %s; clients that build the path through it reject the chain", which, c.NotBefore.UTC().Format(time.RFC3339))
	}
	return ""
}

func rsaBits(c *x509.Certificate) int {
	switch k := c.PublicKey.(type) {
	case *rsa.PublicKey:
		return k.N.BitLen()
	case *ecdsa.PublicKey, ed25519.PublicKey:
		return 0
	}
	return 0
}

// overlappingCertificates upgrades OverlappingTLSConfig to OverlappingCertificates
// where the certificates of two terminating listeners on one port overlap (a SAN of
// one matches a SAN of the other); the Listener API says a controller that checks
// both SHOULD prefer this reason.
func (e *engine) overlappingCertificates() {
	for _, g := range e.res.Gateways {
		byPort := map[gwv1.PortNumber][]*ListenerResult{}
		for _, r := range mergedListeners(g) {
			if r.l.Accepted && r.l.TLSMode() == gwv1.TLSModeTerminate {
				byPort[r.l.Listener.Port] = append(byPort[r.l.Listener.Port], r.l)
			}
		}
		for _, ls := range byPort {
			for i := range ls {
				for j := i + 1; j < len(ls); j++ {
					if namesOverlap(ls[i], ls[j]) {
						markOverlappingCertificates(e, ls[i], ls[j])
						markOverlappingCertificates(e, ls[j], ls[i])
					}
				}
			}
		}
	}
}

func namesOverlap(a, b *ListenerResult) bool {
	for _, ca := range a.Certificates {
		for _, cb := range b.Certificates {
			if ca.Secret != nil && ca.Secret == cb.Secret {
				continue // one certificate on two listeners is not an overlap between certificates
			}
			for _, na := range ca.DNSNames() {
				for _, nb := range cb.DNSNames() {
					if hostname.Overlap(strings.ToLower(na), strings.ToLower(nb)) {
						return true
					}
				}
			}
		}
	}
	return false
}

func markOverlappingCertificates(e *engine, l, other *ListenerResult) {
	msg := fmt.Sprintf("its certificate's names overlap those of listener %s's certificate on port %d; clients that coalesce HTTP/2 connections may reach the wrong listener", other.Name(), l.Listener.Port)
	fix := "serve non-overlapping certificates on one port, or merge the listeners"
	rule := rules.ListenerOverlappingTLSConfigOverlappingCertificates
	if c := Find(l.Conditions, string(gwv1.ListenerConditionOverlappingTLSConfig)); c != nil {
		if c.Rule != rule {
			*c = failed(rule.Problem(msg+"; "+c.Message, fix), l.generation(), e.now)
		}
		return
	}
	l.Conditions = append(l.Conditions, failed(rule.Problem(msg, fix), l.generation(), e.now))
}
