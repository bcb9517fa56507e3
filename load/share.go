package load

import (
	"crypto/sha256"
	"reflect"
	"slices"
	"sync"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// Shared lets the loads of files given the same one (FileOptions.Shared)
// decode a document once however many times its exact text appears in them:
// two sides of a diff, where almost every document of the head is one of the
// base's, byte for byte. A document met again gets model objects of its own,
// with its own file and lines, whose typed contents (specs, statuses,
// metadata maps, Meta.Raw) are the first decoding's: nothing reads them
// but to analyze them, and no analysis writes them.
//
// Only documents that decoded to objects without error, refusal or List
// are kept: one that fails fails its load, whatever the other load did, and
// their lines are worked out again; an Ingress (whose lines are found by
// reading its document again) and a kind the sharing does not know are
// decoded each time.
//
// The loads of one Shared run one after another: a load holds it from start
// to end. The zero value is not usable; make one with NewShared.
type Shared struct {
	busy sync.Mutex
	mu   sync.Mutex
	// config is what the first load's decoding depended on beside the text;
	// a load decoding otherwise shares nothing (join).
	config *shareConfig
	docs   map[[sha256.Size]byte]*sharedDocument
}

// NewShared makes a Shared with no document decoded.
func NewShared() *Shared { return &Shared{docs: map[[sha256.Size]byte]*sharedDocument{}} }

// shareConfig is what a document's decoding depends on beside its text: the
// namespace given to objects that name none, the CRDs and whether they
// judge, and whether Meta.Raw is kept.
type shareConfig struct {
	defaultNamespace string
	admitter         *admit.Admitter
	validate, stored bool
	keepRaw          bool
}

// join reports whether a load decoding as p does shares s's documents: the
// first load of s does, and every later one that decodes as it did.
func (s *Shared) join(p *decodePipeline) bool {
	c := shareConfig{defaultNamespace: p.defaultNamespace, keepRaw: p.keepRaw}
	if p.adm != nil {
		c.admitter, c.validate, c.stored = p.adm.admitter, p.adm.validate, p.adm.stored
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.config == nil {
		s.config = &c
	}
	return *s.config == c
}

// sharedDocument is a document decoded once, and the line its text started
// on then: the lines of its objects are that line plus what its text holds.
type sharedDocument struct {
	result   decoded
	bodyLine int
}

// lookup returns the objects of the document at d decoded before, with d's
// file and lines; false when no load of s decoded its text.
func (s *Shared) lookup(k [sha256.Size]byte, d *sourceDocument) (decoded, bool) {
	s.mu.Lock()
	e := s.docs[k]
	s.mu.Unlock()
	if e == nil {
		return decoded{}, false
	}
	shift := d.bodyLine - e.bodyLine
	out := decoded{skipped: e.result.skipped, objects: make([]object, len(e.result.objects))}
	for i, o := range e.result.objects {
		obj, meta := relocated(o.obj, d.src.File, shift)
		o.obj, o.meta = obj, meta
		out.objects[i] = o
	}
	return out, true
}

// keep records what the document at d decoded to, when it can be shared.
func (s *Shared) keep(k [sha256.Size]byte, d *sourceDocument, r decoded) {
	if r.err != nil || r.list || len(r.refused) > 0 || len(r.experimentalOnly) > 0 || len(r.objects) == 0 {
		return
	}
	for _, o := range r.objects {
		if !relocatable(o.obj) {
			return
		}
	}
	s.mu.Lock()
	if _, ok := s.docs[k]; !ok {
		s.docs[k] = &sharedDocument{result: r, bodyLine: d.bodyLine}
	}
	s.mu.Unlock()
}

// relocators holds, for every kind of model object a shared document may
// decode to, how to copy one for a document of file whose text starts shift
// lines below the one it was decoded from: its own Meta and top-level struct,
// so that the loader's later passes (shareMetadata) and the engine's
// per-object state stay its own, and the typed contents beneath shared. A
// kind not here is decoded again wherever it occurs. One table, so that the
// kinds kept and the kinds copied cannot drift apart.
var relocators = map[reflect.Type]func(obj any, file string, shift int) (any, *model.Meta){
	reflect.TypeFor[*model.Route]():            relocatedStruct(func(r *model.Route) *model.Meta { return &r.Meta }),
	reflect.TypeFor[*model.Mesh]():             relocatedStruct(func(m *model.Mesh) *model.Meta { return &m.Meta }),
	reflect.TypeFor[*model.ServiceImport]():    relocatedStruct(func(s *model.ServiceImport) *model.Meta { return &s.Meta }),
	reflect.TypeFor[*model.GatewayClass]():     relocatedObject[gwv1.GatewayClass],
	reflect.TypeFor[*model.Gateway]():          relocatedObject[gwv1.Gateway],
	reflect.TypeFor[*model.ListenerSet]():      relocatedObject[gwv1.ListenerSet],
	reflect.TypeFor[*model.ReferenceGrant]():   relocatedObject[gwv1.ReferenceGrant],
	reflect.TypeFor[*model.BackendTLSPolicy](): relocatedObject[gwv1.BackendTLSPolicy],
	reflect.TypeFor[*model.Secret]():           relocatedObject[corev1.Secret],
	reflect.TypeFor[*model.ConfigMap]():        relocatedObject[corev1.ConfigMap],
	reflect.TypeFor[*model.Service]():          relocatedObject[corev1.Service],
	reflect.TypeFor[*model.Namespace]():        relocatedObject[corev1.Namespace],
	reflect.TypeFor[*model.IngressClass]():     relocatedObject[networkingv1.IngressClass],
}

// relocatable reports whether relocators knows obj's kind.
func relocatable(obj any) bool {
	_, ok := relocators[reflect.TypeOf(obj)]
	return ok
}

// relocated is relocators' copy of obj, whose kind relocatable knows.
func relocated(obj any, file string, shift int) (any, *model.Meta) {
	return relocators[reflect.TypeOf(obj)](obj, file, shift)
}

// relocatedStruct copies a model struct whose Meta meta finds.
func relocatedStruct[T any](meta func(*T) *model.Meta) func(obj any, file string, shift int) (any, *model.Meta) {
	return func(obj any, file string, shift int) (any, *model.Meta) {
		c := *obj.(*T)
		m := meta(&c)
		*m = relocatedMeta(*m, file, shift)
		return &c, m
	}
}

// relocatedObject copies a model.Object and its top-level struct.
func relocatedObject[T any](obj any, file string, shift int) (any, *model.Meta) {
	o := obj.(*model.Object[T])
	inner := *o.Obj
	c := &model.Object[T]{Meta: relocatedMeta(o.Meta, file, shift), Obj: &inner}
	return c, &c.Meta
}

// relocatedMeta is m for the same text in file, shift lines further down.
func relocatedMeta(m model.Meta, file string, shift int) model.Meta {
	m.Source = model.Source{File: file, Line: m.Source.Line + shift}
	if m.ListenerLines != nil {
		lines := slices.Clone(m.ListenerLines)
		for i := range lines {
			lines[i] += shift
		}
		m.ListenerLines = lines
	}
	return m
}
