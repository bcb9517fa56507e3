package admit

import (
	"math"
	"net/netip"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

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
// cel-go program, and only to show that it holds: it compiles the rule's
// checked expression itself (the same expression, type-checked in the same
// environment as the API server checks it) into Go closures over the object's
// values, calls the environment's own function implementations (or, for the
// few string, list and integer functions rules use most, the same Go
// operations they make), and gives up (reports that it cannot tell) on
// anything outside the part of CEL it compiles, on any error, and on any value
// it would have to convert otherwise than the API server's value adaptor does.
// What it saves is the program's per-evaluation cost tracking, the adaptor's
// per-access work and the boxing of every value.
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
	eval  celNode
	slots int // variables: self and two per comprehension in scope
	// pairs, for a rule comparing the pairs of a list's items (parentRefs,
	// listeners), evaluates it as eval does, without the closures
	// (pairrules.go); nil for every other rule.
	pairs *pairRule
}

// compileFastRules compiles, for the rules of a schema node whose CEL type is
// declType, what fastRule needs; a nil entry is a rule it does not evaluate.
// It type-checks each rule again; compileNodeRules, which has checked them
// already, calls fastRuleOf with its checked expressions.
func compileFastRules(rules []cel.CompilationResult, texts []string, declType *apiservercel.DeclType, self common.Schema) []*fastRule {
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
		if iss.Err() != nil {
			continue
		}
		out[i] = fastRuleOf(checked, texts[i], self)
	}
	return out
}

