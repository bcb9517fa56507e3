package model

import (
	"testing"
	"time"
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestRouteMetaKeepsWhatTheToolReads: RouteMetaOf copies the identity,
// generation, creation time, labels and annotations of a route's metadata, the
// maps shared rather than copied, and a Route stays within the 320-byte size
// class (it was 448 with a metav1.ObjectMeta: 100k routes, 12.8 MB).
func TestRouteMetaKeepsWhatTheToolReads(t *testing.T) {
	created := metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	labels, annotations := map[string]string{"app": "web"}, map[string]string{"note": "n"}
	om := metav1.ObjectMeta{
		Name: "r", Namespace: "ns", UID: "u-1", ResourceVersion: "42", Generation: 7,
		CreationTimestamp: created, Labels: labels, Annotations: annotations,
		Finalizers: []string{"f"}, OwnerReferences: []metav1.OwnerReference{{Name: "o"}},
	}
	m := RouteMetaOf(&om)
	if m.Name != "r" || m.Namespace != "ns" || m.UID != "u-1" || m.ResourceVersion != "42" || m.Generation != 7 || !m.CreationTimestamp.Equal(&created) {
		t.Errorf("RouteMetaOf = %+v", m)
	}
	if m.Labels["app"] != "web" || m.Annotations["note"] != "n" || len(m.Labels) != 1 || len(m.Annotations) != 1 {
		t.Errorf("labels %v annotations %v, want the object's", m.Labels, m.Annotations)
	}
	if got := NameOf(&m); got != (NamespacedName{"ns", "r"}) {
		t.Errorf("NameOf = %v, want ns/r", got)
	}
	m.SetNamespace("other")
	if m.GetNamespace() != "other" || om.Namespace != "ns" {
		t.Errorf("SetNamespace: %q (object's %q), want other (ns)", m.GetNamespace(), om.Namespace)
	}
	if size := unsafe.Sizeof(Route{}); size > 320 {
		t.Errorf("a Route is %d bytes, want at most 320 (its size class)", size)
	}
}
