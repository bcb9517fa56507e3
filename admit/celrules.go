package admit

import (
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/apiserver/pkg/cel/environment"
)

// nodeRules are the x-kubernetes-validations rules of one schema node,
// compiled the first time a value of the node is checked: a run compiles the
// rules of the nodes its objects have values at, and the standard channel's
// walk, which takes from the experimental channel's whatever the two channels
// share, compiles only the nodes where they differ. Each node is compiled by
// the API server's own cel.Compile, as it compiles the node, so that what a
// rule compiles to (its program, its error, whether it reads oldSelf) is
// what the validator holds.
type nodeRules struct {
	get func() *compiledRules
}

// compiledRules is what a node's rules compile to.
type compiledRules struct {
	// proves is false when a rule is one the prover does not evaluate as the
	// validator does (it does not compile, or it is evaluated with oldSelf
	// unset on create): the prover and the shortcut then give up on every
	// value of the node, and the validator answers for it.
	proves bool
	// rules are the rules the validator evaluates on create (transition rules
	// left out), texts their expressions, fast their fastRules (nil for a
	// rule only its program evaluates), and adaptor the schema under self.
	rules   []cel.CompilationResult
	texts   []string
	fast    []*fastRule
	adaptor common.Schema
}

// newNodeRules returns the rules of s, a node whose CEL type is declType, to
// be compiled on first use; nil when s has none.
func newNodeRules(s *schema.Structural, declType *apiservercel.DeclType) *nodeRules {
	if len(s.XValidations) == 0 {
		return nil
	}
	return &nodeRules{get: sync.OnceValue(func() *compiledRules { return compileNodeRules(s, declType) })}
}

// compileNodeRules compiles the rules of s as cel.NewValidator does, and their
// fastRules.
func compileNodeRules(s *schema.Structural, declType *apiservercel.DeclType) *compiledRules {
	rules, err := cel.Compile(s, declType, celconfig.PerCallLimit, environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()), cel.StoredExpressionsEnvLoader())
	if err != nil {
		return &compiledRules{}
	}
	c := &compiledRules{proves: true}
	for i, r := range rules {
		switch {
		case r.Error != nil:
			return &compiledRules{} // the validator reports it
		case r.UsesOldSelf && s.XValidations[i].OptionalOldSelf != nil && *s.XValidations[i].OptionalOldSelf:
			return &compiledRules{} // evaluated on create, with oldSelf none
		case r.UsesOldSelf:
			continue // a transition rule: the validator skips it on create
		}
		c.rules = append(c.rules, r)
		c.texts = append(c.texts, s.XValidations[i].Rule)
	}
	if len(c.rules) > 0 {
		c.adaptor = newProverAdaptor(s)
		c.fast = compileFastRules(c.rules, c.texts, declType, c.adaptor)
	}
	return c
}
