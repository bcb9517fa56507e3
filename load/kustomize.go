package load

import (
	"fmt"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// kustomize builds a kustomization folder as `kubectl apply -k` would and returns its
// output as one stream. Lines then count within the built output, which is reported
// under the folder's name.
func kustomize(dir string) (input, error) {
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	resources, err := k.Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		return input{}, fmt.Errorf("kustomize build %s: %w", dir, err)
	}
	data, err := resources.AsYaml()
	if err != nil {
		return input{}, fmt.Errorf("kustomize build %s: %w", dir, err)
	}
	return input{name: dir + " (kustomize)", data: data}, nil
}
