package admit

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"math"
	"math/bits"
	"reflect"
	"regexp"
	"sort"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/google/cel-go/common/types"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/runtime"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// shortcut shows, much faster than the API server's code, that it admits an
// object, and computes the object it stores. It proves, it never refuses: when
// it cannot show the object clean it says so, and the caller runs the API
// server's code, whose answer (admitted or not, the message, the field errors)
// is the verdict. What it shows it shows with the same rules:
//
//   - decoding: jsonReader reads what the strict decoder reads, and gives up on
//     anything the decoder would refuse or convert;
//   - pruning: any field the schema does not know, or a null, gives up;
//   - defaulting: the schema's defaults, each computed once with the API
//     server's defaulting code;
//   - OpenAPI validation: the checks the CRDs use most (type, required,
//     lengths, counts, patterns, string enums, integer bounds) made natively,
//     and every other one by kube-openapi's validator on the node's own schema;
//   - list types: duplicate keys or set items give up;
//   - CEL: the rules compiled as the API server compiles them, evaluated on the
//     same values within the same runtime cost budget (as celProver does);
//   - ObjectMeta: the API server's ObjectMeta validation on the same metadata.
//
// Every value of a schema node is a function of its JSON text alone, so a
// node's result (the defaulted value and the CEL cost it took) is memoized by
// that text: configurations repeat backendRefs, parentRefs, filters and whole
// rules, and a repeated value costs a hash lookup. The runtime CEL cost of a
// memoized value is added to the object's total as if evaluated again (the
// same programs on the same values cost the same), so the per-object budget is
// accounted as the API server accounts it.
//
// TestShortcutAgreesWithAPIServerCode is its oracle and FuzzShortcut holds it to
// the API server's code on arbitrary input.
type shortcut struct {
	v    *servedVersion
	root *fastNode
	// rootDefaults are the root's properties with defaults, but status (the
	// API server's placeholder status is not the object's, see decode).
	rootDefaults []fastDefault
	rootRequired []string
	metaMemo     metaMemo
	// checkOnly: the shortcut only shows objects admitted, and makes no
	// object for a caller (the standard channel's, in an Admitter of the
	// experimental channel: see Admitter.standard).
	checkOnly bool
	// memos are the memos of the nodes under root, for forget.
	memos []*memo
	// apiVersion is the version's group/version, as objects write it.
	apiVersion string
	// apiVersionValue and kindValue are apiVersion and the kind as values of
	// an object: every admitted object holds the same two, rather than each
	// its own copies.
	apiVersionValue, kindValue any
}

// fastNode is one schema node, compiled for the shortcut.
type fastNode struct {
	kind nodeKind
	// name is the property the node is the schema of, "" for another node:
	// the key its values are kept under, without a string made for each.
	name string
	// unsupported: a value here is left to the API server's code.
	unsupported bool

	properties map[string]*fastNode
	additional *fastNode
	items      *fastNode
	defaults   []fastDefault
	required   []string
	// bit is the node's bit among its parent's properties (see
	// propertyBits); requiredBits are the bits of required.
	bit          uint64
	requiredBits uint64
	// propertyBits: the object's properties have a bit each and every
	// required property is one of them, so that which are present is a
	// bit set (readObject's duplicate, default and required checks).
	propertyBits bool
	// valueRead: a check reads the node's value (see markRead); a walk
	// that only checks (walk.checkOnly) makes values only for such nodes.
	valueRead bool

	minProperties, maxProperties *int64
	minItems, maxItems           *int64
	minLength, maxLength         *int64
	pattern                      *regexp.Regexp
	enum                         map[string]bool
	// match matches what pattern matches, without it (dnsMatcher); nil:
	// pattern does.
	match func(string) bool
	// minimum and maximum are inclusive integer bounds.
	minimum, maximum *int64

	listSet     bool
	listMapKeys []string

	// openAPI is kube-openapi's validator of the node's schema, for checks this
	// file does not make natively; nil when it makes them all.
	openAPI apiservervalidation.SchemaValidator

	// rules are the CEL rules of the node, celProver's, compiled on first
	// use; nil when it has none.
	rules *nodeRules

	memo *memo

	// fingerprint identifies the node's schema subtree; the flags say how an
	// experimental channel's tree shares it with the standard channel's
	// (shortcuttwin.go). They are set by twins.link while other walks of the
	// experimental tree run: a walk that reads them before the link records
	// or reuses less, and the standard channel's walk then reads those values
	// itself, so either answer is right, but the reads must be atomic.
	fingerprint            fingerprint
	sharedWithExperimental atomic.Bool
	recordForStandard      atomic.Bool
}

