package e2e

import (
	"os"
	"strings"
	"testing"
)

// The README shows real output; this keeps it real. Each command's output must
// appear verbatim in README.md.
func TestREADMEShowsRealOutput(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"analyze", "-f", "testdata/examples/shop"},
		{"explain", "httproute/apex", "-n", "shop", "-f", "testdata/examples/shop"},
		{"simulate", "-f", "testdata/examples/shop", "--all"},
		{"simulate", "-f", "testdata/examples/shop", "--sni", "a.b.shop.example.com"},
		{"explain", "httproute/denied", "-n", "apps", "-f", "testdata/golden/drift-condition-mismatch.yaml"},
		{"diff", "--base", "testdata/diff/takeover/base.yaml", "-f", "testdata/diff/takeover/head.yaml"},
		{"diff", "--base", "testdata/diff/migration-nginx-force-ssl-redirect/base.yaml", "-f", "testdata/diff/migration-nginx-force-ssl-redirect/head.yaml"},
	} {
		r := gwtls(t, "", nil, args...)
		if !strings.Contains(string(readme), strings.TrimSpace(r.stdout)) {
			t.Errorf("README.md does not show the current output of %v:\n%s", args, r.stdout)
		}
	}
}
