package load

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPipelineFailsInInputOrder: documents are decoded on every core while
// the file is read, so a later chunk may be decoded before an earlier one.
// The error is still the one of the first document, in input order, that
// fails, then the first object defined twice, whatever the chunk size; and a
// file that cannot be read fails the load before any decoded document does,
// as when every file was read before any was decoded.
func TestPipelineFailsInInputOrder(t *testing.T) {
	var b strings.Builder
	for i := range 400 {
		switch i {
		case 150:
			b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [bad\n---\n")
		case 390:
			b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {}\n---\n")
		case 100, 300:
			b.WriteString(cm("twice") + "---\n")
		default:
			b.WriteString(cm(fmt.Sprint("c", i)) + "---\n")
		}
	}
	text := b.String()
	badLine := 1 + 5*150 // the document's first line; the YAML error is on its fourth
	dir := t.TempDir()
	file := filepath.Join(dir, "in.yaml")
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	noBad := strings.Replace(strings.Replace(text, "[bad", "ok", 1), "name: {}", "name: fine", 1)
	dupFile := filepath.Join(dir, "dup.yaml")
	if err := os.WriteFile(dupFile, []byte(noBad), 0o600); err != nil {
		t.Fatal(err)
	}
	defer func(n int) { fileChunk = n }(fileChunk)
	for _, chunk := range []int{16, 200, 4096, len(text) + 1} {
		fileChunk = chunk
		_, err := Files(FileOptions{Filenames: []string{file}})
		var le *Error
		if !errors.As(err, &le) || le.Source.File != file || le.Source.Line < badLine || le.Source.Line > badLine+4 || !strings.Contains(err.Error(), "malformed YAML") {
			t.Errorf("chunks of %d bytes: error %v, want malformed YAML in the document at line %d", chunk, err, badLine)
		}
		_, err = Files(FileOptions{Filenames: []string{dupFile}})
		if want := fmt.Sprintf("%s:%d: ConfigMap \"default/twice\" is defined twice: first at %s:%d,", dupFile, 1+5*300, dupFile, 1+5*100); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("chunks of %d bytes: error %v, want %q...", chunk, err, want)
		}
		missing := filepath.Join(dir, "missing.yaml")
		_, err = Files(FileOptions{Filenames: []string{file, missing}})
		if err == nil || !strings.HasPrefix(err.Error(), missing+":") {
			t.Errorf("chunks of %d bytes: error %v, want the missing file's", chunk, err)
		}
	}
}

// TestPipelineKeepsInputOrder: the model lists the objects of several files,
// each read in many chunks, in input order, and each at its line.
func TestPipelineKeepsInputOrder(t *testing.T) {
	defer func(n int) { fileChunk = n }(fileChunk)
	fileChunk = 64
	dir := t.TempDir()
	var files, want []string
	for f := range 3 {
		var b strings.Builder
		for i := range 300 {
			name := fmt.Sprintf("f%d-%d", f, i)
			want = append(want, name)
			b.WriteString("# a comment\n---\n" + cm(name))
		}
		file := filepath.Join(dir, fmt.Sprintf("%d.yaml", f))
		if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		files = append(files, file)
	}
	m, err := Files(FileOptions{Filenames: files})
	if err != nil {
		t.Fatal(err)
	}
	got := configMapNames(m)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("objects out of input order: %d objects, first %v", len(got), got[:min(5, len(got))])
	}
	for i, c := range m.ConfigMaps {
		if file, line := files[i/300], 3+6*(i%300); c.Meta.Source.File != file || c.Meta.Source.Line != line {
			t.Fatalf("%s at %s, want %s:%d", c.Obj.Name, c.Meta.Source, file, line)
		}
	}
}
