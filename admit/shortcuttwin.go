package admit

import (
	"crypto/sha256"
	"encoding/json"
	"sort"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// The experimental channel's CRDs differ from the standard channel's in a few
// places (an extra field, a wider enum, a pattern), and an Admitter of the
// experimental channel answers for both. After its shortcut has shown an
// object admitted, the standard channel's shortcut reads the object again,
// but where the two schemas have the same node (the same subtree: types,
// checks, defaults and rules) it takes what the first reading found there
// instead of reading it again: a node's result is a function of its schema
// subtree and its JSON text. What is left is the nodes where the channels
// differ and the nodes above them. When the standard channel's shortcut cannot
// show the object admitted, the API server's code gives its answer, as
// without the shortcut. TestShortcutAgreesWithAPIServerCode holds the
// warnings to the API server code's.

// fingerprint identifies a schema subtree: two nodes with the same fingerprint
// check, default and evaluate the same values alike.
type fingerprint [sha256.Size]byte

// nodeFingerprint is the fingerprint of the node of s (its OpenAPI schema o)
// whose children have the fingerprints children (by property name, "[]" for
// items, "{}" for additionalProperties).
func nodeFingerprint(s *schema.Structural, o *spec.Schema, children map[string]fingerprint) fingerprint {
	h := sha256.New()
	local := *s
	local.Properties, local.Items = nil, nil
	// Documentation checks nothing; the channels document fields otherwise.
	local.Description, local.Title, local.ExternalDocs, local.Example = "", "", nil, schema.JSON{}
	if s.AdditionalProperties != nil {
		local.AdditionalProperties = &schema.StructuralOrBool{Bool: s.AdditionalProperties.Bool}
	}
	openAPI := *o
	openAPI.Properties, openAPI.Items = nil, nil
	openAPI.Description, openAPI.Title, openAPI.ExternalDocs, openAPI.Example = "", "", nil, nil
	if o.AdditionalProperties != nil {
		openAPI.AdditionalProperties = &spec.SchemaOrBool{Allows: o.AdditionalProperties.Allows}
	}
	for _, part := range []any{local, openAPI} {
		b, err := json.Marshal(part)
		if err != nil {
			// Unlike any other node: never the same as the other channel's.
			b = []byte{0}
			h.Write([]byte(err.Error()))
		}
		h.Write(b)
		h.Write([]byte{0})
	}
	names := make([]string, 0, len(children))
	for name := range children {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fp := children[name]
		h.Write([]byte(name))
		h.Write([]byte{0})
		h.Write(fp[:])
	}
	var fp fingerprint
	h.Sum(fp[:0])
	return fp
}

// shareWith marks the nodes of exp (an experimental channel's tree) and std
// (the standard channel's) that have the same subtree: std reads them from
// what exp found, and exp records what it finds at the topmost of them.
func shareWith(exp, std *fastNode, parentShared bool) {
	if exp == nil || std == nil {
		return
	}
	if exp.fingerprint == std.fingerprint && !exp.unsupported {
		std.sharedWithExperimental.Store(true)
		exp.recordForStandard.Store(!parentShared)
		return
	}
	for name, c := range exp.properties {
		shareWith(c, std.properties[name], false)
	}
	shareWith(exp.items, std.items, false)
	shareWith(exp.additional, std.additional, false)
}

// twinRecord is what a walk of the experimental channel found at the nodes
// the standard channel shares, by where their values start in the text, and
// what it found of the metadata.
type twinRecord struct {
	// version is the experimental channel's version that admitted the object.
	version *servedVersion
	values  []twinValue
	room    [8]twinValue
	// metadata: the metadata was read and valid, between these offsets.
	metadata           bool
	metaStart, metaEnd int
	namespaced         bool
}

// newTwinRecord is an empty record with room for the values an object of
// the Gateway API usually shares, in the same allocation: one a previous
// object's admission released, when there is one (a record is about 400
// bytes, made for every object an Admitter of the experimental channel
// admits).
func newTwinRecord() *twinRecord {
	if r, ok := twinRecords.Get().(*twinRecord); ok {
		return r
	}
	r := &twinRecord{}
	r.values = r.room[:0]
	return r
}

var twinRecords sync.Pool

// release empties r, so that it holds on to no value of the object it
// recorded, and gives it to the next newTwinRecord. r must not be used after.
func (r *twinRecord) release() {
	*r = twinRecord{}
	r.values = r.room[:0]
	twinRecords.Put(r)
}

type twinValue struct {
	start, end int
	value      any
	cost       int64
}

func (r *twinRecord) find(start int) (twinValue, bool) {
	for _, v := range r.values {
		if v.start == start {
			return v, true
		}
	}
	return twinValue{}, false
}

// twins links a version of the experimental channel to the same version of the
// standard channel, once.
type twins struct {
	once sync.Once
	std  *shortcut // nil: the standard channel does not serve it alike
	// same: the versions' shortcuts are the same throughout (the standard
	// channel admits what the experimental one admits).
	same bool

	// serving is the standard channel's version of the same group, kind and
	// version, found once: the version, or (unserved) its answer to every
	// object sent to it when it serves none.
	servingOnce  sync.Once
	serving      *servedVersion
	unserved     Verdict
	servingKnown bool
}

// standard returns the standard channel's version serving the objects of
// this version, which every object of it names with apiVersion and kind, or
// the standard channel's verdict on each of them when it serves none; known
// is false when finding it failed (the caller asks the standard channel as
// for any object).
func (t *twins) standard(std *Admitter, apiVersion, kind string) (sv *servedVersion, unserved Verdict, known bool) {
	t.servingOnce.Do(func() {
		defer func() {
			if recover() != nil {
				t.serving, t.unserved, t.servingKnown = nil, Verdict{}, false
			}
		}()
		t.serving, t.unserved = std.served(apiVersion, kind)
		t.servingKnown = true
	})
	return t.serving, t.unserved, t.servingKnown
}

// link shares the nodes of exp's and std's trees that are the same.
func (t *twins) link(exp, std *shortcut) {
	t.once.Do(func() {
		if exp == nil || std == nil || exp.v.gvk != std.v.gvk || exp.v.namespaced != std.v.namespaced ||
			exp.v.hasStatus != std.v.hasStatus || exp.root.unsupported || std.root.unsupported {
			return
		}
		t.std = std
		if exp.root.fingerprint == std.root.fingerprint {
			t.same = true
			return
		}
		for name, c := range exp.root.properties {
			shareWith(c, std.root.properties[name], false)
		}
	})
}
