package load

import (
	"bytes"
	"fmt"
	"os"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// kustomize builds a kustomization folder as `kubectl apply -k` would and returns its
// output as one stream. Lines then count within the built output, which is reported
// under the folder's name. Remote bases and files are refused before the build
// (refuseRemote), and every file the build reads counts against the budget.
func kustomize(dir string, budget *inputBudget) (input, error) {
	if err := refuseRemote(dir); err != nil {
		return input{}, err
	}
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	resources, err := k.Run(boundedFS{filesys.MakeFsOnDisk(), budget}, dir)
	if err != nil {
		return input{}, fmt.Errorf("kustomize build %s: %w", dir, err)
	}
	data, err := resources.AsYaml()
	if err != nil {
		return input{}, fmt.Errorf("kustomize build %s: %w", dir, err)
	}
	return input{name: dir + " (kustomize)", chunks: [][]byte{data}}, nil
}

// boundedFS is the disk as kustomize reads it, each file read as -f reads one:
// within the run's budget and MaxDocumentBytes per document.
type boundedFS struct {
	filesys.FileSystem
	budget *inputBudget
}

func (b boundedFS) ReadFile(path string) ([]byte, error) {
	in, err := readFile(path, nil, b.budget)
	if len(in.chunks) == 1 {
		return in.chunks[0], err
	}
	return bytes.Join(in.chunks, nil), err
}

// readSmallFile reads a file that is never large (a kustomization), bounded as
// one document.
func readSmallFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readInput(path, f, 0, newInputBudget(MaxDocumentBytes))
}
