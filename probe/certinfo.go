package probe

import (
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
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

func describeChain(chain []*x509.Certificate) []CertInfo {
	out := make([]CertInfo, len(chain))
	for i, c := range chain {
		out[i] = CertInfo{Subject: c.Subject.String(), DNSNames: c.DNSNames, Issuer: c.Issuer.String(), NotAfter: c.NotAfter.UTC(), SHA256: serving.Fingerprint(c)}
	}
	return out
}

// errNoRoot: without --ca-bundle, a chain that holds no self-signed root cannot be
// verified here; that is not a problem of the configuration.
var errNoRoot = errors.New("the chain holds no root to verify against: give --ca-bundle")

// Verification is what verifying a presented chain's trust (not its names) came
// to. It is written as a sentence ("yes, against --ca-bundle", "no: ...",
// "unknown: ...") in JSON.
type Verification struct {
	Status ChainStatus
	// Against is what the chain was verified against, when it was.
	Against string
	// Err is why it did not verify, or why it could not be verified.
	Err error
}

// ChainStatus is the outcome of a chain verification.
type ChainStatus int

const (
	// ChainVerified: the chain leads to a trusted root.
	ChainVerified ChainStatus = iota
	// ChainNotVerified: it does not; a client would reject it.
	ChainNotVerified
	// ChainUnverifiable: nothing to verify against (no --ca-bundle and no root
	// in the chain); not a problem of the configuration.
	ChainUnverifiable
)

// String is the status in a word: yes, no or unknown.
func (s ChainStatus) String() string {
	switch s {
	case ChainVerified:
		return "yes"
	case ChainNotVerified:
		return "no"
	}
	return "unknown"
}

func (v Verification) String() string {
	switch {
	case v.Status == ChainVerified && v.Against != "":
		return "yes, against " + v.Against
	case v.Err != nil:
		return v.Status.String() + ": " + v.Err.Error()
	}
	return v.Status.String()
}

// MarshalText writes the verification as its sentence.
func (v Verification) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// verifyChain verifies a presented chain's trust (not its names) against roots
// (--ca-bundle, unless against names them), or, without roots, against the
// chain's own self-signed certificates.
func verifyChain(chain []*x509.Certificate, roots *x509.CertPool, against string, now time.Time) Verification {
	if len(chain) == 0 {
		return Verification{Status: ChainNotVerified, Err: errors.New("no certificate presented")}
	}
	how := "--ca-bundle"
	if against != "" {
		how = against
	}
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
			return Verification{Status: ChainUnverifiable, Err: errNoRoot}
		}
		how = "the chain's own root"
	}
	inter := x509.NewCertPool()
	for _, c := range chain[1:] {
		inter.AddCert(c)
	}
	if _, err := chain[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter, CurrentTime: now}); err != nil {
		return Verification{Status: ChainNotVerified, Err: err}
	}
	return Verification{Status: ChainVerified, Against: how}
}

// Handshake is what a client saw of a TLS handshake.
type Handshake struct {
	Version     string     `json:"version"`
	CipherSuite string     `json:"cipherSuite"`
	ALPN        string     `json:"alpn,omitempty"`
	Chain       []CertInfo `json:"chain"`
	CoversSNI   bool       `json:"coversSNI"`
	// Verified says what the chain verified against, or why it did not.
	Verified Verification `json:"verified"`
}

func describeHandshake(st tls.ConnectionState, sni string, roots *x509.CertPool, against string, now time.Time) *Handshake {
	h := &Handshake{Version: tls.VersionName(st.Version), CipherSuite: tls.CipherSuiteName(st.CipherSuite),
		ALPN: st.NegotiatedProtocol, Chain: describeChain(st.PeerCertificates)}
	if len(st.PeerCertificates) > 0 {
		h.CoversSNI = st.PeerCertificates[0].VerifyHostname(sni) == nil
	}
	h.Verified = verifyChain(st.PeerCertificates, roots, against, now)
	return h
}

// oversizedRSAKey is the first certificate of a chain whose RSA key Go clients
// refuse (rules.GoMaxRSAKeyBits), as "a 16384-bit RSA key (CN=...)"; "" when none is.
func oversizedRSAKey(chain []*x509.Certificate) string {
	for _, c := range chain {
		if k, ok := c.PublicKey.(*rsa.PublicKey); ok && k.N.BitLen() > rules.GoMaxRSAKeyBits {
			return fmt.Sprintf("a %d-bit RSA key (%s)", k.N.BitLen(), c.Subject)
		}
	}
	return ""
}
