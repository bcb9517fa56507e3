package load

import (
	"reflect"
	"strings"
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
	shareMetadata(m, true)
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

// TestShareMetadata: maps of equal contents become one map, the first met
// (its copy, with fresh); maps of other contents, nil and empty stay apart.
func TestShareMetadata(t *testing.T) {
	for _, fresh := range []bool{false, true} {
		web1, web2 := map[string]string{"app": "web", "tier": "edge"}, map[string]string{"tier": "edge", "app": "web"}
		// Length-prefixed entries: {"a": "bc"} and {"ab": "c"} differ.
		split1, split2 := map[string]string{"a": "bc"}, map[string]string{"ab": "c"}
		empty := map[string]string{}
		m := &model.Model{Routes: []*model.Route{
			{ObjectMeta: model.RouteMeta{Name: "r1", Labels: web1, Annotations: split1}},
			{ObjectMeta: model.RouteMeta{Name: "r2", Labels: web2, Annotations: split2}},
			{ObjectMeta: model.RouteMeta{Name: "r3", Labels: nil, Annotations: empty}},
		}}
		shareMetadata(m, fresh)
		r := m.Routes
		same := func(a, b map[string]string) bool {
			return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
		}
		if !same(r[0].ObjectMeta.Labels, r[1].ObjectMeta.Labels) || !reflect.DeepEqual(r[0].ObjectMeta.Labels, web1) {
			t.Errorf("fresh %v: equal labels are not one map: %v %v", fresh, r[0].ObjectMeta.Labels, r[1].ObjectMeta.Labels)
		}
		if same(r[0].ObjectMeta.Labels, web1) == fresh {
			t.Errorf("fresh %v: the first map met is kept: %v", fresh, same(r[0].ObjectMeta.Labels, web1))
		}
		if same(r[0].ObjectMeta.Annotations, r[1].ObjectMeta.Annotations) || !reflect.DeepEqual(r[1].ObjectMeta.Annotations, split2) {
			t.Errorf("fresh %v: {a: bc} and {ab: c} are one map", fresh)
		}
		if r[2].ObjectMeta.Labels != nil || r[2].ObjectMeta.Annotations == nil || len(r[2].ObjectMeta.Annotations) != 0 {
			t.Errorf("fresh %v: nil or empty changed: %#v %#v", fresh, r[2].ObjectMeta.Labels, r[2].ObjectMeta.Annotations)
		}
	}
}

// TestShareMetadataRemembersNoLongMap: maps longer than maxSharedMetadata
// (kubectl's last-applied-configuration annotation) are not remembered, so a
// load holds no key as large as them; with fresh each is still copied.
func TestShareMetadataRemembersNoLongMap(t *testing.T) {
	long := strings.Repeat("x", maxSharedMetadata)
	for _, fresh := range []bool{false, true} {
		a1, a2 := map[string]string{"kubectl.kubernetes.io/last-applied-configuration": long}, map[string]string{"kubectl.kubernetes.io/last-applied-configuration": long}
		m := &model.Model{Routes: []*model.Route{
			{ObjectMeta: model.RouteMeta{Name: "r1", Annotations: a1}},
			{ObjectMeta: model.RouteMeta{Name: "r2", Annotations: a2}},
		}}
		s := metadataMaps{fresh: fresh, seen: map[string]map[string]string{}}
		for _, r := range m.Routes {
			r.ObjectMeta.Annotations = s.of(r.ObjectMeta.Annotations)
		}
		if len(s.seen) != 0 {
			t.Errorf("fresh %v: %d long maps remembered", fresh, len(s.seen))
		}
		got1, got2 := m.Routes[0].ObjectMeta.Annotations, m.Routes[1].ObjectMeta.Annotations
		if !reflect.DeepEqual(got1, a1) || !reflect.DeepEqual(got2, a2) {
			t.Errorf("fresh %v: the long maps changed", fresh)
		}
		kept := reflect.ValueOf(got1).UnsafePointer() == reflect.ValueOf(a1).UnsafePointer()
		if kept == fresh {
			t.Errorf("fresh %v: the map was kept %v", fresh, kept)
		}
	}
}
