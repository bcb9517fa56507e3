// Package admit decides, offline, whether a kube-apiserver serving the Gateway API
// CRDs would admit an object, as `kubectl apply` sends it (server-side field
// validation Strict, kubectl's default --validate=strict): the CRD's OpenAPI v3
// schema, its x-kubernetes-validations CEL rules with the API server's cost
// limits, ObjectMeta validation, and unknown or duplicate fields. It applies the
// CRD's defaults as the API server does, so that what the engine reads is what a
// controller reads.
//
// It runs Kubernetes' own code (k8s.io/apiextensions-apiserver: structural
// schema, pruning, defaulting, OpenAPI and CEL validation), composed in the order
// the API server composes it for a create request with dryRun=All; the
// differential test in e2e holds the verdicts equal to a real kube-apiserver's.
//
// Most objects are shown admitted without that code, by a shortcut
// (shortcut.go) many times faster. The shortcut only proves admission: it
// checks with the API server's rules (its defaulting, OpenAPI and ObjectMeta
// validation code where it does not make a check natively, the CEL programs
// the API server compiles, or closures whose charged cost bounds theirs), and
// on anything it cannot show valid it gives up and the API server's code runs
// as above. So every refusal, and every word of its message, is that code's;
// the shortcut can only be wrong by admitting what the API server refuses, and
// these tests hold it to the API server's code on that:
// TestShortcutAgreesWithAPIServerCode (every corpus object, both channels, the
// stored object and the standard channel's warning), FuzzShortcut and
// FuzzShortcutMutations (arbitrary bytes, and valid objects changed one value
// at a time), TestFastRulesAgreeWithPrograms and FuzzFastRules (CEL closures
// against the rules' programs, and their cost bound), TestCELProverAgreesWithValidator
// and FuzzCELProver, TestShortcutKeepsTheCostBudget (memoized values keep
// the per-object CEL budget), TestLazyRulesAreTheEagerOnes (the rules
// compiled on first use are those the validator compiles),
// FuzzDNSMatchers (the DNS name checks against the regexps they stand for),
// TestCheckOnlyWalkIsTheFullWalk and FuzzCheckOnlyWalk (the standard
// channel's check, which makes no object, against a walk that does), and
// TestIsIPIsTheLibrarys and FuzzIsIP; e2e's TestClusterAdmission holds both
// paths to a real kube-apiserver.
package admit

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Admitter validates and defaults objects against one set of CRDs. It is safe
// for concurrent use: each served version's schemas and CEL programs are built
// once, on first use, and shared.
type Admitter struct {
	crds     CRDs
	kinds    map[k8sschema.GroupKind]*kindCRD
	groups   map[string]bool
	standard *Admitter // see CRDs.standard
	// checkOnly: the Admitter is another's standard, whose verdicts only
	// say whether it admits (its shortcuts make no object: shortcut.checkOnly).
	checkOnly bool

	// mu guards holds and compiled.
	mu sync.Mutex
	// holds counts the uses in progress (Hold).
	holds int
	// compiled are the versions compiled so far, whose memos Release drops.
	compiled []*servedVersion
}

// kindCRD is the CRD of one kind. Its served versions are known once the CRD is
// decoded, and each is compiled on first use (a manifest rarely uses more than a
// few of the CRDs' versions).
type kindCRD struct {
	crd      *crd
	versions func() (map[string]func() (*servedVersion, error), error)
}

func newKindCRD(c *crd, origin string, compiled func(*servedVersion)) *kindCRD {
	return &kindCRD{crd: c, versions: sync.OnceValues(func() (map[string]func() (*servedVersion, error), error) {
		def, err := c.def()
		if err != nil {
			return nil, err
		}
		versions := map[string]func() (*servedVersion, error){}
		for _, v := range def.Spec.Versions {
			if !v.Served {
				continue
			}
			versions[v.Name] = sync.OnceValues(func() (*servedVersion, error) {
				sv, err := compileVersion(def, v.Name)
				if err != nil {
					return nil, fmt.Errorf("CRD %s (%s): %w", def.Name, origin, err)
				}
				compiled(sv)
				return sv, nil
			})
		}
		return versions, nil
	})}
}

// version returns the compiler of a served version, nil when not served.
func (k *kindCRD) version(v string) (func() (*servedVersion, error), error) {
	if k == nil {
		return nil, nil
	}
	versions, err := k.versions()
	if err != nil {
		return nil, err
	}
	return versions[v], nil
}