// fastRuleOf compiles the fastRule of the rule text, checked (type-checked in
// ruleEnv of the node's type), nil when it does not evaluate it.
func fastRuleOf(checked *celgo.Ast, text string, self common.Schema) *fastRule {
	if checked.OutputType() != celgo.BoolType {
		return nil
	}
	native := checked.NativeRep()
	c := &celCompiler{checked: native, scope: []string{cel.ScopedVarName}, schemas: []common.Schema{self}, schemaOf: map[int64]common.Schema{}}
	eval, ok := c.compile(native.Expr())
	if !ok || c.slots > maxCELSlots {
		return nil
	}
	return &fastRule{eval: eval, slots: c.slots, pairs: pairRuleOf(text, self)}
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

// celNode is a compiled expression: its value in a frame, or false when the
// evaluation cannot tell it (an error, something left to the program).
type celNode func(f *celFrame) (cval, bool)

// maxCELSlots bounds the variables of a rule a frame holds.
const maxCELSlots = 8

// celFrame is one evaluation: the variables by slot (self in slot 0) and what
// the evaluation has charged.
type celFrame struct {
	vars [maxCELSlots]cval
	cost uint64
	// args holds the arguments of the calls being made, innermost last.
	args []cval
}

var framePool = sync.Pool{New: func() any { return new(celFrame) }}

// charge adds c to the cost, and reports whether the total stays within the
// per-call limit.
func (f *celFrame) charge(c uint64) bool {
	f.cost = satAdd(f.cost, c)
	return f.cost <= celconfig.PerCallLimit
}

// holds reports whether the rule evaluates to true on self (of schema s), and
// a bound of what the program would charge for it; ok is false when the
// evaluation cannot tell, or the bound exceeds the per-call limit.
func (r *fastRule) holds(self any, s common.Schema) (holds bool, cost uint64, ok bool) {
	if r.pairs != nil {
		return r.pairs.holds(self)
	}
	return r.holdsCompiled(self, s)
}

// holdsCompiled is holds with the compiled closures.
func (r *fastRule) holdsCompiled(self any, s common.Schema) (holds bool, cost uint64, ok bool) {
	v, ok := valueOf(self, s)
	if !ok {
		return false, 0, false
	}
	f := framePool.Get().(*celFrame)
	f.vars[0], f.cost = v, 0
	res, ok := r.eval(f)
	cost = f.cost
	clear(f.vars[:r.slots]) // hold no value of the object in the pool
	f.args = f.args[:0]
	framePool.Put(f)
	if !ok || res.kind != vBool {
		return false, 0, false
	}
	return res.num != 0, cost, true
}

// cval is a value as a compiled rule holds it, without boxing: the scalars
// the adaptor gives for strings, integers and booleans, an object's map or a
// list as they are, with their schema (read as the adaptor reads them), a list
// the rule builds, or any other value the adaptor gives (a duration).
type cval struct {
	kind   cvalKind
	num    int64 // an integer, or a boolean as 0 or 1
	str    string
	obj    map[string]any
	schema common.Schema // of obj, or of a list
	more   *cvalMore
}

// cvalMore holds the rest of the rarer kinds of value.
type cvalMore struct {
	list []any // vList
	// items are a list's items as values: for vList made on the first
	// iteration (a comprehension nested in another iterates the same list
	// many times), for vBuilt the list itself.
	items []cval
	done  bool
	ref   ref.Val // vRef
}

type cvalKind uint8

const (
	vNone cvalKind = iota
	vBool
	vInt
	vString
	vObject
	vList
	vBuilt
	vRef
)

func builtVal(items []cval) cval {
	return cval{kind: vBuilt, more: &cvalMore{items: items, done: true}}
}

func boolVal(b bool) cval {
	if b {
		return cval{kind: vBool, num: 1}
	}
	return cval{kind: vBool}
}

// fromRef is a ref.Val as a cval.
func fromRef(v ref.Val) (cval, bool) {
	switch v := v.(type) {
	case types.String:
		return cval{kind: vString, str: string(v)}, true
	case types.Int:
		return cval{kind: vInt, num: int64(v)}, true
	case types.Bool:
		return boolVal(bool(v)), true
	case traits.Lister, traits.Mapper:
		return cval{}, false // a compound value: left to the program
	}
	if v == nil || types.IsUnknownOrError(v) {
		return cval{}, false
	}
	return cval{kind: vRef, more: &cvalMore{ref: v}}, true
}

// box is v as a ref.Val for a function implementation: the adaptor's value
// for a value of the object, nil for a list the rule built.
func (v cval) box() ref.Val {
	switch v.kind {
	case vBool:
		return types.Bool(v.num != 0)
	case vInt:
		return types.Int(v.num)
	case vString:
		return types.String(v.str)
	case vObject:
		return common.UnstructuredToVal(v.obj, v.schema)
	case vList:
		return common.UnstructuredToVal(v.more.list, v.schema)
	case vRef:
		return v.more.ref
	}
	return nil
}

// size is actualSize of the cost tracker: a string's length (in bytes here,
// no less than its length in code points), a list's or map's, else 1.
func (v cval) size() uint64 {
	switch v.kind {
	case vString:
		return uint64(len(v.str))
	case vObject:
		return uint64(len(v.obj))
	case vList:
		return uint64(len(v.more.list))
	case vBuilt:
		return uint64(len(v.more.items))
	case vRef:
		if s, ok := v.more.ref.(traits.Sizer); ok {
			if n, ok := s.Size().(types.Int); ok && n >= 0 {
				return uint64(n)
			}
		}
	}
	return 1
}

// valueOf is the value the API server's adaptor (common.UnstructuredToVal)
// gives x of schema s: objects and lists are kept as they are, for the
// compiled rule to read; scalars are the adaptor's own values.
func valueOf(x any, s common.Schema) (cval, bool) {
	if a, ok := s.(*proverAdaptor); ok && a.scalar != vNone {
		return scalarOf(x, a.scalar)
	}
	if x == nil || s == nil || s.IsXIntOrString() || s.IsXEmbeddedResource() {
		return cval{}, false
	}
	switch s.Type() {
	case "object":
		m, ok := x.(map[string]any)
		if !ok || s.Properties() == nil && (s.AdditionalProperties() == nil || s.AdditionalProperties().Schema() == nil) {
			return cval{}, false
		}
		return cval{kind: vObject, obj: m, schema: s}, true
	case "array":
		l, ok := x.([]any)
		if !ok || s.Items() == nil {
			return cval{}, false
		}
		return cval{kind: vList, schema: s, more: &cvalMore{list: l}}, true
	}
	return fromRef(common.UnstructuredToVal(x, s))
}

// scalarOf is UnstructuredToVal's own conversion of a scalar of a schema
// without format, checked as it checks it.
func scalarOf(x any, kind cvalKind) (cval, bool) {
	switch kind {
	case vString:
		v, ok := x.(string)
		return cval{kind: vString, str: v}, ok
	case vInt:
		v, ok := x.(int64)
		return cval{kind: vInt, num: v}, ok
	case vBool:
		v, ok := x.(bool)
		return boolVal(v), ok
	}
	return cval{}, false
}

// elements are the values of a list's items, as the adaptor's list gives
// them, or a built list's items.
func (v cval) elements() ([]cval, bool) {
	m := v.more
	if m.done {
		return m.items, true
	}
	items := make([]cval, len(m.list))
	for i, x := range m.list {
		item, ok := valueOf(x, v.schema.Items())
		if !ok {
			return nil, false
		}
		items[i] = item
	}
	m.items, m.done = items, true
	return items, true
}

// equal is CEL's equality (types.Equal, as the program's == evaluates it).
func equal(a, b cval) (bool, bool) {
	switch {
	case a.kind == vString && b.kind == vString:
		return a.str == b.str, true
	case (a.kind == vInt || a.kind == vBool) && a.kind == b.kind:
		return a.num == b.num, true
	}
	ra, rb := a.box(), b.box()
	if ra == nil || rb == nil || a.kind == vObject || a.kind == vList || b.kind == vObject || b.kind == vList {
		return false, false // compound equality: left to the program
	}
	switch types.Equal(ra, rb) {
	case types.True:
		return true, true
	case types.False:
		return false, true
	}
	return false, false
}

// ruleCharges are what a compiled rule charges for a step, each at least what
// the program's cost tracker charges for it (interpreter.costTrackerFactory.
// Observe): an identifier costs 1 (common.SelectAndIdentCost); a field
// selection, presence test or index 1 for the attribute and 1 for the
// qualifier; a constant and the && || ?: operators nothing beyond their
// operands; a list literal common.ListCreateBaseCost; a call of a function
// costChecked lists, 1 + the product of (1 + the size of each argument).
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

func callCharge(args []cval) uint64 {
	c := uint64(1)
	for _, a := range args {
		c = satMul(c, satAdd(1, a.size()))
	}
	return satAdd(c, 1)
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

// celCompiler compiles a checked expression into celNodes. Where it knows
// the schema of an expression's values (self's, a field's of a value whose
// schema it knows, an item's of a list whose schema it knows), the compiled
// field selections look the field's schema up once, when compiling, for
// values of that schema.
type celCompiler struct {
	checked *ast.AST
	scope   []string        // the variables in scope, by slot
	schemas []common.Schema // their schemas, when known
	slots   int
	// schemaOf is the schema of an expression's values, by id, when known.
	schemaOf map[int64]common.Schema
}

func (c *celCompiler) slot(name string) (int, bool) {
	for i := len(c.scope) - 1; i >= 0; i-- {
		if c.scope[i] == name {
			return i, true
		}
	}
	return 0, false
}

func (c *celCompiler) compile(x ast.Expr) (celNode, bool) {
	c.slots = max(c.slots, len(c.scope))
	switch x.Kind() {
	case ast.LiteralKind:
		v, ok := fromRef(x.AsLiteral())
		return func(*celFrame) (cval, bool) { return v, true }, ok
	case ast.IdentKind:
		i, ok := c.slot(x.AsIdent())
		if ok && c.schemas[i] != nil {
			c.schemaOf[x.ID()] = c.schemas[i]
		}
		return func(f *celFrame) (cval, bool) { return f.vars[i], f.charge(identCharge) }, ok
	case ast.SelectKind:
		return c.compileSelect(x.ID(), x.AsSelect())
	case ast.ListKind:
		l := x.AsList()
		if len(l.OptionalIndices()) > 0 {
			return nil, false
		}
		elems, ok := c.compileAll(l.Elements())
		return func(f *celFrame) (cval, bool) {
			if !f.charge(listCharge) {
				return cval{}, false
			}
			out := make([]cval, len(elems))
			for i, e := range elems {
				v, ok := e(f)
				if !ok {
					return cval{}, false
				}
				out[i] = v
			}
			return builtVal(out), true
		}, ok
	case ast.ComprehensionKind:
		return c.compileComprehension(x.AsComprehension())
	case ast.CallKind:
		return c.compileCall(x)
	}
	return nil, false
}

func (c *celCompiler) compileAll(xs []ast.Expr) ([]celNode, bool) {
	out := make([]celNode, len(xs))
	for i, x := range xs {
		n, ok := c.compile(x)
		if !ok {
			return nil, false
		}
		out[i] = n
	}
	return out, true
}

// compileSelect is a field selection, or has() when test-only, with the
// adaptor's semantics (unstructuredMap.Find and Contains): a missing field is
// an error, or false for has(); has() converts the value too.
func (c *celCompiler) compileSelect(id int64, s ast.SelectExpr) (celNode, bool) {
	operand, ok := c.compile(s.Operand())
	if !ok {
		return nil, false
	}
	escaped := s.FieldName()
	unescaped, ok := apiservercel.Unescape(escaped)
	if !ok {
		return nil, false
	}
	testOnly := s.IsTestOnly()
	// The field's schema in values of the schema the operand is known to
	// have.
	known := c.schemaOf[s.Operand().ID()]
	var knownChild common.Schema
	var knownScalar cvalKind
	if a, ok := known.(*proverAdaptor); ok && a.Properties() != nil {
		if child := a.Properties()[unescaped]; child != nil {
			knownChild = child
			if !testOnly {
				c.schemaOf[id] = child
			}
			if ca, ok := child.(*proverAdaptor); ok {
				knownScalar = ca.scalar
			}
		}
	}
	return func(f *celFrame) (cval, bool) {
		o, ok := operand(f)
		if !ok || o.kind != vObject || !f.charge(selectCharge) {
			return cval{}, false
		}
		if knownChild != nil && o.schema == known {
			v, present := o.obj[unescaped]
			if !present || v == nil {
				return boolVal(false), testOnly
			}
			if knownScalar != vNone {
				val, ok := scalarOf(v, knownScalar)
				if testOnly {
					return boolVal(true), ok
				}
				return val, ok
			}
			val, ok := valueOf(v, knownChild)
			if testOnly {
				return boolVal(true), ok
			}
			return val, ok
		}
		name, child := escaped, common.Schema(nil)
		props := o.schema.Properties()
		if props != nil {
			name, child = unescaped, props[unescaped]
		} else {
			child = o.schema.AdditionalProperties().Schema()
		}
		v, present := o.obj[name]
		if !present || v == nil && props != nil || child == nil {
			return boolVal(false), testOnly
		}
		val, ok := valueOf(v, child)
		if testOnly {
			return boolVal(true), ok
		}
		return val, ok
	}, true
}

func (c *celCompiler) compileComprehension(x ast.ComprehensionExpr) (celNode, bool) {
	if x.HasIterVar2() {
		return nil, false
	}
	rng, ok1 := c.compile(x.IterRange())
	accuInit, ok2 := c.compile(x.AccuInit())
	var item common.Schema
	if list := c.schemaOf[x.IterRange().ID()]; list != nil && list.Type() == "array" {
		item = list.Items()
	}
	iterSlot, accuSlot := len(c.scope), len(c.scope)+1
	c.scope = append(c.scope, x.IterVar(), x.AccuVar())
	c.schemas = append(c.schemas, item, nil)
	cond, ok3 := c.compile(x.LoopCondition())
	step, ok4 := c.compile(x.LoopStep())
	c.scope[iterSlot] = "" // the result sees the accumulator only
	result, ok5 := c.compile(x.Result())
	c.scope, c.schemas = c.scope[:iterSlot], c.schemas[:iterSlot]
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
		return nil, false
	}
	return func(f *celFrame) (cval, bool) {
		r, ok := rng(f)
		if !ok {
			return cval{}, false
		}
		var items []cval
		unordered := false
		switch r.kind {
		case vList, vBuilt:
			if items, ok = r.elements(); !ok {
				return cval{}, false
			}
		case vObject:
			// The keys of a map (additionalProperties); the adaptor iterates
			// them in Go's map order, so a result that depends on the order
			// (a list built from them) is left to the program.
			if r.schema.Properties() != nil {
				return cval{}, false
			}
			unordered = true
			items = make([]cval, 0, len(r.obj))
			for k := range r.obj {
				items = append(items, cval{kind: vString, str: k})
			}
		default:
			return cval{}, false
		}
		accu, ok := accuInit(f)
		if !ok {
			return cval{}, false
		}
		for _, item := range items {
			f.vars[iterSlot], f.vars[accuSlot] = item, accu
			cv, ok := cond(f)
			if !ok || cv.kind != vBool {
				return cval{}, false
			}
			if cv.num == 0 {
				break
			}
			if accu, ok = step(f); !ok || unordered && accu.kind == vBuilt {
				return cval{}, false
			}
		}
		f.vars[accuSlot] = accu
		return result(f)
	}, true
}

func (c *celCompiler) compileCall(x ast.Expr) (celNode, bool) {
	call := x.AsCall()
	fn := call.FunctionName()
	var argExprs []ast.Expr
	if call.IsMemberFunction() {
		argExprs = append(argExprs, call.Target())
	}
	argExprs = append(argExprs, call.Args()...)
	switch fn {
	case operators.OptSelect, operators.OptIndex:
		return nil, false
	case operators.LogicalAnd, operators.LogicalOr:
		// CEL's && and || are commutative over errors; the compiled rule
		// needs only the answers it gets without one.
		terms, ok := c.compileAll(argExprs)
		stop := fn == operators.LogicalOr
		return func(f *celFrame) (cval, bool) {
			for _, t := range terms {
				v, ok := t(f)
				if !ok || v.kind != vBool {
					return cval{}, false
				}
				if (v.num != 0) == stop {
					return boolVal(stop), true
				}
			}
			return boolVal(!stop), true
		}, ok
	case operators.Conditional:
		parts, ok := c.compileAll(argExprs)
		if !ok {
			return nil, false
		}
		return func(f *celFrame) (cval, bool) {
			cond, ok := parts[0](f)
			if !ok || cond.kind != vBool {
				return cval{}, false
			}
			if cond.num != 0 {
				return parts[1](f)
			}
			return parts[2](f)
		}, true
	}
	args, ok := c.compileAll(argExprs)
	if !ok {
		return nil, false
	}
	if fn == operators.Index {
		if len(args) != 2 {
			return nil, false
		}
		if list := c.schemaOf[argExprs[0].ID()]; list != nil && list.Type() == "array" && list.Items() != nil {
			c.schemaOf[x.ID()] = list.Items()
		}
		return func(f *celFrame) (cval, bool) {
			l, ok1 := args[0](f)
			i, ok2 := args[1](f)
			if !ok1 || !ok2 || !f.charge(selectCharge) || i.kind != vInt || i.num < 0 {
				return cval{}, false
			}
			switch l.kind {
			case vList:
				if i.num >= int64(len(l.more.list)) {
					return cval{}, false
				}
				return valueOf(l.more.list[i.num], l.schema.Items())
			case vBuilt:
				if i.num >= int64(len(l.more.items)) {
					return cval{}, false
				}
				return l.more.items[i.num], true
			}
			return cval{}, false
		}, true
	}
	ids := c.checked.GetOverloadIDs(x.ID())
	if len(ids) != 1 || !costChecked[ids[0]] {
		return nil, false
	}
	id := ids[0]
	op := nativeOp(id, fn, argExprs)
	if op == nil {
		if op = dispatchOp(id, fn); op == nil {
			return nil, false
		}
	}
	return func(f *celFrame) (cval, bool) {
		base := len(f.args)
		for _, a := range args {
			v, ok := a(f)
			if !ok {
				f.args = f.args[:base]
				return cval{}, false
			}
			f.args = append(f.args, v)
		}
		vals := f.args[base:]
		var r cval
		ok := f.charge(callCharge(vals))
		if ok {
			r, ok = op(vals)
		}
		f.args = f.args[:base]
		return r, ok
	}, true
}

// callOp computes a call from its arguments' values.
type callOp func(args []cval) (cval, bool)

// nativeOp is the call of overload id made in Go as its implementation makes
// it (cel-go's standard library: strings.Contains, HasPrefix and HasSuffix,
// utf8 code points for size, checked integer addition; the interpreter's
// equality, list membership and regex constant optimization), or nil.
func nativeOp(id, fn string, args []ast.Expr) callOp {
	switch id {
	case overloads.NotStrictlyFalse:
		return func(a []cval) (cval, bool) { return boolVal(a[0].kind != vBool || a[0].num != 0), a[0].kind == vBool }
	case overloads.LogicalNot:
		return func(a []cval) (cval, bool) { return boolVal(a[0].num == 0), a[0].kind == vBool }
	case overloads.Equals, overloads.NotEquals:
		negate := id == overloads.NotEquals
		return func(a []cval) (cval, bool) {
			eq, ok := equal(a[0], a[1])
			return boolVal(eq != negate), ok
		}
	case overloads.InList:
		other := dispatchOp(id, fn)
		return func(a []cval) (cval, bool) {
			if a[1].kind != vBuilt {
				if other == nil {
					return cval{}, false
				}
				return other(a)
			}
			// The program tests membership with Equal.
			for _, e := range a[1].more.items {
				eq, ok := equal(a[0], e)
				if !ok {
					return cval{}, false
				}
				if eq {
					return boolVal(true), true
				}
			}
			return boolVal(false), true
		}
	case overloads.AddList:
		return func(a []cval) (cval, bool) {
			if a[0].kind != vBuilt || a[1].kind != vBuilt {
				return cval{}, false
			}
			return builtVal(append(append([]cval{}, a[0].more.items...), a[1].more.items...)), true
		}
	case overloads.AddInt64:
		return func(a []cval) (cval, bool) {
			if a[0].kind != vInt || a[1].kind != vInt {
				return cval{}, false
			}
			x, y := a[0].num, a[1].num
			s := x + y
			if (y > 0 && s < x) || (y < 0 && s > x) {
				return cval{}, false // overflow: an error for the program
			}
			return cval{kind: vInt, num: s}, true
		}
	case overloads.LessInt64, overloads.LessEqualsInt64, overloads.GreaterInt64, overloads.GreaterEqualsInt64:
		return func(a []cval) (cval, bool) {
			if a[0].kind != vInt || a[1].kind != vInt {
				return cval{}, false
			}
			x, y := a[0].num, a[1].num
			switch id {
			case overloads.LessInt64:
				return boolVal(x < y), true
			case overloads.LessEqualsInt64:
				return boolVal(x <= y), true
			case overloads.GreaterInt64:
				return boolVal(x > y), true
			}
			return boolVal(x >= y), true
		}
	case "is_ip":
		// The Kubernetes library's isIP (library.parseIPAddr), without the
		// error text it formats for every string that is not an address.
		return func(a []cval) (cval, bool) {
			if a[0].kind != vString {
				return cval{}, false
			}
			addr, err := netip.ParseAddr(a[0].str)
			return boolVal(err == nil && addr.Zone() == "" && !addr.Is4In6()), true
		}
	case overloads.SizeString, overloads.SizeStringInst:
		return func(a []cval) (cval, bool) {
			return cval{kind: vInt, num: int64(utf8.RuneCountInString(a[0].str))}, a[0].kind == vString
		}
	case overloads.SizeList, overloads.SizeListInst:
		return func(a []cval) (cval, bool) {
			switch a[0].kind {
			case vList:
				return cval{kind: vInt, num: int64(len(a[0].more.list))}, true
			case vBuilt:
				return cval{kind: vInt, num: int64(len(a[0].more.items))}, true
			}
			return cval{}, false
		}
	case overloads.ContainsString, overloads.StartsWithString, overloads.EndsWithString:
		test := strings.Contains
		switch id {
		case overloads.StartsWithString:
			test = strings.HasPrefix
		case overloads.EndsWithString:
			test = strings.HasSuffix
		}
		return func(a []cval) (cval, bool) {
			return boolVal(test(a[0].str, a[1].str)), a[0].kind == vString && a[1].kind == vString
		}
	case overloads.MatchesString:
		// The program compiles a constant pattern once (cel-go's
		// MatchesRegexOptimization, which compiles with regexp.Compile).
		pat := args[len(args)-1]
		if pat.Kind() != ast.LiteralKind {
			return nil
		}
		s, ok := pat.AsLiteral().(types.String)
		if !ok {
			return nil
		}
		re, err := regexp.Compile(string(s))
		if err != nil {
			return nil
		}
		match := re.MatchString
		if m := dnsMatcher(string(s)); m != nil {
			match = m // what the regexp matches, without it (FuzzDNSMatchers)
		}
		return func(a []cval) (cval, bool) {
			return boolVal(match(a[0].str)), a[0].kind == vString
		}
	}
	return nil
}

// dispatchOp calls the environment's implementation of overload id (else of
// the function, as the program's planner finds it), with the arguments as the
// adaptor gives them.
func dispatchOp(id, fn string) callOp {
	impl := dispatcher[id]
	if impl == nil {
		// The standard library binds some functions once for all their
		// overloads.
		impl = dispatcher[fn]
	}
	if impl == nil {
		return nil
	}
	return func(vals []cval) (cval, bool) {
		args := make([]ref.Val, len(vals))
		for i, v := range vals {
			if args[i] = v.box(); args[i] == nil {
				return cval{}, false
			}
		}
		if impl.OperandTrait != 0 && !args[0].Type().HasTrait(impl.OperandTrait) {
			return cval{}, false
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
			return cval{}, false
		}
		return fromRef(r)
	}
}