type nodeKind uint8

const (
	kindObject nodeKind = iota
	kindArray
	kindString
	kindInteger
	kindBoolean
	// kindOther is a type the shortcut reads but does not check natively
	// (number): openAPI checks it.
	kindOther
)

// fastDefault is a property's default, as the API server's defaulting leaves
// it (defaulted itself), and what validating it costs.
type fastDefault struct {
	name  string
	bit   uint64 // the property's bit, when its parent has propertyBits
	value any
	// check validates the value where it goes, on first use: whether it is
	// valid, and what that costs. Validating compiles the CEL rules of the
	// nodes it reads, which a run whose objects set the property, or which
	// never reads the node (a standard channel's twin node), does not need.
	check func() (ok bool, cost int64)
}

// newShortcut compiles the shortcut of v, or returns nil when v's schema is
// one it does not handle at all.
func newShortcut(v *servedVersion, openAPISchema *spec.Schema) *shortcut {
	s := v.structural
	if _, status := s.Properties["status"]; status && !v.hasStatus {
		// The status would be validated with the object; rare enough to leave
		// to the API server's code.
		return nil
	}
	if s.XEmbeddedResource || s.XPreserveUnknownFields || v.preserveUnknownFields {
		return nil
	}
	if v.hasRules && v.prover == nil {
		return nil
	}
	var prover *proverNode
	if v.prover != nil {
		prover = v.prover.root
	}
	root := compileNode(s, openAPISchema, prover)
	if root.kind != kindObject || root.openAPI != nil || root.rules != nil {
		return nil
	}
	sc := &shortcut{v: v, root: root, apiVersion: v.gvk.GroupVersion().String()}
	sc.apiVersionValue, sc.kindValue = sc.apiVersion, v.gvk.Kind
	for _, d := range root.defaults {
		if d.name != "status" {
			sc.rootDefaults = append(sc.rootDefaults, d)
		}
	}
	sc.rootRequired = root.required
	root.markRead(false)
	root.eachMemo(func(m *memo) { sc.memos = append(sc.memos, m) })
	// The metadata schema may only be a type: ObjectMeta is the API server's
	// own business (the shortcut does not run the metadata schema).
	if md := root.properties["metadata"]; md != nil && !(md.kind == kindObject && md.openAPI == nil && md.rules == nil &&
		len(md.properties) == 0 && md.additional == nil && len(md.defaults) == 0 && len(md.required) == 0 &&
		md.minProperties == nil && md.maxProperties == nil) {
		return nil
	}
	for _, k := range []string{"apiVersion", "kind"} {
		if n := root.properties[k]; n != nil && !n.plainString() {
			return nil
		}
	}
	return sc
}

// eachMemo calls f with the memo of n and of every node under it.
func (n *fastNode) eachMemo(f func(*memo)) {
	if n == nil {
		return
	}
	if n.memo != nil {
		f(n.memo)
	}
	for _, c := range n.properties {
		c.eachMemo(f)
	}
	n.additional.eachMemo(f)
	n.items.eachMemo(f)
}

// markRead marks the nodes whose values a check reads: those with CEL rules
// (which read the whole value under them) or kube-openapi's validator, the
// items of a list whose items must be unique, and every node under them;
// read says n's parent's value is read.
func (n *fastNode) markRead(read bool) {
	if n == nil {
		return
	}
	n.valueRead = read || n.rules != nil || n.openAPI != nil
	for _, c := range n.properties {
		c.markRead(n.valueRead)
	}
	n.additional.markRead(n.valueRead)
	n.items.markRead(n.valueRead || n.listSet || n.listMapKeys != nil)
}

