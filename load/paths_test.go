package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// symlink makes link (under dir) point at target, as written.
func symlink(t *testing.T, dir, target, link string) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(link))
	if err := os.Symlink(filepath.FromSlash(target), p); err != nil {
		t.Skipf("symbolic links: %v", err)
	}
	return p
}

// TestSymlinks: links are followed wherever they are, files and folders, so
// that a run never reads nothing because of a link; a loop or a second path to
// what was read already is an error that names the path.
func TestSymlinks(t *testing.T) {
	tests := []struct {
		name      string
		files     map[string]string
		links     map[string]string // link -> target, relative to the tree
		args      []string          // -f arguments, relative to the tree
		recursive bool
		want      string   // ConfigMap names read, in order
		wantErr   []string // substrings of the error; the tree's path is written {dir}
	}{
		{
			name:  "a link to a folder given with -f is the folder",
			files: map[string]string{"real/a.yaml": cm("a"), "real/b.yaml": cm("b")},
			links: map[string]string{"link": "real"},
			args:  []string{"link"},
			want:  "a,b",
		},
		{
			name:      "a link to a folder given with -f -R is the folder and its sub-folders",
			files:     map[string]string{"real/a.yaml": cm("a"), "real/sub/b.yaml": cm("b")},
			links:     map[string]string{"link": "real"},
			args:      []string{"link"},
			recursive: true,
			want:      "a,b",
		},
		{
			name:  "a link to a file inside a folder is read",
			files: map[string]string{"dir/a.yaml": cm("a"), "elsewhere/b.txt": cm("b")},
			links: map[string]string{"dir/b.yaml": "../elsewhere/b.txt"},
			args:  []string{"dir"},
			want:  "a,b",
		},
		{
			name:      "a link to a folder inside a folder is read with -R",
			files:     map[string]string{"dir/a.yaml": cm("a"), "shared/b.yaml": cm("b")},
			links:     map[string]string{"dir/shared": "../shared"},
			args:      []string{"dir"},
			recursive: true,
			want:      "a,b",
		},
		{
			name:  "a link to a folder inside a folder is skipped without -R, as a folder is",
			files: map[string]string{"dir/a.yaml": cm("a"), "shared/b.yaml": cm("b")},
			links: map[string]string{"dir/shared": "../shared"},
			args:  []string{"dir"},
			want:  "a",
		},
		{
			name:  "a link to a file given with -f is the file",
			files: map[string]string{"real.yaml": cm("a")},
			links: map[string]string{"link.yaml": "real.yaml"},
			args:  []string{"link.yaml"},
			want:  "a",
		},
		{
			name:      "a link back to a folder holding it is a loop",
			files:     map[string]string{"dir/a.yaml": cm("a"), "dir/sub/b.yaml": cm("b")},
			links:     map[string]string{"dir/sub/up": ".."},
			args:      []string{"dir"},
			recursive: true,
			wantErr:   []string{"{dir}/dir/sub/up", "symbolic link loop", "leads back to {dir}/dir"},
		},
		{
			name:    "a link to itself given with -f",
			links:   map[string]string{"self": "self"},
			args:    []string{"self"},
			wantErr: []string{"{dir}/self", "too many levels of symbolic links"},
		},
		{
			name:      "a link to itself inside a folder read with -R",
			files:     map[string]string{"dir/a.yaml": cm("a")},
			links:     map[string]string{"dir/self": "self"},
			args:      []string{"dir"},
			recursive: true,
			wantErr:   []string{"{dir}/dir/self", "cannot be followed", "too many levels"},
		},
		{
			name:    "a broken link with a manifest's name",
			files:   map[string]string{"dir/a.yaml": cm("a")},
			links:   map[string]string{"dir/gone.yaml": "nowhere.yaml"},
			args:    []string{"dir"},
			wantErr: []string{"{dir}/dir/gone.yaml", "cannot be followed", "no such file"},
		},
		{
			name:  "a broken link with another name is not a manifest",
			files: map[string]string{"dir/a.yaml": cm("a")},
			links: map[string]string{"dir/NOTES": "nowhere"},
			args:  []string{"dir"},
			want:  "a",
		},
		{
			name:    "a link to a file of the same folder would read it twice",
			files:   map[string]string{"dir/v2.yaml": cm("a")},
			links:   map[string]string{"dir/latest.yaml": "v2.yaml"},
			args:    []string{"dir"},
			wantErr: []string{"{dir}/dir/v2.yaml", "same file as {dir}/dir/latest.yaml", "twice"},
		},
		{
			name:      "a link to a folder read already would read it twice",
			files:     map[string]string{"dir/a/x.yaml": cm("x")},
			links:     map[string]string{"dir/b": "a"},
			args:      []string{"dir"},
			recursive: true,
			wantErr:   []string{"{dir}/dir/b", "same folder as {dir}/dir/a", "twice"},
		},
		{
			name:    "the same file given twice",
			files:   map[string]string{"a.yaml": cm("a")},
			args:    []string{"a.yaml", "./a.yaml"},
			wantErr: []string{"./a.yaml", "same file as {dir}/a.yaml", "give each file once"},
		},
		{
			name:    "a folder and a file in it",
			files:   map[string]string{"dir/a.yaml": cm("a")},
			args:    []string{"dir", "dir/a.yaml"},
			wantErr: []string{"same file as {dir}/dir/a.yaml"},
		},
		{
			name:    "the same folder given twice",
			files:   map[string]string{"dir/a.yaml": cm("a")},
			args:    []string{"dir", "dir/"},
			wantErr: []string{"same folder as {dir}/dir"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tree(t, tt.files)
			for link, target := range tt.links {
				symlink(t, dir, target, link)
			}
			var args []string
			for _, a := range tt.args {
				if strings.HasPrefix(a, "./") {
					args = append(args, dir+"/./"+a[2:])
				} else {
					args = append(args, filepath.Join(dir, a))
				}
			}
			m, err := Files(FileOptions{Filenames: args, Recursive: tt.recursive})
			if tt.wantErr != nil {
				if err == nil {
					t.Fatalf("no error; read %s", strings.Join(configMapNames(m), ","))
				}
				for _, w := range tt.wantErr {
					if w = strings.ReplaceAll(w, "{dir}", dir); !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not contain %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(configMapNames(m), ","); got != tt.want {
				t.Errorf("read %s, want %s", got, tt.want)
			}
		})
	}
}

// TestStdinTwice: standard input is one stream; naming it twice is a mistake,
// not a second, empty input.
func TestStdinTwice(t *testing.T) {
	_, err := Files(FileOptions{Filenames: []string{"-", "-"}, Stdin: strings.NewReader(cm("a"))})
	if err == nil || !strings.Contains(err.Error(), "-f - is given twice") {
		t.Errorf("err = %v", err)
	}
}
