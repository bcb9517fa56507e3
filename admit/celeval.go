package admit

import (
	"math"
	"regexp"
	"sync"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/functions"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/overloads"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apimachinery/pkg/util/version"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/apiserver/pkg/cel/environment"
)

// fastRule evaluates one x-kubernetes-validations rule much faster than its
// cel-go program, and only to show that it holds: it walks the rule's checked
// expression itself (the same expression, type-checked in the same
// environment as the API server checks it) over the object's values, calls the
// environment's own function implementations, and gives up (reports that it
// cannot tell) on anything outside the part of CEL it walks, on any error, and
// on any value it would have to convert otherwise than the API server's value
// adaptor does. What it saves is the program's per-evaluation cost tracking
// and the adaptor's per-access work.
//
// Not tracking cost as the program does, it charges for every step it takes
// at least what the program's cost tracker charges for it (ruleCharges), so
// that its total bounds the rule's actual cost from above: it evaluates the
// nodes the program evaluates, and calls only functions whose runtime cost
// (cel-go's CostTracker.costCall, the Kubernetes library's CallCost) is known
// to be at most 1 + the product of (1 + the size of each argument). A rule
// whose bound exceeds the per-call limit is left to its program, so that no
// rule fastRule shows holding could have hit that limit; and the object's total
// is held below the runtime budget with these bounds in place of the actual
// costs, which they exceed. TestFastRulesAgreeWithPrograms is its oracle (and
// checks that the bound holds).
type fastRule struct {
	expr    ast.Expr
	checked *ast.AST
	// regexps are the constant patterns of matches() calls, by call id,
	// compiled once as the program's regex optimization compiles them.
	regexps map[int64]*regexp.Regexp
	// fields are the unescaped names of field selections, by select id.
	fields map[int64]string
}

// compileFastRules compiles, for the rules of a schema node whose CEL type is
// declType, what fastRule needs; a nil entry is a rule it does not evaluate.
func compileFastRules(rules []cel.CompilationResult, texts []string, declType *apiservercel.DeclType) []*fastRule {
	out := make([]*fastRule, len(rules))
	if declType == nil {
		return out
	}
	env, err := ruleEnv(declType)
	if err != nil {
		return out
	}
	for i, r := range rules {
		if r.Program == nil {
			continue
		}
		checked, iss := env.Compile(texts[i])
		if iss.Err() != nil || checked.OutputType() != celgo.BoolType {
			continue
		}
		native := checked.NativeRep()
		f := &fastRule{expr: native.Expr(), checked: native, regexps: map[int64]*regexp.Regexp{}, fields: map[int64]string{}}
		if !f.prepare(f.expr) {
			continue
		}
		out[i] = f
	}
	return out
}

// ruleEnv is the environment the API server compiles a rule of a node of type
// declType in (cel.Compile's prepareEnvSet): its base environment with self
// (and oldSelf) declared.
func ruleEnv(declType *apiservercel.DeclType) (*celgo.Env, error) {
	scoped := declType.MaybeAssignTypeName("selfType")
	envSet, err := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()).Extend(
		environment.VersionedOptions{
			IntroducedVersion: version.MajorMinor(1, 0),
			EnvOptions:        []celgo.EnvOption{celgo.Variable(cel.ScopedVarName, scoped.CelType())},
			DeclTypes:         []*apiservercel.DeclType{scoped},
		},
		environment.VersionedOptions{
			IntroducedVersion: version.MajorMinor(1, 24),
			EnvOptions:        []celgo.EnvOption{celgo.Variable(cel.OldScopedVarName, scoped.CelType())},
		},
	)
	if err != nil {
		return nil, err
	}
	env := envSet.StoredExpressionsEnv()
	dispatcherOnce.Do(func() { dispatcher = newDispatcher(env) })
	return env, nil
}

// dispatcher is the function implementations of the rules' environment, by
// overload id and by function name, as a program's dispatcher holds them. The
// rule environments differ only in the type of self: their functions are the
// base environment's.
var (
	dispatcherOnce sync.Once
	dispatcher     map[string]*functions.Overload
)

func newDispatcher(env *celgo.Env) map[string]*functions.Overload {
	d := map[string]*functions.Overload{}
	for _, fn := range env.Functions() {
		bindings, err := fn.Bindings()
		if err != nil {
			continue
		}
		for _, b := range bindings {
			d[b.Operator] = b
		}
	}
	return d
}

