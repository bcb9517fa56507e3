package admit

import (
	"hash/maphash"
	"strings"
	"sync/atomic"

	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	kjson "sigs.k8s.io/json"
)

// The shortcut's metadata: it reads an object's metadata into what the API
// server stores, and shows it valid with the API server's ObjectMeta
// validation functions (ValidateObjectMetaAccessor, or, for metadata of names,
// labels and annotations only, the same checks called one by one). Metadata it
// does not read, or that any check refuses, gives up: the API server's code
// (validate) runs and words the refusal. TestAdmitObjectMeta,
// TestShortcutAgreesWithAPIServerCode and FuzzShortcutMutations hold it to
// that code.

// fastMeta is an object's metadata as the API server stores it (read back
// from the typed ObjectMeta it decodes it into) and that typed ObjectMeta.
type fastMeta struct {
	object map[string]any
	// typed is the ObjectMeta of metadata that is not plain.
	typed *metav1.ObjectMeta
	// plain: only names, labels and annotations, these, whose JSON texts are
	// labelsText and annotationsText (an ObjectMeta is a few hundred bytes
	// more for every object). labels and annotations are the maps of object,
	// nil when empty.
	plain                         bool
	name, namespace, generateName string
	labels, annotations           map[string]any
	labelsText, annotationsText   string
	// reused: the standard channel's walk takes the experimental channel's
	// finding that the same metadata is valid (it is validated alike).
	reused bool
}

// readMeta reads the metadata at the reader's position. The metadata most
// manifests carry (names, labels, annotations) is read directly; any other is
// read with the API server's own ObjectMeta decoding.
func readMeta(w *walk) (*fastMeta, bool) {
	start, end, ok := w.r.skip()
	if !ok {
		return nil, false
	}
	text := w.r.b[start:end]
	m, ok := readPlainMeta(&jsonReader{b: text})
	if !ok {
		m, ok = decodeMeta(text)
	}
	w.r.pos = end
	return m, ok
}

// readPlainMeta reads metadata that has only names, labels and annotations.
// The typed round trip drops empty strings and empty maps (omitempty).
func readPlainMeta(r *jsonReader) (*fastMeta, bool) {
	if !r.consume('{') {
		return nil, false
	}
	m := &fastMeta{object: newSmallMap(), plain: true}
	var seen [6]bool
	if !r.consume('}') {
		for {
			k, ok := plainMetaKey(r)
			if !ok || !r.consume(':') {
				return nil, false
			}
			i := plainMetaFields[k]
			if i == 0 || seen[i] {
				return nil, false
			}
			seen[i] = true
			switch k {
			case "name", "namespace", "generateName":
				s, ok := r.str()
				if !ok {
					return nil, false
				}
				switch k {
				case "name":
					m.name = s
				case "namespace":
					m.namespace = s
				default:
					m.generateName = s
				}
				if s != "" {
					m.object[k] = s
				}
			case "labels", "annotations":
				r.skipSpace()
				start := r.pos
				object, ok := readStringMap(r)
				if !ok {
					return nil, false
				}
				if len(object) == 0 {
					recycleMap(object)
					object = nil
				} else {
					m.object[k] = object
				}
				if k == "labels" {
					m.labels, m.labelsText = object, string(r.b[start:r.pos])
				} else {
					m.annotations, m.annotationsText = object, string(r.b[start:r.pos])
				}
			default:
				return nil, false
			}
			if r.consume(',') {
				continue
			}
			if !r.consume('}') {
				return nil, false
			}
			break
		}
	}
	return m, r.atEnd()
}

// plainMetaNames are the fields readPlainMeta reads; plainMetaFields numbers
// them from 1.
var plainMetaNames = [...]string{"name", "namespace", "generateName", "labels", "annotations"}

var plainMetaFields = func() map[string]int {
	m := make(map[string]int, len(plainMetaNames))
	for i, name := range plainMetaNames {
		m[name] = i + 1
	}
	return m
}()

