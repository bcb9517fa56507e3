package hostname

import (
	"fmt"
	"slices"
	"testing"
)

// TestExpectedMatchExamples runs every row of spec 003 "Expected match
// examples" end to end: intersection, then SNI matching against the
// intersected hostname (and a certificate issued for it), then Host header
// matching. An empty sni or host is a blank cell in the table.
func TestExpectedMatchExamples(t *testing.T) {
	tests := []struct {
		row         int
		listener    string
		tlsMode     string // None, Terminated or Passthrough
		routeKind   string
		route       []string // nil: unset
		attached    bool
		intersected string
		sni         string
		sniMatch    bool
		host        string
		hostMatch   bool
	}{
		{row: 1, listener: "www.example.com", tlsMode: "None", routeKind: "HTTPRoute", route: []string{"www.example.com"}, attached: true, intersected: "www.example.com", host: "www.example.com", hostMatch: true},
		{row: 2, listener: "*.example.com", tlsMode: "None", routeKind: "HTTPRoute", route: []string{"www.example.com"}, attached: true, intersected: "www.example.com", host: "www.example.com", hostMatch: true},
		{row: 3, listener: "*.example.com", tlsMode: "None", routeKind: "HTTPRoute", route: []string{"*.com"}, attached: true, intersected: "*.example.com", host: "www.example.com", hostMatch: true},
		// Row 4: "Wildcard matches for Host header will match one or more DNS labels."
		{row: 4, listener: "*.example.com", tlsMode: "None", routeKind: "HTTPRoute", route: []string{"*.com"}, attached: true, intersected: "*.example.com", host: "foo.bar.example.com", hostMatch: true},
		{row: 5, listener: "*.example.com", tlsMode: "None", routeKind: "HTTPRoute", route: []string{"www.example.com"}, attached: true, intersected: "www.example.com", host: "example.com", hostMatch: false},
		{row: 6, listener: "*.example.com", tlsMode: "None", routeKind: "HTTPRoute", route: []string{"www.example.com"}, attached: true, intersected: "www.example.com", host: "foo.example.com", hostMatch: false},
		{row: 7, listener: "*.example.com", tlsMode: "Terminated", routeKind: "HTTPRoute", route: []string{"www.example.com"}, attached: true, intersected: "www.example.com", sni: "www.example.com", sniMatch: true, host: "www.example.com", hostMatch: true},
		// Row 8: the certificate must match the intersected hostname, not the Listener hostname.
		{row: 8, listener: "*.example.com", tlsMode: "Terminated", routeKind: "HTTPRoute", route: []string{"foo.bar.example.com"}, attached: true, intersected: "foo.bar.example.com", sni: "foo.bar.example.com", sniMatch: true, host: "foo.bar.example.com", hostMatch: true},
		// Row 9: "*.example.com on a certificate does not match foo.bar.example.com as an SNI."
		{row: 9, listener: "*.example.com", tlsMode: "Terminated", routeKind: "HTTPRoute", route: []string{"*.example.com"}, attached: true, intersected: "*.example.com", sni: "foo.bar.example.com", sniMatch: false},
		{row: 10, listener: "*.example.com", tlsMode: "Terminated", routeKind: "HTTPRoute", route: []string{"foo.example.com"}, attached: true, intersected: "foo.example.com", sni: "foo.example.com", sniMatch: true, host: "foo.example.com", hostMatch: true},
		{row: 11, listener: "www.example.com", tlsMode: "Passthrough", routeKind: "TLSRoute", route: []string{"www.example.com"}, attached: true, intersected: "www.example.com", sni: "www.example.com", sniMatch: true},
		{row: 12, listener: "*.example.com", tlsMode: "Passthrough", routeKind: "TLSRoute", route: []string{"www.example.com"}, attached: true, intersected: "www.example.com", sni: "www.example.com", sniMatch: true},
		{row: 13, listener: "*.example.com", tlsMode: "Passthrough", routeKind: "TLSRoute", route: []string{"www.example.com"}, attached: true, intersected: "www.example.com", sni: "foo.example.com", sniMatch: false},
		// Row 14: "The SNI must match the intersected hostname."
		{row: 14, listener: "*.example.com", tlsMode: "Passthrough", routeKind: "TLSRoute", route: []string{"foo.bar.example.com"}, attached: true, intersected: "foo.bar.example.com", sni: "www.example.com", sniMatch: false},
		{row: 15, listener: "*.example.com", tlsMode: "Passthrough", routeKind: "TLSRoute", route: nil, attached: true, intersected: "*.example.com", sni: "www.example.com", sniMatch: true},
		// Row 16: "SNI matches against wildcard names in certificates can only match a single DNS label."
		{row: 16, listener: "*.example.com", tlsMode: "Passthrough", routeKind: "TLSRoute", route: nil, attached: true, intersected: "*.example.com", sni: "foo.bar.example.com", sniMatch: false},
		{row: 17, listener: "www.example.com", tlsMode: "Terminated", routeKind: "TLSRoute", route: []string{"www.example.com"}, attached: true, intersected: "www.example.com", sni: "www.example.com", sniMatch: true},
	}
	for _, tt := range tests {
		name := fmt.Sprintf(`spec 003 "Expected match examples" row %d: %s %s %q+%q`, tt.row, tt.tlsMode, tt.routeKind, tt.listener, tt.route)
		t.Run(name, func(t *testing.T) {
			got := IntersectAll(tt.listener, tt.route)
			if attached := got != nil; attached != tt.attached {
				t.Fatalf("IntersectAll(%q, %q) = %q: attached %v, want %v", tt.listener, tt.route, got, attached, tt.attached)
			}
			if !slices.Equal(got, []string{tt.intersected}) {
				t.Fatalf("IntersectAll(%q, %q) = %q, want [%q]", tt.listener, tt.route, got, tt.intersected)
			}
			if tt.sni != "" {
				if m := MatchesSNI(tt.intersected, tt.sni); m != tt.sniMatch {
					t.Errorf("MatchesSNI(%q, %q) = %v, want %v", tt.intersected, tt.sni, m, tt.sniMatch)
				}
				// A certificate naming the intersected hostname covers the SNI exactly when the SNI matches.
				if c := CertificateCovers(tt.intersected, tt.sni); c != tt.sniMatch {
					t.Errorf("CertificateCovers(%q, %q) = %v, want %v", tt.intersected, tt.sni, c, tt.sniMatch)
				}
			}
			if tt.host != "" {
				if m := MatchesHost(tt.intersected, tt.host); m != tt.hostMatch {
					t.Errorf("MatchesHost(%q, %q) = %v, want %v", tt.intersected, tt.host, m, tt.hostMatch)
				}
			}
		})
	}
}

// TestCertificateForListenerHostnameFails proves the note of spec 003
// "Expected match examples" row 8: a certificate for the Listener hostname
// `*.example.com` does not cover the SNI `foo.bar.example.com`, so the
// certificate must name the intersected hostname.
func TestCertificateForListenerHostnameFails(t *testing.T) {
	if CertificateCovers("*.example.com", "foo.bar.example.com") {
		t.Error(`CertificateCovers("*.example.com", "foo.bar.example.com") = true, want false`)
	}
	if !CertificateCovers("foo.bar.example.com", "foo.bar.example.com") {
		t.Error(`CertificateCovers("foo.bar.example.com", "foo.bar.example.com") = false, want true`)
	}
}
