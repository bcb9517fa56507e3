// Package gitrev reads manifests as they were at a git revision, without a
// checkout and without the network: the files under the paths given are listed
// with `git ls-tree` and read with `git cat-file` from the repository that
// contains each path, then loaded as the working tree's files are, and named
// as they are (deploy/routes.yaml:12), so that both sides of a diff speak of
// the same files.
package gitrev

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// Options say what to read.
type Options struct {
	// Ref is the revision: a branch, tag, commit or any expression
	// git rev-parse reads (origin/main, HEAD~1).
	Ref string
	// Paths are files and folders as -f names them, relative to the working
	// directory or absolute; each is read from the repository that contains it.
	Paths []string
	// Recursive descends into sub-folders of folders, as -R does.
	Recursive bool
	// DefaultNamespace is given to namespaced objects that name none.
	DefaultNamespace string
	// MaxInputBytes bounds the bytes read at the revision, every file
	// together, as load.FileOptions.MaxInputBytes bounds a working tree's;
	// 0 means load.DefaultMaxInputBytes.
	MaxInputBytes int64
	// Admission is what the objects are held to, as head's are (--crds,
	// --admission=false), so that both sides of a diff are judged alike.
	Admission load.Admission
}

// Revision is the commit a Ref named.
type Revision struct {
	Ref    string
	Commit string
}

// Load reads the model of the paths at the revision. A path that did not exist
// at the revision holds nothing: everything in it is new. A revision that does
// not exist is an error naming it.
func Load(ctx context.Context, o Options) (*model.Model, Revision, error) {
	rev := Revision{Ref: o.Ref}
	tmp, err := os.MkdirTemp("", "gwtls-base-")
	if err != nil {
		return nil, rev, fmt.Errorf("--base-ref %s: %w", o.Ref, err)
	}
	defer os.RemoveAll(tmp)
	budget := o.MaxInputBytes
	if budget <= 0 {
		budget = load.DefaultMaxInputBytes
	}
	commits := map[string]string{} // repository top -> commit
	var names []string
	var renames []rename
	for i, p := range o.Paths {
		repo, rel, dir, err := locate(ctx, p)
		if err != nil {
			return nil, rev, err
		}
		commit, ok := commits[repo]
		if !ok {
			if commit, err = resolve(ctx, repo, o.Ref); err != nil {
				return nil, rev, err
			}
			commits[repo] = commit
			if rev.Commit == "" {
				rev.Commit = commit
			}
		}
		into := filepath.Join(tmp, strconv.Itoa(i))
		files, isDir, err := list(ctx, repo, commit, rel, dir, o.Recursive)
		if err != nil {
			return nil, rev, fmt.Errorf("--base-ref %s: %s: %w", o.Ref, p, err)
		}
		if len(files) == 0 {
			continue // not at the revision: nothing on the base side
		}
		if err := extract(ctx, repo, commit, rel, files, into, &budget); err != nil {
			return nil, rev, fmt.Errorf("--base-ref %s: %s: %w", o.Ref, p, err)
		}
		if isDir {
			names = append(names, into)
			renames = append(renames, rename{from: into, to: p, dir: true})
		} else {
			name := filepath.Join(into, path.Base(rel))
			names = append(names, name)
			renames = append(renames, rename{from: name, to: p})
		}
	}
	if len(names) == 0 {
		return &model.Model{Skipped: map[string]int{}}, rev, nil
	}
	m, err := load.Files(load.FileOptions{Filenames: names, Recursive: o.Recursive, DefaultNamespace: o.DefaultNamespace, MaxInputBytes: o.MaxInputBytes, Admission: o.Admission})
	if err != nil {
		return nil, rev, fmt.Errorf("--base-ref %s: %s", o.Ref, renameAll(err.Error(), renames))
	}
	renameSources(m, func(file string) string { return renameFile(file, renames) })
	return m, rev, nil
}

