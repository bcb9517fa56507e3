package load

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// Admission says how the loader admits the Gateway API objects it reads: as
// the API server would (package admit: the CRD's schema and CEL rules, and its
// defaults), so that the engine sees only objects that can exist, as a
// controller reads them.
type Admission struct {
	// Admitter holds the CRDs the objects are held to; nil: the built-in CRDs
	// of admit.Release, experimental channel (which warns about what the
	// standard channel refuses), or for a cluster the CRDs it serves.
	Admitter *admit.Admitter
	// Off validates nothing and refuses nothing: every object is analyzed as
	// written, with its CRD's defaults applied all the same, so that the engine
	// reads the fields a controller reads.
	Off bool
}

// builtinAdmitter is the Admitter of the built-in experimental channel, made
// once: it compiles each CRD version on first use and is safe for concurrent
// use, so every load of a process shares what it compiled.
var builtinAdmitter = sync.OnceValues(func() (*admit.Admitter, error) {
	crds, err := admit.Builtin(admit.Experimental)
	if err != nil {
		return nil, err
	}
	return admit.New(crds)
})

// admission is an Admission resolved for one load.
type admission struct {
	admitter *admit.Admitter
	validate bool
	// stored: the objects come from a cluster, which stored them. One its CRDs
	// refuse now exists all the same and stays in the model, and its defaults
	// were applied by the API server.
	stored bool
	// report is what the model says of the admission.
	report *model.Admission
	// end ends the load's hold on admitter (admit.Admitter.Hold): once every
	// object is admitted, what the Admitter remembers of them is garbage
	// unless another load still runs.
	end func()
}

// resolve makes the admission of one load; stored says the objects come from
// a cluster.
func (a Admission) resolve(stored bool) (*admission, error) {
	adm := a.Admitter
	if adm == nil {
		var err error
		if adm, err = builtinAdmitter(); err != nil {
			return nil, fmt.Errorf("the built-in CRDs: %w", err)
		}
	}
	return &admission{admitter: adm, validate: !a.Off, stored: stored,
		report: &model.Admission{CRDs: adm.CRDs(), Off: a.Off}, end: adm.Hold()}, nil
}

// done ends the load's use of the Admitter: every object is admitted.
func (a *admission) done() {
	if a != nil && a.end != nil {
		a.end()
	}
}

// covers reports whether the CRDs define apiVersion's group: an object of it
// is the API server's to admit.
func (a *admission) covers(apiVersion string) bool {
	return a != nil && a.admitter.Covers(apiVersion)
}

// defaults returns the object of js with its CRD's defaults, without judging
// it; version is tried after the written one (the loader decodes every
// version of a kind into its preferred version's type, which has the same
// shape). nil when no CRD serves either.
func (a *admission) defaults(apiVersion, kind, group, preferred string, js []byte) map[string]any {
	if obj, ok := a.admitter.Default(apiVersion, kind, js); ok {
		return obj
	}
	if obj, ok := a.admitter.Default(group+"/"+preferred, kind, js); ok {
		return obj
	}
	return nil
}

// typedDefaults is what applies the CRD's defaults to the object decoded into
// its Go type, tried in the order of defaults; nil when neither version's
// defaults can be applied to a Go value, and defaults is the way.
func (a *admission) typedDefaults(apiVersion, kind, group, preferred string) func(v any) {
	if untypedDefaults {
		return nil
	}
	if apply, ok := a.admitter.TypedDefaults(apiVersion, kind); ok {
		return apply
	}
	if apply, ok := a.admitter.TypedDefaults(group+"/"+preferred, kind); ok {
		return apply
	}
	return nil
}

// untypedDefaults makes every load take the unstructured way to the defaults,
// which the typed way must agree with (a test sets it).
var untypedDefaults bool

// record adds a document's refusals to the model's report.
func (a *admission) record(d decoded) {
	for _, r := range d.refused {
		a.report.Refused = append(a.report.Refused, r.Refusal)
	}
	for _, r := range d.experimentalOnly {
		a.report.ExperimentalOnly = append(a.report.ExperimentalOnly, r.Refusal)
	}
}

