package admit

import (
	"fmt"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

// TestLazyRulesAreTheEagerOnes holds the rules compiled on first use
// (nodeRules) to those cel.NewValidator compiles when it is built, for every
// rule of every served version of both channels: the same nodes, each rule
// kept for the prover exactly when the validator evaluates it on create (it
// compiles, and is no transition rule), with the same compile error, cost
// estimate, cardinality and program, and the same fastRule.
func TestLazyRulesAreTheEagerOnes(t *testing.T) {
	rules := 0
	for _, ch := range []Channel{Standard, Experimental} {
		crds, err := Builtin(ch)
		if err != nil {
			t.Fatal(err)
		}
		defs, err := crds.Definitions()
		if err != nil {
			t.Fatal(err)
		}
		for _, def := range defs {
			for _, ver := range def.Spec.Versions {
				if !ver.Served {
					continue
				}
				v, err := compileVersion(def, ver.Name)
				if err != nil {
					t.Fatal(err)
				}
				where := fmt.Sprintf("%s %s/%s", ch, def.Spec.Names.Kind, ver.Name)
				if !v.hasRules {
					continue
				}
				if v.prover == nil {
					t.Fatalf("%s: rules, and no prover", where)
				}
				rules += compareEagerRules(t, where, v.structural, model.SchemaDeclType(v.structural, true), v.prover.root)
			}
		}
	}
	if rules == 0 {
		t.Fatal("no rule compared")
	}
	t.Logf("%d rules compared", rules)
}

// compareEagerRules compiles the rules of s and of every node under it as
// cel.NewValidator does, compares them with lazy's, and returns how many it
// compared.
func compareEagerRules(t *testing.T, where string, s *schema.Structural, declType *apiservercel.DeclType, lazy *proverNode) int {
	t.Helper()
	n := 0
	if len(s.XValidations) > 0 {
		if lazy == nil || lazy.rules == nil {
			t.Errorf("%s: %d rules, none compiled lazily", where, len(s.XValidations))
			return 0
		}
		eager, err := cel.Compile(s, declType, celconfig.PerCallLimit, environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()), cel.StoredExpressionsEnvLoader())
		c := lazy.rules.get()
		proves := err == nil
		var kept []cel.CompilationResult
		var texts []string
		for i, r := range eager {
			switch {
			case r.Error != nil:
				proves = false
			case r.UsesOldSelf && s.XValidations[i].OptionalOldSelf != nil && *s.XValidations[i].OptionalOldSelf:
				proves = false
			case r.UsesOldSelf:
			default:
				kept = append(kept, r)
				texts = append(texts, s.XValidations[i].Rule)
			}
		}
		if c.proves != proves {
			t.Errorf("%s: lazily compiled rules prove %v, eagerly %v (%v)", where, c.proves, proves, err)
		}
		if proves {
			if len(c.rules) != len(kept) {
				t.Fatalf("%s: %d rules kept lazily, %d eagerly", where, len(c.rules), len(kept))
			}
			fast := compileFastRules(kept, texts, declType, newProverAdaptor(s))
			for i, e := range kept {
				l := c.rules[i]
				if c.texts[i] != texts[i] || (l.Error == nil) != (e.Error == nil) || l.UsesOldSelf != e.UsesOldSelf ||
					l.MaxCost != e.MaxCost || l.MaxCardinality != e.MaxCardinality || (l.Program == nil) != (e.Program == nil) ||
					(l.MessageExpression == nil) != (e.MessageExpression == nil) || l.MessageExpressionMaxCost != e.MessageExpressionMaxCost ||
					l.NormalizedRuleFieldPath != e.NormalizedRuleFieldPath {
					t.Errorf("%s rule %q: lazily %+v, eagerly %+v", where, texts[i], l, e)
				}
				if (c.fast[i] == nil) != (fast[i] == nil) || c.fast[i] != nil && (c.fast[i].pairs == nil) != (fast[i].pairs == nil) {
					t.Errorf("%s rule %q: lazily a fastRule %v, eagerly %v", where, texts[i], c.fast[i] != nil, fast[i] != nil)
				}
				n++
			}
		}
	} else if lazy != nil && lazy.rules != nil {
		t.Errorf("%s: no rules, and rules compiled lazily", where)
	}
	var elemType *apiservercel.DeclType
	if declType != nil {
		elemType = declType.ElemType
	}
	child := func(name string) *proverNode {
		if lazy == nil {
			return nil
		}
		switch name {
		case "[]":
			return lazy.items
		case "{}":
			return lazy.additional
		}
		return lazy.properties[name]
	}
	if s.Items != nil {
		n += compareEagerRules(t, where+"[]", s.Items, elemType, child("[]"))
	}
	for name := range s.Properties {
		prop := s.Properties[name]
		var fieldType *apiservercel.DeclType
		if escaped, ok := apiservercel.Escape(name); ok {
			if declType == nil {
				continue
			}
			f, ok := declType.Fields[escaped]
			if !ok {
				continue
			}
			fieldType = f.Type
		} else if fieldType = model.SchemaDeclType(&prop, prop.XEmbeddedResource); fieldType == nil {
			continue
		}
		n += compareEagerRules(t, where+"."+name, &prop, fieldType, child(name))
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		n += compareEagerRules(t, where+"{}", s.AdditionalProperties.Structural, elemType, child("{}"))
	}
	return n
}