// prepare precompiles what the walk needs, and reports whether every node of
// x is one it walks.
func (f *fastRule) prepare(x ast.Expr) bool {
	switch x.Kind() {
	case ast.LiteralKind, ast.IdentKind:
		return true
	case ast.SelectKind:
		s := x.AsSelect()
		name, ok := apiservercel.Unescape(s.FieldName())
		if !ok {
			return false
		}
		f.fields[x.ID()] = name
		return f.prepare(s.Operand())
	case ast.ListKind:
		l := x.AsList()
		if len(l.OptionalIndices()) > 0 {
			return false
		}
		for _, e := range l.Elements() {
			if !f.prepare(e) {
				return false
			}
		}
		return true
	case ast.ComprehensionKind:
		c := x.AsComprehension()
		if c.HasIterVar2() {
			return false
		}
		return f.prepare(c.IterRange()) && f.prepare(c.AccuInit()) && f.prepare(c.LoopCondition()) &&
			f.prepare(c.LoopStep()) && f.prepare(c.Result())
	case ast.CallKind:
		c := x.AsCall()
		switch c.FunctionName() {
		case operators.OptSelect, operators.OptIndex:
			return false
		case overloads.Matches:
			// The program compiles a constant pattern once (cel-go's
			// MatchesRegexOptimization, which compiles with regexp.Compile).
			args := c.Args()
			if pat := args[len(args)-1]; pat.Kind() == ast.LiteralKind {
				s, ok := pat.AsLiteral().(types.String)
				if !ok {
					return false
				}
				re, err := regexp.Compile(string(s))
				if err != nil {
					return false
				}
				f.regexps[x.ID()] = re
			}
		}
		if c.IsMemberFunction() && !f.prepare(c.Target()) {
			return false
		}
		for _, a := range c.Args() {
			if !f.prepare(a) {
				return false
			}
		}
		return true
	}
	return false
}

// celObject and celList are a value of the object, with its schema, as the
// walk holds it; everything else is a ref.Val.
type celObject struct {
	value  map[string]any
	schema common.Schema
}

type celList struct {
	value  []any
	schema common.Schema // of the list
	// items are the values of value's items, made on first iteration: a
	// comprehension nested in another iterates the same list many times.
	items []any
}

func (l *celList) values() ([]any, bool) {
	if l.items == nil && len(l.value) > 0 {
		items := make([]any, len(l.value))
		for i, x := range l.value {
			v, ok := valueOf(x, l.schema.Items())
			if !ok {
				return nil, false
			}
			items[i] = v
		}
		l.items = items
	}
	return l.items, true
}

// celBuilt is a list the rule builds (a list literal, filter's result).
type celBuilt []any

// celScope binds a comprehension's variables.
type celScope struct {
	name   string
	value  any
	parent *celScope
}

func (s *celScope) lookup(name string) (any, bool) {
	for ; s != nil; s = s.parent {
		if s.name == name {
			return s.value, true
		}
	}
	return nil, false
}

// holds reports whether the rule evaluates to true on self (of schema s), and
// a bound of what the program would charge for it; ok is false when the walk
// cannot tell, or the bound exceeds the per-call limit.
func (f *fastRule) holds(self any, s common.Schema) (holds bool, cost uint64, ok bool) {
	v, ok := valueOf(self, s)
	if !ok {
		return false, 0, false
	}
	e := &ruleEval{fastRule: f}
	r, ok := e.eval(f.expr, &celScope{name: cel.ScopedVarName, value: v})
	if !ok || e.cost > celconfig.PerCallLimit {
		return false, 0, false
	}
	b, ok := r.(types.Bool)
	return b == types.True, e.cost, ok
}

// ruleEval is one evaluation of a fastRule: cost is what it has charged.
type ruleEval struct {
	*fastRule
	cost uint64
}

// ruleCharges are what ruleEval charges for a step, each at least what the
// program's cost tracker charges for it (interpreter.costTrackerFactory.Observe):
// an identifier costs 1 (common.SelectAndIdentCost); a field selection,
// presence test or index 1 for the attribute and 1 for the qualifier; a
// constant and the && || ?: operators nothing beyond their operands; a list
// literal common.ListCreateBaseCost; a call of a function costChecked lists,
// 1 + the product of (1 + the size of each argument).
const (
	identCharge  = 1
	selectCharge = 2
	listCharge   = 10
)

