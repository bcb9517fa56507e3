//go:build unix

package load

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestNamedPipes: a named pipe given with -f is read, as a shell's <(command)
// is; one found in a folder is refused, since reading it could block forever.
func TestNamedPipes(t *testing.T) {
	dir := tree(t, map[string]string{"dir/a.yaml": cm("a")})
	fifo := filepath.Join(dir, "dir", "pipe.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	_, err := Files(FileOptions{Filenames: []string{filepath.Join(dir, "dir")}})
	if err == nil || !strings.Contains(err.Error(), fifo+": not a regular file (a named pipe)") {
		t.Errorf("a pipe in a folder: err = %v", err)
	}

	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		_, _ = w.WriteString(cm("piped"))
	}()
	m, err := Files(FileOptions{Filenames: []string{fifo}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(configMapNames(m), ","); got != "piped" {
		t.Errorf("read %s from the pipe, want piped", got)
	}
}