// forget drops what the shortcut's memos remember: they start again empty,
// and what they forgot is computed again, to the same answers.
func (sc *shortcut) forget() {
	if sc == nil {
		return
	}
	for _, m := range sc.memos {
		m.forget()
	}
	sc.metaMemo.forget()
}

// plainString reports whether n takes any string.
func (n *fastNode) plainString() bool {
	return n.kind == kindString && !n.unsupported && n.openAPI == nil && n.rules == nil && n.minLength == nil &&
		n.maxLength == nil && n.pattern == nil && n.enum == nil
}

// compileNode compiles the node of structural schema s, whose OpenAPI schema
// (what kube-openapi validates) is o and whose CEL rules are those of prover.
func compileNode(s *schema.Structural, o *spec.Schema, prover *proverNode) *fastNode {
	n := compileNodeChecks(s, o, prover)
	if n.unsupported {
		n.fingerprint = wholeFingerprint(s, o)
		return n
	}
	children := map[string]fingerprint{}
	for name, c := range n.properties {
		children[name] = c.fingerprint
	}
	if n.items != nil {
		children["[]"] = n.items.fingerprint
	}
	if n.additional != nil {
		children["{}"] = n.additional.fingerprint
	}
	n.fingerprint = nodeFingerprint(s, o, children)
	if n.rules != nil {
		// The prover reads the node's rules too: both compile them once.
		n.rules = n.rules.sharedBy(n.fingerprint)
		prover.rules = n.rules
	}
	return n
}

// wholeFingerprint is the fingerprint of an unsupported node: its whole
// subtree.
func wholeFingerprint(s *schema.Structural, o *spec.Schema) fingerprint {
	b, err := json.Marshal(struct {
		S *schema.Structural
		O *spec.Schema
	}{s, o})
	if err != nil {
		b = []byte(err.Error())
	}
	return sha256.Sum256(b)
}

func compileNodeChecks(s *schema.Structural, o *spec.Schema, prover *proverNode) *fastNode {
	n := &fastNode{}
	if s == nil || o == nil || s.XPreserveUnknownFields || s.XIntOrString || s.XEmbeddedResource || o.Ref.String() != "" {
		n.unsupported = true
		return n
	}
	if prover != nil {
		n.rules = prover.rules
	}
	native := nativeChecks(n, s, o)
	switch s.Type {
	case "object":
		n.kind = kindObject
		if s.AdditionalProperties != nil {
			if s.AdditionalProperties.Structural == nil || o.AdditionalProperties == nil || o.AdditionalProperties.Schema == nil || len(s.Properties) > 0 {
				n.unsupported = true
				return n
			}
			var p *proverNode
			if prover != nil {
				p = prover.additional
			}
			n.additional = compileNode(s.AdditionalProperties.Structural, o.AdditionalProperties.Schema, p)
		} else if o.AdditionalProperties != nil {
			native = false
		}
		if len(s.Properties) != len(o.Properties) {
			n.unsupported = true
			return n
		}
		if len(s.Properties) > 0 {
			n.properties = make(map[string]*fastNode, len(s.Properties))
		}
		names := make([]string, 0, len(s.Properties))
		for name := range s.Properties {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			prop := s.Properties[name]
			op, ok := o.Properties[name]
			if !ok {
				n.unsupported = true
				return n
			}
			var p *proverNode
			if prover != nil {
				p = prover.properties[name]
			}
			child := compileNode(&prop, &op, p)
			child.name = name
			if len(names) <= 64 {
				child.bit = 1 << len(n.properties)
			}
			n.properties[name] = child
			if prop.Default.Object != nil {
				d := compileDefault(name, &prop, child)
				d.bit = child.bit
				n.defaults = append(n.defaults, d)
			}
		}
		n.propertyBits = len(names) <= 64 && n.additional == nil
		for _, r := range n.required {
			if c := n.properties[r]; c != nil {
				n.requiredBits |= c.bit
			} else {
				n.propertyBits = false
			}
		}
		n.memo = newMemo()
	case "array":
		n.kind = kindArray
		if s.Items == nil || o.Items == nil || o.Items.Schema == nil || len(o.Items.Schemas) > 0 {
			n.unsupported = true
			return n
		}
		var p *proverNode
		if prover != nil {
			p = prover.items
		}
		n.items = compileNode(s.Items, o.Items.Schema, p)
		if s.XListType != nil {
			switch *s.XListType {
			case "set":
				n.listSet = true
			case "map":
				if len(s.XListMapKeys) == 0 {
					n.unsupported = true
					return n
				}
				n.listMapKeys = s.XListMapKeys
			}
		}
		n.memo = newMemo()
	case "string":
		n.kind = kindString
	case "integer":
		n.kind = kindInteger
	case "boolean":
		n.kind = kindBoolean
	case "number":
		n.kind = kindOther
		native = false
	default:
		n.unsupported = true
		return n
	}
	if len(o.Type) != 1 || o.Type[0] != s.Type {
		n.unsupported = true
		return n
	}
	if !native {
		n.openAPI = apiservervalidation.NewSchemaValidatorFromOpenAPI(o)
	}
	return n
}