// costChecked are the overloads whose runtime cost is at most 1 + the product
// of (1 + the size of each argument): cel-go's default of 1 (conversions,
// size, logical not, integer and duration arithmetic and comparisons, list
// concatenation), its size-based costs for equality, list membership, string
// prefixes, contains and matches (CostTracker.costCall; factors below 1), and
// the Kubernetes library's for isIP, substring and split (library.CostEstimator
// CallCost: a traversal, twice for split).
var costChecked = map[string]bool{
	overloads.LogicalNot: true, overloads.NotStrictlyFalse: true,
	overloads.AddInt64: true, overloads.AddList: true,
	overloads.LessInt64: true, overloads.LessEqualsInt64: true, overloads.GreaterInt64: true, overloads.GreaterEqualsInt64: true,
	overloads.LessDuration: true, overloads.LessEqualsDuration: true, overloads.GreaterDuration: true, overloads.GreaterEqualsDuration: true,
	overloads.Equals: true, overloads.NotEquals: true, overloads.InList: true,
	overloads.StartsWithString: true, overloads.EndsWithString: true, overloads.ContainsString: true, overloads.MatchesString: true,
	overloads.SizeString: true, overloads.SizeStringInst: true, overloads.SizeList: true, overloads.SizeListInst: true,
	overloads.SizeMap: true, overloads.SizeMapInst: true, overloads.StringToDuration: true,
	"is_ip": true, "string_substring_int": true, "string_substring_int_int": true, "string_split_string": true,
}

// callCharge is the charge for a call on args: 1 + the product of (1 + the
// size of each), sizes as actualSize takes them (a string's length in bytes is
// no less than its length in code points).
func callCharge(args []any) uint64 {
	c := uint64(1)
	for _, a := range args {
		c = satMul(c, 1+sizeOf(a))
	}
	return satAdd(c, 1)
}

func sizeOf(v any) uint64 {
	switch v := v.(type) {
	case types.String:
		return uint64(len(v))
	case types.Bytes:
		return uint64(len(v))
	case *celList:
		return uint64(len(v.value))
	case *celObject:
		return uint64(len(v.value))
	case celBuilt:
		return uint64(len(v))
	}
	return 1
}

