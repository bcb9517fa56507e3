package gwtls

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMain points KUBECONFIG at a file that does not exist, so that the
// namespace of file objects that name none is "default" whatever kubeconfig the
// machine has; tests that want a context namespace pass --kubeconfig.
func TestMain(m *testing.M) {
	if what := os.Getenv(benchChildEnv); what != "" {
		os.Exit(runBenchChild(what))
	}
	dir, err := os.MkdirTemp("", "gwtls-cmd")
	if err != nil {
		panic(err)
	}
	os.Setenv("KUBECONFIG", filepath.Join(dir, "none"))
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
