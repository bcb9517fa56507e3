package load

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// stdinName is the -f argument that stands for standard input, as in kubectl.
const stdinName = "-"

// fileLister expands -f arguments into the files to read, as kubectl's -f does
// (k8s.io/cli-runtime resource.ExpandPathsToFileVisitors): a file given by name
// is read whatever its name; a folder's .json, .yaml and .yml files are read,
// and its sub-folders' too with -R.
//
// Symbolic links are followed, files and folders alike, the ones given and
// (with -R) the ones inside a folder. kubectl follows a link to a file, and a
// link to a folder only when it is written "link/": given "link" it fails with
// "is a directory", and inside a folder it skips a linked folder without a
// word. A linter must not pass having read nothing, so every link is followed.
//
// Each file and folder is read once. A link inside a folder that leads back to
// a folder holding it is a loop, and a path that leads to a file or folder
// listed already would read the same objects twice: both are errors that name
// the path.
type fileLister struct {
	recursive bool
	// seen maps the real path of every file and folder listed to the path it
	// was listed as.
	seen  map[string]string
	files []string
}

// listFiles returns the files the -f arguments name, "-" for standard input,
// in the order given; a folder's files are sorted by path.
func listFiles(names []string, recursive bool) ([]string, error) {
	l := &fileLister{recursive: recursive, seen: map[string]string{}}
	for _, name := range names {
		if err := l.add(name); err != nil {
			return nil, err
		}
	}
	return l.files, nil
}

func (l *fileLister) add(name string) error {
	if name == stdinName {
		if _, twice := l.seen[stdinName]; twice {
			return errors.New("-f - is given twice: standard input can be read once")
		}
		l.seen[stdinName] = stdinName
		l.files = append(l.files, stdinName)
		return nil
	}
	if strings.HasPrefix(name, "http://") || strings.HasPrefix(name, "https://") {
		return fmt.Errorf("%s: URLs are not read; download the file and pass its path", name)
	}
	st, err := os.Stat(name) // follows links: a link to a folder is the folder
	if err != nil {
		return fmt.Errorf("%s: %w", name, pathError(err))
	}
	if !st.IsDir() {
		// Given by name, any file is read: a named pipe from <(command) too.
		return l.file(name)
	}
	start := len(l.files)
	if err := l.folder(name, nil); err != nil {
		return err
	}
	sort.Strings(l.files[start:])
	return nil
}

// file lists one file unless it was listed already.
func (l *fileLister) file(path string) error {
	real := realPath(path)
	if first, ok := l.seen[real]; ok {
		return fmt.Errorf("%s: the same file as %s, read already: its objects would be read twice; give each file once", path, first)
	}
	l.seen[real] = path
	l.files = append(l.files, path)
	return nil
}

// folder lists the manifests in a folder; ancestors are the real paths of the
// folders being listed that hold it.
func (l *fileLister) folder(path string, ancestors []string) error {
	real := realPath(path)
	if first, ok := l.seen[real]; ok {
		if slices.Contains(ancestors, real) {
			return fmt.Errorf("%s: a symbolic link loop: it leads back to %s, which holds it; remove the link, or leave out -R", path, first)
		}
		return fmt.Errorf("%s: the same folder as %s, read already: its objects would be read twice; give each folder once", path, first)
	}
	l.seen[real] = path
	entries, err := os.ReadDir(path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, pathError(err))
	}
	ancestors = append(ancestors, real)
	for _, e := range entries {
		p := filepath.Join(path, e.Name())
		mode := e.Type()
		if mode&fs.ModeSymlink != 0 {
			st, err := os.Stat(p)
			if err != nil {
				// A link that cannot be followed matters when it could be a
				// manifest, or with -R a folder of them.
				if isManifest(p) || l.recursive {
					return fmt.Errorf("%s: a symbolic link that cannot be followed (%v): fix or remove it", p, pathError(err))
				}
				continue
			}
			mode = st.Mode().Type()
		}
		switch {
		case mode.IsDir():
			if l.recursive {
				if err := l.folder(p, ancestors); err != nil {
					return err
				}
			}
		case !isManifest(p):
		case !mode.IsRegular():
			// Reading a pipe or a device found in a folder could block or
			// never end.
			return fmt.Errorf("%s: not a regular file (%s); give it with -f on its own if it is meant to be read", p, fileKind(mode))
		default:
			if err := l.file(p); err != nil {
				return err
			}
		}
	}
	return nil
}

// isManifest reports whether a file in a folder is read: kubectl's
// resource.FileExtensions, in any case.
func isManifest(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// realPath is path with every link resolved, made absolute, so that two paths
// to one file compare equal; where links cannot be resolved (/dev/stdin leads
// to a pipe), the path itself.
func realPath(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		path = r
	}
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.String()
}

func pathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
