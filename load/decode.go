package load

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/fastyaml"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// Error is a load failure at a place in the input. Its message says what is wrong,
// where, and what to do.
type Error struct {
	Source model.Source
	Err    error
	// field is the field of the document the error is about, when known:
	// decodeDocument turns it into Source.Line.
	field fieldPath
}

func (e *Error) Error() string {
	if s := e.Source.String(); s != "" {
		return s + ": " + e.Err.Error()
	}
	return e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

const gatewayGroup = gwv1.GroupName

// decoded is the result of decoding one document: objects (several for a List) or an
// error, and kinds skipped.
type decoded struct {
	objects []object
	skipped []string
	err     *Error
	// refused are the objects the API server refuses (not in objects, unless
	// a cluster stored them); experimentalOnly the admitted objects that a
	// cluster with the standard channel's CRDs refuses.
	refused, experimentalOnly []refusal
	// list: the document is a List of items objects; its objects' and
	// refusals' item is their index among them.
	list  bool
	items int
}

// object is one decoded object, its kind, which files it in the model, and its
// identity.
type object struct {
	kind            *kind
	obj             any
	namespace, name string
	// item is the object's index among its List document's items, or -1.
	item int
	meta *model.Meta
}

func (o object) addTo(m *model.Model) { o.kind.add(m, o.obj) }

// dropRaw lets go of the JSON text of the objects no consumer reads it of
// unless it prints them as written (FileOptions.WithoutRaw), and gives the
// others (Gateways and Meshes) a copy of their own: decodeDocument may have
// written the text into a buffer the next document reuses.
func (d *decoded) dropRaw() {
	for _, o := range d.objects {
		switch o.obj.(type) {
		case *model.Gateway, *model.Mesh:
			o.meta.Raw = bytes.Clone(o.meta.Raw)
		default:
			o.meta.Raw = nil
		}
	}
}

// decodeDocument turns one YAML (or JSON) document into typed model objects,
// admitting the Gateway API objects with adm. bodyLine is the file line the
// document's text starts on; an error about a field or a YAML syntax error, and
// each field an admission refusal names, is moved to the line it is on.
//
// scratch, when not nil, is a buffer the document's JSON may be written into
// and that the caller reuses for its next document: every Meta.Raw of the
// result may then share it, and the caller must call dropRaw before it
// decodes another document. Nothing else of the result refers to it.
func decodeDocument(src model.Source, bodyLine int, body []byte, defaultNamespace string, adm *admission, scratch *[]byte) decoded {
	// A List may be as large as the input; each of its items is bounded
	// below, and a document read as a List must decode as one.
	tooLarge := len(body) > MaxDocumentBytes
	if tooLarge && !isListHead(body) {
		return decoded{err: &Error{Source: src, Err: documentTooLarge("a document", int64(len(body)))}}
	}
	// Most documents are in fastyaml's subset; YAMLToJSONStrict converts the
	// others into the same JSON, and refuses duplicate keys. js is kept as
	// Meta.Raw.
	var out decoded
	var listeners *fastyaml.Header // placed listeners, when the fast reader placed them
	var buf []byte
	if scratch != nil {
		buf = (*scratch)[:0]
	}
	if js, h, ok := fastyaml.AppendJSON(buf, body); ok {
		if scratch != nil {
			*scratch = js
		}
		if h.Known && h.ListenersKnown {
			listeners = &h
		}
		if h.Known {
			decodeObject(src, js, header{APIVersion: h.APIVersion, Kind: h.Kind}, defaultNamespace, adm, &out)
		} else {
			decodeJSON(src, js, defaultNamespace, adm, &out)
		}
	} else {
		js, err := yaml.YAMLToJSONStrict(body)
		if err != nil {
			line, msg := yamlProblem(body, bodyLine, err)
			e := &Error{Source: src, Err: fmt.Errorf("malformed YAML: %s", msg)}
			if line > 0 {
				e.Source.Line = line
			}
			return decoded{err: e}
		}
		decodeJSON(src, js, defaultNamespace, adm, &out)
	}
	// The document's nodes are parsed only for the lines they hold: of a
	// List's items, of the fields an error or a refusal names, of listeners.
	var doc *parsedDocument
	if out.list || len(out.refused) > 0 || len(out.experimentalOnly) > 0 || (out.err != nil && out.err.field != nil) {
		doc = &parsedDocument{body: body}
	}
	if out.list {
		doc.items = findBlockItems(body, out.items)
	}
	if out.err != nil && out.err.field != nil {
		if line, ok := doc.fieldLine(out.err.field); ok {
			out.err.Source.Line = bodyLine + line - 1
		}
	}
	if out.err == nil && tooLarge && !out.list {
		out.err = &Error{Source: src, Err: documentTooLarge("a document", int64(len(body)))}
	}
	if out.err != nil {
		return out
	}
	var itemLines []int
	if out.list {
		itemLines = listItemLines(out.items, doc)
		for _, o := range out.objects {
			if o.item >= 0 && o.item < len(itemLines) {
				o.meta.Source.Line = bodyLine + itemLines[o.item] - 1
			}
		}
	}
	for i := range out.refused {
		out.refused[i].placeFields(doc, bodyLine, itemLines)
	}
	for i := range out.experimentalOnly {
		out.experimentalOnly[i].placeFields(doc, bodyLine, itemLines)
	}
	if listeners != nil {
		placeListeners(listeners.Listeners, bodyLine, out.objects)
	} else {
		if doc == nil {
			doc = &parsedDocument{body: body}
		}
		setListenerLines(doc, bodyLine, out.objects)
	}
	setIngressLines(doc, body, bodyLine, out.objects)
	return out
}

type header struct {
	APIVersion string          `json:"apiVersion"`
	Kind       string          `json:"kind"`
	Items      json.RawMessage `json:"items"`
}

func decodeJSON(src model.Source, js []byte, defaultNamespace string, adm *admission, out *decoded) {
	js = bytes.TrimSpace(js)
	if len(js) == 0 || string(js) == "null" {
		return
	}
	if js[0] != '{' {
		out.err = &Error{Source: src, Err: errors.New("document is not a Kubernetes object (expected a mapping with apiVersion and kind)")}
		return
	}
	var h header
	if err := json.Unmarshal(js, &h); err != nil {
		path, msg := fieldProblem("", js, err)
		out.err = &Error{Source: src, Err: fmt.Errorf("field %s: %s", path, msg), field: path}
		return
	}
	decodeObject(src, js, h, defaultNamespace, adm, out)
}

// decodeObject decodes one object, or the items of a List, whose header is read.
// A Gateway API object is admitted first: one the API server refuses is
// recorded in out.refused instead of decoded, unless a cluster stored it, and
// one it admits is decoded as the API server stores it, its CRD's defaults
// applied; Meta.Raw keeps it as written.
func decodeObject(src model.Source, js []byte, h header, defaultNamespace string, adm *admission, out *decoded) {
	if h.Kind == "" {
		out.err = &Error{Source: src, Err: errors.New("document has no kind; every object needs apiVersion and kind")}
		return
	}
	if h.APIVersion == "" {
		out.err = &Error{Source: src, Err: fmt.Errorf("%s has no apiVersion", h.Kind)}
		return
	}
	if strings.HasSuffix(h.Kind, "List") && len(h.Items) > 0 && h.Items[0] == '[' {
		var items []json.RawMessage
		if err := json.Unmarshal(h.Items, &items); err != nil {
			path, msg := fieldProblem("", h.Items, err)
			path = path.under(key("items"))
			out.err = &Error{Source: src, Err: fmt.Errorf("%s field %s: %s", h.Kind, path, msg), field: path}
			return
		}
		if !out.list { // the document's List, not one of its items
			out.list, out.items = true, len(items)
		}
		decodeItems(src, h.Kind, items, defaultNamespace, adm, out)
		return
	}
	group, version := splitAPIVersion(h.APIVersion)
	k := kindOf[groupKind{group, h.Kind}]
	reads := k != nil && slices.Contains(k.versions, version)
	in := source{js: js}
	var standard *admit.Refusal // the standard channel's refusal of an admitted object
	var v admit.Verdict
	// Once the object is converted, its own maps go to the next object's
	// admission (admit.Verdict.Done).
	defer v.Done()
	if adm.covers(h.APIVersion) {
		switch {
		case adm.validate:
			// The object is only converted to its Go type, which copies
			// what it reads: it may share the validator's memoized values.
			v = adm.admitter.AdmitReadOnly(h.APIVersion, h.Kind, js)
			if !v.Admitted {
				r := newRefusal(src, h, v.Refusal, adm.refusedNamespace(h, js, defaultNamespace), metadataName(js))
				r.Stored, r.StandardAdmits = adm.stored, v.StandardAdmits
				out.refused = append(out.refused, r)
				if !adm.stored {
					return // it does not exist
				}
				break
			}
			in.obj, standard = v.Object, v.Standard
		case reads && !adm.stored:
			if in.defaults = adm.typedDefaults(h.APIVersion, h.Kind, group, k.versions[0]); in.defaults == nil {
				in.obj = adm.defaults(h.APIVersion, h.Kind, group, k.versions[0], js)
			}
		}
	}
	if !reads {
		if standard != nil {
			out.experimentalOnly = append(out.experimentalOnly, newRefusal(src, h, *standard, adm.refusedNamespace(h, js, defaultNamespace), metadataName(js)))
		}
		out.skipped = append(out.skipped, h.APIVersion+"/"+h.Kind)
		return
	}
	obj, om, meta, err := k.decode(in)
	if err != nil && in.obj != nil {
		// The object as the API server would store it does not fit the type
		// (admission is off, or the CRDs are not the module's): the error is
		// told about the object as written.
		in.obj = nil
		obj, om, meta, err = k.decode(in)
	}
	if err != nil {
		path, msg := fieldProblem(h.Kind, js, err)
		if path != nil {
			msg = "field " + path.String() + ": " + msg
		}
		out.err = &Error{Source: src, Err: fmt.Errorf("%s %s: %s", h.Kind, objectName(js), msg), field: path}
		return
	}
	if path, err := identify(om, k, defaultNamespace); err != nil {
		out.err = &Error{Source: src, Err: err, field: path}
		return
	}
	*meta = model.Meta{APIVersion: h.APIVersion, Kind: h.Kind, Source: src, Raw: js}
	out.objects = append(out.objects, object{kind: k, obj: obj, namespace: om.GetNamespace(), name: om.GetName(), item: -1, meta: meta})
	if standard != nil {
		out.experimentalOnly = append(out.experimentalOnly, newRefusal(src, h, *standard, om.GetNamespace(), om.GetName()))
	}
}

func splitAPIVersion(av string) (group, version string) {
	if i := strings.LastIndexByte(av, '/'); i >= 0 {
		return av[:i], av[i+1:]
	}
	return "", av
}

// objectName reads metadata.name for error messages without trusting the rest.
func objectName(js []byte) string {
	var m struct {
		Metadata struct {
			Name      any `json:"name"`
			Namespace any `json:"namespace"`
		} `json:"metadata"`
	}
	_ = json.Unmarshal(js, &m)
	name, _ := m.Metadata.Name.(string)
	ns, _ := m.Metadata.Namespace.(string)
	switch {
	case name == "":
		return "(unnamed)"
	case ns == "":
		return strconv.Quote(name)
	default:
		return strconv.Quote(ns + "/" + name)
	}
}

// fieldProblem says which field of js an encoding/json error is about, as the
// user wrote it (spec.parentRefs[0].port), and what is wrong with it in the
// user's terms. Values are never quoted: they may be Secret data.
func fieldProblem(kind string, js []byte, err error) (fieldPath, string) {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		path := jsonPathAt(js, int(te.Offset)-1)
		if !path.matchesGoField(te.Field) {
			path = goFieldPath(te.Field)
		}
		if path == nil {
			path = fieldPath{key("(top level)")}
		}
		return path, fmt.Sprintf("got %s, want %s", friendlyValue(te.Value), friendlyType(te.Type))
	}
	if kind == "Secret" && strings.Contains(err.Error(), "base64") {
		return secretBase64Problem(js)
	}
	return nil, err.Error()
}

