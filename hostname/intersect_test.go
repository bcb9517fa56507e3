package hostname

import (
	"slices"
	"testing"
)

func TestIntersect(t *testing.T) {
	tests := []struct {
		name     string
		listener string
		route    string
		want     string
		wantOK   bool
	}{
		// spec 003 "Hostname Intersection", examples table, rows 1-9.
		{name: `spec 003 "Hostname Intersection" row 1: precise hostnames intersect`, listener: "www.example.com", route: "www.example.com", want: "www.example.com", wantOK: true},
		{name: `spec 003 "Hostname Intersection" row 2: precise hostname intersects with equivalent wildcard`, listener: "*.example.com", route: "www.example.com", want: "www.example.com", wantOK: true},
		{name: `spec 003 "Hostname Intersection" row 3: wildcard can match multiple DNS labels`, listener: "*.example.com", route: "sub.domain.example.com", want: "sub.domain.example.com", wantOK: true},
		{name: `spec 003 "Hostname Intersection" row 4: wildcard on Route matches precise Listener`, listener: "www.example.com", route: "*.example.com", want: "www.example.com", wantOK: true},
		{name: `spec 003 "Hostname Intersection" row 5: multiple label match in the other direction`, listener: "sub.domain.example.com", route: "*.example.com", want: "sub.domain.example.com", wantOK: true},
		{name: `spec 003 "Hostname Intersection" row 6: identical wildcards`, listener: "*.example.com", route: "*.example.com", want: "*.example.com", wantOK: true},
		{name: `spec 003 "Hostname Intersection" row 7: less specific wildcard with more specific wildcard`, listener: "*.com", route: "*.example.com", want: "*.example.com", wantOK: true},
		{name: `spec 003 "Hostname Intersection" row 8: match anything with precise`, listener: "*", route: "www.example.com", want: "www.example.com", wantOK: true},
		{name: `spec 003 "Hostname Intersection" row 9: match anything with match anything`, listener: "*", route: "*", want: "*", wantOK: true},
		// spec 003 "Hostname wildcards", list 2.
		{name: `spec 003 "Hostname wildcards" list 2: *.example.com does not match example.com`, listener: "*.example.com", route: "example.com"},
		{name: `spec 003 "Hostname wildcards" list 2: *.com matches example.com`, listener: "*.com", route: "example.com", want: "example.com", wantOK: true},
		{name: `spec 003 "Hostname wildcards" list 2: *.com matches www.example.com`, listener: "*.com", route: "www.example.com", want: "www.example.com", wantOK: true},
		// spec 003 "Hostname Intersection" rules, beyond the table.
		{name: "rule 1: different precise hostnames do not intersect", listener: "www.example.com", route: "foo.example.com"},
		{name: "rule 2: wildcard does not match a different domain", listener: "*.example.com", route: "www.example.org"},
		{name: "rule 2: wildcard matches on label boundaries only", listener: "*.ample.com", route: "www.example.com"},
		{name: "rule 3: route wildcard does not match its own domain", listener: "example.com", route: "*.example.com"},
		{name: "rule 4: disjoint wildcards", listener: "*.example.com", route: "*.example.org"},
		{name: "rule 4: wildcards overlap on label boundaries only", listener: "*.ample.com", route: "*.example.com"},
		{name: "rule 4: more specific wildcard on the listener", listener: "*.foo.example.com", route: "*.example.com", want: "*.foo.example.com", wantOK: true},
		{name: "rule 4: sibling wildcards", listener: "*.a.example.com", route: "*.b.example.com"},
		{name: "rule 5: * matches a wildcard", listener: "*", route: "*.example.com", want: "*.example.com", wantOK: true},
		{name: "rule 6: no listener hostname matches a precise route", listener: "", route: "www.example.com", want: "www.example.com", wantOK: true},
		{name: "rule 6: no route hostname inherits the listener's wildcard", listener: "*.example.com", route: "", want: "*.example.com", wantOK: true},
		{name: "rule 6: neither has a hostname", listener: "", route: "", want: "", wantOK: true},
		{name: "rule 6: unset and * give *", listener: "", route: "*", want: "*", wantOK: true},
		// Case and invalid input.
		{name: "case-insensitive, lowercase result", listener: "*.Example.COM", route: "WWW.example.com", want: "www.example.com", wantOK: true},
		{name: "IP addresses never intersect", listener: "", route: "10.0.0.1"},
		{name: "IP addresses never intersect, even equal", listener: "10.0.0.1", route: "10.0.0.1"},
		{name: "invalid wildcard never intersects", listener: "f*.example.com", route: "foo.example.com"},
		{name: "invalid route never intersects a match-all listener", listener: "", route: "*example.com"},
		{name: "trailing dot is invalid", listener: "www.example.com", route: "www.example.com."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Intersect(tt.listener, tt.route)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("Intersect(%q, %q) = %q, %v; want %q, %v", tt.listener, tt.route, got, ok, tt.want, tt.wantOK)
			}
			// The rules are symmetric (spec 003 row 5: "works in the other direction as well").
			got, ok = Intersect(tt.route, tt.listener)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("Intersect(%q, %q) = %q, %v; want %q, %v (symmetry)", tt.route, tt.listener, got, ok, tt.want, tt.wantOK)
			}
			if ok != Overlap(tt.listener, tt.route) {
				t.Errorf("Overlap(%q, %q) = %v, want %v", tt.listener, tt.route, !ok, ok)
			}
		})
	}
}

