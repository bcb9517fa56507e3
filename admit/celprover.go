package admit

import (
	"context"
	"math"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/interpreter"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/common"
)

// celProver shows, faster than the API server's CEL validator, that an object
// keeps every x-kubernetes-validations rule of a schema. It proves, it never
// refuses: when it cannot show that every rule holds, the caller asks the
// validator (cel.Validator), whose errors are the API server's.
//
// It evaluates the programs the validator evaluates (cel.Compile, with the same
// environment and per-call limit), on the same values (common.UnstructuredToVal),
// at the same schema nodes, within the same runtime cost budget. What differs is
// the schema adaptor under the values: the validator's (model.Structural)
// rebuilds a node's property map on every field access, which is most of its
// time; this one builds each node's map once. TestCELProverAgreesWithValidator
// is its oracle.
type celProver struct {
	root *proverNode
}

// proverNode is a schema node on the way to a rule: its rules, compiled on
// first use, and the children that hold rules below.
type proverNode struct {
	rules      *nodeRules
	properties map[string]*proverNode
	items      *proverNode
	additional *proverNode
}

// newCELProver compiles the rules of s. It returns nil, so that the validator
// answers every object, for a schema whose rules it does not evaluate as the
// validator does: a rule on the root or inside an embedded resource (the
// validator adds the object's type and metadata to self there), allOf with
// rules. A rule that does not compile is found when its node is first checked
// (nodeRules), and the prover gives up on the node's values.
func newCELProver(s *schema.Structural) *celProver {
	if len(s.XValidations) > 0 || hasEmbeddedResource(s) {
		return nil
	}
	root, ok := proverTree(s, model.SchemaDeclType(s, true))
	if !ok {
		return nil
	}
	return &celProver{root: root}
}

// propertyDeclType is the CEL type cel.NewValidator gives the property name
// (schema prop) of a node of type declType: the field's type when the name
// escapes to a CEL field name, else the property's own schema type; false
// when it has none, and the validator leaves the property out.
func propertyDeclType(declType *apiservercel.DeclType, name string, prop *schema.Structural) (*apiservercel.DeclType, bool) {
	if escaped, ok := apiservercel.Escape(name); ok {
		if declType == nil {
			return nil, false
		}
		f, ok := declType.Fields[escaped]
		if !ok {
			return nil, false
		}
		return f.Type, true
	}
	t := model.SchemaDeclType(prop, prop.XEmbeddedResource)
	return t, t != nil
}

// proverTree mirrors cel.NewValidator's tree: the same nodes, the same CEL
// declaration types, compiled the same way.
func proverTree(s *schema.Structural, declType *apiservercel.DeclType) (*proverNode, bool) {
	if s.ValueValidation != nil && len(s.ValueValidation.AllOf) > 0 {
		for _, allOf := range s.ValueValidation.AllOf {
			if len(allOf.ValidationExtensions.XValidations) > 0 {
				return nil, false
			}
		}
	}
	n := &proverNode{rules: newNodeRules(s, declType)}
	var elemType *apiservercel.DeclType
	if declType != nil {
		elemType = declType.ElemType
	}
	if s.Items != nil {
		child, ok := proverTree(s.Items, elemType)
		if !ok {
			return nil, false
		}
		n.items = child
	}
	for name := range s.Properties {
		prop := s.Properties[name]
		fieldType, ok := propertyDeclType(declType, name, &prop)
		if !ok {
			continue // the validator leaves fields of unknown type out too
		}
		child, ok := proverTree(&prop, fieldType)
		if !ok {
			return nil, false
		}
		if child != nil {
			if n.properties == nil {
				n.properties = map[string]*proverNode{}
			}
			n.properties[name] = child
		}
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		child, ok := proverTree(s.AdditionalProperties.Structural, elemType)
		if !ok {
			return nil, false
		}
		n.additional = child
	}
	if n.rules == nil && n.items == nil && n.properties == nil && n.additional == nil {
		return nil, true
	}
	return n, true
}

