// Package testcert makes certificates at test time: a CA, leaves signed by it with
// chosen names, validity and key types, as PEM, for tests of certificate handling.
package testcert

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"math/big"
	"strings"
	"time"
)

// Options describe a certificate to make.
type Options struct {
	CommonName string
	DNSNames   []string
	NotBefore  time.Time // default 2025-01-01
	NotAfter   time.Time // default 2036-01-01
	RSABits    int       // 0: ECDSA P-256
	IsCA       bool
	SHA1       bool
}

// Cert is a made certificate and its key.
type Cert struct {
	Cert *x509.Certificate
	Key  crypto.Signer
	// CertPEM and KeyPEM are the PEM encodings (key as PKCS#8).
	CertPEM, KeyPEM []byte
}

var serial int64

// New makes a certificate signed by parent (self-signed when parent is nil).
func New(o Options, parent *Cert) (*Cert, error) {
	var key crypto.Signer
	var err error
	if o.RSABits > 0 {
		key, err = rsa.GenerateKey(rand.Reader, o.RSABits)
	} else {
		key, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	}
	if err != nil {
		return nil, err
	}
	if o.NotBefore.IsZero() {
		o.NotBefore = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	if o.NotAfter.IsZero() {
		o.NotAfter = time.Date(2036, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	serial++
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(serial),
		Subject:               pkix.Name{CommonName: o.CommonName},
		DNSNames:              o.DNSNames,
		NotBefore:             o.NotBefore,
		NotAfter:              o.NotAfter,
		KeyUsage:              x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
		BasicConstraintsValid: true,
		IsCA:                  o.IsCA,
	}
	if o.IsCA {
		tmpl.KeyUsage |= x509.KeyUsageCertSign
	}
	if o.SHA1 {
		if o.RSABits == 0 {
			return nil, fmt.Errorf("SHA-1 signatures need an RSA key")
		}
		tmpl.SignatureAlgorithm = x509.SHA1WithRSA
	}
	signer, issuer := key, tmpl
	if parent != nil {
		signer, issuer = parent.Key, parent.Cert
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, issuer, key.Public(), signer)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	kd, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	return &Cert{
		Cert:    cert,
		Key:     key,
		CertPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		KeyPEM:  pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kd}),
	}, nil
}

// Must is New that panics, for test tables.
func Must(o Options, parent *Cert) *Cert {
	c, err := New(o, parent)
	if err != nil {
		panic(err)
	}
	return c
}

// SecretYAML is a kubernetes.io/tls Secret holding chain (leaf first) and the
// leaf's key.
func SecretYAML(namespace, name string, chain []*Cert) string {
	var crt []byte
	for _, c := range chain {
		crt = append(crt, c.CertPEM...)
	}
	return fmt.Sprintf(`apiVersion: v1
kind: Secret
metadata:
  name: %s
  namespace: %s
type: kubernetes.io/tls
data:
  tls.crt: %s
  tls.key: %s
`, name, namespace, base64.StdEncoding.EncodeToString(crt), base64.StdEncoding.EncodeToString(chain[0].KeyPEM))
}

// ConfigMapYAML is a ConfigMap with the CA certificates in ca.crt.
func ConfigMapYAML(namespace, name string, cas ...*Cert) string {
	var b strings.Builder
	for _, c := range cas {
		b.Write(c.CertPEM)
	}
	indented := "    " + strings.ReplaceAll(strings.TrimRight(b.String(), "\n"), "\n", "\n    ")
	return fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n  namespace: %s\ndata:\n  ca.crt: |\n%s\n", name, namespace, indented)
}