func satAdd(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

func satMul(a, b uint64) uint64 {
	if a != 0 && b > math.MaxUint64/a {
		return math.MaxUint64
	}
	return a * b
}

func (e *ruleEval) charge(c uint64) bool {
	e.cost = satAdd(e.cost, c)
	return e.cost <= celconfig.PerCallLimit
}

// valueOf is the value the API server's adaptor (common.UnstructuredToVal)
// gives x of schema s: objects and lists are kept as they are, for the walk
// to read; scalars are the adaptor's own values.
func valueOf(x any, s common.Schema) (any, bool) {
	if a, ok := s.(*proverAdaptor); ok && a.scalar != "" {
		// UnstructuredToVal's own conversions, without its checks of the
		// schema.
		switch a.scalar {
		case "string":
			v, ok := x.(string)
			return types.String(v), ok
		case "integer":
			v, ok := x.(int64)
			return types.Int(v), ok
		case "boolean":
			v, ok := x.(bool)
			return types.Bool(v), ok
		}
	}
	if x == nil || s == nil || s.IsXIntOrString() || s.IsXEmbeddedResource() {
		return nil, false
	}
	switch s.Type() {
	case "object":
		m, ok := x.(map[string]any)
		if !ok || s.Properties() == nil && (s.AdditionalProperties() == nil || s.AdditionalProperties().Schema() == nil) {
			return nil, false
		}
		return &celObject{value: m, schema: s}, true
	case "array":
		l, ok := x.([]any)
		if !ok || s.Items() == nil {
			return nil, false
		}
		return &celList{value: l, schema: s}, true
	}
	v := common.UnstructuredToVal(x, s)
	if types.IsUnknownOrError(v) {
		return nil, false
	}
	return v, true
}

// asVal is v as a ref.Val for a function implementation: the adaptor's value
// for a value of the object, nil for a built list (left to the program).
func asVal(v any) ref.Val {
	switch v := v.(type) {
	case *celObject:
		return common.UnstructuredToVal(v.value, v.schema)
	case *celList:
		return common.UnstructuredToVal(v.value, v.schema)
	case ref.Val:
		return v
	}
	return nil
}

func (e *ruleEval) eval(x ast.Expr, sc *celScope) (any, bool) {
	switch x.Kind() {
	case ast.LiteralKind:
		return x.AsLiteral(), true
	case ast.IdentKind:
		if !e.charge(identCharge) {
			return nil, false
		}
		return sc.lookup(x.AsIdent())
	case ast.SelectKind:
		return e.selectField(x, sc)
	case ast.ListKind:
		if !e.charge(listCharge) {
			return nil, false
		}
		elems := x.AsList().Elements()
		out := make(celBuilt, len(elems))
		for i, el := range elems {
			v, ok := e.eval(el, sc)
			if !ok {
				return nil, false
			}
			out[i] = v
		}
		return out, true
	case ast.ComprehensionKind:
		return e.comprehension(x.AsComprehension(), sc)
	case ast.CallKind:
		return e.call(x, sc)
	}
	return nil, false
}

// selectField is a field selection, or has() when test-only, with the
// adaptor's semantics (unstructuredMap.Find and Contains): a missing field is
// an error, or false for has().
func (e *ruleEval) selectField(x ast.Expr, sc *celScope) (any, bool) {
	s := x.AsSelect()
	operand, ok := e.eval(s.Operand(), sc)
	if !ok || !e.charge(selectCharge) {
		return nil, false
	}
	obj, ok := operand.(*celObject)
	if !ok {
		return nil, false
	}
	name := s.FieldName()
	var child common.Schema
	if props := obj.schema.Properties(); props != nil {
		name = e.fields[x.ID()]
		child = props[name]
	} else {
		child = obj.schema.AdditionalProperties().Schema()
	}
	v, present := obj.value[name]
	if present && v == nil && obj.schema.Properties() != nil {
		present = false
	}
	if !present || child == nil {
		if s.IsTestOnly() {
			return types.False, true
		}
		return nil, false
	}
	// has() is the adaptor's Contains, which converts the value too.
	val, ok := valueOf(v, child)
	if s.IsTestOnly() {
		return types.True, ok
	}
	return val, ok
}

func (e *ruleEval) comprehension(c ast.ComprehensionExpr, sc *celScope) (any, bool) {
	rng, ok := e.eval(c.IterRange(), sc)
	if !ok {
		return nil, false
	}
	var items []any
	switch r := rng.(type) {
	case *celList:
		if items, ok = r.values(); !ok {
			return nil, false
		}
	case celBuilt:
		items = r
	case *celObject:
		// The keys of a map (additionalProperties); the adaptor iterates them
		// in Go's map order, so a result that depends on the order (a list
		// built from them) is left to the program.
		if r.schema.Properties() != nil {
			return nil, false
		}
		for k := range r.value {
			items = append(items, types.String(k))
		}
	default:
		return nil, false
	}
	accu, ok := e.eval(c.AccuInit(), sc)
	if !ok {
		return nil, false
	}
	_, unordered := rng.(*celObject)
	accuScope := &celScope{name: c.AccuVar(), value: accu, parent: sc}
	loop := &celScope{name: c.IterVar(), parent: accuScope}
	for _, item := range items {
		loop.value, accuScope.value = item, accu
		cond, ok := e.eval(c.LoopCondition(), loop)
		if !ok {
			return nil, false
		}
		if b, isBool := cond.(types.Bool); !isBool {
			return nil, false
		} else if b != types.True {
			break
		}
		if accu, ok = e.eval(c.LoopStep(), loop); !ok {
			return nil, false
		}
		if _, built := accu.(celBuilt); built && unordered {
			return nil, false
		}
	}
	accuScope.value = accu
	return e.eval(c.Result(), accuScope)
}

func (e *ruleEval) call(x ast.Expr, sc *celScope) (any, bool) {
	c := x.AsCall()
	fn := c.FunctionName()
	args := c.Args()
	switch fn {
	case operators.LogicalAnd, operators.LogicalOr:
		// CEL's && and || are commutative over errors; the walk needs only
		// the answers it gets without one.
		stop := types.Bool(fn == operators.LogicalOr)
		for _, a := range args {
			v, ok := e.eval(a, sc)
			if !ok {
				return nil, false
			}
			b, ok := v.(types.Bool)
			if !ok {
				return nil, false
			}
			if b == stop {
				return stop, true
			}
		}
		return !stop, true
	case operators.Conditional:
		cond, ok := e.eval(args[0], sc)
		if !ok {
			return nil, false
		}
		b, ok := cond.(types.Bool)
		if !ok {
			return nil, false
		}
		if b == types.True {
			return e.eval(args[1], sc)
		}
		return e.eval(args[2], sc)
	}
	var buf [4]any
	vals := buf[:0]
	if c.IsMemberFunction() {
		t, ok := e.eval(c.Target(), sc)
		if !ok {
			return nil, false
		}
		vals = append(vals, t)
	}
	for _, a := range args {
		v, ok := e.eval(a, sc)
		if !ok {
			return nil, false
		}
		vals = append(vals, v)
	}
	if fn == operators.Index {
		if !e.charge(selectCharge) {
			return nil, false
		}
		return index(vals[0], vals[1])
	}
	if !e.charge(callCharge(vals)) {
		return nil, false
	}
	switch fn {
	case operators.NotStrictlyFalse:
		b, ok := vals[0].(types.Bool)
		return types.Bool(!ok || b == types.True), ok
	case operators.Equals, operators.NotEquals:
		l, lok := vals[0].(ref.Val)
		r, rok := vals[1].(ref.Val)
		if !lok || !rok {
			return nil, false // compound equality: left to the program
		}
		eq := types.Equal(l, r)
		if eq != types.True && eq != types.False {
			return nil, false
		}
		if fn == operators.NotEquals {
			return !eq.(types.Bool), true
		}
		return eq, true
	case operators.Add:
		if l, ok := vals[0].(celBuilt); ok {
			if r, ok := vals[1].(celBuilt); ok {
				return append(append(celBuilt{}, l...), r...), true
			}
			return nil, false
		}
	case operators.In:
		if list, ok := vals[1].(celBuilt); ok {
			// A list literal: the program tests membership with Equal.
			elem, ok := vals[0].(ref.Val)
			if !ok {
				return nil, false
			}
			for _, el := range list {
				ev, ok := el.(ref.Val)
				if !ok {
					return nil, false
				}
				if eq := elem.Equal(ev); eq == types.True {
					return types.True, true
				} else if eq != types.False {
					return nil, false
				}
			}
			return types.False, true
		}
	case overloads.Size:
		if len(vals) == 1 {
			switch v := vals[0].(type) {
			case *celList:
				return types.Int(len(v.value)), true
			case celBuilt:
				return types.Int(len(v)), true
			}
		}
	case overloads.Matches:
		if re := e.regexps[x.ID()]; re != nil && len(vals) == 2 {
			s, ok := vals[0].(types.String)
			if !ok {
				return nil, false
			}
			return types.Bool(re.MatchString(string(s))), true
		}
	}
	return e.dispatch(x, fn, vals)
}

// index is list[i], as the adaptor reads it.
func index(container, key any) (any, bool) {
	switch c := container.(type) {
	case *celList:
		i, ok := key.(types.Int)
		if !ok || i < 0 || int64(i) >= int64(len(c.value)) {
			return nil, false
		}
		return valueOf(c.value[i], c.schema.Items())
	case celBuilt:
		i, ok := key.(types.Int)
		if !ok || i < 0 || int64(i) >= int64(len(c)) {
			return nil, false
		}
		return c[i], true
	}
	return nil, false
}

// dispatch calls the environment's implementation of the call, the overload
// the checker resolved (as the program's planner chooses it), when it is one
// whose cost costChecked bounds, with the arguments as the adaptor gives them.
func (e *ruleEval) dispatch(x ast.Expr, fn string, vals []any) (any, bool) {
	ids := e.checked.GetOverloadIDs(x.ID())
	if len(ids) != 1 || !costChecked[ids[0]] {
		return nil, false
	}
	impl := dispatcher[ids[0]]
	if impl == nil {
		// The standard library binds some functions once for all their
		// overloads, as the planner finds them.
		impl = dispatcher[fn]
	}
	if impl == nil {
		return nil, false
	}
	args := make([]ref.Val, len(vals))
	for i, v := range vals {
		if args[i] = asVal(v); args[i] == nil {
			return nil, false
		}
	}
	if impl.OperandTrait != 0 && !args[0].Type().HasTrait(impl.OperandTrait) {
		return nil, false
	}
	var r ref.Val
	switch {
	case len(args) == 1 && impl.Unary != nil:
		r = impl.Unary(args[0])
	case len(args) == 2 && impl.Binary != nil:
		r = impl.Binary(args[0], args[1])
	case impl.Function != nil:
		r = impl.Function(args...)
	default:
		return nil, false
	}
	if r == nil || types.IsUnknownOrError(r) {
		return nil, false
	}
	switch r.(type) {
	case traits.Lister, traits.Mapper:
		return nil, false // a compound result: left to the program
	}
	return r, true
}
