// Package celrules lists the x-kubernetes-validations rules of the Gateway API
// CRDs and makes, for each, an object that breaks it and one that keeps it: the
// corpus with which the admission tests show every rule enforced offline exactly
// as a kube-apiserver enforces it.
//
// A case gives the value of the rule's schema node (what the rule calls self); the
// object around it is the smallest the CRD admits, so that breaking the rule is
// the object's only fault, or one its other faults do not hide.
package celrules

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// Rule is one rule of one served version of a CRD, at one node of its schema.
type Rule struct {
	Kind       string
	APIVersion string
	Namespaced bool
	// Path is the rule's schema node: ".spec.rules[].backendRefs[]".
	Path    string
	Rule    string
	Message string
}

func (r Rule) String() string {
	return fmt.Sprintf("%s %s %s: %s", r.APIVersion, r.Kind, r.Path, r.Message)
}

// Field is where the API server reports a violation of r in the objects Objects
// makes: the node's path with every list index 0.
func (r Rule) Field() string {
	return strings.ReplaceAll(strings.TrimPrefix(r.Path, "."), "[]", "[0]")
}

// Unreachable says why no create request can break r, or "" when one can.
func (r Rule) Unreachable() string {
	switch {
	case strings.Contains(r.Rule, "oldSelf"):
		// A transition rule compares an update with the stored object.
		return "a transition rule (oldSelf): only an update can break it"
	case strings.HasPrefix(r.Path, ".status"):
		return "a status rule: create drops the status (the status subresource is enabled)"
	}
	return ""
}

// Shadowed says why the API server never reports r although a create can break
// it, or "" when it does: an OpenAPI check refuses every object that breaks r
// first, and after such a (blocking) error the API server skips the CEL rules.
// The corpus's breaking object is then refused by that check.
func (r Rule) Shadowed() string {
	return shadowed[r.Message]
}

var shadowed = map[string]string{
	"type must be one of ['Exact', 'PathPrefix', 'RegularExpression']": "the enum of path.type allows the same three values",
}

// Rules lists every rule of the served versions of defs, in a stable order.
func Rules(defs []*apiextensionsv1.CustomResourceDefinition) []Rule {
	var out []Rule
	for _, crd := range defs {
		for _, v := range crd.Spec.Versions {
			if !v.Served || v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
				continue
			}
			base := Rule{
				Kind:       crd.Spec.Names.Kind,
				APIVersion: crd.Spec.Group + "/" + v.Name,
				Namespaced: crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
			}
			walk(v.Schema.OpenAPIV3Schema, "", func(path string, s *apiextensionsv1.JSONSchemaProps) {
				for _, xv := range s.XValidations {
					r := base
					r.Path, r.Rule, r.Message = path, xv.Rule, xv.Message
					out = append(out, r)
				}
			})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.APIVersion != b.APIVersion {
			return a.APIVersion < b.APIVersion
		}
		return a.Path < b.Path
	})
	return out
}

func walk(s *apiextensionsv1.JSONSchemaProps, path string, visit func(string, *apiextensionsv1.JSONSchemaProps)) {
	visit(path, s)
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := s.Properties[name]
		walk(&p, path+"."+name, visit)
	}
	if s.Items != nil && s.Items.Schema != nil {
		walk(s.Items.Schema, path+"[]", visit)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		walk(s.AdditionalProperties.Schema, path+"{}", visit)
	}
}

// Objects returns, as JSON, an object named name that breaks r and one that
// keeps it. It fails for a rule the corpus has no case for.
func Objects(r Rule, name string) (violate, satisfy []byte, err error) {
	c, ok := caseFor(r)
	if !ok {
		return nil, nil, fmt.Errorf("no case for %s", r)
	}
	bad, good := c.violate, c.satisfy
	if c.build != nil {
		bad, good = c.build(r)
	}
	if violate, err = object(r, name, bad); err != nil {
		return nil, nil, err
	}
	if satisfy, err = object(r, name, good); err != nil {
		return nil, nil, err
	}
	return violate, satisfy, nil
}

// object builds the smallest object of r's kind that holds node at r.Path.
func object(r Rule, name string, node any) ([]byte, error) {
	segs := segments(r.Path)
	// From the node outwards: each list holds one item, each object the
	// fields its schema requires beside the child.
	v := node
	for i := len(segs) - 1; i >= 0; i-- {
		if segs[i] == "[]" {
			v = []any{v}
			continue
		}
		m := filler(r.Kind, schemaPath(segs[:i]), segs[i])
		m[segs[i]] = v
		v = m
	}
	root, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: a rule on the root", r)
	}
	root["apiVersion"] = r.APIVersion
	root["kind"] = r.Kind
	md := map[string]any{"name": name}
	if r.Namespaced {
		md["namespace"] = "default"
	}
	root["metadata"] = md
	return json.Marshal(root)
}

// segments splits ".spec.rules[].matches" into spec, [], rules... : property
// names and list items.
func segments(path string) []string {
	var out []string
	for _, part := range strings.Split(strings.TrimPrefix(path, "."), ".") {
		name := strings.TrimSuffix(part, "[]")
		for name != strings.TrimSuffix(name, "[]") {
			name = strings.TrimSuffix(name, "[]")
		}
		out = append(out, name)
		for range strings.Count(part[len(name):], "[]") {
			out = append(out, "[]")
		}
	}
	return out
}

// schemaPath joins segments back into a schema path: ".spec.rules[]".
func schemaPath(segs []string) string {
	var b strings.Builder
	for _, s := range segs {
		if s != "[]" {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}
