package admit

import (
	"regexp"
	"strings"
	"testing"

	metavalidation "k8s.io/apimachinery/pkg/api/validation"
)

// FuzzDNSMatchers: each of dnsPatterns' matchers matches exactly what its
// pattern's regexp matches, nameIsDNSSubdomain answers as the API server's
// name check, and namespaceIsDNSLabel as its namespace check.
//
//	go test -fuzz FuzzDNSMatchers -fuzztime 60s ./admit
func FuzzDNSMatchers(f *testing.F) {
	for _, s := range []string{"", "a", "-", "a-", "-a", "a.b", "a..b", ".a", "a.", "*.a", "*.", "*", "**.a", "*.*.a",
		"example.com", "r2.h0.g764.example.com", "A.b", "a_b", "a\n", "\na", "é.com", "a.b-c.d9", "9.9", "a.-b", "*.a-b.c",
		"Gateway", "gateway", "G", "9G", "G-", "G-9", "-G", "Http-Route2", "G.a",
		"app-449", "default", "kube-system", "a.b.c", strings.Repeat("n", 63), strings.Repeat("n", 64), "ns-", "_ns"} {
		f.Add(s)
	}
	res := map[string]*regexp.Regexp{}
	for p := range dnsPatterns {
		res[p] = regexp.MustCompile(p)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for p, re := range res {
			if got, want := dnsMatcher(p)(s), re.MatchString(s); got != want {
				t.Errorf("%q: the matcher of %s says %v, its regexp %v", s, p, got, want)
			}
		}
		for _, name := range []string{s, strings.Repeat("a", 253-len(s)%3) + s, strings.Repeat("a.", 127) + s} {
			if got, want := nameIsDNSSubdomain(name), len(metavalidation.NameIsDNSSubdomain(name, false)) == 0; got != want {
				t.Errorf("%q: nameIsDNSSubdomain says %v, NameIsDNSSubdomain %v", name, got, want)
			}
		}
		// namespaceIsDNSLabel must never admit what the API server's
		// namespace check refuses, and admits all it admits (or the memo
		// pays for each of them again).
		for _, ns := range []string{s, strings.Repeat("a", 63-len(s)%3) + s, strings.Repeat("a", 62) + s} {
			if got, want := namespaceIsDNSLabel(ns), len(metavalidation.ValidateNamespaceName(ns, false)) == 0; got != want {
				t.Errorf("%q: namespaceIsDNSLabel says %v, ValidateNamespaceName %v", ns, got, want)
			}
		}
	})
}

// TestDNSMatchersAreTheCRDs: the route hostnames and the object names the
// CRDs hold to these patterns are checked with the matchers (a CRD release
// that spelled them otherwise would leave them to the regexp package).
func TestDNSMatchersAreTheCRDs(t *testing.T) {
	crds, err := Builtin(Experimental)
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(crds)
	if err != nil {
		t.Fatal(err)
	}
	compile, err := a.kinds[GroupKindFor("HTTPRoute")].version("v1")
	if err != nil || compile == nil {
		t.Fatalf("HTTPRoute v1: %v", err)
	}
	v, err := compile()
	if err != nil || v.shortcut == nil {
		t.Fatalf("HTTPRoute v1 has no shortcut: %v", err)
	}
	spec := v.shortcut.root.properties["spec"]
	ref := spec.properties["parentRefs"].items
	for _, n := range []*fastNode{spec.properties["hostnames"].items, ref.properties["namespace"], ref.properties["kind"], ref.properties["sectionName"]} {
		if n.pattern == nil || n.match == nil {
			t.Errorf("a node of pattern %v is matched by its regexp", n.pattern)
		}
	}
}
