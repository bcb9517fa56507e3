package load

import (
	"fmt"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// identity is what the API server keys an object by: its kind (whatever the
// version written), namespace and name.
type identity struct {
	kind            *kind
	namespace, name string
}

// objectAt is where an object was decoded: its chunk, its document in the
// chunk, and its index among a List's items, or -1.
type objectAt struct{ chunk, doc, item int }

// duplicates finds the first object, in input order, whose kind, namespace
// and name an earlier object has: the API server would keep one of them, so
// analyzing both would report findings about an object that cannot exist.
// The objects are added in input order, a chunk at a time.
type duplicates struct {
	seen         map[identity]objectAt
	dup          *object
	first, again objectAt
	more         int
}

// add records the objects of the chunk-th chunk's doc-th document.
func (d *duplicates) add(chunk, doc int, objects []object) {
	if d.seen == nil {
		d.seen = map[identity]objectAt{}
	}
	for i := range objects {
		o := &objects[i]
		id := identity{o.kind, o.namespace, o.name}
		at := objectAt{chunk, doc, o.item}
		earlier, ok := d.seen[id]
		switch {
		case !ok:
			d.seen[id] = at
		case d.dup == nil:
			d.dup, d.first, d.again = o, earlier, at
		default:
			d.more++
		}
	}
}

// err is the error for the first object defined twice, nil when none is.
func (d *duplicates) err(chunks []*loadChunk) error {
	if d.dup == nil {
		return nil
	}
	also := ""
	if d.more > 0 {
		also = fmt.Sprintf(" (and %d more objects are defined twice)", d.more)
	}
	return &Error{Source: objectSource(chunks, d.again), Err: fmt.Errorf("%s %s is defined twice: first at %s, again here%s; the API server keeps one object per kind, namespace and name: remove one, or rename it",
		d.dup.kind.name, quoteName(model.NamespacedName{Namespace: d.dup.namespace, Name: d.dup.name}.String()), objectSource(chunks, d.first), also)}
}

// objectSource is where an object starts: its document's line, or for an item
// of a List the line of that item.
func objectSource(chunks []*loadChunk, at objectAt) model.Source {
	d := chunks[at.chunk].docs[at.doc]
	src := d.src
	if at.item >= 0 {
		if line, ok := fieldLine(d.body, fieldPath{key("items"), index(at.item)}); ok {
			src.Line = d.bodyLine + line - 1
		}
	}
	return src
}