// goFieldPath is the JSON names of encoding/json's UnmarshalTypeError.Field,
// without the Go names of embedded structs, for when the value's offset is
// not known.
func goFieldPath(goField string) fieldPath {
	var p fieldPath
	for _, seg := range strings.Split(goField, ".") {
		if seg != "" && (seg[0] < 'A' || seg[0] > 'Z') {
			p = append(p, key(seg))
		}
	}
	return p
}

// friendlyValue names the kind of JSON value encoding/json could not store
// ("number 1.5"), without the value.
func friendlyValue(v string) string {
	switch {
	case v == "array":
		return "a list"
	case v == "object":
		return "a mapping"
	case v == "bool":
		return "a boolean"
	case v == "string":
		return "a string"
	case strings.HasPrefix(v, "number -"):
		return "a negative number"
	case strings.HasPrefix(v, "number ") && strings.ContainsAny(v, ".eE"):
		return "a fractional number"
	case strings.HasPrefix(v, "number "):
		return "a number out of range"
	}
	return "a " + v
}

// friendlyType names what encoding/json wanted to store a value into, in a
// user's terms: Go's named types (gwv1.PortNumber, gwv1.Hostname) are told
// apart by what they are underneath.
func friendlyType(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "a base64 string" // []byte
		}
		return "a list"
	case reflect.Map, reflect.Struct, reflect.Interface:
		return "a mapping"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "a whole number"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number, 0 or more"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "a boolean"
	case reflect.String:
		return "a string"
	}
	return t.String()
}

// secretBase64Problem names the Secret data key whose value is not base64, without
// quoting the value.
func secretBase64Problem(js []byte) (fieldPath, string) {
	var s struct {
		Data map[string]string `json:"data"`
	}
	_ = json.Unmarshal(js, &s)
	keys := make([]string, 0, len(s.Data))
	for k := range s.Data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, err := base64.StdEncoding.DecodeString(s.Data[k]); err != nil {
			return fieldPath{key("data"), key(k)}, "not base64: base64-encode the value (base64 -w0 FILE), or put the plain text under stringData"
		}
	}
	return fieldPath{key("data")}, "a value is not base64: base64-encode it, or put the plain text under stringData"
}