// plainMetaKey reads a key of metadata: one of plainMetaNames as that
// field's own string (no string is made for it), any other as str reads it.
func plainMetaKey(r *jsonReader) (string, bool) {
	if raw, ok := r.plainStr(); ok {
		if i := plainMetaFields[string(raw)]; i > 0 {
			return plainMetaNames[i-1], true
		}
		return string(raw), true
	}
	return r.str()
}

// readStringMap reads an object of strings, as JSON (a map of strings).
// The map is a recycled one when there is one.
func readStringMap(r *jsonReader) (map[string]any, bool) {
	if !r.consume('{') {
		return nil, false
	}
	object := newSmallMap()
	if r.consume('}') {
		return object, true
	}
	for {
		k, ok := r.str()
		if !ok || !r.consume(':') {
			recycleMap(object)
			return nil, false
		}
		if _, dup := object[k]; dup {
			recycleMap(object)
			return nil, false
		}
		v, ok := r.str()
		if !ok {
			recycleMap(object)
			return nil, false
		}
		object[k] = v
		if r.consume(',') {
			continue
		}
		if !r.consume('}') {
			recycleMap(object)
			return nil, false
		}
		return object, true
	}
}

// stringMap is the map[string]string of a map of strings readStringMap
// read (empty for nil), for the API server's checks of labels and
// annotations.
func stringMap(m map[string]any) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v.(string)
	}
	return out
}

// decodeMeta decodes metadata as the API server does: the strict decoder's
// value, decoded strictly into an ObjectMeta, which is what it stores.
func decodeMeta(text []byte) (*fastMeta, bool) {
	var md any
	if strictErrs, err := kjson.UnmarshalStrict(text, &md); err != nil || len(strictErrs) > 0 {
		return nil, false
	}
	obj := map[string]any{"metadata": md}
	typed, found, unknown, err := schemaobjectmeta.GetObjectMetaWithOptions(obj, schemaobjectmeta.ObjectMetaOptions{ReturnUnknownFieldPaths: true})
	if err != nil || !found || len(unknown) > 0 {
		return nil, false
	}
	if err := schemaobjectmeta.SetObjectMeta(obj, typed); err != nil {
		return nil, false
	}
	object, ok := obj["metadata"].(map[string]any)
	if !ok {
		return nil, false
	}
	return &fastMeta{object: object, typed: typed}, true
}

// valid runs the API server's ObjectMeta checks of a create (see validate) on
// the metadata as prepareForCreate leaves it.
func (m *fastMeta) valid(namespaced bool, memo *metaMemo) bool {
	if m.plain {
		return m.plainValid(namespaced, memo)
	}
	meta := *m.typed
	meta.CreationTimestamp = metav1.Now()
	meta.UID = "00000000-0000-0000-0000-000000000000"
	meta.DeletionTimestamp = nil
	meta.DeletionGracePeriodSeconds = nil
	if meta.Name == "" && meta.GenerateName != "" {
		meta.Name = generatedName(meta.GenerateName)
	}
	switch {
	case !namespaced:
		meta.Namespace = ""
	case meta.Namespace == "":
		meta.Namespace = metav1.NamespaceDefault
	}
	meta.Generation = 1
	path := field.NewPath("metadata")
	return len(metavalidation.ValidateObjectMetaAccessor(&meta, namespaced, metavalidation.NameIsDNSSubdomain, path)) == 0 &&
		len(metavalidation.ValidateObjectMetaAccessor(&meta, namespaced, pathSegmentName, path)) == 0
}

