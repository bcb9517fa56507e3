package load

import (
	"sync"

	yaml3 "go.yaml.in/yaml/v3"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// setListenerLines records the file line of each listener of the Gateways and
// ListenerSets a document holds (Meta.ListenerLines), so that what is said
// about one listener points at it rather than at the object's first line. A
// Gateway may hold 64 listeners, and a file is read to find one. Only
// documents that hold listeners are parsed again, once each.
func setListenerLines(doc *parsedDocument, bodyLine int, objs []object) {
	for _, o := range objs {
		var n int
		var meta *model.Meta
		switch obj := o.obj.(type) {
		case *model.Gateway:
			n, meta = len(obj.Obj.Spec.Listeners), &obj.Meta
		case *model.ListenerSet:
			n, meta = len(obj.Obj.Spec.Listeners), &obj.Meta
		default:
			continue
		}
		if n == 0 {
			continue
		}
		root := doc.object(o.item)
		if root == nil {
			continue
		}
		items := mappingValue(mappingValue(root, "spec"), "listeners")
		if items == nil || items.Kind != yaml3.SequenceNode || len(items.Content) != n {
			continue
		}
		lines := make([]int, n)
		for i, l := range items.Content {
			lines[i] = bodyLine + l.Line - 1
		}
		meta.ListenerLines = lines
	}
}

// parsedDocument is a document's YAML nodes, parsed once when first asked
// for: only documents with objects whose parts get their own lines are. An
// item of a List written in block style (items) is parsed alone, so that
// finding one Gateway's listeners in a dump of many megabytes does not parse
// all of it. It may be asked from several goroutines (IngressLines).
type parsedDocument struct {
	body  []byte
	items *blockItems

	once sync.Once
	root *yaml3.Node

	mu     sync.Mutex
	parsed map[int]*yaml3.Node
}

// object is the node of the document's object, or of item i of its List
// (i >= 0); nil when the document does not parse as one.
func (d *parsedDocument) object(item int) *yaml3.Node {
	if item >= 0 && d.items != nil && item < len(d.items.texts) {
		d.mu.Lock()
		n, ok := d.parsed[item]
		if !ok {
			n = d.items.parseItem(item)
			if d.parsed == nil {
				d.parsed = map[int]*yaml3.Node{}
			}
			d.parsed[item] = n
		}
		d.mu.Unlock()
		if n != nil {
			return n
		}
	}
	d.once.Do(func() {
		var doc yaml3.Node
		if yaml3.Unmarshal(d.body, &doc) == nil && doc.Kind == yaml3.DocumentNode && len(doc.Content) > 0 {
			d.root = doc.Content[0]
		}
		if d.items == nil {
			d.body = nil
		}
	})
	if d.root == nil || item < 0 {
		return d.root
	}
	return sequenceItem(mappingValue(d.root, "items"), item)
}

// placeListeners records the listener lines fastyaml placed while it
// converted a document of one object (fastyaml.Header.Listeners: lines in the
// document, the ones yaml.v3 gives), as setListenerLines would: only when
// there is one for each listener the object holds.
func placeListeners(lines []int, bodyLine int, objs []object) {
	for _, o := range objs {
		var meta *model.Meta
		switch obj := o.obj.(type) {
		case *model.Gateway:
			if len(obj.Obj.Spec.Listeners) != len(lines) {
				continue
			}
			meta = &obj.Meta
		case *model.ListenerSet:
			if len(obj.Obj.Spec.Listeners) != len(lines) {
				continue
			}
			meta = &obj.Meta
		default:
			continue
		}
		if len(lines) == 0 {
			continue
		}
		for i := range lines {
			lines[i] += bodyLine - 1
		}
		meta.ListenerLines = lines
		return
	}
}

// mappingValue is the value of key in mapping n, nil when n is not a mapping
// or has no such key.
func mappingValue(n *yaml3.Node, key string) *yaml3.Node {
	_, v := mappingEntry(n, key)
	return v
}

// mappingEntry is the key node and the value of key in mapping n (through
// aliases), nils when n is not a mapping or has no such key.
func mappingEntry(n *yaml3.Node, key string) (k, v *yaml3.Node) {
	for n != nil && n.Kind == yaml3.AliasNode {
		n = n.Alias
	}
	if n == nil || n.Kind != yaml3.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i], n.Content[i+1]
		}
	}
	return nil, nil
}

// sequenceItem is item i of sequence n, nil when there is none.
func sequenceItem(n *yaml3.Node, i int) *yaml3.Node {
	for n != nil && n.Kind == yaml3.AliasNode {
		n = n.Alias
	}
	if n == nil || n.Kind != yaml3.SequenceNode || i >= len(n.Content) {
		return nil
	}
	return n.Content[i]
}
