package admit

import (
	"strings"
	"unicode"

	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/common"
)

// The parentRefs rules of every route kind (two per channel: "sectionName or
// port must be specified" and "... must be unique when parentRefs includes 2
// or more references to the same parent") and the listener rules of a Gateway
// (names, and combinations of port, protocol and hostname, unique) are
// comprehensions over a list that compare every pair of its items. They are
// most of the CEL time of a configuration: a route's parentRefs rarely repeat
// (they name its Gateway and listener), so the memos do not spare them, and
// a Gateway of 20 listeners compares 400 pairs.
//
// pairRule evaluates one of them without the compiled closures: it reads the
// fields the rule reads of each item once and runs the rule's pairwise
// comparisons directly. It is a specialization of the rule's fastRule, not a
// new oracle: it takes every step the compiled closures take, in the same
// order (the && || ?: operators stop where the closures stop), charges for
// each what they charge (ruleCharges), and gives up wherever they give up (a
// field read that is absent, a value of another type, an item that is not an
// object, a total above the per-call limit). So it tells what the fastRule
// tells, with the same bound; TestPairRulesAreTheirFastRules holds it to the
// compiled closures and to the rule's program on lists made to collide, and
// CheckFastRules (TestFastRulesAgreeWithPrograms, FuzzFastRules) holds it to
// both on every such list of the corpus.
type pairRule struct {
	// family names the items' kind, for the tests' lists.
	family string
	// fields are the items' fields the rule reads; integers has bit i set
	// when fields[i] is an integer (the others are strings).
	fields   []string
	integers uint8
	// unique: self.all(a, self.exists_one(b, pair(a, b))); else
	// self.all(a, self.all(b, pair(a, b))).
	unique bool
	// predicate is the rule's pairwise predicate (pair); a switch rather
	// than a function value, so that the items stay on the stack.
	predicate pairPredicate
}

type pairPredicate uint8

const (
	predSpecifiedWithPort pairPredicate = iota
	predUniqueWithPort
	predSpecified
	predUnique
	predListenerNames
	predListenerAddress
)

// pair is the predicate the inner comprehension evaluates on a and b.
func (r *pairRule) pair(e *pairEval, a, b *pairItem) bool {
	switch r.predicate {
	case predSpecifiedWithPort:
		return specified(e, a, b, true)
	case predUniqueWithPort:
		return sameReference(e, a, b, true)
	case predSpecified:
		return specified(e, a, b, false)
	case predUnique:
		return sameReference(e, a, b, false)
	case predListenerNames:
		return e.eqStrings(a, b, 0)
	}
	return sameListenerAddress(e, a, b)
}

// The rules' texts, as the v1.6.3 CRDs write them (spacing aside). A rule is
// specialized only when its text is one of these, but for whitespace (which
// cannot change a rule that compiles, see pairRuleOf).
const (
	ruleSpecifiedWithPort = `self.all(p1, self.all(p2, p1.group == p2.group && p1.kind == p2.kind && p1.name == p2.name && (((!has(p1.__namespace__) || p1.__namespace__ == '') && (!has(p2.__namespace__) || p2.__namespace__ == '')) || (has(p1.__namespace__) && has(p2.__namespace__) && p1.__namespace__ == p2.__namespace__)) ? ((!has(p1.sectionName) || p1.sectionName == '') == (!has(p2.sectionName) || p2.sectionName == '') && (!has(p1.port) || p1.port == 0) == (!has(p2.port) || p2.port == 0)): true))`
	ruleUniqueWithPort    = `self.all(p1, self.exists_one(p2, p1.group == p2.group && p1.kind == p2.kind && p1.name == p2.name && (((!has(p1.__namespace__) || p1.__namespace__ == '') && (!has(p2.__namespace__) || p2.__namespace__ == '')) || (has(p1.__namespace__) && has(p2.__namespace__) && p1.__namespace__ == p2.__namespace__ )) && (((!has(p1.sectionName) || p1.sectionName == '') && (!has(p2.sectionName) || p2.sectionName == '')) || ( has(p1.sectionName) && has(p2.sectionName) && p1.sectionName == p2.sectionName)) && (((!has(p1.port) || p1.port == 0) && (!has(p2.port) || p2.port == 0)) || (has(p1.port) && has(p2.port) && p1.port == p2.port))))`
	ruleSpecified         = `self.all(p1, self.all(p2, p1.group == p2.group && p1.kind == p2.kind && p1.name == p2.name && (((!has(p1.__namespace__) || p1.__namespace__ == '') && (!has(p2.__namespace__) || p2.__namespace__ == '')) || (has(p1.__namespace__) && has(p2.__namespace__) && p1.__namespace__ == p2.__namespace__ )) ? ((!has(p1.sectionName) || p1.sectionName == '') == (!has(p2.sectionName) || p2.sectionName == '')) : true))`
	ruleUnique            = `self.all(p1, self.exists_one(p2, p1.group == p2.group && p1.kind == p2.kind && p1.name == p2.name && (((!has(p1.__namespace__) || p1.__namespace__ == '') && (!has(p2.__namespace__) || p2.__namespace__ == '')) || (has(p1.__namespace__) && has(p2.__namespace__) && p1.__namespace__ == p2.__namespace__ )) && (((!has(p1.sectionName) || p1.sectionName == '') && (!has(p2.sectionName) || p2.sectionName == '')) || (has(p1.sectionName) && has(p2.sectionName) && p1.sectionName == p2.sectionName))))`
	ruleListenerNames     = `self.all(l1, self.exists_one(l2, l1.name == l2.name))`
	ruleListenerPorts     = `self.all(l1, self.exists_one(l2, l1.port == l2.port && l1.protocol == l2.protocol && (has(l1.hostname) && has(l2.hostname) ? l1.hostname == l2.hostname : !has(l1.hostname) && !has(l2.hostname))))`
)

