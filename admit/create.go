package admit

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	apiextensionshelpers "k8s.io/apiextensions-apiserver/pkg/apihelpers"
	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/crdserverscheme"
	"k8s.io/apimachinery/pkg/api/validate/content"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
)

// servedVersion is what a kube-apiserver builds for one served version of a CRD
// (apiextensions-apiserver's crdHandler.getOrCreateServingInfoFor and
// customresource.NewStrategy): the structural schema with its defaults, the
// OpenAPI schema validator and the compiled CEL rules. It is built once and read
// concurrently, as the API server shares it across requests.
type servedVersion struct {
	gvk        k8sschema.GroupVersionKind
	namespaced bool
	// hasStatus: the status subresource is enabled, so create drops .status.
	hasStatus             bool
	preserveUnknownFields bool

	structural *schema.Structural
	openAPI    apiservervalidation.SchemaValidator
	// hasRules: the schema has x-kubernetes-validations. prover shows most
	// objects keep them; cel, the API server's validator, built on first need,
	// decides the rest.
	hasRules bool
	prover   *celProver
	cel      func() *cel.Validator
	// shortcut shows most objects admitted without the code above; nil when
	// the schema is one it does not handle.
	shortcut *shortcut
	// twins links, in an Admitter of the experimental channel, the shortcut
	// to the standard channel's of the same version.
	twins twins
}

// compileVersion builds the servedVersion of version of crd the way the API
// server's CRD handler does when it starts serving it.
func compileVersion(crd *apiextensionsv1.CustomResourceDefinition, version string) (*servedVersion, error) {
	val, err := apiextensionshelpers.GetSchemaForVersion(crd, version)
	if err != nil {
		return nil, err
	}
	if val == nil || val.OpenAPIV3Schema == nil {
		return nil, fmt.Errorf("version %s has no schema", version)
	}
	internal := &apiextensionsinternal.CustomResourceValidation{}
	if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(val, internal, nil); err != nil {
		return nil, fmt.Errorf("version %s: converting the schema: %w", version, err)
	}
	s, err := schema.NewStructural(internal.OpenAPIV3Schema)
	if err != nil {
		return nil, fmt.Errorf("version %s: the schema is not structural: %w", version, err)
	}
	// The handler copies the schema before pruning defaults: NewStructural shares
	// default values with its input.
	s = s.DeepCopy()
	if err := structuraldefaulting.PruneDefaults(s); err != nil {
		return nil, fmt.Errorf("version %s: pruning defaults: %w", version, err)
	}
	openAPI, openAPISchema, err := apiservervalidation.NewSchemaValidator(internal.OpenAPIV3Schema)
	if err != nil {
		return nil, fmt.Errorf("version %s: %w", version, err)
	}
	sub, err := apiextensionshelpers.GetSubresourcesForVersion(crd, version)
	if err != nil {
		return nil, err
	}
	v := &servedVersion{
		gvk:                   k8sschema.GroupVersionKind{Group: crd.Spec.Group, Version: version, Kind: crd.Spec.Names.Kind},
		namespaced:            crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
		hasStatus:             sub != nil && sub.Status != nil,
		preserveUnknownFields: crd.Spec.PreserveUnknownFields,
		structural:            s,
		openAPI:               openAPI,
		// The API server compiles with the same per-call limit (customresource.NewStrategy).
		cel: sync.OnceValue(func() *cel.Validator { return cel.NewValidator(s, true, celconfig.PerCallLimit) }),
	}
	if hasXValidations(s) {
		v.hasRules = true
		v.prover = newCELProver(s)
	}
	v.shortcut = newShortcut(v, openAPISchema)
	return v, nil
}

// hasXValidations reports whether s or a schema under it has CEL rules: whether
// cel.NewValidator makes a validator (its own hasXValidations).
func hasXValidations(s *schema.Structural) bool {
	if s == nil {
		return false
	}
	if len(s.XValidations) > 0 {
		return true
	}
	for name := range s.Properties {
		p := s.Properties[name]
		if hasXValidations(&p) {
			return true
		}
	}
	if s.AdditionalProperties != nil && hasXValidations(s.AdditionalProperties.Structural) {
		return true
	}
	return hasXValidations(s.Items)
}

