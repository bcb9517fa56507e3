package load

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// mesh reads a GEP-3792 Mesh or XMesh. Its fields are provisional: only its
// metadata is typed, and the engine reads the rest from Meta.Raw.
var mesh = codec{
	decode: func(in source) (any, objectMeta, *model.Meta, error) {
		var obj struct {
			Metadata metav1.ObjectMeta `json:"metadata"`
		}
		if err := in.into(&obj); err != nil {
			return nil, nil, nil, err
		}
		out := &model.Mesh{ObjectMeta: obj.Metadata}
		return out, &out.ObjectMeta, &out.Meta, nil
	},
	add: func(m *model.Model, obj any) { m.Meshes = append(m.Meshes, obj.(*model.Mesh)) },
}