// The fields of a parent reference the parentRefs rules read, in pairRule.fields.
const (
	refGroup = iota
	refKind
	refName
	refNamespace
	refSection
	refPort
)

var (
	parentRefFields = []string{"group", "kind", "name", "namespace", "sectionName", "port"}
	parentRefInts   = uint8(1 << refPort)
)

// The fields of a listener the listener rules read.
const (
	listenerName = iota
	listenerPort
	listenerProtocol
	listenerHostname
)

var pairRules = map[string]*pairRule{
	stripSpace(ruleSpecifiedWithPort): {family: "parentRefs", fields: parentRefFields, integers: parentRefInts, predicate: predSpecifiedWithPort},
	stripSpace(ruleUniqueWithPort):    {family: "parentRefs", fields: parentRefFields, integers: parentRefInts, unique: true, predicate: predUniqueWithPort},
	stripSpace(ruleSpecified):         {family: "parentRefs", fields: parentRefFields[:refPort], predicate: predSpecified},
	stripSpace(ruleUnique):            {family: "parentRefs", fields: parentRefFields[:refPort], unique: true, predicate: predUnique},
	stripSpace(ruleListenerNames):     {family: "listeners", fields: []string{"name"}, unique: true, predicate: predListenerNames},
	stripSpace(ruleListenerPorts): {family: "listeners", fields: []string{"name", "port", "protocol", "hostname"}, integers: 1 << listenerPort, unique: true,
		predicate: predListenerAddress},
}

func (r *pairRule) integer(i int) bool { return r.integers&(1<<i) != 0 }

func stripSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// pairRuleOf is the specialization of a rule of the text given on a list of
// schema self, or nil. Whitespace aside, the text must be one of the table's:
// a text that differs from one only by whitespace and compiles (the caller
// has compiled it) has the same tokens, since no token of theirs stays a
// token when split, nor becomes another when joined to its neighbour without
// space (every neighbour is punctuation). The list's items must be objects
// whose fields the rule reads are plain strings (integers where the table
// says), as the compiled closures read them (scalarOf).
func pairRuleOf(text string, self common.Schema) *pairRule {
	r, ok := pairRules[stripSpace(text)]
	if !ok || self == nil || self.Type() != "array" || self.IsXIntOrString() || self.IsXEmbeddedResource() {
		return nil
	}
	items, ok := self.Items().(*proverAdaptor)
	if !ok || items == nil || items.Type() != "object" || items.IsXIntOrString() || items.IsXEmbeddedResource() || items.Properties() == nil {
		return nil
	}
	for i, k := range r.fields {
		want := vString
		if r.integer(i) {
			want = vInt
		}
		p, ok := items.Properties()[k].(*proverAdaptor)
		if !ok || p == nil || p.scalar != want {
			return nil
		}
	}
	return r
}

