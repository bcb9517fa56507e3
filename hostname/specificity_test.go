package hostname

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestCompare(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want int // sign: -1 means a is more specific
	}{
		// spec 003 "Where and how can you configure a hostname?".
		{name: `spec 003 "Where and how": sub.domain.example.com is more precise than www.example.com`, a: "sub.domain.example.com", b: "www.example.com", want: -1},
		{name: `spec 003 "Where and how": *.example.com is less precise than www.example.com`, a: "*.example.com", b: "www.example.com", want: 1},
		// spec 003 "Listener ordering" examples.
		{name: `spec 003 "Listener ordering" example 1: www.example.com before *.example.com`, a: "www.example.com", b: "*.example.com", want: -1},
		{name: `spec 003 "Listener ordering" example 2: *.example.com before *.com`, a: "*.example.com", b: "*.com", want: -1},
		{name: `spec 003 "Listener ordering" example 3: *.com before *`, a: "*.com", b: "*", want: -1},
		{name: `spec 003 "Listener ordering": no hostname is the * hostname, last`, a: "", b: "*.com", want: 1},
		// spec 003 "Listener ordering" pattern: exact, most specific wildcard, general wildcard.
		{name: "exact before a wildcard with more labels", a: "example.com", b: "*.a.b.c.example.com", want: -1},
		{name: "Gateway API ListenerSpec: *.foo.example.com before *.example.com", a: "*.foo.example.com", b: "*.example.com", want: -1},
		// Tie-breaks.
		{name: "same labels, more characters first", a: "*.longer.com", b: "*.short.com", want: -1},
		{name: "same labels and length, lexicographic", a: "*.aaa.com", b: "*.bbb.com", want: -1},
		{name: "precise lexicographic", a: "a.example.com", b: "b.example.com", want: -1},
		{name: "* before unset (more characters)", a: "*", b: "", want: -1},
		{name: "equal", a: "www.example.com", b: "www.example.com", want: 0},
		{name: "equal unset", a: "", b: "", want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sign(Compare(tt.a, tt.b)); got != tt.want {
				t.Errorf("Compare(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
			}
			if got := sign(Compare(tt.b, tt.a)); got != -tt.want {
				t.Errorf("Compare(%q, %q) = %d, want %d (antisymmetry)", tt.b, tt.a, got, -tt.want)
			}
			if got := MoreSpecific(tt.a, tt.b); got != (tt.want < 0) {
				t.Errorf("MoreSpecific(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want < 0)
			}
		})
	}
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

func TestSortBySpecificity(t *testing.T) {
	// spec 003 "Listener ordering": exact matches, most specific wildcard,
	// general wildcard (including no hostname).
	want := []string{
		"sub.domain.example.com",
		"www.example.com",
		"example.com",
		"*.foo.example.com",
		"*.example.com",
		"*.com",
		"*",
		"",
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		got := slices.Clone(want)
		r.Shuffle(len(got), func(i, j int) { got[i], got[j] = got[j], got[i] })
		SortBySpecificity(got)
		if !slices.Equal(got, want) {
			t.Fatalf("SortBySpecificity() = %q, want %q", got, want)
		}
	}
}

func TestMostSpecificMatch(t *testing.T) {
	listeners := []string{"", "*.com", "*.example.com", "www.example.com", "*.bar.example.com"}
	tests := []struct {
		name    string
		host    string
		matches func(pattern, host string) bool
		want    string
		wantOK  bool
	}{
		{name: `spec 003 "Listener ordering": exact match first`, host: "www.example.com", matches: MatchesHost, want: "www.example.com", wantOK: true},
		{name: `spec 003 "Listener ordering": most specific wildcard`, host: "foo.bar.example.com", matches: MatchesHost, want: "*.bar.example.com", wantOK: true},
		{name: `spec 003 "Listener ordering": then less specific wildcard`, host: "foo.example.com", matches: MatchesHost, want: "*.example.com", wantOK: true},
		{name: `spec 003 "Listener ordering": general wildcard`, host: "example.com", matches: MatchesHost, want: "*.com", wantOK: true},
		{name: `spec 003 "Listener ordering": no hostname last`, host: "example.org", matches: MatchesHost, want: "", wantOK: true},
		{name: "SNI matching uses one label: *.com cannot take a.b.com", host: "a.b.com", matches: MatchesSNI, want: "", wantOK: true},
		{name: "Host matching uses one or more labels: *.com takes a.b.com", host: "a.b.com", matches: MatchesHost, want: "*.com", wantOK: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := MostSpecificMatch(listeners, tt.host, tt.matches)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("MostSpecificMatch(%q, %q) = %q, %v; want %q, %v", listeners, tt.host, got, ok, tt.want, tt.wantOK)
			}
		})
	}
	if got, ok := MostSpecificMatch([]string{"a.example.com"}, "b.example.com", MatchesHost); ok {
		t.Errorf("MostSpecificMatch with no match = %q, true; want false", got)
	}
}
