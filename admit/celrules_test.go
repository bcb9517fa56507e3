package admit

import (
	"context"
	"fmt"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/apiserver/pkg/cel/environment"
)

// TestLazyRulesAreTheEagerOnes holds the rules compiled on first use
// (nodeRules) to those cel.NewValidator compiles when it is built, for every
// rule of every served version of both channels: the same nodes, each rule
// kept for the prover exactly when the validator evaluates it on create (it
// compiles, and is no transition rule), with the same compile error, cost
// estimate and program, and the same fastRule.
func TestLazyRulesAreTheEagerOnes(t *testing.T) {
	rules := 0
	eachServedVersion(t, func(where string, v *servedVersion) {
		if !v.hasRules {
			return
		}
		if v.prover == nil {
			t.Fatalf("%s: rules, and no prover", where)
		}
		rules += compareEagerRules(t, where, v.structural, model.SchemaDeclType(v.structural, true), v.prover.root)
	})
	if rules == 0 {
		t.Fatal("no rule compared")
	}
	t.Logf("%d rules compared", rules)
}

// eachServedVersion compiles every served version of every built-in CRD of
// both channels and calls f with it and where it is ("Standard
// HTTPRoute/v1").
func eachServedVersion(t *testing.T, f func(where string, v *servedVersion)) {
	t.Helper()
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
				f(fmt.Sprintf("%s %s/%s", ch, def.Spec.Names.Kind, ver.Name), v)
			}
		}
	}
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
				// What the prover and the shortcut read of a rule's
				// compilation; they leave its message expression, its
				// cardinality and its field path to the validator.
				if c.texts[i] != texts[i] || (l.Error == nil) != (e.Error == nil) || l.UsesOldSelf != e.UsesOldSelf ||
					l.MaxCost != e.MaxCost || (l.Program == nil) != (e.Program == nil) {
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
		fieldType, ok := propertyDeclType(declType, name, &prop)
		if !ok {
			continue
		}
		n += compareEagerRules(t, where+"."+name, &prop, fieldType, child(name))
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		n += compareEagerRules(t, where+"{}", s.AdditionalProperties.Structural, elemType, child("{}"))
	}
	return n
}