func hasEmbeddedResource(s *schema.Structural) bool {
	if s == nil {
		return false
	}
	if s.XEmbeddedResource {
		return true
	}
	for name := range s.Properties {
		p := s.Properties[name]
		if hasEmbeddedResource(&p) {
			return true
		}
	}
	if s.AdditionalProperties != nil && hasEmbeddedResource(s.AdditionalProperties.Structural) {
		return true
	}
	return hasEmbeddedResource(s.Items)
}

// holds reports whether obj keeps every rule, evaluated as the validator would
// with the API server's runtime cost budget. false means "ask the validator".
func (p *celProver) holds(obj map[string]any) bool {
	budget := int64(celconfig.RuntimeCELCostBudget)
	return p.root.holds(obj, &budget)
}

func (n *proverNode) holds(v any, budget *int64) bool {
	if n == nil || v == nil {
		// The validator skips null values and nodes without rules below.
		return true
	}
	if n.rules != nil {
		c := n.rules.get()
		if !c.proves {
			return false
		}
		if len(c.rules) > 0 && *budget <= 0 {
			return false
		}
		var self *selfActivation
		for _, r := range c.rules {
			if r.Program == nil {
				continue // an empty rule
			}
			if self == nil {
				self = &selfActivation{self: common.UnstructuredToVal(v, c.adaptor)}
			}
			result, details, err := r.Program.ContextEval(context.Background(), self)
			if details == nil || details.ActualCost() == nil {
				return false
			}
			cost := *details.ActualCost()
			if cost > math.MaxInt64 || int64(cost) > *budget {
				return false
			}
			*budget -= int64(cost)
			if err != nil || result != types.True {
				return false
			}
		}
	}
	switch v := v.(type) {
	case map[string]any:
		for k, child := range v {
			if n.additional != nil && !n.additional.holds(child, budget) {
				return false
			}
			if n.properties[k] != nil && !n.properties[k].holds(child, budget) {
				return false
			}
		}
	case []any:
		for _, item := range v {
			if !n.items.holds(item, budget) {
				return false
			}
		}
	}
	return true
}

// selfActivation binds self, as the validator's activation does for a rule
// without oldSelf.
type selfActivation struct{ self any }

func (a *selfActivation) ResolveName(name string) (any, bool) {
	if name == cel.ScopedVarName {
		return a.self, true
	}
	return nil, false
}

func (a *selfActivation) Parent() interpreter.Activation { return nil }

// proverAdaptor is model.Structural with its property, item and
// additional-property schemas built once.
type proverAdaptor struct {
	*model.Structural
	properties map[string]common.Schema
	items      common.Schema
	additional common.SchemaOrBool
	// scalar is the CEL type common.UnstructuredToVal gives a value of the
	// schema without converting it (no format, not int-or-string): vString,
	// vInt or vBool, else vNone.
	scalar cvalKind
}

func newProverAdaptor(s *schema.Structural) common.Schema {
	a := &proverAdaptor{Structural: &model.Structural{Structural: s}}
	if !s.XIntOrString {
		switch format := a.Format(); s.Type {
		case "string":
			switch format {
			case "duration", "date", "date-time", "byte":
			default:
				a.scalar = vString
			}
		case "integer":
			a.scalar = vInt
		case "boolean":
			a.scalar = vBool
		}
	}
	if s.Properties != nil {
		a.properties = make(map[string]common.Schema, len(s.Properties))
		for name := range s.Properties {
			p := s.Properties[name]
			a.properties[name] = newProverAdaptor(&p)
		}
	}
	if s.Items != nil {
		a.items = newProverAdaptor(s.Items)
	}
	if s.AdditionalProperties != nil {
		sb := &proverSchemaOrBool{allows: s.AdditionalProperties.Bool}
		if s.AdditionalProperties.Structural != nil {
			sb.schema = newProverAdaptor(s.AdditionalProperties.Structural)
		}
		a.additional = sb
	}
	return a
}

func (a *proverAdaptor) Properties() map[string]common.Schema { return a.properties }
func (a *proverAdaptor) Items() common.Schema                 { return a.items }
func (a *proverAdaptor) AdditionalProperties() common.SchemaOrBool {
	return a.additional
}

type proverSchemaOrBool struct {
	schema common.Schema
	allows bool
}

func (s *proverSchemaOrBool) Schema() common.Schema { return s.schema }
func (s *proverSchemaOrBool) Allows() bool          { return s.allows }