// strictJSON is the decoder a kube-apiserver uses for a custom resource sent as
// JSON with fieldValidation=Strict (kubectl's default --validate=strict):
// duplicate fields are strict decoding errors.
var strictJSON = json.NewSerializerWithOptions(json.DefaultMetaFactory, nil, crdserverscheme.NewUnstructuredObjectTyper(), json.SerializerOptions{Strict: true})

// create runs what a kube-apiserver runs on a create request for this version
// with dryRun=All and fieldValidation=Strict, up to the point where it would
// store the object: decode, prune and default, then validate.
//
// rec is nil but in an Admitter of the experimental channel, where the
// shortcut records in it what the standard channel's shares; shared says the
// caller only reads the object (Admitter.AdmitReadOnly).
func (v *servedVersion) create(raw []byte, rec *twinRecord, shared bool) (map[string]any, *rejection) {
	if v.shortcut != nil {
		if obj, ok := v.shortcut.admit(raw, rec, nil, shared); ok {
			if rec != nil {
				rec.version = v
			}
			return obj, nil
		}
	}
	return v.createSlowly(raw)
}

// createSlowly is create with the API server's code alone.
func (v *servedVersion) createSlowly(raw []byte) (map[string]any, *rejection) {
	u, rej := v.decode(raw)
	if rej != nil {
		return nil, rej
	}
	if name, errs := v.validate(u); len(errs) > 0 {
		return nil, &rejection{errs: errs, name: name}
	}
	return u.Object, nil
}

// rejection is why the API server refuses an object: field errors (HTTP 422
// Invalid), or a request it could not decode (HTTP 400 BadRequest), whose
// unknown or duplicate fields are listed when that was the reason.
type rejection struct {
	errs      field.ErrorList
	name      string // the object's name, for the Invalid message
	badReq    string // the decoder's error, when the body could not be decoded
	badFields []FieldError
}

// decode mirrors the API server's decoding of a custom resource create request
// (the handler's schemaCoercingDecoder and unstructuredDefaulter): strict JSON
// decoding, ObjectMeta coercion, pruning of unknown fields (reported, as
// fieldValidation=Strict makes them errors), and the schema's defaults.
func (v *servedVersion) decode(raw []byte) (*unstructured.Unstructured, *rejection) {
	u := &unstructured.Unstructured{}
	want := v.gvk
	obj, gvk, err := strictJSON.Decode(raw, &want, u)
	var strictErrs []error
	if err != nil {
		se, ok := runtime.AsStrictDecodingError(err)
		if !ok || obj == nil {
			return nil, &rejection{badReq: err.Error()}
		}
		strictErrs = se.Errors()
	}
	if gvk == nil || *gvk != v.gvk {
		return nil, &rejection{badReq: fmt.Sprintf("the object is a %v, not a %v", gvk, v.gvk)}
	}
	unknown, err := v.coerce(u)
	if err != nil {
		return nil, &rejection{badReq: err.Error()}
	}
	if len(strictErrs) > 0 || len(unknown) > 0 {
		for _, p := range unknown {
			strictErrs = append(strictErrs, fmt.Errorf(`unknown field "%s"`, p))
		}
		return nil, &rejection{badReq: runtime.NewStrictDecodingError(strictErrs).Error(), badFields: strictFieldPaths(strictErrs)}
	}
	_, hadStatus := u.Object["status"]
	structuraldefaulting.Default(u.Object, v.structural)
	if !hadStatus {
		// The schema defaults a placeholder status ("Waiting for controller") that
		// the API server shows on read; it is no controller's status, and the
		// analysis tells a written status from none.
		delete(u.Object, "status")
	}
	return u, nil
}

