package load

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/yaml"
)

// refuseRemote fails when the kustomization in dir, or one it includes, names
// a remote base or file: kustomize would run git fetch or an HTTP GET for it,
// and an offline linter must not touch the network. krusty has no option to
// forbid that, so the kustomizations are read first, as kustomize reads them:
// every field that names a file or a base (resources, components, patches'
// paths, generator files, ...) at any depth, in each kustomization included
// and in each generator, transformer or validator configuration file. Inline
// patches and other values (labels, annotations) are never fetched and are
// not looked at.
func refuseRemote(dir string) error {
	if isRemoteURL(dir) || looksRemote(dir) {
		// kustomize reads a root that names a repository as one, even where
		// a local folder has that name.
		return fmt.Errorf("-k %s: a remote kustomization: %s", dir, remoteAdvice)
	}
	s := remoteScan{seen: map[string]bool{}}
	return s.kustomization(dir)
}

// remoteScan walks kustomizations, each once.
type remoteScan struct{ seen map[string]bool }

// kustomizationRefs are the fields whose entries kustomize reads as files or
// folders (kustomizations), any of which may be remote.
var kustomizationRefs = map[string]bool{
	"resources": true, "bases": true, "components": true,
	"generators": true, "transformers": true, "validators": true,
}

// pathFields are the fields, at any depth of a kustomization or a plugin
// configuration, whose values kustomize loads as files (loader.Load: a URL
// is fetched). "files" entries may be written KEY=PATH.
var pathFields = map[string]bool{
	"crds": true, "configurations": true, "path": true, "paths": true,
	"files": true, "envs": true, "env": true,
	"patchesStrategicMerge": true,
}

func (s *remoteScan) kustomization(dir string) error {
	real := realPath(dir)
	if s.seen[real] {
		return nil
	}
	s.seen[real] = true
	var file string
	for _, name := range konfig.RecognizedKustomizationFileNames() {
		if p := filepath.Join(dir, name); isFile(p) {
			file = p
			break
		}
	}
	if file == "" {
		return nil // not a kustomization: kustomize says so
	}
	tree, ok := readYAMLTree(file)
	if !ok {
		return nil // malformed: kustomize says so
	}
	if err := refusePaths(file, "", tree); err != nil {
		return err
	}
	top, _ := tree.(map[string]any)
	for field := range kustomizationRefs {
		entries, _ := top[field].([]any)
		for _, e := range entries {
			ref, ok := e.(string)
			if !ok {
				continue
			}
			if strings.Contains(ref, "\n") { // an inline plugin configuration
				if err := s.pluginConfig(file, ref); err != nil {
					return err
				}
				continue
			}
			if isRemoteRef(dir, ref) {
				return remoteError(file, field, ref)
			}
			p := filepath.Join(dir, ref)
			switch {
			case isDir(p):
				if err := s.kustomization(p); err != nil {
					return err
				}
			case field != "resources" && field != "bases" && isFile(p):
				// A generator's configuration names files of its own.
				data, err := readSmallFile(p)
				if err != nil {
					return nil // unreadable: kustomize says so
				}
				if err := s.pluginConfig(p, string(data)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// pluginConfig looks at the documents of a generator, transformer or
// validator configuration written in file.
func (s *remoteScan) pluginConfig(file, text string) error {
	for _, d := range splitDocuments([]byte(text)) {
		var tree any
		if yaml.Unmarshal(d.body, &tree) != nil {
			continue
		}
		if err := refusePaths(file, "", tree); err != nil {
			return err
		}
	}
	return nil
}

// refusePaths fails at the first value of a pathFields field, at any depth of
// tree, that is remote.
func refusePaths(file, field string, tree any) error {
	switch v := tree.(type) {
	case map[string]any:
		for k, x := range v {
			if err := refusePaths(file, k, x); err != nil {
				return err
			}
		}
	case []any:
		for _, x := range v {
			if err := refusePaths(file, field, x); err != nil {
				return err
			}
		}
	case string:
		if !pathFields[field] {
			return nil
		}
		p := v
		if field == "files" {
			if _, after, ok := strings.Cut(v, "="); ok {
				p = after
			}
		}
		if isRemoteURL(p) || (looksRemote(p) && !isLocal(filepath.Join(filepath.Dir(file), p))) {
			return remoteError(file, field, v)
		}
	}
	return nil
}

// isRemoteRef reports whether kustomize fetches a resources (or components,
// ...) entry: a URL, or a git repository unless a local file has that name
// (kustomize tries the entry as a local file first, then as a folder or a
// repository, and a repository wins over a local folder).
func isRemoteRef(dir, ref string) bool {
	return isRemoteURL(ref) || (looksRemote(ref) && !isFile(filepath.Join(dir, ref)))
}

// isRemoteURL is kustomize's loader.IsRemoteFile: an http or https URL, which
// its loader fetches.
func isRemoteURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https")
}

var gitUser = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9-]*@`)

// looksRemote reports whether kustomize reads s as a git repository to clone
// (git.NewRepoSpecFromURL's host forms): after an optional "git::", a scheme
// (ssh, https, http, file), an SCP-style user@host:path, or a github.com path.
func looksRemote(s string) bool {
	l := strings.ToLower(strings.TrimSpace(s))
	l = strings.TrimPrefix(l, "git::")
	for _, scheme := range []string{"ssh://", "https://", "http://", "file://"} {
		if strings.HasPrefix(l, scheme) {
			return true
		}
	}
	return gitUser.MatchString(l) || strings.HasPrefix(l, "github.com/") || strings.HasPrefix(l, "github.com:")
}

const remoteAdvice = "kustomize would fetch it over the network, and this tool reads local files only: " +
	"build it where fetching is allowed and pipe the result in (kustomize build DIR | kubectl gwtls analyze -f -), or vendor it into the repository"

func remoteError(file, field, ref string) error {
	return fmt.Errorf("%s: %s entry %q is remote: %s", file, field, ref, remoteAdvice)
}

func readYAMLTree(file string) (any, bool) {
	data, err := readSmallFile(file)
	if err != nil {
		return nil, false
	}
	var tree any
	if yaml.Unmarshal(data, &tree) != nil {
		return nil, false
	}
	return tree, true
}

func isLocal(p string) bool { _, err := os.Stat(p); return err == nil }

func isFile(p string) bool { st, err := os.Stat(p); return err == nil && st.Mode().IsRegular() }

func isDir(p string) bool { st, err := os.Stat(p); return err == nil && st.IsDir() }
