package load

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/fastyaml"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// Error is a load failure at a place in the input. Its message says what is wrong,
// where, and what to do.
type Error struct {
	Source model.Source
	Err    error
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
	err     error
}

// object is one decoded object and its kind, which files it in the model.
type object struct {
	kind *kind
	obj  any
}

func (o object) addTo(m *model.Model) { o.kind.add(m, o.obj) }

var yamlLine = regexp.MustCompile(`line (\d+)`)

// decodeDocument turns one YAML (or JSON) document into typed model objects.
// bodyLine is the file line the document's text starts on; the YAML parser counts
// lines from there.
func decodeDocument(src model.Source, bodyLine int, body []byte, defaultNamespace string) decoded {
	if len(body) > MaxDocumentBytes {
		return decoded{err: &Error{src, fmt.Errorf("document is %d bytes, more than the %d this tool reads; split it", len(body), MaxDocumentBytes)}}
	}
	// Most documents are in fastyaml's subset; YAMLToJSON converts the others
	// into the same JSON, and words the errors of malformed ones. js is kept as
	// Meta.Raw.
	if js, h, ok := fastyaml.ToJSON(body); ok {
		var out decoded
		if h.Known {
			decodeObject(src, js, header{APIVersion: h.APIVersion, Kind: h.Kind}, defaultNamespace, &out)
		} else {
			decodeJSON(src, js, defaultNamespace, &out)
		}
		return out
	}
	js, err := yaml.YAMLToJSON(body)
	if err != nil {
		return decoded{err: &Error{src, fmt.Errorf("malformed YAML: %s", absoluteLines(err.Error(), bodyLine))}}
	}
	var out decoded
	decodeJSON(src, js, defaultNamespace, &out)
	return out
}

// absoluteLines rewrites "line N" in a YAML parser message, which counts from the
// document's start, into the file's line numbers.
func absoluteLines(msg string, docLine int) string {
	if docLine <= 1 {
		return msg
	}
	return yamlLine.ReplaceAllStringFunc(msg, func(m string) string {
		n, _ := strconv.Atoi(m[len("line "):])
		return "line " + strconv.Itoa(n+docLine-1)
	})
}

type header struct {
	APIVersion string          `json:"apiVersion"`
	Kind       string          `json:"kind"`
	Items      json.RawMessage `json:"items"`
}

func decodeJSON(src model.Source, js []byte, defaultNamespace string, out *decoded) {
	js = bytes.TrimSpace(js)
	if len(js) == 0 || string(js) == "null" {
		return
	}
	if js[0] != '{' {
		out.err = &Error{src, errors.New("document is not a Kubernetes object (expected a mapping with apiVersion and kind)")}
		return
	}
	var h header
	if err := json.Unmarshal(js, &h); err != nil {
		out.err = &Error{src, fmt.Errorf("apiVersion, kind or items: %s", typeErrorText(err))}
		return
	}
	decodeObject(src, js, h, defaultNamespace, out)
}

// decodeObject decodes one object, or the items of a List, whose header is read.
func decodeObject(src model.Source, js []byte, h header, defaultNamespace string, out *decoded) {
	if h.Kind == "" {
		out.err = &Error{src, errors.New("document has no kind; every object needs apiVersion and kind")}
		return
	}
	if h.APIVersion == "" {
		out.err = &Error{src, fmt.Errorf("%s has no apiVersion", h.Kind)}
		return
	}
	if strings.HasSuffix(h.Kind, "List") && len(h.Items) > 0 && h.Items[0] == '[' {
		var items []json.RawMessage
		if err := json.Unmarshal(h.Items, &items); err != nil {
			out.err = &Error{src, fmt.Errorf("%s items: %s", h.Kind, typeErrorText(err))}
			return
		}
		for _, item := range items {
			decodeJSON(src, item, defaultNamespace, out)
			if out.err != nil {
				return
			}
		}
		return
	}
	group, version := splitAPIVersion(h.APIVersion)
	k := kindOf[groupKind{group, h.Kind}]
	if k == nil || !slices.Contains(k.versions, version) {
		out.skipped = append(out.skipped, h.APIVersion+"/"+h.Kind)
		return
	}
	obj, om, meta, err := k.decode(js)
	if err != nil {
		msg := typeErrorText(err)
		if h.Kind == "Secret" && strings.Contains(msg, "base64") {
			msg = secretBase64Problem(js)
		}
		out.err = &Error{src, fmt.Errorf("%s %s: %s", h.Kind, objectName(js), msg)}
		return
	}
	if err := identify(om, h.Kind, k.scope, defaultNamespace); err != nil {
		out.err = &Error{src, err}
		return
	}
	*meta = model.Meta{APIVersion: h.APIVersion, Kind: h.Kind, Source: src, Raw: js}
	out.objects = append(out.objects, object{k, obj})
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

// typeErrorText turns encoding/json errors into the field path and the types a user
// can act on.
func typeErrorText(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		if field == "" {
			field = "(top level)"
		}
		return fmt.Sprintf("field %s: got a %s, want %s", field, te.Value, friendlyType(te.Type.String()))
	}
	return err.Error()
}

func friendlyType(t string) string {
	t = strings.TrimPrefix(t, "*")
	switch {
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "map["), strings.HasPrefix(t, "struct"):
		return "a mapping"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"), strings.HasSuffix(t, "PortNumber"), strings.HasSuffix(t, "Int32"):
		return "a number"
	case t == "bool":
		return "a boolean"
	case t == "string", strings.HasPrefix(t, "v1."), strings.HasPrefix(t, "v1alpha"):
		if strings.Contains(t, ".") && !isStringType(t) {
			return "a mapping"
		}
		return "a string"
	}
	return t
}

// isStringType reports whether a gateway-api named type is a string underneath.
func isStringType(t string) bool {
	switch t[strings.LastIndexByte(t, '.')+1:] {
	case "Hostname", "SectionName", "ObjectName", "Namespace", "Group", "Kind", "ProtocolType",
		"TLSModeType", "FromNamespaces", "PreciseHostname", "AnnotationKey", "AnnotationValue",
		"AbsoluteURI", "WellKnownCACertificatesType", "SubjectAltNameType", "GatewayController":
		return true
	}
	return false
}

// identify checks an object's name and sets its namespace as the API server
// would: a namespaced object that names none is in defaultNamespace (the
// kubeconfig's, or -n), and a cluster-scoped object has none.
func identify(om metav1.Object, kind string, sc scope, defaultNamespace string) error {
	if om.GetName() == "" {
		return fmt.Errorf("%s has no metadata.name", kind)
	}
	switch {
	case sc == clusterScoped:
		om.SetNamespace("")
	case om.GetNamespace() == "":
		om.SetNamespace(defaultNamespace)
	}
	return nil
}

// secretBase64Problem names the Secret data key whose value is not base64, without
// quoting the value.
func secretBase64Problem(js []byte) string {
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
			return fmt.Sprintf("field data.%s is not base64: base64-encode the value (base64 -w0 FILE), or put the plain text under stringData", k)
		}
	}
	return "a value under data is not base64: base64-encode it, or put the plain text under stringData"
}
