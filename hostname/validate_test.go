package hostname

import (
	"errors"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	label63 := strings.Repeat("a", 63)
	// 4 labels of 63 + 3 dots = 255; trim to build names at and over 253.
	long253 := label63 + "." + label63 + "." + label63 + "." + strings.Repeat("b", 61)
	tests := []struct {
		name    string
		h       string
		wantErr string // substring of the error; "" means valid
	}{
		// spec 003 "Hostname wildcards", list 1.
		{name: `spec 003 "Hostname wildcards" list 1 item 1: *.example.com is valid`, h: "*.example.com"},
		{name: `spec 003 "Hostname wildcards" list 1 item 2: f*.example.com is not valid`, h: "f*.example.com", wantErr: "misplaced wildcard"},
		{name: `spec 003 "Hostname wildcards" list 1 item 3: *oo.example.com is not valid`, h: "*oo.example.com", wantErr: "misplaced wildcard"},
		// spec 003 "Where and how can you configure a hostname?".
		{name: `spec 003 "Where and how": precise www.example.com`, h: "www.example.com"},
		{name: `spec 003 "Where and how": precise sub.domain.example.com`, h: "sub.domain.example.com"},
		// spec 003 warning: "IP addresses are never valid hostnames".
		{name: "spec 003 warning: IPv4 address", h: "10.0.0.1", wantErr: "is an IP address; Gateway API hostnames must be DNS names"},
		{name: "spec 003 warning: IPv4 address with port", h: "10.0.0.1:443", wantErr: "is an IP address"},
		{name: "spec 003 warning: IPv6 address", h: "::1", wantErr: "is an IP address"},
		{name: "spec 003 warning: IPv6 address full", h: "2001:db8::1", wantErr: "is an IP address"},
		{name: "spec 003 warning: bracketed IPv6", h: "[2001:db8::1]", wantErr: "is an IP address"},
		{name: "spec 003 warning: bracketed IPv6 with port", h: "[::1]:8443", wantErr: "is an IP address"},
		{name: "spec 003 warning: IPv4-mapped IPv6", h: "::ffff:10.0.0.1", wantErr: "is an IP address"},
		{name: "spec 003 warning: IPv6 with zone", h: "fe80::1%eth0", wantErr: "is an IP address"},
		{name: "IPv4 short form read as IP", h: "1.2.3", wantErr: "all-numeric label"},
		{name: "IPv4 with leading zeros read as IP", h: "010.0.0.1", wantErr: "all-numeric label"},
		{name: "single numeric label read as IP", h: "2130706433", wantErr: "all-numeric label"},
		{name: "wildcard over an IP", h: "*.10.0.0.1", wantErr: "all-numeric label"},
		{name: "numeric labels before a real TLD are fine", h: "10.0.0.1.nip.io"},
		{name: "leading digit label is fine (RFC 1123)", h: "3com.example.com"},
		{name: "hyphen inside label", h: "my-app.example.com"},
		{name: "punycode", h: "xn--bcher-kva.example"},
		{name: "single label", h: "localhost"},
		{name: "wildcard over TLD", h: "*.com"},
		// Wildcard placement.
		{name: "bare wildcard", h: "*", wantErr: "bare wildcard"},
		{name: "wildcard with nothing after it", h: "*.", wantErr: "nothing after the wildcard"},
		{name: "wildcard inside label", h: "foo*.example.com", wantErr: "misplaced wildcard"},
		{name: "wildcard in middle label", h: "foo.*.example.com", wantErr: "misplaced wildcard"},
		{name: "double wildcard label", h: "**.example.com", wantErr: "misplaced wildcard"},
		{name: "two wildcard labels", h: "*.*.example.com", wantErr: "misplaced wildcard"},
		{name: "wildcard at the end", h: "example.*", wantErr: "misplaced wildcard"},
		{name: "wildcard without dot", h: "*example.com", wantErr: "misplaced wildcard"},
		// Empty labels and dots.
		{name: "empty", h: "", wantErr: "is empty; leave the hostname field unset"},
		{name: "leading dot", h: ".example.com", wantErr: "empty label"},
		{name: "double dot", h: "foo..example.com", wantErr: "empty label"},
		{name: "only a dot", h: ".", wantErr: "empty label"},
		{name: "wildcard then empty label", h: "*..example.com", wantErr: "empty label"},
		{name: "trailing dot", h: "example.com.", wantErr: `without the trailing dot (use "example.com")`},
		{name: "wildcard with trailing dot", h: "*.example.com.", wantErr: "trailing dot"},
		// Characters.
		{name: "uppercase", h: "WWW.Example.com", wantErr: `must be lowercase (use "www.example.com")`},
		{name: "uppercase wildcard", h: "*.EXAMPLE.COM", wantErr: "must be lowercase"},
		{name: "underscore", h: "_acme.example.com", wantErr: `contains "_"`},
		{name: "space", h: "www example.com", wantErr: `contains " "`},
		{name: "non-ASCII", h: "bücher.example", wantErr: "non-ASCII character 'ü'"},
		{name: "invalid UTF-8", h: "a\xff.example.com", wantErr: "non-ASCII"},
		{name: "NUL byte", h: "a\x00.example.com", wantErr: "contains"},
		{name: "leading hyphen", h: "-foo.example.com", wantErr: "starts or ends with '-'"},
		{name: "trailing hyphen", h: "foo-.example.com", wantErr: "starts or ends with '-'"},
		{name: "hyphen-only label", h: "-.example.com", wantErr: "starts or ends with '-'"},
		{name: "port", h: "example.com:443", wantErr: `includes a port (":443")`},
		{name: "URL", h: "https://example.com/", wantErr: "is a URL"},
		{name: "colon not a port", h: "foo:bar.example.com", wantErr: `contains ":"`},
		{name: "slash", h: "example.com/path", wantErr: `contains "/"`},
		// Lengths.
		{name: "label of 63", h: label63 + ".example.com"},
		{name: "label of 64", h: label63 + "a.example.com", wantErr: "64 characters; a DNS label may have at most 63"},
		{name: "wildcard label of 64", h: "*." + label63 + "a.com", wantErr: "at most 63"},
		{name: "name of 253", h: long253},
		{name: "name of 254", h: long253 + "b", wantErr: "254 characters long; a hostname may have at most 253"},
		{name: "wildcard name of 253", h: "*." + long253[2:]},
		{name: "wildcard name of 254", h: "*." + long253[1:], wantErr: "at most 253"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(tt.h)
			checkValidationError(t, tt.h, err, tt.wantErr)
		})
	}
}

