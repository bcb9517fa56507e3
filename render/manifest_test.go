package render

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testcert"
)

// The catalog shows example manifests: their certificates as what they are,
// and never a key, whatever its encoding.
func TestShownManifest(t *testing.T) {
	ca, err := testcert.New(testcert.Options{CommonName: "Test Root", IsCA: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := testcert.New(testcert.Options{CommonName: "app.example.com", DNSNames: []string{"app.example.com"}, RSABits: 2048}, ca)
	if err != nil {
		t.Fatal(err)
	}
	b64 := func(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
	der := b64([]byte(strings.Repeat("k", 64)))
	manifest := "# flags: --external Secret\n# also fires: route/NoParentRefs because\n# A Secret.\napiVersion: v1\nkind: Secret\ndata:\n" +
		"  tls.crt: " + b64(append(leaf.CertPEM, ca.CertPEM...)) + "\n" +
		"  tls.key: " + b64(leaf.KeyPEM) + "\n" +
		"  raw.key: " + der + "\n" +
		"  note: bm90IGEgY2VydA==\n" +
		"---\nkind: ConfigMap\ndata:\n  ca.crt: |\n    " + strings.ReplaceAll(strings.TrimSpace(string(ca.CertPEM)), "\n", "\n    ") + "\n  other: value\n"
	got := ShownManifest(manifest)
	for _, want := range []string{
		"# A Secret.\napiVersion: v1\n",
		"  tls.crt: <certificate, CN=app.example.com, DNS app.example.com, RSA 2048, ECDSA-SHA256, valid 2025-01-01 to 2036-01-01, issued by CN=Test Root; then CA certificate, CN=Test Root, ECDSA P-256, ECDSA-SHA256, valid 2025-01-01 to 2036-01-01>\n",
		"  tls.key: <a private key>\n",
		"  raw.key: <64 bytes>\n",
		"  note: bm90IGEgY2VydA==\n",
		"  ca.crt: <CA certificate, CN=Test Root, ECDSA P-256, ECDSA-SHA256, valid 2025-01-01 to 2036-01-01>\n  other: value\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("shown manifest lacks %q:\n%s", want, got)
		}
	}
	for _, secret := range []string{"# flags:", "# also fires:", b64(leaf.KeyPEM)[:40], der[:40], "BEGIN"} {
		if strings.Contains(got, secret) {
			t.Errorf("shown manifest holds %q:\n%s", secret, got)
		}
	}
}
