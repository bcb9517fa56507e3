package admit

import (
	"context"
	"fmt"

	"github.com/google/cel-go/common/types"
	"k8s.io/apiserver/pkg/cel/common"

	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
)

// ProverAndValidator decodes raw as the API server would and answers for it
// both whether the CEL prover shows every rule holds and whether the API
// server's CEL validator finds no error. ok is false when raw does not decode
// or its version has no rules.
func ProverAndValidator(a *Admitter, apiVersion, kind string, raw []byte) (proverHolds, validatorClean, ok bool) {
	gv, err := k8sschema.ParseGroupVersion(apiVersion)
	if err != nil {
		return false, false, false
	}
	compile, err := a.kinds[gv.WithKind(kind).GroupKind()].version(gv.Version)
	if err != nil || compile == nil {
		return false, false, false
	}
	v, err := compile()
	if err != nil || !v.hasRules {
		return false, false, false
	}
	u, rej := v.decode(raw)
	if rej != nil {
		return false, false, false
	}
	errs, _ := v.cel().Validate(context.Background(), nil, v.structural, u.Object, nil, celconfig.RuntimeCELCostBudget)
	return v.prover != nil && v.prover.holds(u.Object), len(errs) == 0, true
}

// AdmitSlowly is Admit with the API server's code alone, without the shortcut.
func AdmitSlowly(a *Admitter, apiVersion, kind string, raw []byte) Verdict {
	return a.admitWith(apiVersion, kind, raw, admitMode{})
}

// ShortcutAdmits reports whether the shortcut of the version serving
// apiVersion and kind shows raw admitted, and the object it computes.
func ShortcutAdmits(a *Admitter, apiVersion, kind string, raw []byte) (map[string]any, bool) {
	gv, err := k8sschema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, false
	}
	compile, err := a.kinds[gv.WithKind(kind).GroupKind()].version(gv.Version)
	if err != nil || compile == nil {
		return nil, false
	}
	v, err := compile()
	if err != nil || v.shortcut == nil {
		return nil, false
	}
	return v.shortcut.admit(raw, nil, nil, false)
}

// ForgetMemos empties the shortcut's memos, as at the start of a run.
func ForgetMemos(a *Admitter) {
	// Release forgets the memos of the versions compiled so far; the rest
	// start empty when compiled.
	a.Release()
}

// Remembered counts what the Admitter's memos remember: the values of the
// shortcut's memos and the metadata checks.
func Remembered(a *Admitter) int {
	a.mu.Lock()
	compiled := a.compiled
	a.mu.Unlock()
	n := 0
	for _, sv := range compiled {
		sc := sv.shortcut
		if sc == nil {
			continue
		}
		for _, m := range sc.memos {
			if t := m.table.Load(); t != nil {
				for i := range t.entries {
					if t.entries[i].Load() != nil {
						n++
					}
				}
			}
		}
		for _, m := range []*checkMemo{&sc.metaMemo.namespaces, &sc.metaMemo.labels, &sc.metaMemo.annotations} {
			if slots := m.slots.Load(); slots != nil {
				for i := range slots {
					if slots[i].Load() != nil {
						n++
					}
				}
			}
		}
	}
	if a.standard != nil {
		n += Remembered(a.standard)
	}
	return n
}

func GroupKindFor(kind string) k8sschema.GroupKind {
	return k8sschema.GroupKind{Group: "gateway.networking.k8s.io", Kind: kind}
}

// FastRuleCheck is what TestFastRulesAgreeWithPrograms finds for one object.
type FastRuleCheck struct {
	Evaluated, Walked int      // rule evaluations, and those fastRule could tell
	Mismatches        []string // where fastRule and the program disagree
}

