package load

import (
	"maps"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// regroupMetadata gives every object's labels and annotations maps new
// memory, allocated one after the other, and leaves the old maps to the
// collector. It runs at the end of a load whose objects admission validated.
//
// Admission's walk of each object builds maps of the same size class as a
// small labels map (map[string]any of up to eight keys and map[string]string
// both take 288-byte groups), a few kilobytes of them per object, and the
// object's own maps are decoded right after them: every 8 KiB span of that
// class ends the load holding one or two live maps among the walk's garbage,
// and no span of it can be freed (at 100k routes about 100 MB of heap held
// 10 MB of maps: docs/performance.md, "Peak memory against the input").
// Copied together, the maps fill spans of their own, and the spans of the
// walk's garbage are freed whole by the next collection.
func regroupMetadata(m *model.Model) {
	for _, r := range m.Routes {
		r.ObjectMeta.Labels = maps.Clone(r.ObjectMeta.Labels)
		r.ObjectMeta.Annotations = maps.Clone(r.ObjectMeta.Annotations)
	}
	for _, o := range m.Meshes {
		regroupMaps(&o.ObjectMeta)
	}
	for _, o := range m.ServiceImports {
		regroupMaps(&o.ObjectMeta)
	}
	regroupObjects(m.GatewayClasses)
	regroupObjects(m.Gateways)
	regroupObjects(m.ListenerSets)
	regroupObjects(m.ReferenceGrants)
	regroupObjects(m.BackendTLSPolicies)
	regroupObjects(m.Secrets)
	regroupObjects(m.ConfigMaps)
	regroupObjects(m.Services)
	regroupObjects(m.Namespaces)
	regroupObjects(m.Ingresses)
	regroupObjects(m.IngressClasses)
}

// regroupObjects regroups the maps of typed objects, whose Go types embed
// their ObjectMeta.
func regroupObjects[T any](objs []*model.Object[T]) {
	for _, o := range objs {
		if meta, ok := any(o.Obj).(interface{ GetObjectMeta() metav1.Object }); ok {
			if om, ok := meta.GetObjectMeta().(*metav1.ObjectMeta); ok {
				regroupMaps(om)
			}
		}
	}
}

// regroupMaps copies the labels and annotations maps; a nil map stays nil and
// an empty one empty.
func regroupMaps(om *metav1.ObjectMeta) {
	om.Labels = maps.Clone(om.Labels)
	om.Annotations = maps.Clone(om.Annotations)
}
