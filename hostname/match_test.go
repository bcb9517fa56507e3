package hostname

import "testing"

func TestMatchesHost(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		host    string
		want    bool
	}{
		// spec 003 "`Host` header matching" table, rows 1-5.
		{name: `spec 003 "Host header matching" row 1`, pattern: "www.example.com", host: "www.example.com", want: true},
		{name: `spec 003 "Host header matching" row 2`, pattern: "www.example.com", host: "foo.example.com", want: false},
		{name: `spec 003 "Host header matching" row 3`, pattern: "*.example.com", host: "www.example.com", want: true},
		{name: `spec 003 "Host header matching" row 4`, pattern: "*.example.com", host: "foo.example.com", want: true},
		{name: `spec 003 "Host header matching" row 5: one or more labels`, pattern: "*.example.com", host: "foo.bar.example.com", want: true},
		// spec 003 "Hostname wildcards", list 2.
		{name: `spec 003 "Hostname wildcards" list 2: *.example.com matches www.example.com`, pattern: "*.example.com", host: "www.example.com", want: true},
		{name: `spec 003 "Hostname wildcards" list 2: *.example.com matches sub.domain.example.com`, pattern: "*.example.com", host: "sub.domain.example.com", want: true},
		{name: `spec 003 "Hostname wildcards" list 2: *.example.com does not match example.com`, pattern: "*.example.com", host: "example.com", want: false},
		{name: `spec 003 "Hostname wildcards" list 2: *.com matches example.com`, pattern: "*.com", host: "example.com", want: true},
		{name: `spec 003 "Hostname wildcards" list 2: *.com matches www.example.com`, pattern: "*.com", host: "www.example.com", want: true},
		// Ports (HTTPRouteSpec.Hostnames: "MUST ignore any port value").
		{name: "port ignored, precise", pattern: "www.example.com", host: "www.example.com:8080", want: true},
		{name: "port ignored, wildcard", pattern: "*.example.com", host: "a.b.example.com:443", want: true},
		{name: "empty port ignored", pattern: "www.example.com", host: "www.example.com:", want: true},
		{name: "port does not rescue a mismatch", pattern: "www.example.com", host: "foo.example.com:80", want: false},
		{name: "non-numeric port is not a port", pattern: "www.example.com", host: "www.example.com:http", want: false},
		// Case.
		{name: "case-insensitive host", pattern: "www.example.com", host: "WWW.Example.COM", want: true},
		{name: "case-insensitive pattern", pattern: "*.EXAMPLE.com", host: "www.example.com", want: true},
		// Host must be a precise hostname (spec 003 "Host header matching").
		{name: "label boundary", pattern: "*.example.com", host: "wwwexample.com", want: false},
		{name: "trailing dot is not a precise hostname", pattern: "www.example.com", host: "www.example.com.", want: false},
		{name: "wildcard host", pattern: "*.example.com", host: "*.example.com", want: false},
		{name: "IPv4 host", pattern: "*.example.com", host: "10.0.0.1", want: false},
		{name: "IPv6 host with port", pattern: "*.example.com", host: "[::1]:80", want: false},
		{name: "empty host", pattern: "www.example.com", host: "", want: false},
		// Match-all patterns.
		{name: "unset matches any host", pattern: "", host: "anything.example.org", want: true},
		{name: "* matches any host", pattern: "*", host: "www.example.com", want: true},
		{name: "unset matches an IP host too", pattern: "", host: "10.0.0.1:8080", want: true},
		// Invalid patterns match nothing.
		{name: "IP pattern", pattern: "10.0.0.1", host: "10.0.0.1", want: false},
		{name: "partial wildcard pattern", pattern: "f*.example.com", host: "foo.example.com", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MatchesHost(tt.pattern, tt.host); got != tt.want {
				t.Errorf("MatchesHost(%q, %q) = %v, want %v", tt.pattern, tt.host, got, tt.want)
			}
		})
	}
}

