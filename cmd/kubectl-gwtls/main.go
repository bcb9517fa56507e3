// Command kubectl-gwtls is the kubectl plugin `kubectl gwtls`.
package main

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-gwtls/kubectl-gwtls/cmd/gwtls"
)

func main() {
	tuneGC()
	streams := genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
	root := gwtls.NewRootCmd(streams)
	err := root.ExecuteContext(context.Background())
	code := gwtls.ExitCode(err)
	if err != nil && code != gwtls.ExitFindings {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
	}
	os.Exit(code)
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
