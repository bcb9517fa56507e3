package admit_test

import (
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
)

// TestDoneGivesBackOnlyTheObjectsOwnMaps admits every object of the
// repository's manifests, the conformance corpus and a generated
// configuration with AdmitReadOnly, calling Done on each verdict once it is
// read, as the loader does, and holds each verdict, and each verdict of a
// second pass whose memos the first pass filled, to Admit's, which gives
// nothing back. Done clearing a map that a memo, a default or another
// object shares shows as a later object's value changed; a walk that kept a
// map it gave back shows as a refused or different object.
func TestDoneGivesBackOnlyTheObjectsOwnMaps(t *testing.T) {
	crds, err := admit.Builtin(admit.Experimental)
	if err != nil {
		t.Fatal(err)
	}
	want, err := admit.New(crds)
	if err != nil {
		t.Fatal(err)
	}
	got, err := admit.New(crds)
	if err != nil {
		t.Fatal(err)
	}
	objs := manifestObjects(t, want)
	data, err := generate.Bytes(generate.Sizes[0].Config)
	if err != nil {
		t.Fatal(err)
	}
	objs = append(objs, gatewayObjects(t, want, data)...)
	expected := make([]admit.Verdict, len(objs))
	for i, o := range objs {
		expected[i] = want.Admit(o.apiVersion, o.kind, o.raw)
	}
	admitted := 0
	for pass := range 2 {
		for i, o := range objs {
			v := got.AdmitReadOnly(o.apiVersion, o.kind, o.raw)
			w := expected[i]
			if v.Admitted != w.Admitted || v.Reason != w.Reason || v.Warning() != w.Warning() {
				t.Fatalf("pass %d, object %d (%s): verdict %v %q, want %v %q", pass, i, o.kind, v.Admitted, v.Reason, w.Admitted, w.Reason)
			}
			// A copy, before Done: what the caller read.
			obj := runtime.DeepCopyJSON(v.Object)
			if v.Admitted {
				admitted++
				if !reflect.DeepEqual(obj, w.Object) {
					t.Fatalf("pass %d, object %d (%s): the admitted object differs from Admit's:\n got %v\nwant %v", pass, i, o.kind, obj, w.Object)
				}
			}
			v.Done()
			if v.Object != nil {
				t.Fatalf("Done left the Object")
			}
		}
	}
	if admitted < len(objs) {
		t.Fatalf("%d objects admitted in two passes over %d: fewer than one pass's worth, too few to hold the recycled maps to anything", admitted, len(objs))
	}
}
