package admit

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"

	apiextensionshelpers "k8s.io/apiextensions-apiserver/pkg/apihelpers"
	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// Default applies to an object the defaults of the CRD version that serves
// apiVersion and kind, as the API server applies them when it decodes a
// request, and validates nothing: what a tool that does not judge admission
// (the user turned it off) still needs, so that it reads the fields a
// controller reads. It neither prunes nor refuses anything; status is kept as
// written, without the schema's placeholder when there is none. ok is false,
// and the object nil, when no CRD serves apiVersion and kind or raw is not a
// JSON object.
func (a *Admitter) Default(apiVersion, kind string, raw []byte) (obj map[string]any, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			obj, ok = nil, false
		}
	}()
	gv, err := k8sschema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, false
	}
	compile, err := a.kinds[gv.WithKind(kind).GroupKind()].version(gv.Version)
	if err != nil || compile == nil {
		return nil, false
	}
	sv, err := compile()
	if err != nil {
		return nil, false
	}
	// The API server's decoder reads numbers as int64 where they are whole, as
	// this does; the schema's defaults are typed the same way.
	if err := utiljson.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, false
	}
	_, hadStatus := obj["status"]
	structuraldefaulting.Default(obj, sv.structural)
	if !hadStatus {
		delete(obj, "status") // see servedVersion.decode
	}
	return obj, true
}

// TypedDefaults returns what applies the defaults of the CRD version that
// serves apiVersion and kind to a Go value its JSON was decoded into (a
// pointer to the kind's Go type, whose fields carry the JSON names): the same
// defaults as Default, without the unstructured object Default goes through,
// whose decoding and conversion cost more than the typed decoding itself.
//
// The defaults are the schema's (structural, pruned as the API server prunes
// them), read once per served version into a plan of the fields that have one
// at or below them. A default is set where the field is absent: a nil pointer,
// slice or map, or the zero value of a field that has neither (Go does not
// tell an absent string from an empty one), as structuraldefaulting sets it
// where a key is absent or null. Defaults under status apply only where a
// status is written (see Default). ok is false when no CRD serves apiVersion
// and kind, or when a default lies where a typed value cannot show the field
// absent (under a map's values): the caller then uses Default.
func (a *Admitter) TypedDefaults(apiVersion, kind string) (apply func(v any), ok bool) {
	gv, err := k8sschema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, false
	}
	k := a.kinds[gv.WithKind(kind).GroupKind()]
	if k == nil {
		return nil, false
	}
	def, err := k.crd.def()
	if err != nil {
		return nil, false
	}
	plan, ok := defaultPlanOf(def, gv.Version)
	if !ok {
		return nil, false
	}
	return plan.applyTo, true
}

// defaultPlan is the part of a structural schema that has defaults: a node
// for each property, and array items, with a default at or below it.
type defaultPlan struct {
	// def is the node's default as JSON, nil when it has none.
	def   []byte
	props map[string]*defaultPlan
	items *defaultPlan
}

// defaultPlans memoizes defaultPlanOf: a plan is read once per CRD version,
// without the validators compileVersion builds, which a load that validates
// nothing does not need.
var defaultPlans sync.Map // versionOf -> *defaultPlan (nil: none typed)

type versionOf struct {
	crd     *apiextensionsv1.CustomResourceDefinition
	version string
}

// defaultPlanOf is the defaultPlan of a served version of crd, from its
// structural schema with the defaults pruned as the API server prunes them
// (compileVersion); ok is false when the version is not served or its
// defaults cannot be applied to a typed value.
func defaultPlanOf(crd *apiextensionsv1.CustomResourceDefinition, version string) (*defaultPlan, bool) {
	key := versionOf{crd, version}
	if p, ok := defaultPlans.Load(key); ok {
		plan := p.(*defaultPlan)
		return plan, plan != nil
	}
	plan := planVersion(crd, version)
	defaultPlans.Store(key, plan)
	return plan, plan != nil
}

func planVersion(crd *apiextensionsv1.CustomResourceDefinition, version string) *defaultPlan {
	served := false
	for _, v := range crd.Spec.Versions {
		served = served || (v.Name == version && v.Served)
	}
	if !served {
		return nil
	}
	val, err := apiextensionshelpers.GetSchemaForVersion(crd, version)
	if err != nil || val == nil || val.OpenAPIV3Schema == nil {
		return nil
	}
	internal := &apiextensionsinternal.CustomResourceValidation{}
	if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(val, internal, nil); err != nil {
		return nil
	}
	s, err := schema.NewStructural(internal.OpenAPIV3Schema)
	if err != nil {
		return nil
	}
	s = s.DeepCopy()
	if err := structuraldefaulting.PruneDefaults(s); err != nil {
		return nil
	}
	plan, typed := planDefaults(s)
	switch {
	case !typed:
		return nil
	case plan == nil:
		return &defaultPlan{} // no defaults at all
	}
	return plan
}

// planDefaults is s's defaultPlan, nil when s has no default at or below it;
// typed is false when a default lies under additionalProperties.
func planDefaults(s *schema.Structural) (plan *defaultPlan, typed bool) {
	if s == nil {
		return nil, true
	}
	var p defaultPlan
	if s.Default.Object != nil {
		js, err := json.Marshal(s.Default.Object)
		if err != nil {
			return nil, false
		}
		p.def = js
	}
	for name := range s.Properties {
		prop := s.Properties[name]
		child, ok := planDefaults(&prop)
		if !ok {
			return nil, false
		}
		if child != nil {
			if p.props == nil {
				p.props = map[string]*defaultPlan{}
			}
			p.props[name] = child
		}
	}
	items, ok := planDefaults(s.Items)
	if !ok {
		return nil, false
	}
	p.items = items
	if s.AdditionalProperties != nil {
		if under, ok := planDefaults(s.AdditionalProperties.Structural); !ok || under != nil {
			return nil, false
		}
	}
	if p.def == nil && p.props == nil && p.items == nil {
		return nil, true
	}
	return &p, true
}

