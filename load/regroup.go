package load

import (
	"encoding/binary"
	"maps"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// shareMetadata makes the objects' labels and annotations maps of equal
// contents one map, at the end of every load: a large configuration labels
// many objects alike (an app or a tier label, the same on a Deployment's
// routes and Services), and a small Go map costs about 350 bytes however few
// its entries (one 8-slot group of 288 bytes and its header): one map per
// label set instead of one per object (docs/performance.md, "Where the peak
// is now, and one map per label set"). Nothing writes through a model's maps (cmd/gwtls's
// TestNothingWritesThroughSharedValues watches them): sharing them changes
// no output. Nil stays nil and empty stays empty.
//
// With fresh (a load whose objects admission validated) every map the
// objects keep is new memory, allocated one after the other, and the old
// maps are left to the collector. Admission's walk of each object builds
// maps of the same size class as a small labels map (map[string]any of up
// to eight keys and map[string]string both take 288-byte groups), a few
// kilobytes of them per object, and the object's own maps are decoded right
// after them: every 8 KiB span of that class ends the load holding one or
// two live maps among the walk's garbage, and no span of it can be freed (at
// 100k routes about 100 MB of heap held 10 MB of maps: docs/performance.md,
// "Peak memory against the input"). Copied together, the maps fill spans of
// their own, and the spans of the walk's garbage are freed whole by the next
// collection.
func shareMetadata(m *model.Model, fresh bool) {
	s := metadataMaps{fresh: fresh, seen: map[string]map[string]string{}}
	for _, r := range m.Routes {
		r.ObjectMeta.Labels = s.of(r.ObjectMeta.Labels)
		r.ObjectMeta.Annotations = s.of(r.ObjectMeta.Annotations)
	}
	for _, o := range m.Meshes {
		s.objectMeta(&o.ObjectMeta)
	}
	for _, o := range m.ServiceImports {
		s.objectMeta(&o.ObjectMeta)
	}
	shareObjects(&s, m.GatewayClasses)
	shareObjects(&s, m.Gateways)
	shareObjects(&s, m.ListenerSets)
	shareObjects(&s, m.ReferenceGrants)
	shareObjects(&s, m.BackendTLSPolicies)
	shareObjects(&s, m.Secrets)
	shareObjects(&s, m.ConfigMaps)
	shareObjects(&s, m.Services)
	shareObjects(&s, m.Namespaces)
	shareObjects(&s, m.Ingresses)
	shareObjects(&s, m.IngressClasses)
}

// shareObjects shares the maps of typed objects, whose Go types embed their
// ObjectMeta.
func shareObjects[T any](s *metadataMaps, objs []*model.Object[T]) {
	for _, o := range objs {
		if meta, ok := any(o.Obj).(interface{ GetObjectMeta() metav1.Object }); ok {
			if om, ok := meta.GetObjectMeta().(*metav1.ObjectMeta); ok {
				s.objectMeta(om)
			}
		}
	}
}

// maxSharedMaps bounds how many distinct maps a load remembers: past it, a
// map of contents not seen yet is kept as it is (copied, with fresh), so that
// a configuration whose every object is labelled differently holds no table
// as large as its maps.
const maxSharedMaps = 1 << 14

// maxSharedMetadata is the most bytes of keys and values a map may hold to be
// shared: the decoder shares map texts of at most 256 bytes (typedjson).
const maxSharedMetadata = 256

// metadataMaps are the maps of one load's objects by their contents.
type metadataMaps struct {
	fresh bool
	seen  map[string]map[string]string
	key   []byte
	keys  []string
}

func (s *metadataMaps) objectMeta(om *metav1.ObjectMeta) {
	om.Labels = s.of(om.Labels)
	om.Annotations = s.of(om.Annotations)
}

// of is the map of m's contents the load keeps: the first of them met (its
// copy, with fresh), nil for nil.
func (s *metadataMaps) of(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	// A long map (kubectl's last-applied-configuration annotation holds the
	// whole object) is rarely another's, and remembering it would hold a key
	// as large as the map: it is kept as it is.
	size := 0
	for k, v := range m {
		size += len(k) + len(v)
	}
	if size > maxSharedMetadata {
		if s.fresh {
			m = maps.Clone(m)
		}
		return m
	}
	// The key: each entry's key and value, in key order, each after its
	// length, so that no two contents have the same key.
	s.keys = s.keys[:0]
	for k := range m {
		s.keys = append(s.keys, k)
	}
	slices.Sort(s.keys)
	s.key = s.key[:0]
	for _, k := range s.keys {
		v := m[k]
		s.key = binary.AppendUvarint(s.key, uint64(len(k)))
		s.key = append(s.key, k...)
		s.key = binary.AppendUvarint(s.key, uint64(len(v)))
		s.key = append(s.key, v...)
	}
	if kept, ok := s.seen[string(s.key)]; ok {
		return kept
	}
	if s.fresh {
		m = maps.Clone(m)
	}
	if len(s.seen) < maxSharedMaps {
		s.seen[string(s.key)] = m
	}
	return m
}
