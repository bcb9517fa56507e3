package admit

import (
	"fmt"
	"reflect"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// TestSharedRulesAreTheNodesOwn: where nodes of the built-in CRDs (both
// channels, every served version, compiled as an Admitter compiles them) share
// their compiled rules (nodeRules.sharedBy), each node's CEL type is the one
// the rules were compiled for, and its rules compiled for itself are the
// shared ones: the same rules kept, the same errors, cost estimates, reading
// of oldSelf, programs and fastRules. Keying the shared rules by anything
// less than the node's subtree (its rules' texts, say) fails it.
func TestSharedRulesAreTheNodesOwn(t *testing.T) {
	type holder struct {
		where    string
		s        *schema.Structural
		declType *apiservercel.DeclType
	}
	held := map[*nodeRules][]holder{}
	var walk func(where string, s *schema.Structural, declType *apiservercel.DeclType, n *proverNode)
	walk = func(where string, s *schema.Structural, declType *apiservercel.DeclType, n *proverNode) {
		if n == nil {
			return
		}
		if n.rules != nil {
			held[n.rules] = append(held[n.rules], holder{where, s, declType})
		}
		var elemType *apiservercel.DeclType
		if declType != nil {
			elemType = declType.ElemType
		}
		if s.Items != nil {
			walk(where+"[]", s.Items, elemType, n.items)
		}
		for name := range s.Properties {
			prop := s.Properties[name]
			fieldType, ok := propertyDeclType(declType, name, &prop)
			if !ok {
				continue
			}
			walk(where+"."+name, &prop, fieldType, n.properties[name])
		}
		if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
			walk(where+"{}", s.AdditionalProperties.Structural, elemType, n.additional)
		}
	}
	eachServedVersion(t, func(where string, v *servedVersion) {
		if v.prover != nil && v.shortcut != nil {
			walk(where, v.structural, model.SchemaDeclType(v.structural, true), v.prover.root)
		}
	})
	shared, rules := 0, 0
	for r, hs := range held {
		if len(hs) < 2 {
			continue
		}
		c := r.get()
		for _, h := range hs {
			shared++
			if !reflect.DeepEqual(h.declType, hs[0].declType) {
				t.Errorf("%s shares the rules of %s, of another CEL type", h.where, hs[0].where)
			}
			own := compileNodeRules(h.s, h.declType)
			if own.proves != c.proves || fmt.Sprint(own.texts) != fmt.Sprint(c.texts) || len(own.rules) != len(c.rules) {
				t.Errorf("%s: its own rules prove %v with %q, the shared ones (%s's) %v with %q", h.where, own.proves, own.texts, hs[0].where, c.proves, c.texts)
				continue
			}
			for i, o := range own.rules {
				s := c.rules[i]
				if (o.Error == nil) != (s.Error == nil) || o.UsesOldSelf != s.UsesOldSelf || o.MaxCost != s.MaxCost ||
					o.MaxCardinality != s.MaxCardinality || (o.Program == nil) != (s.Program == nil) ||
					(own.fast[i] == nil) != (c.fast[i] == nil) {
					t.Errorf("%s rule %q: its own %+v, shared (%s's) %+v", h.where, own.texts[i], o, hs[0].where, s)
				}
				rules++
			}
		}
	}
	if shared == 0 || rules == 0 {
		t.Fatal("no node shares its rules")
	}
	t.Logf("%d nodes share rules with another, %d rules compared", shared, rules)
}