// New returns an Admitter for crds.
func New(crds CRDs) (*Admitter, error) {
	a := &Admitter{crds: crds, kinds: map[k8sschema.GroupKind]*kindCRD{}, groups: map[string]bool{}}
	for _, c := range crds.crds {
		h := c.header
		gk := k8sschema.GroupKind{Group: h.Spec.Group, Kind: h.Spec.Names.Kind}
		if gk.Kind == "" || gk.Group == "" {
			return nil, fmt.Errorf("CRD %q (%s) has no group or kind", h.Metadata.Name, crds.Origin)
		}
		if prev, dup := a.kinds[gk]; dup {
			return nil, fmt.Errorf("CRDs %q and %q (%s) both define %s: keep one", prev.crd.header.Metadata.Name, h.Metadata.Name, crds.Origin, gk)
		}
		a.kinds[gk] = newKindCRD(c, crds.Origin, a.adopt)
		a.groups[gk.Group] = true
	}
	if crds.standard != nil {
		std, err := New(*crds.standard)
		if err != nil {
			return nil, err
		}
		// Before any of its versions is compiled (adopt).
		std.checkOnly = true
		a.standard = std
	}
	return a, nil
}

// adopt takes a version just compiled, before it is used: it records it,
// for Release, and makes its shortcut check only when the Admitter is.
func (a *Admitter) adopt(sv *servedVersion) {
	if sv.shortcut != nil {
		sv.shortcut.checkOnly = a.checkOnly
	}
	a.mu.Lock()
	a.compiled = append(a.compiled, sv)
	a.mu.Unlock()
}

// Hold marks a use of the Admitter in progress (a load admitting a manifest
// or a cluster's objects); the func it returns ends it, and releases the
// Admitter (Release) when no other use is in progress. Uses that overlap (the
// two loads of a diff) share what the Admitter remembers until the last one
// ends.
func (a *Admitter) Hold() (end func()) {
	a.mu.Lock()
	a.holds++
	a.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			a.mu.Lock()
			defer a.mu.Unlock()
			if a.holds--; a.holds == 0 {
				a.releaseLocked()
			}
		})
	}
}

// Release drops what the Admitter remembers of the objects it has admitted:
// the shortcut's memos of values and of metadata checks, which would
// otherwise stay live as long as the Admitter (a process's built-in Admitter
// lives as long as the process). What it compiled stays. The Admitter stays
// usable, and answers as before: its memos start again empty, and what they
// forgot is computed again. Safe while other goroutines admit objects; they
// only remember less.
func (a *Admitter) Release() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.releaseLocked()
}

func (a *Admitter) releaseLocked() {
	for _, sv := range a.compiled {
		sv.shortcut.forget()
	}
	if a.standard != nil {
		a.standard.Release()
	}
}

// CRDs says which CRDs the Admitter validates against, for an output header.
func (a *Admitter) CRDs() string { return a.crds.String() }

// Covers reports whether the CRDs define apiVersion's group: an object of that
// group that Admit cannot match to a served version is one the API server
// refuses, where an object of another group (a Service) is not the CRDs' business.
func (a *Admitter) Covers(apiVersion string) bool {
	gv, err := k8sschema.ParseGroupVersion(apiVersion)
	return err == nil && a.groups[gv.Group]
}

// Resource returns the resource (plural) that serves apiVersion and kind, and
// whether it is namespaced; ok is false when no CRD serves that version.
func (a *Admitter) Resource(apiVersion, kind string) (resource string, namespaced, ok bool) {
	gv, err := k8sschema.ParseGroupVersion(apiVersion)
	if err != nil {
		return "", false, false
	}
	k := a.kinds[gv.WithKind(kind).GroupKind()]
	if compile, err := k.version(gv.Version); err != nil || compile == nil {
		return "", false, false
	}
	h := k.crd.header.Spec
	return h.Names.Plural, h.Scope == apiextensionsv1.NamespaceScoped, true
}

// Verdict is what the API server answers to a create of one object.
type Verdict struct {
	// Admitted is true when the API server would store the object.
	Admitted bool
	// Refusal says why not; it is empty when the object is admitted.
	Refusal
	// Object is the object as the API server stores it, its CRD's defaults
	// applied, when admitted. Unlike the stored object it keeps the system
	// metadata (creationTimestamp) and the status the manifest carries (with
	// the schema's defaults inside it), and has no status when the manifest has
	// none: the analysis reads them.
	Object map[string]any
	// Standard is set when the object is admitted only because the CRDs are the
	// experimental channel's: a cluster with the standard channel's CRDs of the
	// same release refuses it, for this reason.
	Standard *Refusal
	// StandardAdmits is set when the experimental channel's CRDs refuse an
	// object that the standard channel's admit: v1.6.3's experimental HTTPRoute
	// and GRPCRoute hold header values to a pattern the standard channel does not.
	StandardAdmits bool
}