// nativeChecks records in n the checks of o that the shortcut makes itself,
// and reports whether those are all the checks o asks for (else kube-openapi
// makes them all).
func nativeChecks(n *fastNode, s *schema.Structural, o *spec.Schema) bool {
	native := len(o.AllOf) == 0 && len(o.OneOf) == 0 && len(o.AnyOf) == 0 && o.Not == nil &&
		len(o.PatternProperties) == 0 && len(o.Dependencies) == 0 && o.AdditionalItems == nil &&
		len(o.Definitions) == 0 && !o.UniqueItems && o.MultipleOf == nil
	n.required = o.Required
	n.minProperties, n.maxProperties = o.MinProperties, o.MaxProperties
	n.minItems, n.maxItems = o.MinItems, o.MaxItems
	n.minLength, n.maxLength = o.MinLength, o.MaxLength
	switch s.Type {
	case "string":
		if o.Format != "" {
			native = false // kube-openapi's format registry
		}
		if o.Pattern != "" {
			re, err := regexp.Compile(o.Pattern)
			if err != nil {
				native = false
			}
			n.pattern, n.match = re, dnsMatcher(o.Pattern)
		}
		if len(o.Enum) > 0 {
			n.enum = map[string]bool{}
			for _, e := range o.Enum {
				s, ok := e.(string)
				if !ok {
					native = false
					break
				}
				n.enum[s] = true
			}
		}
		if o.Maximum != nil || o.Minimum != nil {
			native = false
		}
	case "integer":
		limit := int64(1) << 53 // exactly a float64 and an int64
		if o.Format == "int32" {
			limit = math.MaxInt32
		} else if o.Format != "" && o.Format != "int64" {
			native = false
		}
		var ok bool
		if n.maximum, ok = integerBound(o.Maximum, o.ExclusiveMaximum, -1, limit); !ok {
			native = false
		}
		if n.minimum, ok = integerBound(o.Minimum, o.ExclusiveMinimum, 1, limit); !ok {
			native = false
		}
		if o.Format == "int32" {
			// kube-openapi refuses an int32 out of range; so does the shortcut,
			// by bounds no wider than the range.
			lo, hi := int64(math.MinInt32), int64(math.MaxInt32)
			if n.minimum == nil || *n.minimum < lo {
				n.minimum = &lo
			}
			if n.maximum == nil || *n.maximum > hi {
				n.maximum = &hi
			}
		}
		if len(o.Enum) > 0 || o.MaxLength != nil || o.MinLength != nil || o.Pattern != "" {
			native = false
		}
	default:
		if len(o.Enum) > 0 || o.Pattern != "" || o.Maximum != nil || o.Minimum != nil {
			native = false
		}
	}
	return native
}

// integerBound turns an OpenAPI bound into an inclusive integer bound, when it
// is an integer no larger in magnitude than limit (where comparing an int64
// with it is the same as comparing floats, as kube-openapi does).
func integerBound(b *float64, exclusive bool, step, limit int64) (*int64, bool) {
	if b == nil {
		return nil, true
	}
	if *b != math.Trunc(*b) || math.Abs(*b) > float64(limit) {
		return nil, false
	}
	i := int64(*b)
	if exclusive {
		i += step
	}
	return &i, true
}