// pairField is one field of an item: absent, present (with its value), or
// present with a value of another type, which the closures give up on when
// they read or test it.
type pairField struct {
	state uint8
	str   string
	num   int64
}

const (
	fieldAbsent uint8 = iota
	fieldPresent
	fieldBad
)

// maxPairFields bounds the fields a pairRule reads.
const maxPairFields = 6

// pairItem is the fields of an item, in the order of pairRule.fields.
type pairItem [maxPairFields]pairField

// pairEval is one evaluation: what it has charged, and whether a closure
// would have given up.
type pairEval struct {
	cost   uint64
	giveUp bool
}

func (e *pairEval) charge(c uint64) { e.cost = satAdd(e.cost, c) }

// has is has(p.k): the identifier and the selection.
func (e *pairEval) has(p *pairItem, k int) bool {
	e.charge(identCharge + selectCharge)
	if p[k].state == fieldBad {
		e.giveUp = true
	}
	return p[k].state == fieldPresent
}

// notHas is !has(p.k): has, and ! (a call on a boolean).
func (e *pairEval) notHas(p *pairItem, k int) bool {
	present := e.has(p, k)
	e.charge(boolCallCharge)
	return !present
}

// sel is p.k: a missing field is an error, left to the program.
func (e *pairEval) sel(p *pairItem, k int) *pairField {
	e.charge(identCharge + selectCharge)
	if p[k].state != fieldPresent {
		e.giveUp = true
	}
	return &p[k]
}

// eqStrings is p1.k == p2.k of two strings.
func (e *pairEval) eqStrings(p1, p2 *pairItem, k int) bool {
	a, b := e.sel(p1, k), e.sel(p2, k)
	e.charge(satAdd(satMul(1+uint64(len(a.str)), 1+uint64(len(b.str))), 1))
	return a.str == b.str
}

// eqInts is p1.k == p2.k of two integers.
func (e *pairEval) eqInts(p1, p2 *pairItem, k int) bool {
	a, b := e.sel(p1, k), e.sel(p2, k)
	e.charge(twoScalarCallCharge)
	return a.num == b.num
}

// unset is (!has(p.k) || p.k == "") for a string, (!has(p.k) || p.k == 0)
// for an integer.
func (e *pairEval) unset(p *pairItem, k int, integer bool) bool {
	if e.notHas(p, k) {
		return true
	}
	f := e.sel(p, k)
	if integer {
		e.charge(twoScalarCallCharge)
		return f.num == 0
	}
	e.charge(1 + uint64(len(f.str)) + 1) // == the empty string: (1 + size) * (1 + 0) + 1
	return f.str == ""
}

// sameOrUnset is ((unset(p1.k) && unset(p2.k)) || (has(p1.k) && has(p2.k) &&
// p1.k == p2.k)).
func (e *pairEval) sameOrUnset(p1, p2 *pairItem, k int, integer bool) bool {
	if e.unset(p1, k, integer) && e.unset(p2, k, integer) {
		return true
	}
	if !e.has(p1, k) || !e.has(p2, k) {
		return false
	}
	if integer {
		return e.eqInts(p1, p2, k)
	}
	return e.eqStrings(p1, p2, k)
}

// sameParent is p1.group == p2.group && p1.kind == p2.kind && p1.name ==
// p2.name && sameOrUnset(namespace).
func sameParent(e *pairEval, p1, p2 *pairItem) bool {
	return e.eqStrings(p1, p2, refGroup) && e.eqStrings(p1, p2, refKind) && e.eqStrings(p1, p2, refName) &&
		e.sameOrUnset(p1, p2, refNamespace, false)
}

// sameReference is the predicate of the "must be unique" parentRefs rules.
func sameReference(e *pairEval, p1, p2 *pairItem, withPort bool) bool {
	return sameParent(e, p1, p2) && e.sameOrUnset(p1, p2, refSection, false) &&
		(!withPort || e.sameOrUnset(p1, p2, refPort, true))
}

