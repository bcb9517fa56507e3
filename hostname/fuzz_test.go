package hostname

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// gatewayHostnamePattern is the validation pattern of the Gateway API
// Hostname type (apis/v1/shared_types.go), used as an independent oracle.
var gatewayHostnamePattern = regexp.MustCompile(`^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)

var fuzzSeeds = []string{
	"", "*", "*.", "*.com", "*.example.com", "*.foo.example.com", "www.example.com",
	"sub.domain.example.com", "example.com", "foo*.example.com", "*oo.example.com",
	"10.0.0.1", "::1", "[::1]:80", "1.2.3", "WWW.Example.COM", "example.com.", "a..b",
	"-a.com", "a-.com", "xn--bcher-kva.example", "www.example.com:8080", "bücher.de",
	strings.Repeat("a", 63) + ".com", strings.Repeat("a", 64) + ".com",
}

func FuzzValidate(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		err := Validate(h)
		if err != nil {
			var verr *ValidationError
			if !errors.As(err, &verr) || verr.Hostname != h || verr.Reason == "" {
				t.Fatalf("Validate(%q) = %#v, want a *ValidationError naming the hostname with a reason", h, err)
			}
		}
		// Oracle: the Gateway API pattern, plus the length limits and the
		// IP rule that the pattern does not express.
		want := gatewayHostnamePattern.MatchString(h) && len(h) <= maxHostnameLength &&
			maxLabel(h) <= maxLabelLength && !allDigits(h[strings.LastIndexByte(h, '.')+1:])
		if got := err == nil; got != want {
			t.Fatalf("Validate(%q) = %v, oracle says valid = %v", h, err, want)
		}
		if err != nil {
			return
		}
		if IsMatchAll(h) {
			t.Fatalf("Validate(%q) = nil for a match-all value", h)
		}
		if (ValidatePrecise(h) == nil) == IsWildcard(h) {
			t.Fatalf("ValidatePrecise(%q) = %v, but IsWildcard = %v", h, ValidatePrecise(h), IsWildcard(h))
		}
		if strings.Count(h, "*") > 1 || (strings.Contains(h, "*") && !IsWildcard(h)) {
			t.Fatalf("Validate(%q) = nil with a misplaced wildcard", h)
		}
		// A valid hostname intersects with itself and with match-all.
		if got, ok := Intersect(h, h); !ok || got != h {
			t.Fatalf("Intersect(%q, itself) = %q, %v", h, got, ok)
		}
		if got, ok := Intersect("", h); !ok || got != h {
			t.Fatalf("Intersect(\"\", %q) = %q, %v", h, got, ok)
		}
		// Uppercase is invalid but matches the same.
		if up := strings.ToUpper(h); up != h {
			if Validate(up) == nil {
				t.Fatalf("Validate(%q) = nil for uppercase", up)
			}
			if got, ok := Intersect(up, h); !ok || got != h {
				t.Fatalf("Intersect(%q, %q) = %q, %v; want case-insensitive match", up, h, got, ok)
			}
		}
	})
}

func maxLabel(h string) int {
	n := 0
	for _, l := range strings.Split(h, ".") {
		n = max(n, len(l))
	}
	return n
}

func FuzzIntersect(f *testing.F) {
	for i, a := range fuzzSeeds {
		for _, b := range fuzzSeeds[i%5:] {
			f.Add(a, b, "www.example.com")
		}
	}
	f.Add("*.com", "*.example.com", "foo.bar.example.com")
	f.Add("*.example.com", "sub.domain.example.com", "sub.domain.example.com:443")
	f.Fuzz(func(t *testing.T, a, b, host string) {
		got, ok := Intersect(a, b)
		rgot, rok := Intersect(b, a)
		// The fast path for pre-validated sides agrees wherever it may be used.
		if (IsMatchAll(a) || Validate(a) == nil) && (IsMatchAll(b) || Validate(b) == nil) {
			want, fast := IntersectAll(a, []string{b, a}), IntersectAllValid(a, []string{b, a})
			if !slices.Equal(want, fast) {
				t.Fatalf("IntersectAllValid(%q, [%q %q]) = %q, IntersectAll = %q", a, b, a, fast, want)
			}
		}
		// Symmetric: spec 003's rules do not depend on which side is the Listener.
		if got != rgot || ok != rok {
			t.Fatalf("Intersect(%q, %q) = %q, %v but Intersect(%q, %q) = %q, %v", a, b, got, ok, b, a, rgot, rok)
		}
		if ok != Overlap(a, b) {
			t.Fatalf("Overlap(%q, %q) disagrees with Intersect", a, b)
		}
		if !ok {
			if got != "" {
				t.Fatalf("Intersect(%q, %q) = %q, false; want empty result", a, b, got)
			}
		} else if IsMatchAll(got) {
			if !IsMatchAll(a) || !IsMatchAll(b) {
				t.Fatalf("Intersect(%q, %q) = %q, match-all, but a side is not", a, b, got)
			}
		} else {
			if err := Validate(got); err != nil {
				t.Fatalf("Intersect(%q, %q) = %q, which is invalid: %v", a, b, got, err)
			}
			// The result matches both sides: take a concrete host it matches.
			concrete := got
			if IsWildcard(got) {
				concrete = "x" + got[1:]
			}
			if !MatchesHost(got, concrete) || !MatchesHost(a, concrete) || !MatchesHost(b, concrete) {
				t.Fatalf("Intersect(%q, %q) = %q, but %q does not match all of them", a, b, got, concrete)
			}
			// The result is one of the sides, lowercased, and the more specific one.
			la, lb := toLowerASCII(a), toLowerASCII(b)
			if got != la && got != lb {
				t.Fatalf("Intersect(%q, %q) = %q is neither side", a, b, got)
			}
			if MoreSpecific(la, got) || MoreSpecific(lb, got) {
				t.Fatalf("Intersect(%q, %q) = %q is less specific than a side", a, b, got)
			}
		}
		// Exactness: a Host matched by both sides is matched by the
		// intersection, and vice versa (the intersection is the set
		// intersection of the names each side matches).
		both := MatchesHost(a, host) && MatchesHost(b, host)
		if both && (!ok || !MatchesHost(got, host)) {
			t.Fatalf("MatchesHost(%q) and (%q) on %q, but Intersect = %q, %v", a, b, host, got, ok)
		}
		if ok && MatchesHost(got, host) && !both {
			t.Fatalf("Intersect(%q, %q) = %q matches %q, but a side does not", a, b, got, host)
		}
		// SNI matching (one label) never accepts what Host matching (one or more) rejects.
		if MatchesSNI(a, host) && !MatchesHost(a, host) {
			t.Fatalf("MatchesSNI(%q, %q) but not MatchesHost", a, host)
		}
	})
}

func FuzzCertificateCovers(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, "www.example.com")
		f.Add("*.example.com", s)
	}
	f.Add("*.example.com", "foo.bar.example.com")
	f.Add("f*.example.com", "foo.example.com")
	f.Fuzz(func(t *testing.T, name, sni string) {
		covers := CertificateCovers(name, sni)
		lname, lsni := toLowerASCII(name), toLowerASCII(sni)
		if covers != CertificateCovers(strings.ToUpper(name), strings.ToUpper(sni)) && isASCII(name) && isASCII(sni) {
			t.Fatalf("CertificateCovers(%q, %q) is case-sensitive", name, sni)
		}
		if !covers {
			if IsMatchAll(lname) || lname != lsni || ValidatePrecise(lsni) != nil {
				return
			}
			t.Fatalf("CertificateCovers(%q, %q) = false for equal precise names", name, sni)
		}
		if ValidatePrecise(lsni) != nil {
			t.Fatalf("CertificateCovers(%q, %q) = true for an invalid SNI", name, sni)
		}
		if strings.Contains(lname[min(len(lname), 1):], "*") {
			t.Fatalf("CertificateCovers(%q, %q) = true with a misplaced wildcard", name, sni)
		}
		if !IsWildcard(lname) {
			if lname != lsni {
				t.Fatalf("CertificateCovers(%q, %q) = true for different precise names", name, sni)
			}
			return
		}
		// A wildcard covers exactly one label (RFC 6125 section 6.4.3)...
		if strings.Count(lname, ".") != strings.Count(lsni, ".") {
			t.Fatalf("CertificateCovers(%q, %q) = true across a different number of labels", name, sni)
		}
		// ...which the one-or-more-labels Host rule also matches, and the SNI rule agrees.
		if !MatchesHost(lname, lsni) || !MatchesSNI(lname, lsni) {
			t.Fatalf("CertificateCovers(%q, %q) = true, but MatchesHost/MatchesSNI disagree", name, sni)
		}
	})
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