func TestMatchesSNI(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		sni     string
		want    bool
	}{
		// spec 003 "SNI matching" table ("Examples per RFC-2818 SNI matching rules"), rows 1-5.
		{name: `spec 003 "SNI matching" row 1`, pattern: "www.example.com", sni: "www.example.com", want: true},
		{name: `spec 003 "SNI matching" row 2`, pattern: "www.example.com", sni: "foo.example.com", want: false},
		{name: `spec 003 "SNI matching" row 3`, pattern: "*.example.com", sni: "www.example.com", want: true},
		{name: `spec 003 "SNI matching" row 4`, pattern: "*.example.com", sni: "foo.example.com", want: true},
		{name: `spec 003 "SNI matching" row 5: exactly one label`, pattern: "*.example.com", sni: "foo.bar.example.com", want: false},
		// spec 003 "SNI matching" quoting RFC 2818.
		{name: `spec 003 "SNI matching" RFC 2818 quote: *.a.com matches foo.a.com`, pattern: "*.a.com", sni: "foo.a.com", want: true},
		{name: `spec 003 "SNI matching" RFC 2818 quote: *.a.com does not match bar.foo.a.com`, pattern: "*.a.com", sni: "bar.foo.a.com", want: false},
		{name: `spec 003 "SNI matching": f*.com is not a valid hostname, so cannot match foo.com`, pattern: "f*.com", sni: "foo.com", want: false},
		{name: `spec 003 "SNI matching": IP addresses cannot match`, pattern: "10.0.0.1", sni: "10.0.0.1", want: false},
		{name: `spec 003 "SNI matching": an SNI may not include a wildcard`, pattern: "*.example.com", sni: "*.example.com", want: false},
		// Edge cases.
		{name: "wildcard does not match its domain", pattern: "*.example.com", sni: "example.com", want: false},
		{name: "label boundary", pattern: "*.example.com", sni: "fooexample.com", want: false},
		{name: "case-insensitive", pattern: "*.Example.com", sni: "WWW.EXAMPLE.COM", want: true},
		{name: "IP SNI", pattern: "*.example.com", sni: "192.168.0.1", want: false},
		{name: "trailing dot SNI (RFC 6066 forbids it)", pattern: "www.example.com", sni: "www.example.com.", want: false},
		{name: "SNI with port is not a hostname", pattern: "www.example.com", sni: "www.example.com:443", want: false},
		{name: "empty SNI against a hostname", pattern: "www.example.com", sni: "", want: false},
		{name: "unset pattern matches any SNI", pattern: "", sni: "foo.bar.example.com", want: true},
		{name: "unset pattern matches a ClientHello without SNI", pattern: "", sni: "", want: true},
		{name: "* matches any SNI", pattern: "*", sni: "foo.bar.example.com", want: true},
		{name: "*.com matches one label", pattern: "*.com", sni: "example.com", want: true},
		{name: "*.com does not match two labels", pattern: "*.com", sni: "www.example.com", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MatchesSNI(tt.pattern, tt.sni); got != tt.want {
				t.Errorf("MatchesSNI(%q, %q) = %v, want %v", tt.pattern, tt.sni, got, tt.want)
			}
		})
	}
}

func TestCertificateCovers(t *testing.T) {
	tests := []struct {
		name     string
		certName string
		sni      string
		want     bool
	}{
		// spec 003 "SNI matching" table: the intersected hostname as the certificate name, rows 1-5.
		{name: `spec 003 "SNI matching" row 1`, certName: "www.example.com", sni: "www.example.com", want: true},
		{name: `spec 003 "SNI matching" row 2`, certName: "www.example.com", sni: "foo.example.com", want: false},
		{name: `spec 003 "SNI matching" row 3`, certName: "*.example.com", sni: "www.example.com", want: true},
		{name: `spec 003 "SNI matching" row 4`, certName: "*.example.com", sni: "foo.example.com", want: true},
		{name: `spec 003 "SNI matching" row 5`, certName: "*.example.com", sni: "foo.bar.example.com", want: false},
		{name: `spec 003 "SNI matching" RFC 2818 quote: *.a.com covers foo.a.com`, certName: "*.a.com", sni: "foo.a.com", want: true},
		{name: `spec 003 "SNI matching" RFC 2818 quote: *.a.com does not cover bar.foo.a.com`, certName: "*.a.com", sni: "bar.foo.a.com", want: false},
		{name: `spec 003 "SNI matching": f*.com cannot match foo.com`, certName: "f*.com", sni: "foo.com", want: false},
		// RFC 6125 section 6.4.3.
		{name: "wildcard does not cover the bare domain", certName: "*.example.com", sni: "example.com", want: false},
		{name: "partial-label wildcard prefix", certName: "*oo.example.com", sni: "foo.example.com", want: false},
		{name: "partial-label wildcard middle", certName: "f*o.example.com", sni: "foo.example.com", want: false},
		{name: "wildcard not leftmost", certName: "www.*.com", sni: "www.example.com", want: false},
		{name: "two wildcards", certName: "*.*.example.com", sni: "a.b.example.com", want: false},
		{name: "bare * covers nothing", certName: "*", sni: "example", want: false},
		{name: "label boundary", certName: "*.example.com", sni: "foo.myexample.com", want: false},
		{name: "no public-suffix check, as crypto/x509", certName: "*.com", sni: "example.com", want: true},
		// RFC 6125 section 6.4.1: case-insensitive.
		{name: "case-insensitive name", certName: "WWW.EXAMPLE.COM", sni: "www.example.com", want: true},
		{name: "case-insensitive wildcard", certName: "*.EXAMPLE.com", sni: "Foo.Example.Com", want: true},
		// Invalid SNIs and names.
		{name: "IP SNI", certName: "10.0.0.1", sni: "10.0.0.1", want: false},
		{name: "wildcard SNI", certName: "*.example.com", sni: "*.example.com", want: false},
		{name: "empty SNI", certName: "example.com", sni: "", want: false},
		{name: "empty name", certName: "", sni: "example.com", want: false},
		{name: "trailing-dot SNI", certName: "www.example.com", sni: "www.example.com.", want: false},
		{name: "wildcard over nothing", certName: "*.", sni: "a.", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CertificateCovers(tt.certName, tt.sni); got != tt.want {
				t.Errorf("CertificateCovers(%q, %q) = %v, want %v", tt.certName, tt.sni, got, tt.want)
			}
		})
	}
}
