package admit_test

import (
	"encoding/json"
	"sort"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
)

// An Admitter of the experimental channel checks each object it admits
// against the standard channel too, by a walk that makes no object: it
// makes only the values a check reads (CEL rules, kube-openapi, unique list
// items). On every object of the corpus and every one-change variant of the
// fuzz seeds, in a first pass that fills the memos as it goes and a second
// that finds them filled, that walk shows
// admitted exactly what a walk making the whole object shows admitted, and
// nothing of the corpus the API server's code refuses.
func TestCheckOnlyWalkIsTheFullWalk(t *testing.T) {
	corpus := shortcutCorpus(t)
	// The API server's code answers for the corpus; the variants only hold
	// the two walks to each other (the full walk is held to that code by
	// TestShortcutAgreesWithAPIServerCode).
	oracle := len(corpus)
	for _, o := range fuzzSeeds(t) {
		corpus = append(corpus, oneChangeVariants(t, o)...)
	}
	checking, making := freshAdmitter(t, admit.Experimental), freshAdmitter(t, admit.Experimental)
	std := freshAdmitter(t, admit.Standard)
	var admitted, refused int
	for pass := range 2 {
		for i, o := range corpus {
			got, ok := admit.StandardShortcutAdmits(checking, o.apiVersion, o.kind, o.raw, true)
			if !ok {
				continue
			}
			want, _ := admit.StandardShortcutAdmits(making, o.apiVersion, o.kind, o.raw, false)
			if got != want {
				t.Errorf("pass %d, %s %s: the check-only walk admits: %v, the full walk: %v\n  object %.400s", pass, o.apiVersion, o.kind, got, want, o.raw)
			}
			if pass > 0 {
				continue
			}
			if !got {
				refused++
				continue
			}
			if admitted++; i >= oracle {
				continue
			}
			if v := admit.AdmitSlowly(std, o.apiVersion, o.kind, o.raw); !v.Admitted {
				t.Errorf("%s %s: the check-only walk admits what the API server's code refuses: %s\n  object %.400s", o.apiVersion, o.kind, v.Reason, o.raw)
			}
		}
	}
	t.Logf("check-only walk: %d objects shown admitted, %d not", admitted, refused)
	if admitted == 0 || refused == 0 {
		t.Error("the corpus does not reach both answers")
	}
}

// FuzzCheckOnlyWalk is TestCheckOnlyWalkIsTheFullWalk on objects changed one
// value at a time (see FuzzShortcutMutations).
//
//	go test -fuzz FuzzCheckOnlyWalk -fuzztime 120s ./admit
func FuzzCheckOnlyWalk(f *testing.F) {
	seeds := fuzzSeeds(f)
	addMutationSeeds(f, seeds)
	checking, making := freshAdmitter(f, admit.Experimental), freshAdmitter(f, admit.Experimental)
	std := freshAdmitter(f, admit.Standard)
	f.Fuzz(func(t *testing.T, seed uint16, path []byte, s string, n int64) {
		o, raw := mutated(t, seeds, seed, path, s, n)
		got, ok := admit.StandardShortcutAdmits(checking, o.apiVersion, o.kind, raw, true)
		if !ok {
			return
		}
		if want, _ := admit.StandardShortcutAdmits(making, o.apiVersion, o.kind, raw, false); got != want {
			t.Errorf("the check-only walk admits: %v, the full walk: %v\n  object %s", got, want, raw)
		}
		if got {
			if v := admit.AdmitSlowly(std, o.apiVersion, o.kind, raw); !v.Admitted {
				t.Errorf("the check-only walk admits what the API server's code refuses: %s\n  object %s", v.Reason, raw)
			}
		}
	})
}

// oneChangeVariants are o changed in one place each: every field removed in
// turn (required fields, defaults), every list's first item repeated
// (unique items and keys, maxItems) and every string emptied (minLength,
// patterns).
func oneChangeVariants(tb testing.TB, o object) []object {
	tb.Helper()
	var count func(v any) int
	count = func(v any) int {
		n := 1
		switch v := v.(type) {
		case map[string]any:
			for _, x := range v {
				n += count(x)
			}
		case []any:
			for _, x := range v {
				n += count(x)
			}
		}
		return n
	}
	var root any
	if err := json.Unmarshal(o.raw, &root); err != nil {
		return nil
	}
	var out []object
	for target := range count(root) {
		var v any
		if err := json.Unmarshal(o.raw, &v); err != nil {
			tb.Fatal(err)
		}
		seen := 0
		var change func(v any) (any, bool)
		change = func(v any) (any, bool) {
			if seen++; seen-1 == target {
				switch x := v.(type) {
				case []any:
					if len(x) > 0 {
						return append(x, x[0]), true
					}
				case string:
					return "", true
				}
				return nil, false // removed from its object
			}
			switch x := v.(type) {
			case map[string]any:
				keys := make([]string, 0, len(x))
				for k := range x {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				for _, k := range keys {
					c, keep := change(x[k])
					if !keep {
						delete(x, k)
						continue
					}
					x[k] = c
				}
			case []any:
				for i := range x {
					if c, keep := change(x[i]); keep {
						x[i] = c
					}
				}
			}
			return v, true
		}
		changed, _ := change(v)
		raw, err := json.Marshal(changed)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, object{o.apiVersion, o.kind, raw})
	}
	return out
}

// TestStandardVerdictThroughAdmit holds the standard channel's verdict as
// production reaches it to the API server's code: an experimental Admitter's
// Admit (twin record, the experimental walk's values reused where the
// channels' schemas are the same, the check-only walk elsewhere) marks an
// object it admits Standard exactly when the API server's code with the
// standard channel's CRDs refuses it, on the corpus and on every one-change
// variant of the fuzz seeds, with the memos filling as it goes.
func TestStandardVerdictThroughAdmit(t *testing.T) {
	objects := shortcutCorpus(t)
	for _, o := range fuzzSeeds(t) {
		objects = append(objects, oneChangeVariants(t, o)...)
	}
	exp, std := freshAdmitter(t, admit.Experimental), freshAdmitter(t, admit.Standard)
	var both, onlyExperimental int
	for pass := range 2 {
		for _, o := range objects {
			v := exp.Admit(o.apiVersion, o.kind, o.raw)
			if !v.Admitted {
				continue
			}
			want := admit.AdmitSlowly(std, o.apiVersion, o.kind, o.raw)
			if got := v.Standard == nil; got != want.Admitted {
				t.Errorf("pass %d, %s %s: Admit says the standard channel admits: %v, the API server's code: %v (%s)\n  object %.400s", pass, o.apiVersion, o.kind, got, want.Admitted, want.Reason, o.raw)
			}
			if pass > 0 {
				continue
			}
			if v.Standard == nil {
				both++
			} else {
				onlyExperimental++
			}
		}
	}
	t.Logf("%d objects admitted by both channels, %d by the experimental one only", both, onlyExperimental)
	if both == 0 || onlyExperimental == 0 {
		t.Error("the objects do not reach both answers")
	}
}
