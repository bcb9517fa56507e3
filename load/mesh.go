package load

import (
	"encoding/json"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// GEP-3792's Mesh is provisional: the GEP shows it as networking.x-k8s.io/v1 Mesh
// and the module ships gateway.networking.x-k8s.io/v1alpha1 XMesh. Both are read
// with their metadata typed and the rest left in Meta.Raw for the engine.
func init() {
	mesh := kindDecoder{versions("v1", "v1alpha1"), false, decodeMesh}
	decoders[groupKind{"networking.x-k8s.io", "Mesh"}] = mesh
	decoders[groupKind{"gateway.networking.x-k8s.io", "XMesh"}] = mesh
}

func decodeMesh(js []byte) (any, error) {
	var obj struct {
		Metadata json.RawMessage `json:"metadata"`
	}
	if err := json.Unmarshal(js, &obj); err != nil {
		return nil, err
	}
	out := &model.Mesh{}
	if len(obj.Metadata) > 0 {
		if err := json.Unmarshal(obj.Metadata, &out.ObjectMeta); err != nil {
			return nil, err
		}
	}
	return out, nil
}
