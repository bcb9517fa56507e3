package load

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// serviceImport reads a ServiceImport's identity: a backendRef to one needs
// only to know that it exists.
var serviceImport = codec{
	decode: func(in source) (any, objectMeta, *model.Meta, error) {
		var obj struct {
			Metadata metav1.ObjectMeta `json:"metadata"`
		}
		if err := in.into(&obj); err != nil {
			return nil, nil, nil, err
		}
		out := &model.ServiceImport{ObjectMeta: obj.Metadata}
		return out, &out.ObjectMeta, &out.Meta, nil
	},
	add: func(m *model.Model, obj any) { m.ServiceImports = append(m.ServiceImports, obj.(*model.ServiceImport)) },
}
