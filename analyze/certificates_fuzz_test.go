package analyze

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testcert"
)

// FuzzParseKeyPair feeds arbitrary tls.crt / tls.key bytes through the Secret
// parser and the certificate checks: never a panic, and an error never quotes key
// material.
func FuzzParseKeyPair(f *testing.F) {
	c := testcert.Must(testcert.Options{CommonName: "a.example.com", DNSNames: []string{"a.example.com"}}, nil)
	f.Add(c.CertPEM, c.KeyPEM)
	f.Add(c.CertPEM, []byte("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"))
	f.Add([]byte("garbage"), []byte{})
	f.Add(append(c.CertPEM, c.CertPEM...), c.KeyPEM)
	f.Fuzz(func(t *testing.T, crt, key []byte) {
		kp := parseKeyPair(&corev1.Secret{Data: map[string][]byte{"tls.crt": crt, "tls.key": key}})
		if kp.err != nil {
			if len(key) > 16 && strings.Contains(kp.err.Error(), string(key[:16])) {
				t.Fatalf("error quotes the key: %v", kp.err)
			}
			return
		}
		_ = certificateProblems(kp.chain, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), 30*24*time.Hour, nil)
	})
}

// FuzzParseBundle feeds arbitrary ca.crt text through the CA bundle parser.
func FuzzParseBundle(f *testing.F) {
	c := testcert.Must(testcert.Options{CommonName: "ca", IsCA: true}, nil)
	f.Add(string(c.CertPEM))
	f.Add("-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, data string) {
		b := parseBundle(data)
		if b.err == nil && len(b.certs) == 0 {
			t.Fatal("no error and no certificate")
		}
	})
}