// locate finds the repository that contains p: its top-level folder, p
// relative to it in git's form ("" for the top itself), and whether p is a
// folder in the working tree.
func locate(ctx context.Context, p string) (repo, rel string, dir bool, err error) {
	where := p
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		dir = true
	} else {
		where = filepath.Dir(p)
	}
	out, err := git(ctx, where, "rev-parse", "--show-toplevel", "--show-prefix")
	if err != nil {
		return "", "", false, fmt.Errorf("--base-ref: %s is not in a git repository: %w", p, err)
	}
	lines := strings.SplitN(strings.TrimRight(string(out), "\n"), "\n", 2)
	repo, prefix := lines[0], ""
	if len(lines) == 2 {
		prefix = lines[1]
	}
	rel = prefix
	if !dir {
		rel += filepath.Base(p)
	}
	return repo, strings.TrimSuffix(path.Clean("/" + filepath.ToSlash(rel))[1:], "/"), dir, nil
}

// resolve is the commit a revision names in the repository.
func resolve(ctx context.Context, repo, ref string) (string, error) {
	out, err := git(ctx, repo, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("--base-ref %s: no such revision in the git repository at %s (fetch it first, e.g. git fetch origin main)", ref, repo)
	}
	return strings.TrimSpace(string(out)), nil
}

// list is the files rel holds at the commit that the loader would read: the
// file itself, or a folder's .yaml, .yml and .json files (its sub-folders' too
// when recursive). isDir says whether rel is a folder at the commit.
func list(ctx context.Context, repo, commit, rel string, dirInTree, recursive bool) (files []string, isDir bool, err error) {
	isDir = rel == ""
	if !isDir {
		out, err := git(ctx, repo, "ls-tree", "-z", commit, "--", rel)
		if err != nil {
			return nil, false, err
		}
		if len(out) == 0 {
			return nil, dirInTree, nil // not at the revision
		}
		typ := strings.Fields(string(out))[1]
		if typ == "blob" {
			return []string{rel}, false, nil
		}
		isDir = typ == "tree"
		if !isDir {
			return nil, false, fmt.Errorf("%s is a %s at %s, not a file or folder", rel, typ, commit)
		}
	}
	args := []string{"ls-tree", "-z"}
	if recursive {
		args = append(args, "-r")
	}
	args = append(args, commit)
	if rel != "" {
		args = append(args, "--", rel+"/")
	}
	out, err := git(ctx, repo, args...)
	if err != nil {
		return nil, true, err
	}
	for _, rec := range bytes.Split(out, []byte{0}) {
		meta, name, ok := strings.Cut(string(rec), "\t")
		if !ok || strings.Fields(meta)[1] != "blob" {
			continue
		}
		switch strings.ToLower(path.Ext(name)) {
		case ".yaml", ".yml", ".json":
			files = append(files, name)
		}
	}
	sort.Strings(files)
	return files, true, nil
}

// extract writes the files into the folder, at their path below rel (a file
// rel under its own name), with one git cat-file for all of them. Symbolic
// links inside the repository are followed, as the loader follows them. A
// file larger than what is left of the budget is not read.
func extract(ctx context.Context, repo, commit, rel string, files []string, into string, budget *int64) error {
	var in bytes.Buffer
	for _, f := range files {
		if strings.Contains(f, "\n") {
			return fmt.Errorf("%q: a file name with a newline cannot be read from git", f)
		}
		fmt.Fprintf(&in, "%s:%s\n", commit, f)
	}
	cmd := exec.CommandContext(ctx, "git", "-C", repo, "cat-file", "--batch", "--follow-symlinks")
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return gitError(err, &stderr)
	}
	r := bufio.NewReader(stdout)
	readErr := func() error {
		for _, f := range files {
			data, err := readObject(r, f, budget)
			if err != nil {
				return err
			}
			name := path.Base(f)
			if rel == "" {
				name = f
			} else if strings.HasPrefix(f, rel+"/") {
				name = strings.TrimPrefix(f, rel+"/")
			}
			dst := filepath.Join(into, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
				return err
			}
			if err := os.WriteFile(dst, data, 0o600); err != nil {
				return err
			}
		}
		return nil
	}()
	if readErr != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return readErr
	}
	if err := cmd.Wait(); err != nil {
		return gitError(err, &stderr)
	}
	return nil
}