// compileDefault defaults the default of property name as the API server does
// (a deep copy, defaulted in turn) and validates it as it would be validated
// in place, by reading its JSON with the node.
func compileDefault(name string, prop *schema.Structural, n *fastNode) fastDefault {
	value := runtime.DeepCopyJSONValue(prop.Default.Object)
	structuraldefaulting.Default(value, prop)
	return fastDefault{name: name, value: value, check: sync.OnceValues(func() (bool, int64) {
		js, err := json.Marshal(value)
		if err != nil {
			return false, 0
		}
		w := &walk{r: jsonReader{b: js}}
		got, ok := n.read(w)
		// The default must read back as the same value (the same number types).
		return ok && w.r.atEnd() && reflect.DeepEqual(got, value), w.cost
	})}
}

// walk is the state of one object's reading.
type walk struct {
	r jsonReader
	// cost is the runtime CEL cost of the rules evaluated so far, memoized
	// ones included.
	cost int64
	// status: the value read is the status, which create prunes and defaults
	// but does not validate (the status subresource is enabled).
	status bool
	// record, in a walk of the experimental channel, is where it records what
	// the standard channel shares; reuse, in a walk of the standard channel,
	// is that record. A walk with reuse makes no object for a caller: the
	// values it reads may share the memo's and the defaults'.
	record, reuse *twinRecord
	// shared: the object the walk makes is only read (AdmitReadOnly), and
	// so are the values the walk it reuses made; it may share the memo's
	// and the defaults' values, and the memo may keep its values uncopied.
	shared bool
	// checkOnly: the walk only shows the object admitted (shortcut.checkOnly):
	// it makes the values of the nodes whose values a check reads
	// (fastNode.valueRead) and no others, and its memos remember no others.
	checkOnly bool
}

// keeps reports whether the walk makes n's values.
func (w *walk) keeps(n *fastNode) bool {
	return !w.checkOnly || n.valueRead
}

// own is v, or a copy the caller may own when the walk makes an object for
// one.
func (w *walk) own(v any) any {
	if w.reuse != nil || w.shared {
		return v
	}
	return deepCopyJSON(v)
}

// celBudget is the API server's runtime CEL cost budget per object. The
// validator refuses an object only when its rules' total cost exceeds it, or
// when it is spent before a node with rules: neither can happen while the
// total stays below it.
const celBudget = int64(celconfig.RuntimeCELCostBudget)

// read reads the value at the reader's position as a value of n, and returns
// it defaulted, or false when the shortcut cannot show it valid.
func (n *fastNode) read(w *walk) (any, bool) {
	if n.unsupported {
		return nil, false
	}
	if w.reuse != nil && n.sharedWithExperimental.Load() {
		w.r.skipSpace()
		if t, ok := w.reuse.find(w.r.pos); ok {
			w.r.pos = t.end
			w.cost += t.cost
			return t.value, w.cost < celBudget
		}
	}
	if w.record == nil || !n.recordForStandard.Load() {
		return n.readMemo(w)
	}
	w.r.skipSpace()
	start, before := w.r.pos, w.cost
	v, ok := n.readMemo(w)
	if ok {
		w.record.values = append(w.record.values, twinValue{start: start, end: w.r.pos, value: v, cost: w.cost - before})
	}
	return v, ok
}

// readMemo is read, with the node's memo.
func (n *fastNode) readMemo(w *walk) (any, bool) {
	if n.memo == nil || w.status || !n.memo.useful() {
		return n.readValue(w)
	}
	start, end, ok := w.r.skip()
	if !ok {
		return nil, false
	}
	text := w.r.b[start:end]
	h := memoHash(text)
	if e, hit := n.memo.get(h, text); hit {
		w.r.pos = end
		w.cost += e.cost
		return w.own(e.value), w.cost < celBudget
	}
	before := w.cost
	v, ok := n.readValue(w)
	if !ok || w.r.pos != end {
		return nil, false
	}
	// The memo keeps its own copy of a value the caller may change.
	n.memo.put(h, text, memoEntry{value: v, cost: w.cost - before}, !w.shared)
	return v, true
}