func TestValidatePrecise(t *testing.T) {
	tests := []struct {
		name    string
		h       string
		wantErr string
	}{
		{name: `spec 003 "Hostname Type details": PreciseHostname www.example.com`, h: "www.example.com"},
		{name: `spec 003 "Hostname Type details": PreciseHostname does not allow wildcards`, h: "*.example.com", wantErr: `is a wildcard; this field takes a precise hostname such as "www.example.com"`},
		{name: "bare wildcard", h: "*", wantErr: "bare wildcard"},
		{name: "misplaced wildcard", h: "f*.example.com", wantErr: "contains the wildcard character"},
		{name: "IP address", h: "192.168.0.1", wantErr: "is an IP address"},
		{name: "trailing dot", h: "www.example.com.", wantErr: "trailing dot"},
		{name: "empty", h: "", wantErr: "is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkValidationError(t, tt.h, ValidatePrecise(tt.h), tt.wantErr)
		})
	}
}

func checkValidationError(t *testing.T, h string, err error, wantErr string) {
	t.Helper()
	if wantErr == "" {
		if err != nil {
			t.Fatalf("Validate(%q) = %v, want nil", h, err)
		}
		return
	}
	if err == nil {
		t.Fatalf("Validate(%q) = nil, want error containing %q", h, wantErr)
	}
	if !strings.Contains(err.Error(), wantErr) {
		t.Errorf("Validate(%q) = %q, want it to contain %q", h, err, wantErr)
	}
	var verr *ValidationError
	if !errors.As(err, &verr) || verr.Hostname != h {
		t.Errorf("Validate(%q) error %#v is not a *ValidationError naming the hostname", h, err)
	}
	if !strings.HasPrefix(err.Error(), "hostname ") {
		t.Errorf("Validate(%q) = %q, want it to start with \"hostname \"", h, err)
	}
}

func TestIsWildcard(t *testing.T) {
	tests := []struct {
		h    string
		want bool
	}{
		{"*.example.com", true}, // spec 003 "Hostname wildcards" list 1 item 1
		{"*.com", true},         // spec 003 "Hostname wildcards" list 2 item 2
		{"www.example.com", false},
		{"*", false}, // match-all, not a wildcard label (see IsMatchAll)
		{"", false},
		{"f*.example.com", false},
		{"*oo.example.com", false},
	}
	for _, tt := range tests {
		if got := IsWildcard(tt.h); got != tt.want {
			t.Errorf("IsWildcard(%q) = %v, want %v", tt.h, got, tt.want)
		}
	}
}

func TestIsMatchAll(t *testing.T) {
	tests := []struct {
		h    string
		want bool
	}{
		{"", true},  // spec 003 "Listener": no hostname matches any hostname
		{"*", true}, // spec 003 "Hostname Intersection": the special wildcard `*`
		{"*.com", false},
		{"www.example.com", false},
		{" ", false},
	}
	for _, tt := range tests {
		if got := IsMatchAll(tt.h); got != tt.want {
			t.Errorf("IsMatchAll(%q) = %v, want %v", tt.h, got, tt.want)
		}
	}
}
