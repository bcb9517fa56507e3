package load

import (
	"reflect"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// objectMetas returns the ObjectMeta of every object of m, found by
// reflection over the model's lists so that a kind added to the model is
// covered without this test knowing it.
func objectMetas(t *testing.T, m *model.Model) []metaMaps {
	t.Helper()
	var metas []metaMaps
	of := func(om reflect.Value) metaMaps {
		return metaMaps{om.FieldByName("Labels").Addr().Interface().(*map[string]string), om.FieldByName("Annotations").Addr().Interface().(*map[string]string)}
	}
	v := reflect.ValueOf(m).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		if f.Kind() != reflect.Slice || f.Type().Elem().Kind() != reflect.Pointer {
			continue
		}
		for j := range f.Len() {
			o := f.Index(j).Elem()
			if om := o.FieldByName("ObjectMeta"); om.IsValid() {
				metas = append(metas, of(om))
				continue
			}
			if obj := o.FieldByName("Obj"); obj.IsValid() {
				metas = append(metas, of(obj.Elem().FieldByName("ObjectMeta")))
				continue
			}
			t.Fatalf("%s: an object without ObjectMeta", v.Type().Field(i).Name)
		}
	}
	return metas
}

// metaMaps are an object's labels and annotations, in its metav1.ObjectMeta
// (a route's model.RouteMeta).
type metaMaps struct{ Labels, Annotations *map[string]string }

// TestRegroupMetadata: every kind of the model gets new labels and
// annotations maps with the same entries; nil stays nil and empty stays
// empty, so nothing the engine or the renderers read changes.
func TestRegroupMetadata(t *testing.T) {
	m := &model.Model{}
	kinds := 0
	v := reflect.ValueOf(m).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		if f.Kind() != reflect.Slice || f.Type().Elem().Kind() != reflect.Pointer || f.Type().Elem().Elem().Kind() != reflect.Struct {
			continue
		}
		// Three objects of each kind: labels and annotations set, nil, empty.
		for j := 0; j < 3; j++ {
			o := reflect.New(f.Type().Elem().Elem())
			if obj := o.Elem().FieldByName("Obj"); obj.IsValid() {
				obj.Set(reflect.New(obj.Type().Elem()))
			}
			f.Set(reflect.Append(f, o))
		}
		kinds++
	}
	metas := objectMetas(t, m)
	if len(metas) != 3*kinds || kinds < 14 {
		t.Fatalf("%d objects of %d kinds", len(metas), kinds)
	}
	type before struct{ labels, annotations map[string]string }
	was := make([]before, len(metas))
	for i, om := range metas {
		switch i % 3 {
		case 0:
			*om.Labels = map[string]string{"app": "a", "tier": "edge"}
			*om.Annotations = map[string]string{"note": "n"}
		case 2:
			*om.Labels, *om.Annotations = map[string]string{}, map[string]string{}
		}
		was[i] = before{*om.Labels, *om.Annotations}
	}
	regroupMetadata(m)
	same := func(a, b map[string]string) bool {
		return a != nil && b != nil && reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
	}
	for i, m := range metas {
		om := struct{ Labels, Annotations map[string]string }{*m.Labels, *m.Annotations}
		w := was[i]
		if !reflect.DeepEqual(om.Labels, w.labels) || !reflect.DeepEqual(om.Annotations, w.annotations) || (om.Labels == nil) != (w.labels == nil) || (om.Annotations == nil) != (w.annotations == nil) {
			t.Errorf("object %d: labels %v annotations %v, want %v %v", i, om.Labels, om.Annotations, w.labels, w.annotations)
		}
		if same(om.Labels, w.labels) || same(om.Annotations, w.annotations) {
			t.Errorf("object %d: its maps were not copied", i)
		}
	}
}
