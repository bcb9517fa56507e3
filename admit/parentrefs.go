package admit

import (
	"strings"
	"unicode"

	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/common"
)

// The parentRefs rules of every route kind (two per channel: "sectionName or
// port must be specified" and "... must be unique when parentRefs includes 2
// or more references to the same parent") are comprehensions over the list
// that compare every pair of references. They are most of the CEL time of a
// route, and a route's parentRefs rarely repeat (they name its Gateway and
// listener), so the memos do not spare them.
//
// parentRefsRule evaluates one of them without the compiled closures: it
// reads the six fields of each reference once and runs the rule's pairwise
// comparisons directly. It is a specialization of the rule's fastRule, not a
// new oracle: it takes every step the compiled closures take, in the same
// order (the && || ?: operators stop where the closures stop), charges for
// each what they charge (ruleCharges), and gives up wherever they give up (a
// field read that is absent, a value of another type, an item that is not an
// object, a total above the per-call limit). So it tells what the fastRule
// tells, with the same bound; TestParentRefsRulesAreTheirFastRules holds it
// to the compiled closures and to the rule's program on lists made to collide,
// and CheckFastRules (TestFastRulesAgreeWithPrograms, FuzzFastRules) holds it
// to the program on every parentRefs list of the corpus.
type parentRefsRule struct {
	unique   bool // self.all(p1, self.exists_one(p2, same(p1, p2))), else the "specified" form
	withPort bool // the experimental channel's rules, which also read port
}

// The rules' texts, as the v1.6.3 CRDs write them (spacing aside). A rule is
// specialized only when its text is one of these, but for whitespace (which
// cannot change a rule that compiles, see parentRefsRuleOf).
const (
	ruleSpecifiedWithPort = `self.all(p1, self.all(p2, p1.group == p2.group && p1.kind == p2.kind && p1.name == p2.name && (((!has(p1.__namespace__) || p1.__namespace__ == '') && (!has(p2.__namespace__) || p2.__namespace__ == '')) || (has(p1.__namespace__) && has(p2.__namespace__) && p1.__namespace__ == p2.__namespace__)) ? ((!has(p1.sectionName) || p1.sectionName == '') == (!has(p2.sectionName) || p2.sectionName == '') && (!has(p1.port) || p1.port == 0) == (!has(p2.port) || p2.port == 0)): true))`
	ruleUniqueWithPort    = `self.all(p1, self.exists_one(p2, p1.group == p2.group && p1.kind == p2.kind && p1.name == p2.name && (((!has(p1.__namespace__) || p1.__namespace__ == '') && (!has(p2.__namespace__) || p2.__namespace__ == '')) || (has(p1.__namespace__) && has(p2.__namespace__) && p1.__namespace__ == p2.__namespace__ )) && (((!has(p1.sectionName) || p1.sectionName == '') && (!has(p2.sectionName) || p2.sectionName == '')) || ( has(p1.sectionName) && has(p2.sectionName) && p1.sectionName == p2.sectionName)) && (((!has(p1.port) || p1.port == 0) && (!has(p2.port) || p2.port == 0)) || (has(p1.port) && has(p2.port) && p1.port == p2.port))))`
	ruleSpecified         = `self.all(p1, self.all(p2, p1.group == p2.group && p1.kind == p2.kind && p1.name == p2.name && (((!has(p1.__namespace__) || p1.__namespace__ == '') && (!has(p2.__namespace__) || p2.__namespace__ == '')) || (has(p1.__namespace__) && has(p2.__namespace__) && p1.__namespace__ == p2.__namespace__ )) ? ((!has(p1.sectionName) || p1.sectionName == '') == (!has(p2.sectionName) || p2.sectionName == '')) : true))`
	ruleUnique            = `self.all(p1, self.exists_one(p2, p1.group == p2.group && p1.kind == p2.kind && p1.name == p2.name && (((!has(p1.__namespace__) || p1.__namespace__ == '') && (!has(p2.__namespace__) || p2.__namespace__ == '')) || (has(p1.__namespace__) && has(p2.__namespace__) && p1.__namespace__ == p2.__namespace__ )) && (((!has(p1.sectionName) || p1.sectionName == '') && (!has(p2.sectionName) || p2.sectionName == '')) || (has(p1.sectionName) && has(p2.sectionName) && p1.sectionName == p2.sectionName))))`
)