// coerce is the API server's unstructuredSchemaCoercer.apply for a create
// request with fieldValidation=Strict: ObjectMeta is read back typed (dropping
// and reporting unknown metadata fields), everything else the schema does not
// know is pruned and reported, and non-nullable nulls without defaults removed.
func (v *servedVersion) coerce(u *unstructured.Unstructured) ([]string, error) {
	kind, foundKind, err := unstructured.NestedString(u.Object, "kind")
	if err != nil {
		return nil, err
	}
	apiVersion, foundAPIVersion, err := unstructured.NestedString(u.Object, "apiVersion")
	if err != nil {
		return nil, err
	}
	objectMeta, foundObjectMeta, unknown, err := schemaobjectmeta.GetObjectMetaWithOptions(u.Object, schemaobjectmeta.ObjectMetaOptions{ReturnUnknownFieldPaths: true})
	if err != nil {
		return nil, err
	}
	if !v.preserveUnknownFields {
		unknown = append(unknown, pruning.PruneWithOptions(u.Object, v.structural, true, schema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})...)
		structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, v.structural)
	}
	ferr, paths := schemaobjectmeta.CoerceWithOptions(nil, u.Object, v.structural, false, schemaobjectmeta.CoerceOptions{ReturnUnknownFieldPaths: true})
	if ferr != nil {
		return nil, ferr
	}
	unknown = append(unknown, paths...)
	if foundKind {
		u.SetKind(kind)
	}
	if foundAPIVersion {
		u.SetAPIVersion(apiVersion)
	}
	if foundObjectMeta {
		if err := schemaobjectmeta.SetObjectMeta(u.Object, objectMeta); err != nil {
			return nil, err
		}
	}
	return unknown, nil
}

// validate is what the API server checks of a decoded, defaulted object on
// create (rest.BeforeCreate with customresource's strategy): the status
// subresource's status is dropped and the system metadata filled, then the
// strategy's validation (type meta, ObjectMeta, OpenAPI schema, embedded
// resources, list types, and the CEL rules unless a blocking error came first),
// then the generic ObjectMeta check with path-segment names.
//
// It works on a copy of the top level and of metadata, so that u keeps what the
// user wrote (status, creationTimestamp) for the caller.
func (v *servedVersion) validate(u *unstructured.Unstructured) (name string, errs field.ErrorList) {
	obj := &unstructured.Unstructured{Object: make(map[string]any, len(u.Object))}
	for k, val := range u.Object {
		obj.Object[k] = val
	}
	if md, ok := u.Object["metadata"].(map[string]any); ok {
		cp := make(map[string]any, len(md))
		for k, val := range md {
			cp[k] = val
		}
		obj.Object["metadata"] = cp
	}
	prepareForCreate(obj, v.namespaced, v.hasStatus)
	name = obj.GetName()

	if errs := v.validateTypeMeta(obj); len(errs) > 0 {
		return name, errs
	}
	errs = append(errs, metavalidation.ValidateObjectMetaAccessor(obj, v.namespaced, metavalidation.NameIsDNSSubdomain, field.NewPath("metadata"))...)
	// kube-openapi's validator and the list-type checks walk properties in
	// Go's map order too.
	errs = append(errs, inFieldOrder(apiservervalidation.ValidateCustomResource(nil, obj.UnstructuredContent(), v.openAPI))...)
	errs = append(errs, schemaobjectmeta.Validate(nil, obj.Object, v.structural, false)...)
	errs = append(errs, inFieldOrder(listtype.ValidateListSetsAndMaps(nil, v.structural, obj.Object))...)
	if v.hasRules {
		if blocking := blockingError(errs); blocking != nil {
			errs = append(errs, blocking)
		} else if v.prover == nil || !v.prover.holds(obj.Object) {
			celErrs, _ := v.cel().Validate(context.Background(), nil, v.structural, obj.Object, nil, celconfig.RuntimeCELCostBudget)
			errs = append(errs, inFieldOrder(celErrs)...)
		}
	}
	if len(errs) > 0 {
		return name, errs
	}
	return name, metavalidation.ValidateObjectMetaAccessor(obj, v.namespaced, pathSegmentName, field.NewPath("metadata"))
}

