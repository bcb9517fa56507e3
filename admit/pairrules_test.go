package admit

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/cel-go/common/types"
	"k8s.io/apiserver/pkg/cel/common"
)

// refsRule is one specialized pair rule of a built-in CRD.
type refsRule struct {
	where string
	node  *compiledRules
	i     int
}

// pairRulesOf are the rules of a's CRDs (and its standard channel's) that
// pairRuleOf specialized.
func pairRulesOf(t testing.TB, a *Admitter) []refsRule {
	t.Helper()
	var out []refsRule
	var walk func(n *fastNode, where string)
	walk = func(n *fastNode, where string) {
		if n == nil {
			return
		}
		c := n.compiledRules()
		for i, f := range c.fast {
			if f != nil && f.pairs != nil {
				out = append(out, refsRule{where, c, i})
			}
		}
		for k, c := range n.properties {
			walk(c, where+"."+k)
		}
		walk(n.items, where+"[]")
		walk(n.additional, where+"{}")
	}
	for gk, k := range a.kinds {
		versions, err := k.versions()
		if err != nil {
			t.Fatal(err)
		}
		for name, compile := range versions {
			v, err := compile()
			if err != nil {
				t.Fatal(err)
			}
			if v.shortcut != nil {
				walk(v.shortcut.root, fmt.Sprintf("%s %s/%s", a.crds.Origin, gk.Kind, name))
			}
		}
	}
	if a.standard != nil {
		out = append(out, pairRulesOf(t, a.standard)...)
	}
	return out
}

