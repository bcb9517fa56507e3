// Command kubectl-gwtls is the kubectl plugin `kubectl gwtls`.
package main

import (
	"context"
	"os"
	"runtime/debug"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-gwtls/kubectl-gwtls/cmd/gwtls"
)

func main() {
	tuneGC()
	streams := genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
	os.Exit(gwtls.Execute(context.Background(), gwtls.NewRootCmd(streams), os.Stderr))
}

// tuneGC trades memory the tool does not need for less collection: a large
// analysis allocates a lot of short-lived decode garbage, and the default GOGC=100
// spends a third of its CPU collecting it. A soft limit keeps the peak well under
// 1 GiB (docs/performance.md). GOGC and GOMEMLIMIT, when set, win.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(300)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(768 << 20)
	}
}
