package admit

import (
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
