package admit_test

import (
	"reflect"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
)

// The shortcut is the oracle-checked fast path of admission: on every object
// of the corpus, and on both channels, Admit gives exactly the verdict the API
// server's code alone gives (admitted or not, the message, the field errors,
// the defaulted object, the standard channel's answer). On the corpus it also
// shows most admitted objects admitted itself, so that it is the path taken.
func TestShortcutAgreesWithAPIServerCode(t *testing.T) {
	corpus := shortcutCorpus(t)
	for _, ch := range []admit.Channel{admit.Standard, admit.Experimental} {
		t.Run(string(ch), func(t *testing.T) {
			a := freshAdmitter(t, ch)
			var admitted, shortcut int
			wants := make([]admit.Verdict, len(corpus))
			for i, o := range corpus {
				wants[i] = admit.AdmitSlowly(a, o.apiVersion, o.kind, o.raw)
			}
			// Twice: the second time every repeated value is memoized.
			for pass := range 2 {
				for i, o := range corpus {
					got := a.Admit(o.apiVersion, o.kind, o.raw)
					want := wants[i]
					if !reflect.DeepEqual(got, want) {
						t.Errorf("pass %d, %s %s: the verdict differs from the API server code's\n got %+v\nwant %+v\n  object %.400s", pass, o.apiVersion, o.kind, got, want, o.raw)
					}
					obj, ok := admit.ShortcutAdmits(a, o.apiVersion, o.kind, o.raw)
					if ok && (!want.Admitted || !reflect.DeepEqual(obj, want.Object)) {
						t.Errorf("pass %d, %s %s: the shortcut admits as\n %v\nthe API server code's verdict is %+v\n  object %.400s", pass, o.apiVersion, o.kind, obj, want, o.raw)
					}
					if pass == 0 && want.Admitted {
						admitted++
						if ok {
							shortcut++
						}
					}
				}
			}
			t.Logf("%d objects, %d admitted, %d of them shown admitted by the shortcut", len(corpus), admitted, shortcut)
			if shortcut < admitted*9/10 {
				t.Errorf("the shortcut shows only %d of %d admitted objects admitted", shortcut, admitted)
			}
		})
	}
}

// freshAdmitter is an Admitter of its own, with nothing memoized.
func freshAdmitter(tb testing.TB, ch admit.Channel) *admit.Admitter {
	tb.Helper()
	crds, err := admit.Builtin(ch)
	if err != nil {
		tb.Fatal(err)
	}
	a, err := admit.New(crds)
	if err != nil {
		tb.Fatal(err)
	}
	return a
}
