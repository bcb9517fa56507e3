package hostname

import (
	"slices"
	"strings"
	"testing"
)

func TestDNSRecordNames(t *testing.T) {
	tests := []struct {
		name        string
		intersected []string
		want        []string
		wantSkipped []string // hostnames
	}{
		{
			// spec 003 "Automatic Provisioning of DNS records", first example:
			// Listener *.example.com, HTTPRoutes foo, bar and baz.quux; quux.example.com is not included.
			name:        `spec 003 "Automatic Provisioning of DNS records" example 1`,
			intersected: IntersectAll("*.example.com", []string{"foo.example.com", "bar.example.com", "baz.quux.example.com"}),
			want:        []string{"baz.quux.example.com", "bar.example.com", "foo.example.com"},
		},
		{
			// spec 003 "Automatic Provisioning of DNS records", second example: Listener *.example.com, HTTPRoute foo.example.com.
			name:        `spec 003 "Automatic Provisioning of DNS records" example 2`,
			intersected: IntersectAll("*.example.com", []string{"foo.example.com"}),
			want:        []string{"foo.example.com"},
		},
		{
			name:        "a wildcard intersected hostname becomes a wildcard record",
			intersected: IntersectAll("*.example.com", nil),
			want:        []string{"*.example.com"},
		},
		{
			name:        `spec 003 "Programmatic use": no intersected hostname can be determined`,
			intersected: IntersectAll("", nil),
			wantSkipped: []string{""},
		},
		{
			name:        "deduplicated case-insensitively, invalid skipped",
			intersected: []string{"www.example.com", "WWW.example.com", "10.0.0.1", "*", "*.example.com"},
			want:        []string{"www.example.com", "*.example.com"},
			wantSkipped: []string{"10.0.0.1", "*"},
		},
		{name: "nothing", intersected: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, skipped := DNSRecordNames(tt.intersected)
			checkPlan(t, "DNSRecordNames", tt.intersected, got, skipped, tt.want, tt.wantSkipped)
		})
	}
}

func TestCertificateNames(t *testing.T) {
	tests := []struct {
		name        string
		intersected []string
		want        []string
		wantSkipped []string
	}{
		{
			// spec 003 "Automatic Provisioning of TLS Certificates" example: the
			// certificate MUST carry foo, bar and baz.quux; quux.example.com SHOULD NOT be included.
			name:        `spec 003 "Automatic Provisioning of TLS Certificates" example`,
			intersected: IntersectAll("*.example.com", []string{"foo.example.com", "bar.example.com", "baz.quux.example.com"}),
			want:        []string{"baz.quux.example.com", "bar.example.com", "foo.example.com"},
		},
		{
			// spec 003 "Handling Wildcard certificates": MUST NOT generate wildcard certificates.
			name:        `spec 003 "Handling Wildcard certificates": wildcard intersected hostname is ignored`,
			intersected: IntersectAll("*.example.com", nil),
			wantSkipped: []string{"*.example.com"},
		},
		{
			name:        `spec 003 "Handling Wildcard certificates": route *.com on listener *.example.com`,
			intersected: IntersectAll("*.example.com", []string{"*.com", "www.example.com"}),
			want:        []string{"www.example.com"},
			wantSkipped: []string{"*.example.com"},
		},
		{
			name:        `spec 003 "Programmatic use": match-all is ignored`,
			intersected: []string{"", "*"},
			wantSkipped: []string{"", "*"},
		},
		{
			name:        "invalid skipped",
			intersected: []string{"10.0.0.1", "www.example.com."},
			wantSkipped: []string{"10.0.0.1", "www.example.com."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, skipped := CertificateNames(tt.intersected)
			checkPlan(t, "CertificateNames", tt.intersected, got, skipped, tt.want, tt.wantSkipped)
			for _, n := range got {
				if strings.Contains(n, "*") {
					t.Errorf("CertificateNames(%q) includes wildcard %q", tt.intersected, n)
				}
			}
		})
	}
}

func checkPlan(t *testing.T, fn string, in, got []string, skipped []Skipped, want, wantSkipped []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s(%q) names = %q, want %q", fn, in, got, want)
	}
	var gotSkipped []string
	for _, s := range skipped {
		gotSkipped = append(gotSkipped, s.Hostname)
		if s.Reason == "" {
			t.Errorf("%s(%q) skipped %q without a reason", fn, in, s.Hostname)
		}
	}
	if !slices.Equal(gotSkipped, wantSkipped) {
		t.Errorf("%s(%q) skipped = %q, want %q", fn, in, gotSkipped, wantSkipped)
	}
}

func TestPlanReasons(t *testing.T) {
	_, skipped := CertificateNames([]string{"*.example.com", "", "10.0.0.1"})
	want := []Skipped{
		{Hostname: "*.example.com", Reason: ReasonWildcardCertificate},
		{Hostname: "", Reason: ReasonMatchAll},
		{Hostname: "10.0.0.1", Reason: "is an IP address; Gateway API hostnames must be DNS names"},
	}
	if !slices.Equal(skipped, want) {
		t.Errorf("CertificateNames skipped = %+v, want %+v", skipped, want)
	}
}