// Refusal is the API server's answer to an object it does not admit.
type Refusal struct {
	// Reason is the API server's message, as kubectl prints it after "Error from
	// server (Invalid)": `HTTPRoute.gateway.networking.k8s.io "web" is invalid:
	// spec.rules[0].backendRefs[0]: Invalid value: Must have port for Service
	// reference`.
	Reason string
	// Errors are the fields the API server names, in its order (CEL errors of
	// sibling fields in one of the orders it may use: see inFieldOrder).
	Errors []FieldError
}

// FieldError is one field the API server names when it refuses an object.
type FieldError struct {
	// Field is the API server's path to the field: spec.listeners[1].name.
	// Empty for an error about the whole object (the API server writes "<nil>").
	Field string
	// Message is what the API server says of it: `Duplicate value: "http"`,
	// `Required value`, `unknown field`.
	Message string
}

func (e FieldError) String() string {
	if e.Field == "" {
		return e.Message
	}
	return e.Field + ": " + e.Message
}

// JSON is Object as JSON, for a decoder of the typed object.
func (v Verdict) JSON() ([]byte, error) {
	if !v.Admitted {
		return nil, errors.New("a refused object has no defaulted form")
	}
	return json.Marshal(v.Object)
}

// Warning says how the standard channel's CRDs answer otherwise than the
// experimental channel's that gave the verdict, or "" when they agree.
func (v Verdict) Warning() string {
	switch {
	case v.Standard != nil:
		return "only the experimental channel's CRDs admit this object: a cluster with the standard channel's CRDs refuses it: " + v.Standard.Reason
	case v.StandardAdmits:
		return "the standard channel's CRDs admit this object: only a cluster with the experimental channel's CRDs refuses it"
	}
	return ""
}

// Admit answers for one object, given as JSON, what a kube-apiserver serving the
// Admitter's CRDs answers to `kubectl apply` creating it. apiVersion and kind
// are the object's own (the caller has read them to route it here).
func (a *Admitter) Admit(apiVersion, kind string, raw []byte) Verdict {
	return a.admitWith(apiVersion, kind, raw, admitMode{shortcuts: true})
}

// AdmitReadOnly is Admit for a caller that only reads the admitted object
// (the loader converts it to its Go type): the Object of its verdict may share
// maps and lists with the Admitter's memos and with other verdicts, and must
// not be changed. The verdict is Admit's; what it saves is copying the values
// the shortcut has memoized out of the memos.
func (a *Admitter) AdmitReadOnly(apiVersion, kind string, raw []byte) Verdict {
	return a.admitWith(apiVersion, kind, raw, admitMode{shortcuts: true, shared: true})
}

// admitMode says how admitWith answers.
type admitMode struct {
	// shortcuts: the shortcut may show the object admitted; without it the
	// API server's code alone answers.
	shortcuts bool
	// shared: the caller only reads the verdict's Object (AdmitReadOnly).
	shared bool
}

// admitWith is Admit, with the shortcuts or with the API server's code alone.
func (a *Admitter) admitWith(apiVersion, kind string, raw []byte, m admitMode) Verdict {
	var rec *twinRecord
	if m.shortcuts && a.standard != nil {
		rec = newTwinRecord()
		// Nothing keeps the record past this call.
		defer rec.release()
	}
	v := a.admit(apiVersion, kind, raw, m, rec)
	if a.standard == nil {
		return v
	}
	if v.Admitted && rec != nil && rec.version != nil {
		std, refusal, known := rec.version.twins.standard(a.standard, apiVersion, kind)
		switch {
		case known && std == nil:
			// The standard channel serves no such version: it refuses every
			// object of it alike.
			v.Standard = &Refusal{Reason: refusal.Reason, Errors: refusal.Errors}
			return v
		case known && a.standard.admitsAlike(std, raw, rec, m.shared):
			return v
		}
	}
	// The standard channel's object is not handed out: its values may be
	// shared.
	switch std := a.standard.admit(apiVersion, kind, raw, admitMode{shortcuts: m.shortcuts, shared: true}, nil); {
	case v.Admitted && !std.Admitted:
		v.Standard = &std.Refusal
	case !v.Admitted && std.Admitted:
		v.StandardAdmits = true
	}
	return v
}