// TestRulesCompileAsTheAPIServerCompiles holds compileNodeRules, which
// type-checks each rule once, to the same node's rules compiled by the API
// server's cel.Compile (compileNodeRulesByAPIServer), on rules of every kind
// it tells apart: rules that hold or fail, one that does not compile, one
// that is no bool, a transition rule, an empty rule, a rule with a message
// expression, and a node with a rule whose oldSelf is optional. Besides what
// TestLazyRulesAreTheEagerOnes compares, each program must evaluate each
// value to the same result at the same cost.
func TestRulesCompileAsTheAPIServerCompiles(t *testing.T) {
	str := func(maxLength int64) schema.Structural {
		return schema.Structural{Generic: schema.Generic{Type: "string"}, ValueValidation: &schema.ValueValidation{MaxLength: &maxLength}}
	}
	optional := true
	node := func(rules ...apiextensionsv1.ValidationRule) *schema.Structural {
		return &schema.Structural{
			Generic: schema.Generic{Type: "object"},
			Properties: map[string]schema.Structural{
				"a": str(1000),
				"b": {Generic: schema.Generic{Type: "integer"}},
				"l": {Generic: schema.Generic{Type: "array"}, Items: &schema.Structural{Generic: schema.Generic{Type: "string"}, ValueValidation: &schema.ValueValidation{MaxLength: new(int64(8))}},
					ValueValidation: &schema.ValueValidation{MaxItems: new(int64(16))}},
			},
			ValidationExtensions: schema.ValidationExtensions{XValidations: rules},
		}
	}
	holding := []apiextensionsv1.ValidationRule{
		{Rule: "self.a.size() <= 1000"},
		{Rule: "!has(self.b) || self.b >= 0", Message: "b must not be negative"},
		{Rule: "!has(self.l) || self.l.all(x, x.startsWith('x'))", MessageExpression: "'bad: ' + self.a"},
		{Rule: "   "},
		{Rule: "self.a == oldSelf.a"},
		{Rule: "!has(self.l) || self.l.size() == 0 || self.l.exists_one(x, x == 'xa')"},
		// Library functions, charged by the cost tracker's estimator.
		{Rule: "self.a.lowerAscii() == self.a && (!has(self.l) || self.l.isSorted()) && !isIP(self.a)"},
	}
	cases := map[string]*schema.Structural{
		"rules that compile":         node(holding...),
		"a rule with an error":       node(append(holding[:2:2], apiextensionsv1.ValidationRule{Rule: "self.nope > 1"})...),
		"a rule that is no bool":     node(apiextensionsv1.ValidationRule{Rule: "self.a"}),
		"a transition rule only":     node(apiextensionsv1.ValidationRule{Rule: "self.b >= oldSelf.b"}),
		"an optional oldSelf":        node(holding[0], apiextensionsv1.ValidationRule{Rule: "!oldSelf.hasValue() || self.a == oldSelf.value().a", OptionalOldSelf: &optional}),
		"an optional oldSelf unread": node(holding[0], apiextensionsv1.ValidationRule{Rule: "self.b < 100", OptionalOldSelf: &optional}),
	}
	values := []map[string]any{
		{"a": "x"},
		{"a": "xyz", "b": int64(3), "l": []any{"xa", "xb"}},
		{"a": "", "b": int64(-1)},
		{"a": "q", "l": []any{"xa", "ya"}},
		{"a": "q", "l": []any{"xa", "xa"}},
		{"a": "q", "b": int64(200), "l": []any{}},
		{"a": strings.Repeat("x", 1000), "l": []any{"xa", "xb", "xc", "xd", "xe", "xf", "xg", "xh", "xi", "xj", "xk", "xl", "xm", "xn", "xo", "xp"}},
	}
	for name, s := range cases {
		declType := model.SchemaDeclType(s, true)
		once := compileNodeRules(s, declType)
		api := compileNodeRulesByAPIServer(s, declType)
		if once.proves != api.proves || len(once.rules) != len(api.rules) || fmt.Sprint(once.texts) != fmt.Sprint(api.texts) {
			t.Errorf("%s: compiled once proves %v with %q, by cel.Compile %v with %q", name, once.proves, once.texts, api.proves, api.texts)
			continue
		}
		for i, o := range once.rules {
			a := api.rules[i]
			if (o.Error == nil) != (a.Error == nil) || o.UsesOldSelf != a.UsesOldSelf || o.MaxCost != a.MaxCost || (o.Program == nil) != (a.Program == nil) {
				t.Errorf("%s rule %q: compiled once %+v, by cel.Compile %+v", name, once.texts[i], o, a)
			}
			if (once.fast[i] == nil) != (api.fast[i] == nil) {
				t.Errorf("%s rule %q: a fastRule compiled once %v, by cel.Compile %v", name, once.texts[i], once.fast[i] != nil, api.fast[i] != nil)
			}
			if o.Program == nil || a.Program == nil {
				continue
			}
			for _, v := range values {
				or, od, oerr := o.Program.ContextEval(context.Background(), &selfActivation{self: common.UnstructuredToVal(v, once.adaptor)})
				ar, ad, aerr := a.Program.ContextEval(context.Background(), &selfActivation{self: common.UnstructuredToVal(v, api.adaptor)})
				if fmt.Sprint(or, oerr) != fmt.Sprint(ar, aerr) || *od.ActualCost() != *ad.ActualCost() {
					t.Errorf("%s rule %q on %v: compiled once %v %v cost %d, by cel.Compile %v %v cost %d",
						name, once.texts[i], v, or, oerr, *od.ActualCost(), ar, aerr, *ad.ActualCost())
				}
			}
		}
	}
	if c := compileNodeRules(cases["rules that compile"], model.SchemaDeclType(cases["rules that compile"], true)); !c.proves || len(c.rules) != 6 || c.fast[0] == nil {
		t.Errorf("rules that compile: proves %v, %d rules kept (want the six that are no transition rule), fast %v", c.proves, len(c.rules), c.fast)
	}
	for _, name := range []string{"a rule with an error", "a rule that is no bool", "an optional oldSelf"} {
		if s := cases[name]; compileNodeRules(s, model.SchemaDeclType(s, true)).proves {
			t.Errorf("%s: proves, and the validator would report it or evaluate it with oldSelf unset", name)
		}
	}
}