// applyTo applies the plan to v, the object: its status only when written.
func (p *defaultPlan) applyTo(v any) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || p.props == nil {
		return
	}
	obj := rv.Elem()
	if obj.Kind() != reflect.Struct {
		return
	}
	for name, child := range p.props {
		f, ok := jsonField(obj, name)
		if !ok || (name == "status" && absent(f)) {
			continue
		}
		child.setAbsent(f)
	}
}

// setAbsent gives f, the value of a field p plans, its default when absent,
// then the defaults under it.
func (p *defaultPlan) setAbsent(f reflect.Value) {
	if p.def != nil && absent(f) && f.CanSet() {
		def, ok := p.typed(f.Type())
		if !ok {
			return // the default does not fit the Go type: the field stays as written
		}
		f.Set(clone(def))
	}
	p.under(f)
}

// typed is the node's default decoded into Go type t, decoded once per type
// and cloned for each object: decoding it each time would cost as much as the
// rest of the defaulting.
func (p *defaultPlan) typed(t reflect.Type) (reflect.Value, bool) {
	key := typedDefault{p, t}
	if v, ok := typedDefaults.Load(key); ok {
		def := v.(reflect.Value)
		return def, def.IsValid()
	}
	def := reflect.New(t)
	if err := json.Unmarshal(p.def, def.Interface()); err != nil {
		typedDefaults.Store(key, reflect.Value{})
		return reflect.Value{}, false
	}
	typedDefaults.Store(key, def.Elem())
	return def.Elem(), true
}

// scalar reports whether a value of kind k holds no pointer.
func scalar(k reflect.Kind) bool {
	switch k {
	case reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// TypedDefaultsUnchanged reports a typed default whose value is no longer
// what its JSON decodes to: something wrote through a pointee every object
// defaulted shares (clone). For tests that run commands.
func TypedDefaultsUnchanged() error {
	var err error
	typedDefaults.Range(func(k, v any) bool {
		key, def := k.(typedDefault), v.(reflect.Value)
		if !def.IsValid() {
			return true
		}
		fresh := reflect.New(key.t)
		if json.Unmarshal(key.plan.def, fresh.Interface()) != nil || !reflect.DeepEqual(fresh.Elem().Interface(), def.Interface()) {
			err = fmt.Errorf("the default %s (%s) is now %+v: something writes through a pointer of the model", key.plan.def, key.t, def.Interface())
			return false
		}
		return true
	})
	return err
}

type typedDefault struct {
	plan *defaultPlan
	t    reflect.Type
}

var typedDefaults sync.Map // typedDefault -> reflect.Value (invalid: does not fit)

// clone is a deep copy of v, so that no two objects share a default's
// pointers, slices or maps, but for the pointee of a pointer to a scalar (a
// *Group, *Kind, *int32 weight): every object defaulted shares the one of
// the decoded default. As the decoder shares the pointees of the scalars it
// decodes (package typedjson), this is safe because nothing writes through
// a pointer of the model; cloned, they were a 16- or 8-byte allocation per
// parentRef and backendRef, 9.7 MB live at 100k routes among the load's
// garbage (docs/performance.md).
func clone(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || scalar(v.Type().Elem().Kind()) {
			return v
		}
		c := reflect.New(v.Type().Elem())
		c.Elem().Set(clone(v.Elem()))
		return c
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			c.Index(i).Set(clone(v.Index(i)))
		}
		return c
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			c.SetMapIndex(it.Key(), clone(it.Value()))
		}
		return c
	case reflect.Struct:
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		for i := range c.NumField() {
			if f := c.Field(i); f.CanSet() {
				f.Set(clone(v.Field(i)))
			}
		}
		return c
	default:
		return v
	}
}

// under applies the defaults below v's own.
func (p *defaultPlan) under(v reflect.Value) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Struct:
		for name, child := range p.props {
			if f, ok := jsonField(v, name); ok {
				child.setAbsent(f)
			}
		}
	case reflect.Slice, reflect.Array:
		if p.items == nil {
			return
		}
		for i := range v.Len() {
			// An array item is never absent: only the defaults under it apply.
			p.items.under(v.Index(i))
		}
	}
}

// absent reports whether a decoded field shows its key absent (or null).
func absent(f reflect.Value) bool {
	switch f.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return f.IsNil()
	default:
		return f.IsZero()
	}
}

// jsonField is the field of the struct v whose JSON name is name, through
// inline (embedded) structs as encoding/json reads them.
func jsonField(v reflect.Value, name string) (reflect.Value, bool) {
	idx, ok := jsonFields(v.Type())[name]
	if !ok {
		return reflect.Value{}, false
	}
	f, err := v.FieldByIndexErr(idx)
	if err != nil {
		return reflect.Value{}, false // under a nil embedded pointer
	}
	return f, true
}

var fieldIndexes sync.Map // reflect.Type -> map[string][]int

// jsonFields maps the JSON names of struct type t's fields to their indexes.
func jsonFields(t reflect.Type) map[string][]int {
	if m, ok := fieldIndexes.Load(t); ok {
		return m.(map[string][]int)
	}
	m := map[string][]int{}
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			continue // inline: its fields are visible themselves
		}
		if name == "" {
			name = f.Name
		}
		if _, dup := m[name]; !dup || len(f.Index) < len(m[name]) {
			m[name] = f.Index
		}
	}
	fieldIndexes.Store(t, m)
	return m
}
