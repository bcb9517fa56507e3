// Package gwtls holds the cobra commands of kubectl-gwtls. Each command follows
// kubectl's Options pattern: Complete derives values from the flags and
// arguments, Validate checks them without changing anything, Run does the work
// (load -> analyze -> render), and the command's RunE is exactly those three
// calls. Only Complete and Validate return usage errors.
package gwtls

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-gwtls/kubectl-gwtls/load"
)

// commandName is how the user invoked us: "kubectl gwtls" as a plugin, else the
// binary's name.
func commandName() string {
	base := filepath.Base(os.Args[0])
	if strings.HasPrefix(base, "kubectl-") {
		return "kubectl " + strings.TrimPrefix(base, "kubectl-")
	}
	return base
}

// NewRootCmd builds the kubectl-gwtls command tree.
func NewRootCmd(streams genericiooptions.IOStreams) *cobra.Command {
	configFlags := genericclioptions.NewConfigFlags(true)
	// kubectl waits for a server without end by default; a CI gate must not
	// hang, so each request has a deadline unless --request-timeout says
	// otherwise (0 still means none, as the flag's help says).
	timeout := load.DefaultRequestTimeout.String()
	configFlags.Timeout = &timeout
	root := &cobra.Command{
		// Use is the binary's name, which completion scripts register; the usage
		// text shows the display name, "kubectl gwtls" when run as a plugin.
		Use:         binaryName(),
		Annotations: map[string]string{cobra.CommandDisplayNameAnnotation: commandName()},
		Short:       "Analyze Gateway API TLS and hostname configuration",
		Long: `kubectl-gwtls checks Gateway API configuration the way a conformant controller
reads it: which routes attach to which listeners and why not, which hostnames each
listener really serves, listener conflicts, certificate references and
BackendTLSPolicies. It reads manifests (-f, -k) or the current cluster.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	configFlags.AddFlags(root.PersistentFlags())
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(NewCmdAnalyze(streams, configFlags))
	root.AddCommand(NewCmdRender(streams, configFlags))
	root.AddCommand(NewCmdSimulate(streams, configFlags))
	root.AddCommand(NewCmdProbe(streams, configFlags))
	root.AddCommand(NewCmdExplain(streams, configFlags))
	root.AddCommand(NewCmdRules(streams))
	root.AddCommand(NewCmdDiff(streams, configFlags))
	root.AddCommand(NewCmdVersion(streams))
	root.AddCommand(NewCmdCompletion(streams))
	// Last: --cpuprofile and --memprofile wrap the commands added above.
	profiles := &profileOptions{}
	profiles.addFlags(root)
	profiles.profiled(root)
	return root
}