// specified is the predicate of the "must be specified" parentRefs rules:
// sameParent ? (unset(p1.sectionName) == unset(p2.sectionName) [&&
// unset(p1.port) == unset(p2.port)]) : true.
func specified(e *pairEval, p1, p2 *pairItem, withPort bool) bool {
	if !sameParent(e, p1, p2) {
		return true
	}
	a, b := e.unset(p1, refSection, false), e.unset(p2, refSection, false)
	e.charge(twoScalarCallCharge) // bool == bool
	if a != b || !withPort {
		return a == b
	}
	c, d := e.unset(p1, refPort, true), e.unset(p2, refPort, true)
	e.charge(twoScalarCallCharge)
	return c == d
}

// sameListenerAddress is l1.port == l2.port && l1.protocol == l2.protocol &&
// (has(l1.hostname) && has(l2.hostname) ? l1.hostname == l2.hostname :
// !has(l1.hostname) && !has(l2.hostname)).
func sameListenerAddress(e *pairEval, l1, l2 *pairItem) bool {
	if !e.eqInts(l1, l2, listenerPort) || !e.eqStrings(l1, l2, listenerProtocol) {
		return false
	}
	if e.has(l1, listenerHostname) && e.has(l2, listenerHostname) {
		return e.eqStrings(l1, l2, listenerHostname)
	}
	return e.notHas(l1, listenerHostname) && e.notHas(l2, listenerHostname)
}

// The charges of calls and of the macros' own steps (ruleCharges): a call on
// one boolean (!, @not_strictly_false) 1 * (1 + 1) + 1, on two scalars
// (integers, booleans) (1 + 1) * (1 + 1) + 1; all's loop condition
// @not_strictly_false(@result) and exists_one's @result + 1 and @result == 1
// add the accumulator's identifier.
const (
	boolCallCharge      = 1*2 + 1
	twoScalarCallCharge = 2*2 + 1
	allCondCharge       = identCharge + boolCallCharge
	intCallCharge       = identCharge + twoScalarCallCharge
	accuIdentCharge     = identCharge
)

// holds evaluates the rule on the list x as the rule's fastRule does: the
// same answer, the same bound, and ok false wherever it gives up.
func (r *pairRule) holds(x any) (holds bool, cost uint64, ok bool) {
	list, ok := x.([]any)
	if !ok {
		return false, 0, false
	}
	var small [4]pairItem
	items := small[:0]
	if len(list) > len(small) {
		items = make([]pairItem, 0, len(list))
	}
	for _, x := range list {
		m, ok := x.(map[string]any)
		if !ok {
			return false, 0, false // not an object: the closures give up
		}
		var p pairItem
		for k, key := range r.fields {
			v, present := m[key]
			if !present || v == nil {
				continue
			}
			switch v := v.(type) {
			case string:
				if !r.integer(k) {
					p[k] = pairField{state: fieldPresent, str: v}
					continue
				}
			case int64:
				if r.integer(k) {
					p[k] = pairField{state: fieldPresent, num: v}
					continue
				}
			}
			p[k].state = fieldBad
		}
		items = append(items, p)
	}
	e := pairEval{}
	// self.all(a, ...): the range, then for each item the loop condition
	// and the step @result && inner.
	e.charge(identCharge)
	all := true
	for i := range items {
		e.charge(allCondCharge)
		if !all {
			break
		}
		e.charge(accuIdentCharge)
		all = r.inner(&e, &items[i], items)
		if e.giveUp {
			return false, 0, false
		}
	}
	e.charge(accuIdentCharge) // the result
	if e.giveUp || e.cost > celconfig.PerCallLimit {
		return false, 0, false
	}
	return all, e.cost, true
}

// inner is the inner comprehension for a: self.all(b, pair) or
// self.exists_one(b, pair).
func (r *pairRule) inner(e *pairEval, a *pairItem, items []pairItem) bool {
	e.charge(identCharge) // the range
	if r.unique {
		n := 0
		for i := range items {
			if r.pair(e, a, &items[i]) {
				e.charge(intCallCharge)
				n++
			} else {
				e.charge(accuIdentCharge)
			}
			if e.giveUp {
				return false
			}
		}
		e.charge(intCallCharge) // @result == 1
		return n == 1
	}
	all := true
	for i := range items {
		e.charge(allCondCharge)
		if !all {
			break
		}
		e.charge(accuIdentCharge)
		all = r.pair(e, a, &items[i])
		if e.giveUp {
			return false
		}
	}
	e.charge(accuIdentCharge)
	return all
}
