package load

import (
	"hash/maphash"
	"os"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// placeReferrers records where the objects of the input refer to one the API
// server refuses (model.Admission.Referrers): a route whose parent Gateway
// is refused is told so at its parentRefs entry, not at its first line. Only
// the documents that hold such a referrer are parsed again, once each, after
// every document is decoded (a route may come before its Gateway); an input
// without refusals costs a map lookup per reference.
func placeReferrers(chunks []*loadChunk, report *model.Admission) {
	refused := map[model.Ref]bool{}
	for _, r := range report.Refused {
		if !r.Stored {
			refused[r.Object] = true
		}
	}
	if len(refused) == 0 {
		return
	}
	reread := rereadFiles{}
	for _, c := range chunks {
		placeChunkReferrers(c.docs, c.results, refused, reread, report)
	}
}

// placeChunkReferrers places the referrers of one chunk's documents.
func placeChunkReferrers(docs []sourceDocument, results []decoded, refused map[model.Ref]bool, reread rereadFiles, report *model.Admission) {
	for i, r := range results {
		var doc *parsedDocument
		for _, o := range r.objects {
			for _, f := range referringFields(o.obj, refused) {
				if doc == nil {
					body := docs[i].body
					if body == nil && docs[i].reread {
						body = reread.body(docs[i])
					}
					if body == nil {
						break
					}
					doc = &parsedDocument{body: body}
				}
				path := f.path
				if o.item >= 0 {
					path = path.under(key("items"), index(o.item))
				}
				line, ok := doc.fieldLine(path)
				if !ok {
					continue
				}
				if report.Referrers == nil {
					report.Referrers = map[model.FieldRef]model.Source{}
				}
				report.Referrers[model.FieldRef{Object: f.object, Field: f.path.String()}] =
					model.Source{File: docs[i].src.File, Line: docs[i].bodyLine + line - 1}
			}
		}
	}
}

// rereadFiles reads again the regular files whose documents dropped their
// text once decoded (sourceDocument.reread), each once, for the few
// documents that refer to a refused object.
type rereadFiles map[string]map[int][]byte

// body is d's text read again from its file, nil when the file cannot be
// read or no longer holds d's text where d was (it changed since it was
// decoded): the finding then stays at the document's line.
func (files rereadFiles) body(d sourceDocument) []byte {
	bodies, ok := files[d.src.File]
	if !ok {
		if data, err := os.ReadFile(d.src.File); err == nil {
			bodies = map[int][]byte{}
			for _, doc := range splitDocuments(data) {
				bodies[doc.bodyLine] = doc.body
			}
		}
		files[d.src.File] = bodies
	}
	body := bodies[d.bodyLine]
	if body == nil || maphash.Bytes(bodySeed, body) != d.sum {
		return nil
	}
	return body
}

// referringField is a field of object that names a refused object.
type referringField struct {
	object model.Ref
	path   fieldPath
}

// referringFields are the fields of obj that name an object in refused: a
// Gateway's gatewayClassName, a ListenerSet's parentRef, a route's
// parentRefs, each defaulted as the API server stores it (kind Gateway, the
// referrer's namespace).
func referringFields(obj any, refused map[model.Ref]bool) []referringField {
	var out []referringField
	switch o := obj.(type) {
	case *model.Gateway:
		if refused[model.Ref{Kind: "GatewayClass", Name: string(o.Obj.Spec.GatewayClassName)}] {
			out = append(out, referringField{model.Ref{Kind: "Gateway", Namespace: o.Obj.Namespace, Name: o.Obj.Name}, field("spec", "gatewayClassName")})
		}
	case *model.ListenerSet:
		p := o.Obj.Spec.ParentRef
		if refused[parentTarget(p.Kind, p.Namespace, p.Name, o.Obj.Namespace)] {
			out = append(out, referringField{model.Ref{Kind: "ListenerSet", Namespace: o.Obj.Namespace, Name: o.Obj.Name}, field("spec", "parentRef")})
		}
	case *model.Route:
		for i, p := range o.ParentRefs {
			if refused[parentTarget(p.Kind, p.Namespace, p.Name, o.ObjectMeta.Namespace)] {
				out = append(out, referringField{model.Ref{Kind: o.Kind, Namespace: o.ObjectMeta.Namespace, Name: o.ObjectMeta.Name},
					append(field("spec", "parentRefs"), index(i))})
			}
		}
	}
	return out
}

// parentTarget is the object a parentRef names, its kind and namespace
// defaulted (ParentReference: kind Gateway, the referrer's namespace).
func parentTarget(kind *gwv1.Kind, namespace *gwv1.Namespace, name gwv1.ObjectName, referrer string) model.Ref {
	k, ns := "Gateway", referrer
	if kind != nil && *kind != "" {
		k = string(*kind)
	}
	if namespace != nil && *namespace != "" {
		ns = string(*namespace)
	}
	return model.Ref{Kind: k, Namespace: ns, Name: string(name)}
}