// readObject reads one answer of git cat-file --batch: "<oid> blob <size>"
// then the content and a newline, or a line saying why there is none.
func readObject(r *bufio.Reader, name string, budget *int64) ([]byte, error) {
	header, err := r.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("%s: reading from git cat-file: %w", name, err)
	}
	fields := strings.Fields(header)
	if len(fields) == 2 && fields[1] == "missing" {
		return nil, fmt.Errorf("%s: not found at the revision", name)
	}
	if len(fields) < 2 {
		return nil, fmt.Errorf("%s: unexpected answer from git cat-file: %q", name, header)
	}
	size, err := strconv.ParseInt(fields[len(fields)-1], 10, 64)
	if err != nil || size < 0 {
		return nil, fmt.Errorf("%s: unexpected answer from git cat-file: %q", name, header)
	}
	if size > *budget {
		return nil, fmt.Errorf("%s: %d bytes at the revision, more than is left of --max-input-bytes (%d): raise it, or name fewer files", name, size, *budget)
	}
	*budget -= size
	data := make([]byte, size+1) // the content and its newline
	if _, err := io.ReadFull(r, data); err != nil {
		return nil, fmt.Errorf("%s: reading from git cat-file: %w", name, err)
	}
	switch fields[0] {
	case "symlink", "dangling", "loop", "notdir":
		// --follow-symlinks: a link that leaves the repository, or does not
		// resolve to a file in it.
		return nil, fmt.Errorf("%s: a symbolic link that does not resolve to a file in the repository (%s %s)", name, fields[0], strings.TrimSpace(string(data)))
	}
	if fields[1] != "blob" {
		return nil, fmt.Errorf("%s: a %s at the revision, not a file", name, fields[1])
	}
	return data[:size], nil
}

func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, gitError(err, &stderr)
	}
	return out, nil
}

func gitError(err error, stderr *bytes.Buffer) error {
	if errors.Is(err, exec.ErrNotFound) {
		return fmt.Errorf("git is not installed or not on PATH: %w", err)
	}
	if msg := strings.TrimSpace(stderr.String()); msg != "" {
		return fmt.Errorf("%w: %s", err, msg)
	}
	return err
}

// rename maps where a path was extracted to the name -f gave it.
type rename struct {
	from, to string
	dir      bool
}

// renameFile names an extracted file as the loader names the same file of
// the working tree: the -f path, or the -f folder joined with the file's path
// below it.
func renameFile(file string, renames []rename) string {
	for _, r := range renames {
		switch {
		case !r.dir && file == r.from:
			return r.to
		case r.dir && strings.HasPrefix(file, r.from+string(filepath.Separator)):
			return filepath.Join(r.to, strings.TrimPrefix(file, r.from+string(filepath.Separator)))
		}
	}
	return file
}

// renameAll names the extracted files in a load error as renameFile does,
// longest first: the folder of the 10th path starts like the 1st's.
func renameAll(msg string, renames []rename) string {
	renames = slices.Clone(renames)
	sort.SliceStable(renames, func(i, j int) bool { return len(renames[i].from) > len(renames[j].from) })
	for _, r := range renames {
		to := r.to
		if r.dir {
			to = filepath.Clean(r.to)
		}
		msg = strings.ReplaceAll(msg, r.from, to)
	}
	return msg
}

// renameSources renames the file of every object's Source. Every kind the
// model holds is a slice of pointers to a struct that embeds model.Meta.
func renameSources(m *model.Model, rename func(string) string) {
	metaType := reflect.TypeOf(model.Meta{})
	v := reflect.ValueOf(m).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		if f.Kind() != reflect.Slice || f.Type().Elem().Kind() != reflect.Pointer {
			continue
		}
		for j := 0; j < f.Len(); j++ {
			meta := f.Index(j).Elem().FieldByName("Meta")
			if !meta.IsValid() || meta.Type() != metaType {
				continue
			}
			src := meta.Addr().Interface().(*model.Meta)
			src.Source.File = rename(src.Source.File)
		}
	}
}
