// Command kubectl-gwtls is the kubectl plugin `kubectl gwtls`.
package main

import (
	"context"
	"fmt"
	"os"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-gwtls/kubectl-gwtls/cmd/gwtls"
)

func main() {
	streams := genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
	root := gwtls.NewRootCmd(streams)
	err := root.ExecuteContext(context.Background())
	code := gwtls.ExitCode(err)
	if err != nil && code != gwtls.ExitFindings {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
	}
	os.Exit(code)
}
