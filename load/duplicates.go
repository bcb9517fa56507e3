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

// objectAt is where an object was decoded: its document and its index among
// a List's items, or -1.
type objectAt struct{ doc, item int }

// duplicateObjects fails at the first object whose kind, namespace and name
// an earlier object has: the API server would keep one of them, so analyzing
// both would report findings about an object that cannot exist.
func duplicateObjects(docs []sourceDocument, results []decoded) error {
	n := 0
	for _, r := range results {
		n += len(r.objects)
	}
	seen := make(map[identity]objectAt, n)
	var dup *object
	var first, again objectAt
	more := 0
	for d, r := range results {
		for i := range r.objects {
			o := &r.objects[i]
			id := identity{o.kind, o.namespace, o.name}
			at := objectAt{d, o.item}
			earlier, ok := seen[id]
			switch {
			case !ok:
				seen[id] = at
			case dup == nil:
				dup, first, again = o, earlier, at
			default:
				more++
			}
		}
	}
	if dup == nil {
		return nil
	}
	also := ""
	if more > 0 {
		also = fmt.Sprintf(" (and %d more objects are defined twice)", more)
	}
	return &Error{Source: objectSource(docs, again), Err: fmt.Errorf("%s %s is defined twice: first at %s, again here%s; the API server keeps one object per kind, namespace and name: remove one, or rename it",
		dup.kind.name, quoteName(model.NamespacedName{Namespace: dup.namespace, Name: dup.name}.String()), objectSource(docs, first), also)}
}

// objectSource is where an object starts: its document's line, or for an item
// of a List the line of that item.
func objectSource(docs []sourceDocument, at objectAt) model.Source {
	d := docs[at.doc]
	src := d.src
	if at.item >= 0 {
		if line, ok := fieldLine(d.body, fieldPath{key("items"), index(at.item)}); ok {
			src.Line = d.bodyLine + line - 1
		}
	}
	return src
}