// readValue reads the value of n without the memo.
func (n *fastNode) readValue(w *walk) (any, bool) {
	var v any
	var ok bool
	switch n.kind {
	case kindObject:
		v, ok = n.readObject(w)
	case kindArray:
		v, ok = n.readArray(w)
	case kindString:
		var s string
		if s, ok = w.r.str(); ok {
			ok = w.status || n.checkString(s)
			if w.keeps(n) {
				v = s
			}
		}
	case kindInteger:
		var i int64
		if i, ok = w.r.integer(); ok {
			ok = w.status || (n.minimum == nil || i >= *n.minimum) && (n.maximum == nil || i <= *n.maximum)
			if w.keeps(n) {
				v = i
			}
		}
	case kindBoolean:
		var b bool
		if b, ok = w.r.boolean(); ok && w.keeps(n) {
			v = b
		}
	case kindOther:
		v, ok = w.r.integer()
	}
	if !ok {
		return nil, false
	}
	if w.status {
		return v, true
	}
	if n.openAPI != nil && len(n.openAPI.Validate(v).Errors) > 0 {
		return nil, false
	}
	if n.rules != nil && !n.holds(v, w) {
		return nil, false
	}
	return v, true
}

func (n *fastNode) checkString(s string) bool {
	if n.maxLength != nil || n.minLength != nil {
		l := int64(utf8.RuneCountInString(s))
		if n.maxLength != nil && l > *n.maxLength || n.minLength != nil && l < *n.minLength {
			return false
		}
	}
	if n.enum != nil && !n.enum[s] {
		return false
	}
	if n.match != nil {
		return n.match(s)
	}
	return n.pattern == nil || n.pattern.MatchString(s)
}

func (n *fastNode) readObject(w *walk) (map[string]any, bool) {
	if !w.r.consume('{') {
		return nil, false
	}
	// Without propertyBits the map is the set of keys read.
	var m map[string]any
	if w.keeps(n) || !n.propertyBits {
		m = make(map[string]any, len(n.defaults)+4)
	}
	var present uint64 // the bits of the properties read, with propertyBits
	defaulted := 0
	if !w.r.consume('}') {
		for {
			k, child, ok := n.key(&w.r)
			if !ok || !w.r.consume(':') {
				return nil, false
			}
			if child == nil {
				return nil, false // an unknown field
			}
			if n.propertyBits {
				if present&child.bit != 0 {
					return nil, false // a strict decoding error
				}
				present |= child.bit
			} else if _, dup := m[k]; dup {
				return nil, false // a strict decoding error
			}
			v, ok := child.read(w)
			if !ok {
				return nil, false
			}
			if m != nil {
				m[k] = v
			}
			if w.r.consume(',') {
				continue
			}
			if !w.r.consume('}') {
				return nil, false
			}
			break
		}
	}
	for _, d := range n.defaults {
		if n.propertyBits && present&d.bit == 0 || !n.propertyBits && !has(m, d.name) {
			var cost int64
			if !w.status {
				ok, c := d.check()
				if !ok {
					return nil, false
				}
				cost = c
			}
			if m != nil {
				m[d.name] = w.own(d.value)
			}
			defaulted++
			w.cost += cost
		}
	}
	if w.status {
		return m, true
	}
	if n.propertyBits {
		if present&n.requiredBits != n.requiredBits {
			return nil, false
		}
	} else {
		for _, k := range n.required {
			if !has(m, k) {
				return nil, false
			}
		}
	}
	l := int64(len(m))
	if m == nil {
		l = int64(bits.OnesCount64(present) + defaulted)
	}
	if n.minProperties != nil && l < *n.minProperties || n.maxProperties != nil && l > *n.maxProperties {
		return nil, false
	}
	return m, true
}