func builtinAdmitter(t testing.TB) *Admitter {
	t.Helper()
	crds, err := Builtin(Experimental)
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(crds)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// randomParentRefs is a list of parent references whose fields collide
// often: few values per field, the empty string and 0, absent fields (even
// required ones), values of another type, long names (whose charges are
// large), and now and then an item that is not an object.
func randomParentRefs(r *rand.Rand) []any {
	n := r.IntN(6)
	if r.IntN(20) == 0 {
		n = 16 + r.IntN(17) // up to maxItems, to reach the per-call limit
	}
	long := strings.Repeat("x", 200)
	pick := func(vals ...any) any { return vals[r.IntN(len(vals))] }
	list := make([]any, n)
	for i := range list {
		if r.IntN(60) == 0 {
			list[i] = pick(nil, "ref", int64(1), []any{})
			continue
		}
		m := map[string]any{}
		// absent: 1 in absent; bad: a value of another type, 1 in 40.
		set := func(k string, absent int, bad any, vals ...any) {
			switch {
			case r.IntN(absent) == 0:
			case r.IntN(40) == 0:
				m[k] = bad
			default:
				m[k] = pick(vals...)
			}
		}
		set("group", 30, nil, "gateway.networking.k8s.io", "", "example.com")
		set("kind", 30, int64(1), "Gateway", "Service", "")
		set("name", 30, int64(3), "gw", "gw2", long)
		set("namespace", 2, true, "", "infra", "app")
		set("sectionName", 2, int64(0), "", "https", "http", long)
		set("port", 2, "443", int64(0), int64(443), int64(80))
		if i > 0 && r.IntN(2) == 0 {
			// The same parent as an earlier reference, as a route that
			// names two listeners of one Gateway does.
			if prev, ok := list[r.IntN(i)].(map[string]any); ok {
				for _, k := range []string{"group", "kind", "name", "namespace"} {
					if v, ok := prev[k]; ok {
						m[k] = v
					} else {
						delete(m, k)
					}
				}
			}
		}
		list[i] = m
	}
	return list
}

// randomListeners is a list of listeners whose names, ports, protocols and
// hostnames collide often, with absent and mistyped fields.
func randomListeners(r *rand.Rand) []any {
	n := r.IntN(6)
	if r.IntN(10) == 0 {
		n = 16 + r.IntN(49) // up to maxItems (64)
	}
	long := strings.Repeat("h", 200) + ".example.com"
	pick := func(vals ...any) any { return vals[r.IntN(len(vals))] }
	list := make([]any, n)
	for i := range list {
		if r.IntN(80) == 0 {
			list[i] = pick(nil, "listener", []any{})
			continue
		}
		m := map[string]any{}
		set := func(k string, absent int, bad any, vals ...any) {
			switch {
			case r.IntN(absent) == 0:
			case r.IntN(40) == 0:
				m[k] = bad
			default:
				m[k] = pick(vals...)
			}
		}
		set("name", 30, int64(1), "http", "https", "l"+fmt.Sprint(i), "l"+fmt.Sprint(i), "")
		set("port", 30, "443", int64(80), int64(443), int64(8443))
		set("protocol", 30, true, "HTTP", "HTTPS", "TLS")
		set("hostname", 2, int64(0), "a.example.com", "*.example.com", "", long)
		list[i] = m
	}
	return list
}

// randomLists are the lists of each family of pair rules.
var randomLists = map[string]func(*rand.Rand) []any{
	"parentRefs": randomParentRefs,
	"listeners":  randomListeners,
}

// TestPairRulesAreTheirFastRules: the specialized pair rules
// tell exactly what the rules' compiled closures tell, with the same bound,
// and give up exactly where they do; and where they tell, the rules'
// programs agree and cost no more than the bound.
func TestPairRulesAreTheirFastRules(t *testing.T) {
	a := builtinAdmitter(t)
	rules := pairRulesOf(t, a)
	specialized := map[*pairRule]int{}
	for _, rr := range rules {
		specialized[rr.node.fast[rr.i].pairs]++
	}
	// Every rule of the table is specialized somewhere in the built-in
	// CRDs.
	for text, pr := range pairRules {
		if specialized[pr] == 0 {
			t.Errorf("rule %s is specialized nowhere", text)
		}
		if randomLists[pr.family] == nil {
			t.Errorf("no lists for the rules of %s", pr.family)
		}
	}
	if t.Failed() {
		return
	}
	iterations := 3000
	if testing.Short() {
		iterations = 300
	}
	r := rand.New(rand.NewPCG(1, 2))
	told, gaveUp, held := map[string]int{}, map[string]int{}, map[string]int{}
	for range iterations {
		lists := map[string][]any{}
		for family, random := range randomLists {
			lists[family] = random(r)
		}
		for _, rr := range rules {
			n, f := rr.node, rr.node.fast[rr.i]
			list := lists[f.pairs.family]
			if msg := comparePairRule(n, rr.i, list); msg != "" {
				t.Fatalf("%s rule %q: %s\n  list %v", rr.where, n.texts[rr.i], msg, list)
			}
			h, _, ok := f.holds(list, n.adaptor)
			switch {
			case !ok:
				gaveUp[f.pairs.family]++
			case h:
				told[f.pairs.family]++
				held[f.pairs.family]++
			default:
				told[f.pairs.family]++
			}
		}
	}
	for family := range randomLists {
		t.Logf("%s: %d evaluations told (%d held), %d given up", family, told[family], held[family], gaveUp[family])
		if told[family] < gaveUp[family] || held[family] == 0 || held[family] > told[family]*9/10 {
			t.Errorf("the lists do not exercise the rules of %s: %d told, %d held, %d given up", family, told[family], held[family], gaveUp[family])
		}
	}
}

// comparePairRule evaluates rule i of n on list with its
// specialization, its compiled closures and its program, and says how they
// disagree ("" when they do not).
func comparePairRule(n *compiledRules, i int, list []any) string {
	f := n.fast[i]
	h, c, ok := f.pairs.holds(list)
	hc, cc, okc := f.holdsCompiled(list, n.adaptor)
	if h != hc || c != cc || ok != okc {
		return fmt.Sprintf("specialized (holds %v, bound %d, told %v), compiled closures (holds %v, bound %d, told %v)", h, c, ok, hc, cc, okc)
	}
	if !ok {
		return ""
	}
	result, details, err := n.rules[i].Program.ContextEval(context.Background(), &selfActivation{self: common.UnstructuredToVal(list, n.adaptor)})
	if programHolds := err == nil && result == types.True; programHolds != h {
		return fmt.Sprintf("specialized holds %v, program %v (%v)", h, result, err)
	}
	if details == nil || details.ActualCost() == nil || *details.ActualCost() > c {
		return fmt.Sprintf("program's actual cost above the bound %d (%v)", c, details)
	}
	return ""
}

// FuzzPairRules holds the specialized pair rules to their compiled closures
// and programs on lists the fuzzer makes.
//
//	go test -fuzz FuzzPairRules -fuzztime 60s ./admit
func FuzzPairRules(f *testing.F) {
	for i := range 8 {
		f.Add(uint64(i), uint64(i*7+1))
	}
	a := builtinAdmitter(f)
	rules := pairRulesOf(f, a)
	f.Fuzz(func(t *testing.T, s1, s2 uint64) {
		for _, rr := range rules {
			list := randomLists[rr.node.fast[rr.i].pairs.family](rand.New(rand.NewPCG(s1, s2)))
			if msg := comparePairRule(rr.node, rr.i, list); msg != "" {
				t.Fatalf("%s rule %q: %s\n  list %v", rr.where, rr.node.texts[rr.i], msg, list)
			}
		}
	})
}
