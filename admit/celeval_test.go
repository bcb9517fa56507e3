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