// admitsAlike reports whether the standard channel's shortcut of version std
// shows admitted an object that the experimental channel's shortcut has shown
// admitted, taking from rec what that found where the channels' schemas are
// the same; shared says that walk's values are only read (see walk.shared).
func (a *Admitter) admitsAlike(std *servedVersion, raw []byte, rec *twinRecord, shared bool) (alike bool) {
	defer func() {
		if recover() != nil {
			alike = false // the API server's code answers
		}
	}()
	exp := rec.version
	exp.twins.link(exp.shortcut, std.shortcut)
	switch {
	case exp.twins.std != std.shortcut || std.shortcut == nil:
		return false
	case exp.twins.same:
		return true
	}
	obj, ok := std.shortcut.admit(raw, nil, rec, shared)
	// Nobody reads the standard channel's object.
	recycleObject(obj)
	return ok
}

// served returns the version that serves apiVersion and kind, compiled, or
// the API server's answer to every object sent to it when none does.
func (a *Admitter) served(apiVersion, kind string) (*servedVersion, Verdict) {
	gv, err := k8sschema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, refused(fmt.Sprintf("apiVersion %q: %v", apiVersion, err))
	}
	gvk := gv.WithKind(kind)
	compiled, err := a.kinds[gvk.GroupKind()].version(gv.Version)
	if err != nil {
		// The API server would not serve the kind at all.
		return nil, refused(err.Error())
	}
	if compiled == nil {
		// kubectl finds no resource to send it to.
		return nil, refused((&meta.NoKindMatchError{GroupKind: gvk.GroupKind(), SearchedVersions: []string{gv.Version}}).Error())
	}
	sv, err := compiled()
	if err != nil {
		// The API server would not serve this version at all.
		return nil, refused(err.Error())
	}
	return sv, Verdict{}
}

func (a *Admitter) admit(apiVersion, kind string, raw []byte, m admitMode, rec *twinRecord) (v Verdict) {
	defer func() {
		// The API server answers a request that panics with 500 Internal Error
		// (its panic-recovery filter); so does this, rather than end the program.
		if r := recover(); r != nil {
			v = refused(fmt.Sprintf("%s: %v", internalError, r))
		}
	}()
	sv, unserved := a.served(apiVersion, kind)
	if sv == nil {
		return unserved
	}
	var obj map[string]any
	var rej *rejection
	if m.shortcuts {
		obj, rej = sv.create(raw, rec, m.shared)
	} else {
		obj, rej = sv.createSlowly(raw)
	}
	if rej == nil {
		return Verdict{Admitted: true, Object: obj}
	}
	if rej.errs != nil {
		return Verdict{Refusal: Refusal{
			Reason: apierrors.NewInvalid(sv.gvk.GroupKind(), rej.name, rej.errs).Error(),
			Errors: fieldErrors(rej.errs),
		}}
	}
	return Verdict{Refusal: Refusal{
		// The create handler's transformDecodeError.
		Reason: apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", kind, sv.gvk.Version, kind, rej.badReq)).Error(),
		Errors: rej.badFields,
	}}
}

// internalError opens the reason of a verdict the API server would answer with
// 500 Internal Error.
const internalError = "Internal error occurred"

func refused(reason string) Verdict {
	return Verdict{Refusal: Refusal{Reason: reason}}
}

// fieldErrors is what the API server puts in the Status causes of an Invalid
// response (apierrors.NewInvalid): the field and the error's body.
func fieldErrors(errs field.ErrorList) []FieldError {
	out := make([]FieldError, len(errs))
	for i, e := range errs {
		out[i] = FieldError{Field: e.Field, Message: e.ErrorBody()}
		if e.Field == wholeObject {
			out[i].Field = ""
		}
	}
	return out
}

// wholeObject is how the API server names the field of an error about no field
// in particular (a nil field.Path).
const wholeObject = "<nil>"

// strictFieldPaths names the fields of strict decoding errors (`unknown field
// "spec.foo"`, `duplicate field "name"`).
func strictFieldPaths(errs []error) []FieldError {
	out := make([]FieldError, 0, len(errs))
	for _, err := range errs {
		msg := err.Error()
		what, quoted, ok := strings.Cut(msg, ` "`)
		if !ok || !strings.HasSuffix(quoted, `"`) {
			out = append(out, FieldError{Message: msg})
			continue
		}
		out = append(out, FieldError{Field: strings.TrimSuffix(quoted, `"`), Message: what})
	}
	return out
}