var parentRefsRules = map[string]parentRefsRule{
	stripSpace(ruleSpecifiedWithPort): {unique: false, withPort: true},
	stripSpace(ruleUniqueWithPort):    {unique: true, withPort: true},
	stripSpace(ruleSpecified):         {unique: false, withPort: false},
	stripSpace(ruleUnique):            {unique: true, withPort: false},
}

func stripSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// The fields of a parent reference the rules read, and their keys.
const (
	refGroup = iota
	refKind
	refName
	refNamespace
	refSection
	refPort
	refFields
)

var refKeys = [refFields]string{"group", "kind", "name", "namespace", "sectionName", "port"}

// parentRefsRuleOf is the specialization of a rule of the text given on a
// list of schema self, or nil. Whitespace aside, the text must be one of the
// four: a text that differs from one only by whitespace and compiles (the
// caller has compiled it) has the same tokens, since no token of theirs
// stays a token when split, nor becomes another when joined to its neighbour
// without space (every neighbour is punctuation). The list's items must be
// objects whose fields the rule reads are plain strings (port an integer), as
// the compiled closures read them (scalarOf).
func parentRefsRuleOf(text string, self common.Schema) *parentRefsRule {
	r, ok := parentRefsRules[stripSpace(text)]
	if !ok || self == nil || self.Type() != "array" || self.IsXIntOrString() || self.IsXEmbeddedResource() {
		return nil
	}
	items, ok := self.Items().(*proverAdaptor)
	if !ok || items == nil || items.Type() != "object" || items.IsXIntOrString() || items.IsXEmbeddedResource() || items.Properties() == nil {
		return nil
	}
	for i, k := range refKeys {
		if i == refPort && !r.withPort {
			continue
		}
		want := vString
		if i == refPort {
			want = vInt
		}
		p, ok := items.Properties()[k].(*proverAdaptor)
		if !ok || p == nil || p.scalar != want {
			return nil
		}
	}
	return &r
}

// refField is one field of a reference: absent, present (with its value), or
// present with a value of another type, which the closures give up on when
// they read or test it.
type refField struct {
	state uint8
	str   string
	num   int64
}

const (
	fieldAbsent uint8 = iota
	fieldPresent
	fieldBad
)

type parentRef [refFields]refField

// refEval is one evaluation: what it has charged, and whether a closure
// would have given up.
type refEval struct {
	cost   uint64
	giveUp bool
}

func (e *refEval) charge(c uint64) { e.cost = satAdd(e.cost, c) }

// has is has(p.k): the identifier and the selection.
func (e *refEval) has(p *parentRef, k int) bool {
	e.charge(identCharge + selectCharge)
	if p[k].state == fieldBad {
		e.giveUp = true
	}
	return p[k].state == fieldPresent
}

// sel is p.k: a missing field is an error, left to the program.
func (e *refEval) sel(p *parentRef, k int) *refField {
	e.charge(identCharge + selectCharge)
	if p[k].state != fieldPresent {
		e.giveUp = true
	}
	return &p[k]
}

// eqStrings is p1.k == p2.k of two strings.
func (e *refEval) eqStrings(p1, p2 *parentRef, k int) bool {
	a, b := e.sel(p1, k), e.sel(p2, k)
	e.charge(satAdd(satMul(1+uint64(len(a.str)), 1+uint64(len(b.str))), 1))
	return a.str == b.str
}

// eqInts is p1.port == p2.port.
func (e *refEval) eqInts(p1, p2 *parentRef, k int) bool {
	a, b := e.sel(p1, k), e.sel(p2, k)
	e.charge(2*2 + 1)
	return a.num == b.num
}

// unset is (!has(p.k) || p.k == "") for a string, (!has(p.k) || p.k == 0)
// for port.
func (e *refEval) unset(p *parentRef, k int) bool {
	present := e.has(p, k)
	e.charge(1 + 1 + 1) // !: a call on a boolean
	if !present {
		return true
	}
	f := e.sel(p, k)
	if k == refPort {
		e.charge(2*2 + 1)
		return f.num == 0
	}
	e.charge(1 + uint64(len(f.str)) + 1) // == the empty string: (1 + size) * (1 + 0) + 1
	return f.str == ""
}