// refusal is a model.Refusal before the lines of its fields are known.
type refusal struct {
	model.Refusal
	// paths are the fields of Errors, parsed; nil where one names no field.
	paths []fieldPath
	// item is the object's index among its List document's items, or -1.
	item int
}

// newRefusal records the API server's refusal r of the object namespace/name.
func newRefusal(src model.Source, h header, r admit.Refusal, namespace, name string) refusal {
	out := refusal{Refusal: model.Refusal{
		Object:     model.Ref{Kind: h.Kind, Namespace: namespace, Name: name},
		APIVersion: h.APIVersion, Source: src, Reason: r.Reason,
	}, item: -1}
	for _, e := range r.Errors {
		if e.Field == "" && strings.HasSuffix(e.Message, admit.RulesNotChecked) && len(r.Errors) > 1 {
			out.RulesNotChecked = true // a note on the other errors
			continue
		}
		out.Errors = append(out.Errors, model.FieldError{Field: e.Field, Message: e.Message, Source: src})
		out.paths = append(out.paths, parseAPIFieldPath(e.Field))
	}
	return out
}

// refusedNamespace is the namespace a refused object would be created in:
// none for a cluster-scoped kind, the written one, else defaultNamespace.
func (a *admission) refusedNamespace(h header, js []byte, defaultNamespace string) string {
	_, namespaced, ok := a.admitter.Resource(h.APIVersion, h.Kind)
	if ok && !namespaced {
		return ""
	}
	if ns := metadataNamespace(js); ns != "" || !ok {
		return ns
	}
	return defaultNamespace
}

// placeFields sets the line of each field a refusal names in doc, the
// document whose first line is the file's bodyLine; itemLines are the lines of
// its items when it is a List (listItemLines).
func (r *refusal) placeFields(doc *parsedDocument, bodyLine int, itemLines []int) {
	if r.item >= 0 && r.item < len(itemLines) {
		r.Source.Line = bodyLine + itemLines[r.item] - 1
	}
	for i := range r.Errors {
		r.Errors[i].Source = r.Source
		p := r.paths[i]
		if p == nil {
			continue
		}
		if r.item >= 0 {
			p = p.under(key("items"), index(r.item))
		}
		if line, ok := doc.fieldLine(p); ok {
			r.Errors[i].Source.Line = bodyLine + line - 1
		}
	}
}

// parseAPIFieldPath reads a field path as the API server writes it
// (k8s.io/apimachinery field.Path: spec.listeners[1].name, with a map key in
// brackets: metadata.annotations[example.com/a]); nil when it names no field
// or is not one.
func parseAPIFieldPath(s string) fieldPath {
	if s == "" || s == "<nil>" {
		return nil
	}
	var p fieldPath
	for s != "" {
		switch s[0] {
		case '.':
			s = s[1:]
		case '[':
			end := strings.IndexByte(s, ']')
			if end < 0 {
				return nil
			}
			inside := s[1:end]
			if n, err := strconv.Atoi(inside); err == nil && n >= 0 {
				p = append(p, index(n))
			} else {
				p = append(p, key(inside))
			}
			s = s[end+1:]
		default:
			end := strings.IndexAny(s, ".[")
			if end < 0 {
				end = len(s)
			}
			p = append(p, key(s[:end]))
			s = s[end:]
		}
	}
	return p
}

// metadataName and metadataNamespace read a refused object's identity without
// trusting the rest of it.
func metadataName(js []byte) string {
	m := objectMetadata(js)
	if m.Name == "" && m.GenerateName != "" {
		return m.GenerateName
	}
	return m.Name
}

func metadataNamespace(js []byte) string { return objectMetadata(js).Namespace }

func objectMetadata(js []byte) (out struct{ Name, GenerateName, Namespace string }) {
	var m struct {
		Metadata struct {
			Name         any `json:"name"`
			GenerateName any `json:"generateName"`
			Namespace    any `json:"namespace"`
		} `json:"metadata"`
	}
	_ = json.Unmarshal(js, &m)
	out.Name, _ = m.Metadata.Name.(string)
	out.GenerateName, _ = m.Metadata.GenerateName.(string)
	out.Namespace, _ = m.Metadata.Namespace.(string)
	return out
}
