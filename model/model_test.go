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

// CreatedOrder: oldest first ("The oldest Route based on creation timestamp",
// httproute_types.go HTTPRouteSpec.Rules; listenerset_types.go
// ListenerSetSpec.Listeners; backendtlspolicy_types.go
// BackendTLSPolicySpec.TargetRefs), and an object without a timestamp, not
// created yet, after every object that has one.
func TestCreatedOrder(t *testing.T) {
	at := func(s string) *metav1.Time {
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return &metav1.Time{Time: tm}
	}
	for _, tc := range []struct {
		name string
		a, b *metav1.Time
		want int
	}{
		{"older first", at("2021-07-15T01:02:03Z"), at("2021-07-15T01:02:04Z"), -1},
		{"newer after", at("2021-07-15T01:02:04Z"), at("2021-07-15T01:02:03Z"), 1},
		{"the same instant", at("2021-07-15T01:02:03Z"), at("2021-07-15T03:02:03+02:00"), 0},
		{"not created yet after created", &metav1.Time{}, at("2021-07-15T01:02:03Z"), 1},
		{"created before not created yet", at("2030-01-01T00:00:00Z"), &metav1.Time{}, -1},
		{"neither created", &metav1.Time{}, &metav1.Time{}, 0},
		{"nil is not created", nil, at("2021-07-15T01:02:03Z"), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := CreatedOrder(tc.a, tc.b); got != tc.want {
				t.Errorf("CreatedOrder = %d, want %d", got, tc.want)
			}
		})
	}
}
