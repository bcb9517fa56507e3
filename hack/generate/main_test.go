package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
)

// TestWritesALoadableConfiguration: -o FILE holds the configuration the flags
// size, and kubectl-gwtls loads it.
func TestWritesALoadableConfiguration(t *testing.T) {
	path := filepath.Join(t.TempDir(), "small.yaml")
	if err := run(generate.Config{Seed: 1, Gateways: 3, ListenersPerGateway: 20, Routes: 50}, path); err != nil {
		t.Fatal(err)
	}
	m, err := load.Files(load.FileOptions{Filenames: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Gateways) != 3 || len(m.Routes) != 50 {
		t.Errorf("%d Gateways and %d routes, want 3 and 50", len(m.Gateways), len(m.Routes))
	}
}

// TestListHoldsTheSameObjects: --list writes one List document whose items
// load as the same objects as the multi-document stream, each on the line of
// its first key.
func TestListHoldsTheSameObjects(t *testing.T) {
	c := generate.Config{Seed: 1, Gateways: 3, ListenersPerGateway: 20, Routes: 50}
	dir := t.TempDir()
	stream, list := filepath.Join(dir, "stream.yaml"), filepath.Join(dir, "list.yaml")
	if err := run(c, stream); err != nil {
		t.Fatal(err)
	}
	if err := write(list, func(w io.Writer) error { return writeList(w, c) }); err != nil {
		t.Fatal(err)
	}
	want, err := load.Files(load.FileOptions{Filenames: []string{stream}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := load.Files(load.FileOptions{Filenames: []string{list}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Gateways) != len(want.Gateways) || len(got.Routes) != len(want.Routes) || got.Len() != want.Len() {
		t.Fatalf("the List loads %d objects (%d Gateways, %d routes), the stream %d (%d, %d)",
			got.Len(), len(got.Gateways), len(got.Routes), want.Len(), len(want.Gateways), len(want.Routes))
	}
	text, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(text), "\n")
	for _, r := range got.Routes {
		if l := lines[r.Source.Line-1]; l != "- apiVersion: "+r.APIVersion || !strings.Contains(lines[r.Source.Line+2], "name: "+r.ObjectMeta.Name) {
			t.Fatalf("%s/%s is on line %d, which is %q", r.ObjectMeta.Namespace, r.ObjectMeta.Name, r.Source.Line, l)
		}
	}
}
