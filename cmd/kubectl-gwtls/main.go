// Command kubectl-gwtls is the kubectl plugin `kubectl gwtls`.
package main

import (
	"context"
	"os"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-gwtls/kubectl-gwtls/cmd/gwtls"
)

func main() {
	gwtls.TuneGC()
	streams := genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
	os.Exit(gwtls.Execute(context.Background(), gwtls.NewRootCmd(streams), os.Stderr))
}
