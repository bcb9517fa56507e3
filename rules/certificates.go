package rules

// Certificate rules: the Secrets terminating listeners serve, checked as a TLS
// client would check them at the analysis time (--now).

// GoMaxRSAKeyBits is the largest RSA key Go's crypto/tls accepts in a peer's
// certificate chain (crypto/tls defaultMaxRSAKeySize, checked by checkKeySize
// before any verification, InsecureSkipVerify or not). The limit came with Go
// 1.22 and was backported to Go 1.19.13, 1.20.8 and 1.21.1 (CVE-2023-29409);
// GODEBUG=tlsmaxrsasize=N changes it. Go clients (kubectl, most Kubernetes
// tooling, Go services and the probe) fail the handshake with a larger key;
// analyze reports it (CertificateKeyTooLargeForClients) and probe names it
// when a handshake fails.
const GoMaxRSAKeyBits = 8192

var (
	CertificateSNINotCovered = register(&Rule{
		ID:       "certificate/SNINotCovered",
		Severity: Error,
		Summary:  "A listener's certificate does not cover a hostname it is served for.",
		Help:     "The certificate a terminating listener serves lacks a DNS name (SAN) matching an intersected hostname clients will send as SNI; a wildcard certificate covers exactly one label, so *.example.com does not cover a.b.example.com. TLS clients will reject the connection.",
		Fix:      "Reissue the certificate with the missing DNS names (cert-manager: spec.dnsNames), or add a certificateRef whose certificate covers them.",
		Spec:     []Spec{hostnames("SNI matching"), rfc("6125", "section 6.4.3")},
	})

	CertificateExpired = register(&Rule{
		ID:       "certificate/Expired",
		Severity: Error,
		Summary:  "The certificate a listener serves has expired.",
		Help:     "The leaf certificate's notAfter is before the analysis time (--now); TLS clients reject an expired certificate, so every handshake on the listeners that serve it fails.",
		Fix:      "Renew the certificate and update the Secret.",
		Spec:     []Spec{rfc("5280", "section 4.1.2.5 (Validity)")},
	})

	CertificateNotYetValid = register(&Rule{
		ID:       "certificate/NotYetValid",
		Severity: Error,
		Summary:  "The certificate a listener serves is not valid yet.",
		Help:     "The leaf certificate's notBefore is after the analysis time (--now), often because the issuer's clock is wrong; TLS clients reject it until then.",
		Fix:      "Check the issuer's clock and reissue, or wait until notBefore.",
		Spec:     []Spec{rfc("5280", "section 4.1.2.5 (Validity)")},
	})

	CertificateExpiresSoon = register(&Rule{
		ID:       "certificate/ExpiresSoon",
		Severity: Warning,
		Summary:  "The certificate a listener serves expires soon.",
		Help:     "The leaf certificate expires within --warn-expiry (default 30 days) of the analysis time; once it expires every handshake on the listeners that serve it fails.",
		Fix:      "Renew it now; with cert-manager, check that the Certificate is Ready (it renews at 2/3 of the lifetime by default).",
		Spec:     []Spec{rfc("5280", "section 4.1.2.5 (Validity)")},
	})

	CertificateWeakKey = register(&Rule{
		ID:       "certificate/WeakKey",
		Severity: Error,
		Summary:  "A certificate in the served chain has an RSA key shorter than 2048 bits.",
		Help:     "RSA keys below 2048 bits are within reach of attackers and are refused by publicly trusted CAs and by browsers; the check applies to the leaf and to every chain certificate in tls.crt.",
		Fix:      "Reissue with an RSA key of 2048 bits or more, or an ECDSA P-256 key.",
		Spec:     []Spec{baselineRequirements("section 6.1.5 (Key sizes)")},
	})

	CertificateKeyTooLargeForClients = register(&Rule{
		ID:       "certificate/KeyTooLargeForClients",
		Severity: Error,
		Summary:  "A certificate in the served chain has an RSA key larger than Go clients accept (8192 bits).",
		Help: "Go's crypto/tls refuses a peer's certificate chain holding an RSA key over 8192 bits, before any verification and with InsecureSkipVerify too (since Go 1.22, backported to 1.19.13, 1.20.8 and 1.21.1 for CVE-2023-29409; GODEBUG=tlsmaxrsasize changes it). " +
			"kubectl, most Kubernetes tooling and Go services are Go clients, and their handshakes with the listeners that serve it fail; the check applies to the leaf and to every chain certificate in tls.crt.",
		Fix:  "Reissue with an RSA key of 2048 to 4096 bits, or an ECDSA P-256 key.",
		Spec: []Spec{{Document: "Go crypto/tls", Section: "defaultMaxRSAKeySize and checkKeySize (CVE-2023-29409, go.dev/issue/61460)"}},
	})

	CertificateChainExpired = register(&Rule{
		ID:       "certificate/ChainExpired",
		Severity: Error,
		Summary:  "A CA certificate served in tls.crt after the leaf has expired or is not valid yet.",
		Help: "Clients build the path from the leaf through the intermediates the server sends, and each certificate on it must be valid at the time of the handshake: an expired intermediate fails verification however fresh the leaf is. " +
			"A served root that has expired breaks the clients that build the path through it rather than through their own trust store (OpenSSL before 1.1.0, older Android, when DST Root CA X3 expired in 2021). The check needs no --ca-bundle.",
		Fix:  "Replace the expired CA certificate in tls.crt with its current one (or remove a root clients hold in their trust store).",
		Spec: []Spec{rfc("5280", "section 6.1.3 (Basic certificate processing: the certificate validity period includes the current time)")},
	})

	CertificateSHA1Signature = register(&Rule{
		ID:       "certificate/SHA1Signature",
		Severity: Error,
		Summary:  "A certificate in the served chain is signed with SHA-1.",
		Help:     "SHA-1 signatures can be forged; browsers and Go's crypto/x509 reject certificates signed with them. A self-signed root is exempt: nobody checks its own signature.",
		Fix:      "Reissue the certificate with a SHA-256 (or stronger) signature.",
		Spec:     []Spec{baselineRequirements("section 7.1.3 (Algorithm object identifiers)")},
	})

	CertificateChainOrder = register(&Rule{
		ID:       "certificate/ChainOrder",
		Severity: Error,
		Summary:  "tls.crt is not in order: the leaf first, then each issuer.",
		Help:     "Each certificate in tls.crt must be signed by the one after it: the server's own certificate first, then each intermediate that certifies the one before. Clients that do not reorder the chain fail to verify it.",
		Fix:      "Put the leaf first in tls.crt, then each intermediate in order.",
		Spec:     []Spec{rfc("8446", "section 4.4.2 (Certificate)")},
	})

	CertificateNoSubjectAltNames = register(&Rule{
		ID:       "certificate/NoSubjectAltNames",
		Severity: Error,
		Summary:  "The certificate has no subjectAltName, only a common name.",
		Help:     "Clients match the name they connect to against the certificate's DNS subjectAltNames; Go, Chrome and other modern clients no longer fall back to the subject common name, so a CN-only certificate matches no name.",
		Fix:      "Reissue it with the hostnames as DNS subjectAltNames.",
		Spec:     []Spec{rfc("9525", "Service Identity in TLS, which obsoletes RFC 6125 and no longer matches the subject common name")},
	})

	CertificateChainUntrusted = register(&Rule{
		ID:       "certificate/ChainUntrusted",
		Severity: Error,
		Summary:  "The certificate chain does not verify against --ca-bundle.",
		Help:     "With --ca-bundle, each served chain is verified from the leaf through the intermediates in tls.crt to a root in the bundle; a chain that does not verify is rejected by clients that trust that bundle.",
		Fix:      "Include the intermediate certificates in tls.crt after the leaf, or check that the issuer is in the bundle.",
		Spec:     []Spec{rfc("5280", "section 6 (Certification path validation)")},
	})
)
