package admit_test

import (
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
)

// fastRule is the oracle-checked fast path of CEL evaluation: on every value
// of the corpus that a rule applies to, when it can tell, it tells what the
// rule's program tells, and the program's actual cost stays within the MaxCost
// the shortcut accounts in its place. On the corpus it can tell for most
// evaluations, so that it is the path taken.
func TestFastRulesAgreeWithPrograms(t *testing.T) {
	corpus := shortcutCorpus(t)
	for _, ch := range []admit.Channel{admit.Standard, admit.Experimental} {
		t.Run(string(ch), func(t *testing.T) {
			a := builtin(t, ch)
			var evaluated, walked int
			for _, o := range corpus {
				c, ok := admit.CheckFastRules(a, o.apiVersion, o.kind, o.raw)
				if !ok {
					continue
				}
				evaluated += c.Evaluated
				walked += c.Walked
				for _, m := range c.Mismatches {
					t.Errorf("%s %s: %s\n  object %.300s", o.apiVersion, o.kind, m, o.raw)
				}
			}
			t.Logf("%d rule evaluations, %d of them told by fastRule", evaluated, walked)
			if walked < evaluated*9/10 {
				t.Errorf("fastRule tells only %d of %d evaluations", walked, evaluated)
			}
		})
	}
}

// On objects changed one value at a time (see FuzzShortcutMutations),
// fastRule never tells otherwise than the program, and its charge bounds the
// program's actual cost.
//
//	go test -fuzz FuzzFastRules -fuzztime 120s ./admit
func FuzzFastRules(f *testing.F) {
	seeds := fuzzSeeds(f)
	addMutationSeeds(f, seeds)
	a := builtin(f, admit.Experimental)
	f.Fuzz(func(t *testing.T, seed uint16, path []byte, s string, n int64) {
		o, raw := mutated(t, seeds, seed, path, s, n)
		c, _ := admit.CheckFastRules(a, o.apiVersion, o.kind, raw)
		for _, m := range c.Mismatches {
			t.Errorf("%s\n  object %s", m, raw)
		}
	})
}

// The CEL closures' isIP is the Kubernetes library's: an IPv4 or IPv6
// address, without a zone, not an IPv4-mapped IPv6 address.
func TestIsIPIsTheLibrarys(t *testing.T) {
	a := freshAdmitter(t, admit.Experimental)
	for _, s := range isIPCases {
		closure, program, err := admit.IsIPAgrees(a, s)
		if err != nil {
			t.Fatal(err)
		}
		if closure != program {
			t.Errorf("isIP(%q): the closure says %v, the library %v", s, closure, program)
		}
	}
}

var isIPCases = []string{
	"", "1.2.3.4", "255.255.255.255", "256.1.1.1", "1.2.3", "1.2.3.4.5", "01.2.3.4", "1.2.3.04", " 1.2.3.4", "1.2.3.4 ",
	"::", "::1", "fe80::1", "fe80::1%eth0", "::ffff:1.2.3.4", "::ffff:102:304", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8:9",
	"[::1]", "2001:db8::/32", "1.2.3.4/8", "a.example.com", "*.example.com", "localhost", "0x7f.0.0.1", "1e1.2.3.4",
	"::1.2.3.4", "64:ff9b::1.2.3.4", "FE80::A", "1.2.3.4%0",
}

// FuzzIsIP holds the closures' isIP to the library's on any string.
//
//	go test -fuzz FuzzIsIP -fuzztime 60s ./admit
func FuzzIsIP(f *testing.F) {
	for _, s := range isIPCases {
		f.Add(s)
	}
	a := freshAdmitter(f, admit.Experimental)
	f.Fuzz(func(t *testing.T, s string) {
		closure, program, err := admit.IsIPAgrees(a, s)
		if err != nil {
			t.Skip(err) // a string the closure leaves to the program
		}
		if closure != program {
			t.Errorf("isIP(%q): the closure says %v, the library %v", s, closure, program)
		}
	})
}