func TestIntersectAll(t *testing.T) {
	tests := []struct {
		name     string
		listener string
		route    []string
		want     []string
	}{
		{name: `spec 003 "Expected match examples" rows 15-16: unset route inherits the listener wildcard`, listener: "*.example.com", route: nil, want: []string{"*.example.com"}},
		{name: `spec 003 "Routes": hostnames are an OR`, listener: "*.example.com", route: []string{"www.example.com", "www.example.org", "*.com"}, want: []string{"www.example.com", "*.example.com"}},
		{name: `spec 003 "Automatic Provisioning of DNS records" example`, listener: "*.example.com", route: []string{"foo.example.com", "bar.example.com", "baz.quux.example.com"}, want: []string{"foo.example.com", "bar.example.com", "baz.quux.example.com"}},
		{name: "neither has a hostname: any hostname", listener: "", route: nil, want: []string{""}},
		{name: "empty slice is unset", listener: "", route: []string{}, want: []string{""}},
		{name: "listener precise, route unset", listener: "www.example.com", route: nil, want: []string{"www.example.com"}},
		{name: "listener unset, route hostnames kept", listener: "", route: []string{"b.example.com", "a.example.com"}, want: []string{"b.example.com", "a.example.com"}},
		{name: "nothing intersects: nil", listener: "www.example.com", route: []string{"foo.example.com", "*.example.org"}, want: nil},
		{name: "deduplicated in route order", listener: "*.example.com", route: []string{"a.example.com", "*.com", "A.example.com", "*.example.com", "a.example.com"}, want: []string{"a.example.com", "*.example.com"}},
		{name: "invalid route hostnames are ignored", listener: "", route: []string{"10.0.0.1", "www.example.com"}, want: []string{"www.example.com"}},
		{name: "invalid listener: nil", listener: "10.0.0.1", route: nil, want: nil},
		{name: `spec 003 "Hostname Intersection" row 9 through IntersectAll`, listener: "*", route: []string{"*"}, want: []string{"*"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := IntersectAll(tt.listener, tt.route)
			if !slices.Equal(got, tt.want) || (got == nil) != (tt.want == nil) {
				t.Errorf("IntersectAll(%q, %q) = %#v, want %#v", tt.listener, tt.route, got, tt.want)
			}
		})
	}
}

func TestIntersectAllDeduplicatesLongLists(t *testing.T) {
	var route []string
	for i := range 40 {
		route = append(route, string(rune('a'+i%20))+".example.com")
	}
	got := IntersectAll("*.example.com", route)
	if len(got) != 20 {
		t.Fatalf("IntersectAll over 40 hostnames with 20 distinct = %d hostnames, want 20: %q", len(got), got)
	}
	for i, h := range got {
		if want := string(rune('a'+i)) + ".example.com"; h != want {
			t.Errorf("IntersectAll()[%d] = %q, want %q", i, h, want)
		}
	}
}

func TestOverlap(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want bool
	}{
		{name: "listeners *.example.com and foo.example.com overlap", a: "*.example.com", b: "foo.example.com", want: true},
		{name: "listeners *.example.com and *.com overlap", a: "*.example.com", b: "*.com", want: true},
		{name: "listeners *.example.com and example.com do not overlap", a: "*.example.com", b: "example.com"},
		{name: "unset overlaps everything", a: "", b: "*.example.com", want: true},
		{name: "disjoint precise", a: "a.example.com", b: "b.example.com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Overlap(tt.a, tt.b); got != tt.want {
				t.Errorf("Overlap(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

func TestDistinct(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want bool
	}{
		{name: `spec 003 "General notes": equal hostnames are not unique`, a: "www.example.com", b: "www.example.com", want: false},
		{name: "equal wildcards conflict", a: "*.example.com", b: "*.example.com", want: false},
		{name: "case differences do not make hostnames distinct", a: "WWW.example.com", b: "www.example.com", want: false},
		{name: "two unset hostnames conflict", a: "", b: "", want: false},
		{name: "unset and * are the same value", a: "", b: "*", want: false},
		{name: "overlapping but distinct: wildcard and precise", a: "*.example.com", b: "www.example.com", want: true},
		{name: "overlapping but distinct: nested wildcards", a: "*.example.com", b: "*.com", want: true},
		{name: "unset and a hostname are distinct", a: "", b: "www.example.com", want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Distinct(tt.a, tt.b); got != tt.want {
				t.Errorf("Distinct(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
			if got := Distinct(tt.b, tt.a); got != tt.want {
				t.Errorf("Distinct(%q, %q) = %v, want %v (symmetry)", tt.b, tt.a, got, tt.want)
			}
		})
	}
}

// TestIntersectDoesNotAllocate keeps the hot path of analysis cheap: the
// analyzer intersects every Listener with every Route attached to it.
func TestIntersectDoesNotAllocate(t *testing.T) {
	allocs := testing.AllocsPerRun(100, func() {
		Intersect("*.example.com", "foo.bar.example.com")
		Intersect("*.com", "*.example.com")
		MatchesHost("*.example.com", "foo.example.com:8443")
		MatchesSNI("*.example.com", "foo.example.com")
		CertificateCovers("*.example.com", "foo.example.com")
	})
	if allocs != 0 {
		t.Errorf("Intersect and matching on valid lowercase input allocate %v times, want 0", allocs)
	}
}