func has(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

// key reads the key of a property of an object of n, and returns it with the
// node of its value, nil for an unknown field. A property's key is its node's
// name, so that reading it makes no string.
func (n *fastNode) key(r *jsonReader) (string, *fastNode, bool) {
	if raw, ok := r.plainStr(); ok {
		if n.additional != nil {
			return string(raw), n.additional, true
		}
		if child := n.properties[string(raw)]; child != nil {
			return child.name, child, true
		}
		return string(raw), nil, true
	}
	k, ok := r.str()
	if !ok {
		return "", nil, false
	}
	if n.additional != nil {
		return k, n.additional, true
	}
	return k, n.properties[k], true
}

func (n *fastNode) readArray(w *walk) ([]any, bool) {
	if !w.r.consume('[') {
		return nil, false
	}
	var list []any
	keep := w.keeps(n) || n.listSet || n.listMapKeys != nil
	if keep {
		list = make([]any, 0, 2)
	}
	items := 0
	if !w.r.consume(']') {
		for {
			v, ok := n.items.read(w)
			if !ok {
				return nil, false
			}
			if items++; keep {
				list = append(list, v)
			}
			if w.r.consume(',') {
				continue
			}
			if !w.r.consume(']') {
				return nil, false
			}
			break
		}
	}
	if w.status {
		return list, true
	}
	l := int64(items)
	if n.minItems != nil && l < *n.minItems || n.maxItems != nil && l > *n.maxItems {
		return nil, false
	}
	switch {
	case n.listSet:
		if !uniqueScalars(list) {
			return nil, false
		}
	case n.listMapKeys != nil:
		if !uniqueMapKeys(list, n.listMapKeys) {
			return nil, false
		}
	}
	return list, true
}

// uniqueScalars reports whether a list-type set holds scalars only, none
// twice (listtype.validateListSet compares scalars with ==).
func uniqueScalars(list []any) bool {
	for i, x := range list {
		switch x.(type) {
		case string, int64, bool:
		default:
			return false
		}
		for _, y := range list[:i] {
			if x == y {
				return false
			}
		}
	}
	return true
}

// uniqueMapKeys reports whether no two items of a list-type map have the same
// key, where every key field is a scalar: listtype.validateListMap compares
// the present key fields (a missing one included) as JSON, which for scalars
// is comparing them with ==.
func uniqueMapKeys(list []any, keys []string) bool {
	for i, x := range list {
		a := x.(map[string]any)
		for _, k := range keys {
			switch a[k].(type) {
			case string, int64, bool, nil:
			default:
				return false
			}
		}
		for _, y := range list[:i] {
			b := y.(map[string]any)
			same := true
			for _, k := range keys {
				av, aok := a[k]
				bv, bok := b[k]
				if aok != bok || av != bv {
					same = false
					break
				}
			}
			if same {
				return false
			}
		}
	}
	return true
}

// holds evaluates the node's rules on v as celProver does, adding their cost
// to the object's.
func (n *fastNode) holds(v any, w *walk) bool {
	c := n.rules.get()
	if !c.proves {
		return false
	}
	if len(c.rules) == 0 {
		return true
	}
	if w.cost >= celBudget {
		return false
	}
	var self *selfActivation
	for i, r := range c.rules {
		if r.Program == nil {
			continue // an empty rule
		}
		if f := c.fast[i]; f != nil {
			if holds, cost, ok := f.holds(v, c.adaptor); ok {
				w.cost += int64(cost)
				if !holds || w.cost >= celBudget {
					return false
				}
				continue
			}
		}
		if self == nil {
			self = &selfActivation{self: common.UnstructuredToVal(v, c.adaptor)}
		}
		result, details, err := r.Program.ContextEval(context.Background(), self)
		if details == nil || details.ActualCost() == nil {
			return false
		}
		cost := *details.ActualCost()
		if cost > math.MaxInt64-uint64(w.cost) {
			return false
		}
		w.cost += int64(cost)
		if w.cost >= celBudget || err != nil || result != types.True {
			return false
		}
	}
	return true
}

// admit reads a create request's body and returns the object the API server
// stores, or false when the shortcut cannot show that it admits it.
//
// record and reuse are nil but in an Admitter of the experimental channel:
// record is where a walk of the experimental channel records what the
// standard channel shares, reuse what a walk of the standard channel takes
// from it. shared says the object is only read, and so are the values in
// reuse (walk.shared).
func (sc *shortcut) admit(raw []byte, record, reuse *twinRecord, shared bool) (map[string]any, bool) {
	return sc.walk(&walk{r: jsonReader{b: raw}, record: record, reuse: reuse, shared: shared, checkOnly: sc.checkOnly})
}

// walk is admit, by the walk w. The object's top level is a recycled map
// when there is one (recycle.go), and is given back when the walk gives up.
func (sc *shortcut) walk(w *walk) (map[string]any, bool) {
	obj := newSmallMap()
	if !sc.walkInto(w, obj) {
		recycleObject(obj)
		return nil, false
	}
	return obj, true
}

// walkInto is walk, into obj, an empty map.
func (sc *shortcut) walkInto(w *walk, obj map[string]any) bool {
	record, reuse := w.record, w.reuse
	if !w.r.consume('{') {
		return false
	}
	var meta *fastMeta
	if w.r.consume('}') {
		return false
	}
	for {
		k, _, ok := sc.root.key(&w.r)
		if !ok || !w.r.consume(':') {
			return false
		}
		if _, dup := obj[k]; dup {
			return false
		}
		switch k {
		case "apiVersion", "kind":
			v, ok := sc.typeMeta(&w.r, k)
			if !ok {
				return false
			}
			obj[k] = v
		case "metadata":
			w.r.skipSpace()
			start := w.r.pos
			if reuse != nil && reuse.metadata && reuse.metaStart == start && reuse.namespaced == sc.v.namespaced {
				// The same metadata, already found valid.
				w.r.pos = reuse.metaEnd
				meta = reusedMeta
				obj[k] = nil
				break
			}
			if meta, ok = readMeta(w); !ok {
				return false
			}
			obj[k] = meta.object
			if record != nil {
				record.metaStart, record.metaEnd = start, w.r.pos
			}
		case "status":
			// Create drops it before validation, but the verdict keeps it,
			// pruned and defaulted.
			child := sc.root.properties[k]
			if child == nil {
				return false
			}
			w.status = true
			v, ok := child.read(w)
			w.status = false
			if !ok {
				return false
			}
			obj[k] = v
		default:
			child := sc.root.properties[k]
			if child == nil {
				return false
			}
			v, ok := child.read(w)
			if !ok {
				return false
			}
			obj[k] = v
		}
		if w.r.consume(',') {
			continue
		}
		if !w.r.consume('}') || !w.r.atEnd() {
			return false
		}
		break
	}
	if obj["apiVersion"] != sc.apiVersion || obj["kind"] != sc.v.gvk.Kind || meta == nil {
		return false
	}
	for _, d := range sc.rootDefaults {
		if _, ok := obj[d.name]; !ok {
			valid, cost := d.check()
			if !valid {
				return false
			}
			obj[d.name] = w.own(d.value)
			w.cost += cost
		}
	}
	for _, k := range sc.rootRequired {
		if _, ok := obj[k]; !ok && k != "metadata" {
			return false
		}
	}
	if w.cost >= celBudget || !meta.reused && !meta.valid(sc.v.namespaced, &sc.metaMemo) {
		return false
	}
	if record != nil {
		record.metadata, record.namespaced = true, sc.v.namespaced
	}
	return true
}

// typeMeta reads the value of apiVersion or kind (the key k): the version's
// own value when it is the version's, so that every object holds the same one
// and no string is made for it.
func (sc *shortcut) typeMeta(r *jsonReader, k string) (any, bool) {
	var s string
	if raw, ok := r.plainStr(); ok {
		switch {
		case k == "apiVersion" && string(raw) == sc.apiVersion:
			return sc.apiVersionValue, true
		case k == "kind" && string(raw) == sc.v.gvk.Kind:
			return sc.kindValue, true
		}
		s = string(raw)
	} else if s, ok = r.str(); !ok {
		return nil, false
	}
	switch {
	case k == "apiVersion" && s == sc.apiVersion:
		return sc.apiVersionValue, true
	case k == "kind" && s == sc.v.gvk.Kind:
		return sc.kindValue, true
	}
	return s, true
}

// reusedMeta is the metadata of a walk of the standard channel that takes
// the experimental channel's finding that it is valid.
var reusedMeta = &fastMeta{reused: true}

// deepCopyJSON copies the maps and lists of a JSON value: what the memo and
// the defaults keep is never handed out, so that the caller owns the object
// it gets.
func deepCopyJSON(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = deepCopyJSON(x)
		}
		return m
	case []any:
		l := make([]any, len(v))
		for i, x := range v {
			l[i] = deepCopyJSON(x)
		}
		return l
	}
	return v
}