// plainValid is valid for metadata of names, labels and annotations only
// (prepareForCreate sets the generation to 1, and there are no owner
// references, finalizers or managed fields): ValidateObjectMetaAccessor's
// checks of what is left, called one by one, twice for names (with
// NameIsDNSSubdomain, then the path-segment check rest.BeforeCreate adds),
// with the results for namespaces, labels and annotations memoized (they
// repeat from object to object; the checks are pure functions of them).
func (m *fastMeta) plainValid(namespaced bool, memo *metaMemo) bool {
	name, generateName, namespace := m.name, m.generateName, m.namespace
	if generateName != "" {
		if len(metavalidation.NameIsDNSSubdomain(generateName, true)) > 0 || len(pathSegmentName(generateName, true)) > 0 {
			return false
		}
		if name == "" {
			name = generatedName(generateName)
		}
	}
	if name == "" || !nameIsDNSSubdomain(name) || len(pathSegmentName(name, false)) > 0 {
		return false
	}
	if namespaced {
		if namespace == "" {
			namespace = metav1.NamespaceDefault
		}
		if !namespaceIsDNSLabel(namespace) && !memo.check(&memo.namespaces, namespace, func() bool { return len(metavalidation.ValidateNamespaceName(namespace, false)) == 0 }) {
			return false
		}
	}
	if m.labelsText != "" && !memo.check(&memo.labels, m.labelsText, func() bool {
		return len(metav1validation.ValidateLabels(stringMap(m.labels), field.NewPath("metadata", "labels"))) == 0
	}) {
		return false
	}
	return m.annotationsText == "" || memo.check(&memo.annotations, m.annotationsText, func() bool {
		return len(metavalidation.ValidateAnnotations(stringMap(m.annotations), field.NewPath("metadata", "annotations"))) == 0
	})
}

// nameIsDNSSubdomain reports whether metavalidation.NameIsDNSSubdomain finds
// nothing wrong with name (validation.IsDNS1123Subdomain: at most 253
// characters, matching subdomainPattern), without its regexp where it does
// not.
func nameIsDNSSubdomain(name string) bool {
	if len(name) <= validation.DNS1123SubdomainMaxLength && isSubdomain(name) {
		return true
	}
	return len(metavalidation.NameIsDNSSubdomain(name, false)) == 0
}

// namespaceIsDNSLabel reports that metavalidation.ValidateNamespaceName finds
// nothing wrong with namespace (validation.IsDNS1123Label: at most 63
// characters, matching the label pattern), without its regexp; false leaves
// the answer to the library (and the memo). A namespace is on every
// object: checked by these bytes it costs less than its memo's lookup (a hash
// and two loads that miss the cache), at 100k about 0.1 s of CPU per run.
func namespaceIsDNSLabel(namespace string) bool {
	return len(namespace) <= validation.DNS1123LabelMaxLength && strings.IndexByte(namespace, '.') < 0 && isSubdomain(namespace)
}

// metaMemo remembers the checks of namespaces, and of labels and annotations
// by their JSON text, within a bound. Looking a check up takes no lock and
// writes nothing (both cores look up every object's metadata).
type metaMemo struct {
	namespaces, labels, annotations checkMemo
}

// checkMemo remembers the results of one check by key, direct-mapped (as
// memo): a key's hash picks one slot, which holds the last key checked
// there. A key that collides with another is only checked again.
type checkMemo struct {
	slots atomic.Pointer[[checkSlots]atomic.Pointer[checkEntry]] // nil: nothing yet
}

type checkEntry struct {
	key string
	ok  bool
}

const (
	checkSlots = 1 << 12
	// checkKeyBytes bounds the keys remembered, so that a memo keeps at most
	// 2 MiB of them (checkSlots of them). Texts that repeat from object to
	// object are short; a long one (an object's last-applied-configuration
	// annotation, of a kilobyte or more) is unique to its object and would
	// only fill slots that never answer again.
	checkKeyBytes = 512
)

// forget drops what c remembers; check computes it again.
func (c *metaMemo) forget() {
	for _, m := range []*checkMemo{&c.namespaces, &c.labels, &c.annotations} {
		m.slots.Store(nil)
	}
}

func (c *metaMemo) check(m *checkMemo, key string, valid func() bool) bool {
	slots := m.slots.Load()
	slot := maphash.String(memoSeed, key) % checkSlots
	if slots != nil {
		if e := slots[slot].Load(); e != nil && e.key == key {
			return e.ok
		}
	}
	ok := valid()
	if len(key) > checkKeyBytes {
		return ok
	}
	if slots == nil {
		m.slots.CompareAndSwap(nil, new([checkSlots]atomic.Pointer[checkEntry]))
		if slots = m.slots.Load(); slots == nil {
			return ok // forgotten meanwhile
		}
	}
	slots[slot].Store(&checkEntry{key: key, ok: ok})
	return ok
}