// inFieldOrder orders CEL or OpenAPI errors depth first, fields by name and
// list items by index. Both validators walk an object's fields in Go's map
// order, so the API server reports the errors of sibling fields in any order;
// this is one of the orders it can report, and always the same one.
func inFieldOrder(errs field.ErrorList) field.ErrorList {
	sort.SliceStable(errs, func(i, j int) bool { return fieldBefore(errs[i].Field, errs[j].Field) })
	return errs
}

// fieldBefore reports whether field path a comes before b depth first: a parent
// before its children, names in byte order, indexes in numeric order.
func fieldBefore(a, b string) bool {
	as, bs := pathSegments(a), pathSegments(b)
	for i := 0; i < len(as) && i < len(bs); i++ {
		if as[i] == bs[i] {
			continue
		}
		an, aErr := strconv.Atoi(as[i])
		bn, bErr := strconv.Atoi(bs[i])
		if aErr == nil && bErr == nil {
			return an < bn
		}
		return as[i] < bs[i]
	}
	return len(as) < len(bs)
}

// pathSegments splits spec.rules[2].name into spec, rules, 2, name.
func pathSegments(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == '.' || r == '[' || r == ']' })
}

// prepareForCreate does to obj what the create handler and the generic store do
// before validation: system fields wiped and filled, a generated name for
// generateName, the request's namespace for a namespaced object that names none
// (kubectl sends it to its context's namespace), status dropped when the status
// subresource is enabled, and generation 1.
func prepareForCreate(obj *unstructured.Unstructured, namespaced, hasStatus bool) {
	obj.SetCreationTimestamp(metav1.Now())
	obj.SetUID("00000000-0000-0000-0000-000000000000")
	obj.SetDeletionTimestamp(nil)
	obj.SetDeletionGracePeriodSeconds(nil)
	obj.SetSelfLink("")
	if obj.GetName() == "" && obj.GetGenerateName() != "" {
		obj.SetName(generatedName(obj.GetGenerateName()))
	}
	switch {
	case !namespaced:
		obj.SetNamespace("")
	case obj.GetNamespace() == "":
		obj.SetNamespace(metav1.NamespaceDefault)
	}
	if hasStatus {
		delete(obj.Object, "status")
	}
	obj.SetGeneration(1)
}

// generatedName is a name the API server's SimpleNameGenerator could give
// generateName: the prefix cut to leave room for five random characters from
// its alphabet. Which five does not change the verdict.
func generatedName(base string) string {
	const maxGeneratedNameLength = 63 - 5
	if len(base) > maxGeneratedNameLength {
		base = base[:maxGeneratedNameLength]
	}
	return base + "bcdfg"
}

// validateTypeMeta is customResourceValidator.ValidateTypeMeta.
func (v *servedVersion) validateTypeMeta(obj *unstructured.Unstructured) field.ErrorList {
	var errs field.ErrorList
	if obj.GetKind() != v.gvk.Kind {
		errs = append(errs, field.Invalid(field.NewPath("kind"), obj.GetKind(), fmt.Sprintf("must be %v", v.gvk.Kind)))
	}
	if want := v.gvk.GroupVersion().String(); obj.GetAPIVersion() != want {
		errs = append(errs, field.Invalid(field.NewPath("apiVersion"), obj.GetAPIVersion(), fmt.Sprintf("must be %v", want)))
	}
	return errs
}

// RulesNotChecked is the API server's whole-object error when a blocking
// error kept it from running the CRD's CEL rules.
const RulesNotChecked = "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"

// blockingError is the strategy's hasBlockingErr: after an OpenAPI type,
// required, enum, maxLength or maxItems error the API server does not run the
// CEL rules (their cost estimates rely on those bounds) and says so.
func blockingError(errs field.ErrorList) *field.Error {
	for _, err := range errs {
		switch err.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			return field.Invalid(nil, nil, RulesNotChecked)
		}
	}
	return nil
}

// pathSegmentName is rest.BeforeCreate's name check: a name must be usable as a
// segment of the resource's URL path.
func pathSegmentName(name string, prefix bool) []string {
	if prefix {
		return content.IsPathSegmentPrefix(name)
	}
	return content.IsPathSegmentName(name)
}