// CheckFastRules decodes raw as the API server would and evaluates every rule
// that applies to it both with its program and with its fastRule.
func CheckFastRules(a *Admitter, apiVersion, kind string, raw []byte) (FastRuleCheck, bool) {
	var out FastRuleCheck
	gv, err := k8sschema.ParseGroupVersion(apiVersion)
	if err != nil {
		return out, false
	}
	compile, err := a.kinds[gv.WithKind(kind).GroupKind()].version(gv.Version)
	if err != nil || compile == nil {
		return out, false
	}
	v, err := compile()
	if err != nil || v.shortcut == nil {
		return out, false
	}
	u, rej := v.decode(raw)
	if rej != nil {
		return out, false
	}
	delete(u.Object, "status")
	var walk func(n *fastNode, x any, path string)
	walk = func(node *fastNode, x any, path string) {
		if node == nil || x == nil {
			return
		}
		n := node.compiledRules()
		for i, r := range n.rules {
			if r.Program == nil {
				continue
			}
			out.Evaluated++
			result, details, err := r.Program.ContextEval(context.Background(), &selfActivation{self: common.UnstructuredToVal(x, n.adaptor)})
			f := n.fast[i]
			if f == nil {
				continue
			}
			holds, bound, ok := f.holds(x, n.adaptor)
			if f.pairs != nil {
				// A specialized pair rule tells exactly what its
				// compiled closures tell.
				if h, b, k := f.holdsCompiled(x, n.adaptor); h != holds || b != bound || k != ok {
					out.Mismatches = append(out.Mismatches, fmt.Sprintf("%s rule %q: specialized (%v, %d, %v), compiled closures (%v, %d, %v)", path, n.texts[i], holds, bound, ok, h, b, k))
				}
			}
			if !ok {
				continue
			}
			out.Walked++
			programHolds := err == nil && result == types.True
			if holds != programHolds {
				out.Mismatches = append(out.Mismatches, fmt.Sprintf("%s rule %q: fastRule %v, program %v (%v)", path, n.texts[i], holds, result, err))
			}
			if details != nil && details.ActualCost() != nil && *details.ActualCost() > bound {
				out.Mismatches = append(out.Mismatches, fmt.Sprintf("%s rule %q: actual cost %d above the bound %d", path, n.texts[i], *details.ActualCost(), bound))
			}
		}
		switch x := x.(type) {
		case map[string]any:
			for k, c := range x {
				if node.additional != nil {
					walk(node.additional, c, path+"["+k+"]")
				} else {
					walk(node.properties[k], c, path+"."+k)
				}
			}
		case []any:
			for i, c := range x {
				walk(node.items, c, fmt.Sprintf("%s[%d]", path, i))
			}
		}
	}
	walk(v.shortcut.root, u.Object, "")
	return out, true
}

// compiledRules are n's rules, compiled; empty when it has none.
func (n *fastNode) compiledRules() *compiledRules {
	if n.rules == nil {
		return &compiledRules{proves: true}
	}
	return n.rules.get()
}

// StandardShortcutAdmits reports whether the shortcut of the standard
// channel's version serving apiVersion and kind, in the experimental
// Admitter a (the check-only one of admitWith), shows raw admitted, by a
// walk that only checks or by one that makes the whole object; ok is false
// when that version has no shortcut. A caller compares the two walks in two
// Admitters, so that the walks do not share the shortcut's memos.
func StandardShortcutAdmits(a *Admitter, apiVersion, kind string, raw []byte, checkOnly bool) (admitted, ok bool) {
	if a.standard == nil {
		return false, false
	}
	sv, _ := a.standard.served(apiVersion, kind)
	if sv == nil || sv.shortcut == nil {
		return false, false
	}
	if !sv.shortcut.checkOnly {
		panic("the standard channel's shortcut makes objects")
	}
	_, admitted = sv.shortcut.walk(&walk{r: jsonReader{b: raw}, shared: true, checkOnly: checkOnly})
	return admitted, true
}

// IsIPAgrees evaluates isIP(s) with the rule closures' native isIP and with
// the rule's cel-go program (the Kubernetes library's function), on the
// TLSRoute's hostnames rule `self.all(h, !isIP(h))`.
func IsIPAgrees(a *Admitter, s string) (closure, program bool, err error) {
	compile, err := a.kinds[GroupKindFor("TLSRoute")].version("v1")
	if err != nil || compile == nil {
		return false, false, fmt.Errorf("TLSRoute v1: %v", err)
	}
	v, err := compile()
	if err != nil || v.shortcut == nil {
		return false, false, fmt.Errorf("TLSRoute v1 has no shortcut: %v", err)
	}
	n := v.shortcut.root.properties["spec"].properties["hostnames"].compiledRules()
	for i, text := range n.texts {
		if text != "self.all(h, !isIP(h))" {
			continue
		}
		if n.fast[i] == nil {
			return false, false, fmt.Errorf("rule %q has no closure", text)
		}
		list := []any{s}
		holds, _, ok := n.fast[i].holds(list, n.adaptor)
		if !ok {
			return false, false, fmt.Errorf("the closure of %q cannot tell %q", text, s)
		}
		result, _, err := n.rules[i].Program.ContextEval(context.Background(), &selfActivation{self: common.UnstructuredToVal(list, n.adaptor)})
		if err != nil {
			return false, false, err
		}
		return !holds, result != types.True, nil
	}
	return false, false, fmt.Errorf("no isIP rule on the TLSRoute's hostnames")
}
