package admit

import (
	"strings"
	"sync"
	"weak"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/cel/library"
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
	// typed: the node has a CEL type (compiled without one, its rules
	// prove nothing).
	typed bool
}

// sharedRules holds the rules of the nodes compiled so far by their subtree's
// fingerprint, so that the nodes of the same subtree compile their rules
// once: the parentRefs of every route kind and version, a route kind's
// versions that serve one schema, both channels' copies of a type. A node's
// rules compile to what cel.Compile makes of its structural schema and its CEL
// type, and both are functions of the subtree the fingerprint identifies (the
// node's type is model.SchemaDeclType of it, type names included, or none:
// typed is part of the key). An entry goes with the last node that holds its
// rules (a weak pointer); an Admitter's compiled versions, and so their nodes,
// live as long as the Admitter. TestSharedRulesAreTheNodesOwn compiles each
// sharing node's rules for itself and compares.
var sharedRules struct {
	sync.Mutex
	byNode map[sharedRulesKey]weak.Pointer[nodeRules]
}

type sharedRulesKey struct {
	node  fingerprint
	typed bool
}

// sharedBy returns the rules of a node of fingerprint fp compiled before, or
// r, now the rules of fp.
func (r *nodeRules) sharedBy(fp fingerprint) *nodeRules {
	k := sharedRulesKey{fp, r.typed}
	sharedRules.Lock()
	defer sharedRules.Unlock()
	if held := sharedRules.byNode[k].Value(); held != nil {
		return held
	}
	if sharedRules.byNode == nil {
		sharedRules.byNode = map[sharedRulesKey]weak.Pointer[nodeRules]{}
	}
	sharedRules.byNode[k] = weak.Make(r)
	return r
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
	return &nodeRules{get: sync.OnceValue(func() *compiledRules { return compileNodeRules(s, declType) }), typed: declType != nil}
}

// compileNodeRules compiles the rules of s as cel.NewValidator does, and their
// fastRules, type-checking each rule once: cel.Compile's steps (compileRule:
// the rule checked in the rule environment of the node's type, its output
// type, whether it reads oldSelf, its program with the same cost limit,
// tracker and interrupt frequency, its estimated cost), taking the checked
// expression the fastRule compiles from too. cel.Compile checked each rule
// for the validator and compileFastRules then checked it again, and checking
// was most of what compiling cost (docs/performance.md, "Each CEL rule
// compiled once"). What it leaves out the shortcut never reads: message
// expressions, which only word a refusal, and the limits the API server
// checks when a CRD is written. A node with a rule whose oldSelf is optional
// is compiled by cel.Compile, whose environment for it declares oldSelf
// otherwise. TestRulesCompileAsTheAPIServerCompiles holds it to cel.Compile.
func compileNodeRules(s *schema.Structural, declType *apiservercel.DeclType) *compiledRules {
	if declType == nil {
		return &compiledRules{} // cel.Compile fails: the validator reports it
	}
	for _, r := range s.XValidations {
		if r.OptionalOldSelf != nil && *r.OptionalOldSelf {
			return compileNodeRulesByAPIServer(s, declType)
		}
	}
	env, err := ruleEnv(declType)
	if err != nil {
		return &compiledRules{}
	}
	estimator := &library.CostEstimator{SizeEstimator: &sizeEstimator{root: declType}}
	c := &compiledRules{proves: true}
	var checked []*celgo.Ast
	for _, rule := range s.XValidations {
		r, ast, ok := compileRule(env, estimator, rule.Rule)
		switch {
		case !ok:
			return &compiledRules{} // the validator reports it
		case r.UsesOldSelf:
			continue // a transition rule: the validator skips it on create
		}
		c.rules = append(c.rules, r)
		c.texts = append(c.texts, rule.Rule)
		checked = append(checked, ast)
	}
	if len(c.rules) > 0 {
		c.adaptor = newProverAdaptor(s)
		c.fast = make([]*fastRule, len(c.rules))
		for i, ast := range checked {
			if ast != nil {
				c.fast[i] = fastRuleOf(ast, c.texts[i], c.adaptor)
			}
		}
	}
	return c
}

// compileRule is cel.Compile's compileRule for a rule with no message
// expression, in env (ruleEnv of the node's type): the rule's compilation,
// its checked expression (nil for an empty rule, which has no program), and
// false where cel.Compile's result has an Error.
func compileRule(env *celgo.Env, estimator *library.CostEstimator, text string) (cel.CompilationResult, *celgo.Ast, bool) {
	var r cel.CompilationResult
	if len(strings.TrimSpace(text)) == 0 {
		return r, nil, true
	}
	ast, issues := env.Compile(text)
	if issues != nil || ast.OutputType() != celgo.BoolType {
		return r, nil, false
	}
	checkedExpr, err := celgo.AstToCheckedExpr(ast)
	if err != nil {
		return r, nil, false
	}
	for _, ref := range checkedExpr.ReferenceMap {
		if ref.Name == cel.OldScopedVarName {
			r.UsesOldSelf = true
			break
		}
	}
	prog, err := env.Program(ast,
		celgo.CostLimit(celconfig.PerCallLimit),
		celgo.CostTracking(estimator),
		celgo.InterruptCheckFrequency(celconfig.CheckFrequency),
	)
	if err != nil {
		return r, nil, false
	}
	est, err := env.EstimateCost(ast, estimator)
	if err != nil {
		return r, nil, false
	}
	r.Program, r.MaxCost = prog, est.Max
	return r, ast, true
}

// sizeEstimator is cel.Compile's (its newCostEstimator's): the largest size
// of a value under self is its type's MaxElements.
type sizeEstimator struct {
	root *apiservercel.DeclType
}

func (c *sizeEstimator) EstimateSize(element checker.AstNode) *checker.SizeEstimate {
	if len(element.Path()) == 0 {
		return nil
	}
	currentNode := c.root
	// The path starts at self.
	for _, name := range element.Path()[1:] {
		switch name {
		case "@items", "@values":
			if currentNode.ElemType == nil {
				return nil
			}
			currentNode = currentNode.ElemType
		case "@keys":
			if currentNode.KeyType == nil {
				return nil
			}
			currentNode = currentNode.KeyType
		default:
			field, ok := currentNode.Fields[name]
			if !ok || field.Type == nil {
				return nil
			}
			currentNode = field.Type
		}
	}
	return &checker.SizeEstimate{Min: 0, Max: uint64(currentNode.MaxElements)}
}

func (c *sizeEstimator) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	return nil
}

// compileNodeRulesByAPIServer compiles the rules of s with cel.Compile, and
// their fastRules.
func compileNodeRulesByAPIServer(s *schema.Structural, declType *apiservercel.DeclType) *compiledRules {
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