// sameOrUnset is ((unset(p1.k) && unset(p2.k)) || (has(p1.k) && has(p2.k) &&
// p1.k == p2.k)).
func (e *refEval) sameOrUnset(p1, p2 *parentRef, k int) bool {
	if e.unset(p1, k) && e.unset(p2, k) {
		return true
	}
	if !e.has(p1, k) || !e.has(p2, k) {
		return false
	}
	if k == refPort {
		return e.eqInts(p1, p2, k)
	}
	return e.eqStrings(p1, p2, k)
}

// sameParent is p1.group == p2.group && p1.kind == p2.kind && p1.name ==
// p2.name && sameOrUnset(namespace).
func (e *refEval) sameParent(p1, p2 *parentRef) bool {
	return e.eqStrings(p1, p2, refGroup) && e.eqStrings(p1, p2, refKind) && e.eqStrings(p1, p2, refName) &&
		e.sameOrUnset(p1, p2, refNamespace)
}

// pair is the predicate the inner comprehension evaluates on p1 and p2.
func (r *parentRefsRule) pair(e *refEval, p1, p2 *parentRef) bool {
	if r.unique {
		return e.sameParent(p1, p2) && e.sameOrUnset(p1, p2, refSection) &&
			(!r.withPort || e.sameOrUnset(p1, p2, refPort))
	}
	if !e.sameParent(p1, p2) {
		return true // ?: true
	}
	a, b := e.unset(p1, refSection), e.unset(p2, refSection)
	e.charge(2*2 + 1) // bool == bool
	if a != b || !r.withPort {
		return a == b
	}
	c, d := e.unset(p1, refPort), e.unset(p2, refPort)
	e.charge(2*2 + 1)
	return c == d
}

// The charges of the macros' own steps: all's loop condition
// @not_strictly_false(@result), the accumulator's identifier, exists_one's
// @result + 1 and @result == 1 (an identifier and a call on two integers).
const (
	allCondCharge   = identCharge + 1*2 + 1
	intCallCharge   = identCharge + 2*2 + 1
	accuIdentCharge = identCharge
)

// holds evaluates the rule on the list x as the rule's fastRule does: the
// same answer, the same bound, and ok false wherever it gives up.
func (r *parentRefsRule) holds(x any) (holds bool, cost uint64, ok bool) {
	list, ok := x.([]any)
	if !ok {
		return false, 0, false
	}
	var small [4]parentRef
	refs := small[:0]
	if len(list) > len(small) {
		refs = make([]parentRef, 0, len(list))
	}
	for _, item := range list {
		m, ok := item.(map[string]any)
		if !ok {
			return false, 0, false // not an object: the closures give up
		}
		var p parentRef
		for k, key := range refKeys {
			v, present := m[key]
			if !present || v == nil {
				continue
			}
			switch v := v.(type) {
			case string:
				if k != refPort {
					p[k] = refField{state: fieldPresent, str: v}
					continue
				}
			case int64:
				if k == refPort {
					p[k] = refField{state: fieldPresent, num: v}
					continue
				}
			}
			p[k].state = fieldBad
		}
		refs = append(refs, p)
	}
	e := refEval{}
	// self.all(p1, ...): the range, then for each item the loop condition
	// and the step @result && inner.
	e.charge(identCharge)
	all := true
	for i := range refs {
		e.charge(allCondCharge)
		if !all {
			break
		}
		e.charge(accuIdentCharge)
		all = r.inner(&e, &refs[i], refs)
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

// inner is the inner comprehension for p1: self.all(p2, pair) or
// self.exists_one(p2, pair).
func (r *parentRefsRule) inner(e *refEval, p1 *parentRef, refs []parentRef) bool {
	e.charge(identCharge) // the range
	if r.unique {
		n := 0
		for i := range refs {
			if r.pair(e, p1, &refs[i]) {
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
	for i := range refs {
		e.charge(allCondCharge)
		if !all {
			break
		}
		e.charge(accuIdentCharge)
		all = r.pair(e, p1, &refs[i])
		if e.giveUp {
			return false
		}
	}
	e.charge(accuIdentCharge)
	return all
}
