package load

import (
	"bytes"
	"sync"

	yaml3 "go.yaml.in/yaml/v3"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// setIngressLines lets the Ingresses a document holds find where their
// rules, paths, tls entries and defaultBackend are written
// (Meta.IngressLines): a migration finding about one host or path points at
// it, not at the Ingress's first line. The document is parsed again only
// when a line is first asked for (a base of thousands of Ingresses has
// findings on few), from a copy of its text: of an item's alone when parsed
// (the document's nodes, nil when not needed) found its List's items.
func setIngressLines(parsed *parsedDocument, body []byte, bodyLine int, objs []object) {
	var doc *parsedDocument
	for _, o := range objs {
		ing, ok := o.obj.(*model.Ingress)
		if !ok {
			continue
		}
		spec := &ing.Obj.Spec
		if len(spec.Rules) == 0 && len(spec.TLS) == 0 && spec.DefaultBackend == nil {
			continue
		}
		item := o.item
		if parsed != nil && parsed.items != nil && item >= 0 && item < len(parsed.items.texts) {
			its := parsed.items
			// An item of a List keeps its own text, not the whole dump's.
			one := &parsedDocument{items: &blockItems{texts: [][]byte{bytes.Clone(its.texts[item])}, textLines: its.textLines[item : item+1]}}
			ing.IngressLines = sync.OnceValue(func() *model.IngressLines {
				return ingressLines(one.object(0), bodyLine, ing)
			})
			continue
		}
		if doc == nil {
			doc = &parsedDocument{body: bytes.Clone(body)}
		}
		ing.IngressLines = sync.OnceValue(func() *model.IngressLines {
			return ingressLines(doc.object(item), bodyLine, ing)
		})
	}
}

// ingressLines reads where the parts of an Ingress are written from its
// node; a list whose length differs from the typed view's is left without
// lines.
func ingressLines(root *yaml3.Node, bodyLine int, ing *model.Ingress) *model.IngressLines {
	lines := &model.IngressLines{}
	if root == nil {
		return lines
	}
	spec := &ing.Obj.Spec
	specNode := mappingValue(root, "spec")
	at := func(n *yaml3.Node) int { return bodyLine + n.Line - 1 }
	if rules := mappingValue(specNode, "rules"); sequenceOf(rules, len(spec.Rules)) {
		lines.Rules = make([]int, len(spec.Rules))
		lines.Paths = make([][]int, len(spec.Rules))
		for i, r := range rules.Content {
			lines.Rules[i] = at(r)
			if spec.Rules[i].HTTP == nil {
				continue
			}
			n := len(spec.Rules[i].HTTP.Paths)
			if paths := mappingValue(mappingValue(r, "http"), "paths"); sequenceOf(paths, n) {
				lines.Paths[i] = make([]int, n)
				for j, p := range paths.Content {
					lines.Paths[i][j] = at(p)
				}
			}
		}
	}
	if tls := mappingValue(specNode, "tls"); sequenceOf(tls, len(spec.TLS)) {
		lines.TLS = make([]int, len(spec.TLS))
		for i, t := range tls.Content {
			lines.TLS[i] = at(t)
		}
	}
	if spec.DefaultBackend != nil {
		if k := mappingKey(specNode, "defaultBackend"); k != nil {
			lines.DefaultBackend = at(k)
		}
	}
	return lines
}

// sequenceOf reports whether n is a sequence of length items.
func sequenceOf(n *yaml3.Node, length int) bool {
	for n != nil && n.Kind == yaml3.AliasNode {
		n = n.Alias
	}
	return n != nil && n.Kind == yaml3.SequenceNode && len(n.Content) == length
}

// mappingKey is the key node of key in mapping n (where the field's line
// is), nil when n is not a mapping or has no such key.
func mappingKey(n *yaml3.Node, key string) *yaml3.Node {
	k, _ := mappingEntry(n, key)
	return k
}
