package admit

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/cel-go/common/types"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/cel/common"
)

// celErrors returns the errors the API server's CEL validator (cel.Validator,
// as validate calls it) reports for obj, a decoded, defaulted and prepared
// object, when shortcuts allows and it can find them; ok false leaves them to
// the validator. It is what makes a refused object cheap: the validator's
// schema adaptor rebuilds every node's properties on every field access, and
// takes tens of milliseconds on a Gateway of twenty listeners, whose rules
// compare every listener with every other.
//
// It visits the nodes the validator visits (the shortcut's tree, whose rules
// are the validator's), shows the rules that hold with fastRule, evaluates
// the others with their programs, and words the error of a rule that
// evaluates to false as the validator words it (a field.Invalid at the node's
// path, or the rule's fieldPath, with the rule's message, else the rule). A
// rule whose program errs, whose message is an expression, or whose error has
// a reason, an object the shortcut's tree does not cover, and a total cost
// that could reach the budget are left to the validator.
func (v *servedVersion) celErrors(obj map[string]any, shortcuts bool) (field.ErrorList, bool) {
	if !shortcuts || v.shortcut == nil {
		return nil, false
	}
	e := &celErrorWalk{}
	if !e.node(v.shortcut.root, obj, nil) || e.cost >= celBudget {
		return nil, false
	}
	return e.errs, true
}

type celErrorWalk struct {
	errs field.ErrorList
	cost int64
}

func (e *celErrorWalk) node(n *fastNode, v any, path *field.Path) bool {
	if v == nil {
		return true // the validator skips null values
	}
	if n == nil || n.unsupported {
		return n == nil
	}
	for i, r := range n.rules {
		if r.Program == nil {
			continue // an empty rule
		}
		if f := n.fast[i]; f != nil {
			if holds, cost, ok := f.holds(v, n.adaptor); ok && holds {
				e.cost += int64(cost)
				continue
			}
		}
		result, details, err := r.Program.ContextEval(context.Background(), &selfActivation{self: common.UnstructuredToVal(v, n.adaptor)})
		if details == nil || details.ActualCost() == nil {
			return false
		}
		e.cost += int64(min(*details.ActualCost(), uint64(celBudget)))
		spec := n.specs[i]
		switch {
		case e.cost >= celBudget, err != nil, spec.MessageExpression != "", spec.Reason != nil:
			return false
		case result == types.True:
			continue
		}
		at := path
		if r.NormalizedRuleFieldPath != "" {
			at = at.Child(r.NormalizedRuleFieldPath)
		}
		var value any = v
		if t := n.adaptor.Type(); t == "object" || t == "array" {
			value = field.OmitValueType{}
		}
		e.errs = append(e.errs, field.Invalid(at, value, ruleMessageOrDefault(spec)))
	}
	switch v := v.(type) {
	case map[string]any:
		for k, c := range v {
			switch {
			case n.additional != nil:
				if !e.node(n.additional, c, path.Key(k)) {
					return false
				}
			case n.properties[k] != nil:
				if !e.node(n.properties[k], c, path.Child(k)) {
					return false
				}
			}
		}
	case []any:
		for i, c := range v {
			if !e.node(n.items, c, path.Index(i)) {
				return false
			}
		}
	}
	return true
}

// ruleMessageOrDefault is the validator's message for a rule that evaluates
// to false (cel.ruleMessageOrDefault).
func ruleMessageOrDefault(rule apiextensionsv1.ValidationRule) string {
	if len(rule.Message) == 0 {
		return fmt.Sprintf("failed rule: %s", strings.TrimSpace(rule.Rule))
	}
	return strings.TrimSpace(rule.Message)
}
