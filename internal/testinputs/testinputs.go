// Package testinputs lists the manifests the tests of several packages read
// as a corpus: every test input of the repository and the upstream
// conformance corpus beside it. It is imported by tests only.
package testinputs

import (
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
)

// Manifests lists, sorted, the .yaml, .yml and .json files under every
// testdata/ folder of the repository at root (and under root/examples when
// examples is set), and the inputs of the conformance corpus beside the
// repository (root/../shared/conformance/*/input.yaml); corpus is how many of
// those there are, 0 when the corpus is absent. Fuzz corpora, .git and
// node_modules are left out.
func Manifests(root string, examples bool) (files []string, corpus int, err error) {
	examplesDir := filepath.ToSlash(filepath.Join(root, "examples")) + "/"
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "fuzz":
				return filepath.SkipDir
			}
			return nil
		}
		slash := filepath.ToSlash(p)
		if !strings.Contains(slash, "/testdata/") && !(examples && strings.HasPrefix(slash, examplesDir)) {
			return nil
		}
		switch filepath.Ext(p) {
		case ".yaml", ".yml", ".json":
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	conformance, _ := filepath.Glob(filepath.Join(root, "..", "shared", "conformance", "*", "input.yaml"))
	files = append(files, conformance...)
	sort.Strings(files)
	return files, len(conformance), nil
}
