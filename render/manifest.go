package render

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"regexp"
	"strings"
)

// ShownManifest is a manifest as the catalog shows it: its "# flags:" and
// "# also fires:" lines dropped (the catalog says them in prose), and every
// long base64 value and PEM block scalar replaced by a description of what it
// holds. No private key is ever printed, and a certificate reads as what it
// is: names, key, signature, validity and issuer.
func ShownManifest(manifest string) string {
	lines := strings.Split(manifest, "\n")
	out := make([]string, 0, len(lines))
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if strings.HasPrefix(line, "# flags:") || strings.HasPrefix(line, "# also fires:") {
			continue
		}
		if m := base64Value.FindStringSubmatch(line); m != nil {
			// Any long base64 value is described, not printed: it may be a key
			// in a form that is not PEM.
			if data, err := base64.StdEncoding.DecodeString(m[3]); err == nil {
				desc := fmt.Sprintf("<%d bytes>", len(data))
				if strings.Contains(string(data), "-----BEGIN") {
					desc = describePEM(data)
				}
				out = append(out, m[1]+m[2]+": "+desc)
				continue
			}
		}
		if m := blockValue.FindStringSubmatch(line); m != nil {
			end := i + 1
			for end < len(lines) && (strings.TrimSpace(lines[end]) == "" || indentOf(lines[end]) > len(m[1])) {
				end++
			}
			if block := strings.Join(lines[i+1:end], "\n"); strings.Contains(block, "-----BEGIN") {
				var dedented []string
				for _, l := range lines[i+1 : end] {
					dedented = append(dedented, strings.TrimSpace(l))
				}
				out = append(out, m[1]+m[2]+": "+describePEM([]byte(strings.Join(dedented, "\n"))))
				i = end - 1
				continue
			}
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

var (
	// base64Value is a key whose value is a long base64 string.
	base64Value = regexp.MustCompile(`^(\s+)([\w.-]+): ([A-Za-z0-9+/]{40,}={0,2})\s*$`)
	// blockValue is a key whose value is a literal block scalar.
	blockValue = regexp.MustCompile(`^(\s+)([\w.-]+): \|[-+]?\s*$`)
)

func indentOf(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }

// DescribePEM says what each PEM block holds, in order: "<certificate,
// CN=..., ...; then a private key>".
func DescribePEM(data []byte) string { return describePEM(data) }

func describePEM(data []byte) string {
	var parts []string
	for {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			break
		}
		switch {
		case block.Type == "CERTIFICATE":
			parts = append(parts, describeCertificate(block.Bytes))
		case strings.HasSuffix(block.Type, "PRIVATE KEY"):
			parts = append(parts, "a private key")
		default:
			parts = append(parts, "a PEM "+block.Type)
		}
	}
	if len(parts) == 0 {
		return "<not PEM>"
	}
	return "<" + strings.Join(parts, "; then ") + ">"
}

// describeCertificate is a certificate in one line, as a reader of the
// catalog wants to see it.
func describeCertificate(der []byte) string {
	c, err := x509.ParseCertificate(der)
	if err != nil {
		return "a certificate that does not parse"
	}
	parts := []string{"certificate"}
	if c.IsCA {
		parts[0] = "CA certificate"
	}
	if c.Subject.CommonName != "" {
		parts = append(parts, "CN="+c.Subject.CommonName)
	}
	switch {
	case len(c.DNSNames) > 0:
		parts = append(parts, "DNS "+strings.Join(c.DNSNames, " "))
	case !c.IsCA:
		parts = append(parts, "no subjectAltName")
	}
	switch k := c.PublicKey.(type) {
	case *rsa.PublicKey:
		parts = append(parts, fmt.Sprintf("RSA %d", k.N.BitLen()))
	case *ecdsa.PublicKey:
		parts = append(parts, "ECDSA "+k.Curve.Params().Name)
	case ed25519.PublicKey:
		parts = append(parts, "Ed25519")
	}
	parts = append(parts, c.SignatureAlgorithm.String(),
		fmt.Sprintf("valid %s to %s", c.NotBefore.UTC().Format("2006-01-02"), c.NotAfter.UTC().Format("2006-01-02")))
	if c.Issuer.String() != c.Subject.String() {
		parts = append(parts, "issued by "+c.Issuer.String())
	}
	return strings.Join(parts, ", ")
}
