package probe

import (
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
)

// CertInfo is what a person wants to see of a presented certificate, in the order
// they want it (smallstep/certinfo): who, for which names, by whom, until when.
type CertInfo struct {
	Subject  string    `json:"subject"`
	DNSNames []string  `json:"dnsNames,omitempty"`
	Issuer   string    `json:"issuer"`
	NotAfter time.Time `json:"notAfter"`
	SHA256   string    `json:"sha256"`
}

// Fingerprint is the SHA-256 of a certificate's DER encoding, in hex.
func Fingerprint(c *x509.Certificate) string {
	sum := sha256.Sum256(c.Raw)
	return hex.EncodeToString(sum[:])
}

func describeChain(chain []*x509.Certificate) []CertInfo {
	out := make([]CertInfo, len(chain))
	for i, c := range chain {
		out[i] = CertInfo{Subject: c.Subject.String(), DNSNames: c.DNSNames, Issuer: c.Issuer.String(), NotAfter: c.NotAfter.UTC(), SHA256: Fingerprint(c)}
	}
	return out
}

// errNoRoot: without --ca-bundle, a chain that holds no self-signed root cannot be
// verified here; that is not a problem of the configuration.
var errNoRoot = errors.New("the chain holds no root to verify against: give --ca-bundle")

// verifyChain verifies a presented chain's trust (not its names) against roots, or,
// without roots, against the chain's own self-signed certificates. It says what it
// trusted.
func verifyChain(chain []*x509.Certificate, roots *x509.CertPool, now time.Time) (string, error) {
	if len(chain) == 0 {
		return "", fmt.Errorf("no certificate presented")
	}
	how := "--ca-bundle"
	if roots == nil {
		roots = x509.NewCertPool()
		n := 0
		for _, c := range chain {
			if c.Subject.String() == c.Issuer.String() && c.CheckSignatureFrom(c) == nil {
				roots.AddCert(c)
				n++
			}
		}
		if n == 0 {
			return "", errNoRoot
		}
		how = "the chain's own root"
	}
	inter := x509.NewCertPool()
	for _, c := range chain[1:] {
		inter.AddCert(c)
	}
	_, err := chain[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter, CurrentTime: now})
	return how, err
}

// handshakeInfo is what a client saw of a TLS handshake.
type handshakeInfo struct {
	Version     string     `json:"version"`
	CipherSuite string     `json:"cipherSuite"`
	ALPN        string     `json:"alpn,omitempty"`
	Chain       []CertInfo `json:"chain"`
	CoversSNI   bool       `json:"coversSNI"`
	// Verified says what the chain verified against, or why it did not.
	Verified  string `json:"verified"`
	verifyErr error
}

func describeHandshake(st tls.ConnectionState, sni string, roots *x509.CertPool, now time.Time) (*handshakeInfo, error) {
	h := &handshakeInfo{Version: tls.VersionName(st.Version), CipherSuite: tls.CipherSuiteName(st.CipherSuite),
		ALPN: st.NegotiatedProtocol, Chain: describeChain(st.PeerCertificates)}
	if len(st.PeerCertificates) > 0 {
		h.CoversSNI = st.PeerCertificates[0].VerifyHostname(sni) == nil
	}
	how, err := verifyChain(st.PeerCertificates, roots, now)
	if err != nil {
		h.Verified, h.verifyErr = "no: "+err.Error(), err
		if errors.Is(err, errNoRoot) {
			h.Verified = "unknown: " + err.Error()
		}
		return h, err
	}
	h.Verified = "yes, against " + how
	return h, nil
}
