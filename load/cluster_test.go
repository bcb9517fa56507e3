package load

import (
	"encoding/json"
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// TestListPagesDecodeEveryClusterKind: a list page's items carry no apiVersion
// or kind; decodePage gives them the list's, and each lands in the model as an
// object of the kind listed, namespaced or not as the kind is. (The e2e
// cluster tests list a real API server.)
func TestListPagesDecodeEveryClusterKind(t *testing.T) {
	listed := 0
	for i := range kinds {
		k := &kinds[i]
		if k.resource == "" {
			continue
		}
		listed++
		t.Run(k.name, func(t *testing.T) {
			apiVersion := k.versions[0]
			if k.group != "" {
				apiVersion = k.group + "/" + apiVersion
			}
			items := []json.RawMessage{
				json.RawMessage(`{"metadata":{"name":"a","namespace":"apps"}}`),
				json.RawMessage(`{"metadata":{"name":"b","namespace":"apps"}}`),
			}
			objs, err := decodePage(items, header{APIVersion: apiVersion, Kind: k.name})
			if err != nil {
				t.Fatal(err)
			}
			m := &model.Model{}
			for _, o := range objs {
				o.addTo(m)
			}
			if m.Len() != 2 {
				t.Fatalf("%d objects in the model, want 2", m.Len())
			}
			wantNS := "apps"
			if k.scope == clusterScoped {
				wantNS = ""
			}
			for _, o := range objs {
				meta, ns, typ := metaOf(o.obj)
				if typ != k.name && typ != "Route" {
					t.Errorf("a %s is decoded as a %s", k.name, typ)
				}
				if meta.Kind != k.name || meta.APIVersion != apiVersion || meta.Source.File != "cluster" {
					t.Errorf("Meta %+v, want kind %s, apiVersion %s from the cluster", meta, k.name, apiVersion)
				}
				if ns != wantNS {
					t.Errorf("namespace %q, want %q", ns, wantNS)
				}
			}
		})
	}
	if listed != 14 {
		t.Errorf("%d kinds are listed from a cluster, want 14", listed)
	}
}

// metaOf returns the Meta, the namespace and the typed view's type of a model
// object: model.Object[T] keeps its metadata in Obj (a T), model.Route and
// model.Mesh in ObjectMeta.
func metaOf(obj any) (meta model.Meta, namespace, typ string) {
	v := reflect.ValueOf(obj).Elem()
	typed := v
	if o := v.FieldByName("Obj"); o.IsValid() {
		typed = o.Elem()
	}
	om := typed.FieldByName("ObjectMeta").Interface().(metav1.ObjectMeta)
	return v.FieldByName("Meta").Interface().(model.Meta), om.Namespace, typed.Type().Name()
}
