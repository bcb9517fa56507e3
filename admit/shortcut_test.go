package admit_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
)

// The shortcut is the oracle-checked fast path of admission: on every object
// of the corpus, and on both channels, Admit gives exactly the verdict the API
// server's code alone gives (admitted or not, the message, the field errors,
// the defaulted object, the standard channel's answer), and so does
// AdmitReadOnly, whose objects share the memos' values: the objects Admit
// hands out are changed after each pass, which must change no later verdict.
// On the corpus it also shows most admitted objects admitted itself, so that
// it is the path taken.
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
			// Again and again: after the first pass every repeated value is
			// memoized, by a walk for a caller that owns the object or for
			// one that only reads it.
			for pass := range 4 {
				readOnly := pass%2 == 1
				for i, o := range corpus {
					admitFn := a.Admit
					if readOnly {
						admitFn = a.AdmitReadOnly
					}
					got := admitFn(o.apiVersion, o.kind, o.raw)
					want := wants[i]
					if !reflect.DeepEqual(got, want) {
						t.Errorf("pass %d (read only: %v), %s %s: the verdict differs from the API server code's\n got %+v\nwant %+v\n  object %.400s", pass, readOnly, o.apiVersion, o.kind, got, want, o.raw)
					}
					if !readOnly {
						scribble(got.Object)
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

// scribble changes every value of an object, as a caller that owns it may.
func scribble(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			scribble(x)
			v[k] = "scribbled"
		}
	case []any:
		for i, x := range v {
			scribble(x)
			v[i] = "scribbled"
		}
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

// On arbitrary input the shortcut never changes a verdict: Admit and
// AdmitReadOnly (which take it, in file mode, with the standard channel's
// check) answer exactly as the API server's code alone answers, memos filled
// by everything fuzzed before, and by callers that changed the objects Admit
// gave them.
//
//	go test -fuzz FuzzShortcut -fuzztime 120s ./admit
func FuzzShortcut(f *testing.F) {
	kinds := fuzzKinds()
	for _, o := range fuzzSeeds(f) {
		for i, k := range kinds {
			if k.apiVersion == o.apiVersion && k.kind == o.kind {
				f.Add(o.raw, uint8(i))
			}
		}
	}
	a := freshAdmitter(f, admit.Experimental)
	f.Fuzz(func(t *testing.T, raw []byte, k uint8) {
		kind := kinds[int(k)%len(kinds)]
		readOnly := a.AdmitReadOnly(kind.apiVersion, kind.kind, raw)
		got := a.Admit(kind.apiVersion, kind.kind, raw)
		want := admit.AdmitSlowly(a, kind.apiVersion, kind.kind, raw)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("the verdict differs from the API server code's\n got %+v\nwant %+v", got, want)
		}
		if !reflect.DeepEqual(readOnly, want) {
			t.Errorf("AdmitReadOnly's verdict differs from the API server code's\n got %+v\nwant %+v", readOnly, want)
		}
		scribble(got.Object)
	})
}

func fuzzKinds() []struct{ apiVersion, kind string } {
	return []struct{ apiVersion, kind string }{
		{v1, "Gateway"}, {v1, "HTTPRoute"}, {v1, "GRPCRoute"}, {v1, "TLSRoute"}, {v1, "ListenerSet"},
		{v1, "BackendTLSPolicy"}, {v1, "GatewayClass"}, {"gateway.networking.k8s.io/v1beta1", "ReferenceGrant"},
		{"gateway.networking.k8s.io/v1alpha2", "TCPRoute"}, {"gateway.networking.k8s.io/v1alpha2", "TLSRoute"},
		{"gateway.networking.x-k8s.io/v1alpha1", "XMesh"},
	}
}

// fuzzSeeds are objects of every kind: the odd objects, a few generated ones
// and the CEL rules' cases.
func fuzzSeeds(tb testing.TB) []object {
	tb.Helper()
	a := builtin(tb, admit.Experimental)
	seeds := append([]object{}, oddObjects...)
	seen := map[string]int{}
	for _, o := range generatedObjects(tb, a, generate.Sizes[0].Config) {
		if seen[o.kind] < 3 {
			seen[o.kind]++
			seeds = append(seeds, o)
		}
	}
	crds, err := admit.Builtin(admit.Experimental)
	if err != nil {
		tb.Fatal(err)
	}
	return append(seeds, celRuleObjects(tb, crds)...)
}

// FuzzShortcutMutations is FuzzShortcut on valid objects changed one value at
// a time (set to a string, number, boolean, null or empty value, removed,
// added, an item repeated): it reaches the checks, defaults and rules that
// random bytes seldom reach.
//
//	go test -fuzz FuzzShortcutMutations -fuzztime 120s ./admit
func FuzzShortcutMutations(f *testing.F) {
	seeds := fuzzSeeds(f)
	addMutationSeeds(f, seeds)
	a := freshAdmitter(f, admit.Experimental)
	f.Fuzz(func(t *testing.T, seed uint16, path []byte, s string, n int64) {
		o, raw := mutated(t, seeds, seed, path, s, n)
		got := a.Admit(o.apiVersion, o.kind, raw)
		want := admit.AdmitSlowly(a, o.apiVersion, o.kind, raw)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("the verdict differs from the API server code's\n got %+v\nwant %+v\n  object %s", got, want, raw)
		}
	})
}

// addMutationSeeds gives a fuzz test of mutated objects (mutated) one seed
// per object of seeds.
func addMutationSeeds(f *testing.F, seeds []object) {
	for i := range seeds {
		f.Add(uint16(i), []byte{byte(i), 1, 2, 0}, "a.example.com", int64(i))
	}
}

// mutated is the object of seeds that seed picks and its JSON changed where
// path leads (mutate); the test is skipped when the object cannot be changed.
func mutated(t *testing.T, seeds []object, seed uint16, path []byte, s string, n int64) (object, []byte) {
	t.Helper()
	o := seeds[int(seed)%len(seeds)]
	var v any
	if err := json.Unmarshal(o.raw, &v); err != nil {
		t.Skip()
	}
	raw, err := json.Marshal(mutate(v, path, s, n))
	if err != nil {
		t.Skip()
	}
	return o, raw
}

// mutate changes the value of v that path leads to: each byte picks a field or
// an item, the last one what to do.
func mutate(v any, path []byte, s string, n int64) any {
	if len(path) <= 1 {
		op := byte(0)
		if len(path) == 1 {
			op = path[0]
		}
		switch op % 9 {
		case 0:
			return s
		case 1:
			return n
		case 2:
			return n%2 == 0
		case 3:
			return nil
		case 4:
			return []any{}
		case 5:
			return map[string]any{}
		case 6:
			if l, ok := v.([]any); ok && len(l) > 0 {
				return append(l, l[uint64(n)%uint64(len(l))])
			}
		case 7:
			if m, ok := v.(map[string]any); ok {
				m[s] = n
				return m
			}
		case 8:
			if str, ok := v.(string); ok {
				return str + s
			}
		}
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			return mutate(x, path[len(path)-1:], s, n)
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		k := keys[int(path[0])%len(keys)]
		if path[0] >= 250 {
			delete(x, k)
			return x
		}
		x[k] = mutate(x[k], path[1:], s, n)
	case []any:
		if len(x) == 0 {
			return mutate(x, path[len(path)-1:], s, n)
		}
		i := int(path[0]) % len(x)
		x[i] = mutate(x[i], path[1:], s, n)
	default:
		return mutate(x, path[len(path)-1:], s, n)
	}
	return v
}

// The runtime cost budget is the API server's: an object whose rules cost
// more than the per-object budget, or one rule more than the per-call limit,
// is refused by the API server's code, and Admit refuses it alike, memoized
// values included (a value met many times costs every time it is met).
// Widgets hold groups of names, each group checked by a rule that matches
// every name against a long pattern once per name of the group: a group of n
// names costs about 700 n², and a widget the sum of its groups.
func TestShortcutKeepsTheCostBudget(t *testing.T) {
	pattern := "^([a-z0-9]{1,64}|" + strings.Repeat("z", 380) + ")$"
	crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              groups:
                type: array
                maxItems: 100
                items:
                  type: object
                  properties:
                    names:
                      type: array
                      maxItems: 1000
                      items: {type: string, maxLength: 64}
                      x-kubernetes-validations:
                      - rule: "self.all(x, self.all(y, y.matches('` + pattern + `')))"
`
	var def apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict([]byte(crd), &def); err != nil {
		t.Fatal(err)
	}
	a, err := admit.New(admit.FromObjects("test", []apiextensionsv1.CustomResourceDefinition{def}))
	if err != nil {
		t.Fatal(err)
	}
	widget := func(groups, names int) []byte {
		var list []string
		for i := range names {
			list = append(list, fmt.Sprintf("%064d", i))
		}
		group, _ := json.Marshal(map[string]any{"names": list})
		gs := strings.Repeat(string(group)+",", groups)
		return []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"a"},"spec":{"groups":[` + strings.TrimSuffix(gs, ",") + `]}}`)
	}
	var admitted, shortcut, overBudget, overLimit int
	for _, c := range []struct{ groups, names int }{
		{1, 10}, {1, 30}, {1, 36}, {1, 37}, {1, 38}, {1, 40},
		{3, 36}, {8, 36}, {10, 36}, {11, 36}, {12, 36}, {13, 36}, {20, 36}, {30, 20}, {40, 20},
	} {
		raw := widget(c.groups, c.names)
		want := admit.AdmitSlowly(a, "example.com/v1", "Widget", raw)
		// Twice: the second time every group is memoized.
		for range 2 {
			if got := a.Admit("example.com/v1", "Widget", raw); !reflect.DeepEqual(got, want) {
				t.Fatalf("%d groups of %d names: the verdict differs from the API server code's\n got %.300s\nwant %.300s", c.groups, c.names, got.Reason, want.Reason)
			}
			if _, ok := admit.ShortcutAdmits(a, "example.com/v1", "Widget", raw); ok {
				shortcut++
			}
		}
		switch {
		case want.Admitted:
			admitted++
		case strings.Contains(want.Reason, "running out of cost budget"):
			overBudget++
		case strings.Contains(want.Reason, "call cost exceeds limit"):
			overLimit++
		default:
			t.Errorf("%d groups of %d names: refused for another reason: %.300s", c.groups, c.names, want.Reason)
		}
		t.Logf("%d groups of %d names: admitted %v %.120s", c.groups, c.names, want.Admitted, want.Reason)
	}
	t.Logf("%d admitted (%d times by the shortcut), %d over the budget, %d over the per-call limit", admitted, shortcut, overBudget, overLimit)
	if shortcut == 0 || overBudget == 0 || overLimit == 0 {
		t.Error("the cases do not reach both limits and the shortcut")
	}
}
