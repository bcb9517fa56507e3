package admit_test

import (
	"reflect"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
)

// TestReleasedAdmitterAnswersAlike: an Admitter released once every use of
// it has ended (as the loader releases it after a load) remembers nothing,
// and answers a second load of the same objects exactly as it answered the
// first, and as it answers once it has remembered them again; a use that
// ends while another is in progress releases nothing.
func TestReleasedAdmitterAnswersAlike(t *testing.T) {
	corpus := shortcutCorpus(t)
	for _, ch := range []admit.Channel{admit.Standard, admit.Experimental} {
		t.Run(string(ch), func(t *testing.T) {
			a := freshAdmitter(t, ch)
			// The loader's way (AdmitReadOnly), then a caller's that owns
			// and changes the objects.
			load := func(readOnly bool) []admit.Verdict {
				out := make([]admit.Verdict, len(corpus))
				for i, o := range corpus {
					if readOnly {
						out[i] = a.AdmitReadOnly(o.apiVersion, o.kind, o.raw)
						continue
					}
					v := a.Admit(o.apiVersion, o.kind, o.raw)
					out[i] = v
					out[i].Object = deepCopy(v.Object)
					scribble(v.Object)
				}
				return out
			}
			first := a.Hold()
			want := load(true)
			load(true) // what repeats is now remembered
			if admit.Remembered(a) == 0 {
				t.Fatal("the memos remember nothing after two passes over the corpus: the test shows nothing")
			}
			other := a.Hold()
			first()
			first() // ending a use twice ends it once
			if admit.Remembered(a) == 0 {
				t.Fatal("a use that ended while another was in progress released the Admitter")
			}
			other()
			if n := admit.Remembered(a); n != 0 {
				t.Fatalf("the memos remember %d values after the last use ended", n)
			}
			for pass, readOnly := range []bool{true, true, false, false} {
				end := a.Hold()
				got := load(readOnly)
				end()
				for i, o := range corpus {
					if !reflect.DeepEqual(got[i], want[i]) {
						t.Errorf("load %d after a release (read only: %v), %s %s: the verdict differs from the first load's\n got %+v\nwant %+v\n  object %.400s", pass+2, readOnly, o.apiVersion, o.kind, got[i], want[i], o.raw)
					}
				}
				if n := admit.Remembered(a); n != 0 {
					t.Fatalf("load %d: the memos remember %d values after it ended", pass+2, n)
				}
			}
			// Release while nothing holds the Admitter, then answer again.
			a.Release()
			if got := load(true); !reflect.DeepEqual(got, want) {
				t.Error("after Release, the verdicts differ from the first load's")
			}
		})
	}
}

// deepCopy copies the maps and lists of a JSON value.
func deepCopy(v map[string]any) map[string]any {
	if v == nil {
		return nil
	}
	return copyValue(v).(map[string]any)
}

func copyValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = copyValue(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = copyValue(x)
		}
		return out
	}
	return v
}
