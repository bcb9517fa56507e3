package serving

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/hostname"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// TestRouteIndexAgreesWithScan holds the index to the scan it replaces: for
// random listeners' routes and random names, as Host and as SNI, the same
// routes in the same order and the same hostname.
func TestRouteIndexAgreesWithScan(t *testing.T) {
	patterns := []string{"", "*", "*.com", "*.example.com", "*.a.example.com", "example.com", "a.example.com",
		"b.example.com", "x.a.example.com", "*.b.example.com", "other.org", "*.org"}
	names := []string{"example.com", "a.example.com", "b.example.com", "x.a.example.com", "y.a.example.com", "x.y.a.example.com",
		"z.b.example.com", "other.org", "com", "example.test", "A.Example.com", "a.example.com:8080", "a..example.com", ""}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 500 {
		routes := make([]*Route, 1+rng.IntN(3*indexFrom))
		for i := range routes {
			rr := &analyze.RouteResult{Route: &model.Route{ObjectMeta: model.RouteMeta{
				Namespace: fmt.Sprintf("ns%d", rng.IntN(3)), Name: fmt.Sprintf("r%d", rng.IntN(4)),
				CreationTimestamp: metav1.NewTime(time.Unix(int64(rng.IntN(3)), 0))}}}
			if i > 0 && rng.IntN(5) == 0 {
				rr = routes[rng.IntN(i)].Attachment.Route // a route attached through two parentRefs
			}
			var hs []string
			for range rng.IntN(4) {
				hs = append(hs, patterns[rng.IntN(len(patterns))])
			}
			routes[i] = &Route{Attachment: &analyze.Attachment{Route: rr, Hostnames: hs}, Hostnames: hs}
		}
		ix := newRouteIndex(routes)
		for _, name := range names {
			for _, m := range []struct {
				rule    string
				matches func(pattern, host string) bool
			}{{"Host", hostname.MatchesHost}, {"SNI", hostname.MatchesSNI}} {
				got, gotHost := ix.lookup(name, m.matches)
				want, wantHost := scanRoutes(routes, name, m.matches)
				if !slices.Equal(got, want) || gotHost != wantHost {
					t.Fatalf("round %d, %s %q: index %v %q, scan %v %q", round, m.rule, name, refs(got), gotHost, refs(want), wantHost)
				}
			}
		}
	}
}

func refs(routes []*Route) []string {
	var out []string
	for _, r := range routes {
		m := r.Attachment.Route.Route.ObjectMeta
		out = append(out, fmt.Sprintf("%s/%s@%d%v", m.Namespace, m.Name, m.CreationTimestamp.Unix(), r.Hostnames))
	}
	return out
}

// TestJoinedLessIsConcatenation: model.JoinedCompare orders as comparing the joined
// "namespace/name" strings does, for every pair of short strings over letters
// that sort before, after and as "/".
func TestJoinedLessIsConcatenation(t *testing.T) {
	var parts []string
	var grow func(prefix string)
	grow = func(prefix string) {
		parts = append(parts, prefix)
		if len(prefix) == 2 {
			return
		}
		for _, c := range []string{"-", "/", "a"} {
			grow(prefix + c)
		}
	}
	grow("")
	for _, a1 := range parts {
		for _, a2 := range parts[:5] {
			for _, b1 := range parts {
				for _, b2 := range parts[:5] {
					if got, want := model.JoinedCompare(a1, a2, b1, b2), strings.Compare(a1+"/"+a2, b1+"/"+b2); got != want {
						t.Fatalf("JoinedCompare(%q, %q, %q, %q) = %v, want %v", a1, a2, b1, b2, got, want)
					}
				}
			}
		}
	}
}
