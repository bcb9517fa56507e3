package main

import (
	"path/filepath"
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
