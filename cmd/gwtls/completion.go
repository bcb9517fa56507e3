package gwtls

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// binaryName is the executable's name, which shell completion registers
// ("kubectl-gwtls"); "kubectl-gwtls" when it cannot be told (tests, go run).
func binaryName() string {
	base := strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe")
	if strings.HasPrefix(base, "kubectl-") {
		return base
	}
	if base == "" || strings.HasSuffix(base, ".test") || base == "main" {
		return "kubectl-gwtls"
	}
	return base
}

// completionShells are the shells cobra writes completion scripts for.
var completionShells = []string{"bash", "zsh", "fish", "powershell"}

// CompletionOptions are the options of `completion`.
type CompletionOptions struct {
	NoDescriptions bool

	shell string
	root  *cobra.Command // the tree the script completes
	genericiooptions.IOStreams
}

// NewCmdCompletion builds `completion SHELL`, as kubectl's own: the script
// completes the binary's name; kubectl completes the plugin through
// kubectl_complete-gwtls.
func NewCmdCompletion(streams genericiooptions.IOStreams) *cobra.Command {
	o := &CompletionOptions{IOStreams: streams}
	name := binaryName()
	cmd := &cobra.Command{
		Use:   "completion SHELL",
		Short: "Print the shell completion script for bash, zsh, fish or powershell",
		Long: `Completion prints a script that completes "` + name + `" commands, flags and
arguments in bash (which needs the bash-completion package), zsh, fish or
powershell. Load it in the current shell, or install it for every new session,
as the examples show.

As a kubectl plugin ("kubectl gwtls ..."), kubectl 1.26 and later complete the
plugin's arguments through an executable named kubectl_complete-gwtls on PATH, which
runs "kubectl-gwtls __complete". krew installs it with the plugin; from a release
archive, copy kubectl_complete-gwtls next to kubectl-gwtls. The scripts printed by
this command complete "` + name + `" when it is run directly.`,
		Example: `  # bash, this session
  source <(` + name + ` completion bash)

  # zsh, every session
  ` + name + ` completion zsh > "${fpath[1]}/_` + name + `"

  # fish, every session
  ` + name + ` completion fish > ~/.config/fish/completions/` + name + `.fish

  # powershell, this session
  ` + name + ` completion powershell | Out-String | Invoke-Expression

  # "kubectl gwtls <TAB>" (kubectl >= 1.26): put kubectl_complete-gwtls on PATH
  install -m 0755 kubectl_complete-gwtls ~/bin/`,
		ValidArgs:             completionShells,
		Args:                  usageArgs(cobra.ExactArgs(1)),
		DisableFlagsInUseLine: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.Complete(cmd, args); err != nil {
				return err
			}
			if err := o.Validate(); err != nil {
				return err
			}
			return o.Run(cmd.Context())
		},
	}
	cmd.Flags().BoolVar(&o.NoDescriptions, "no-descriptions", false, "disable completion descriptions")
	return cmd
}

// Complete takes the shell and the command tree to complete.
func (o *CompletionOptions) Complete(cmd *cobra.Command, args []string) error {
	o.shell, o.root = args[0], cmd.Root()
	return nil
}

// Validate checks the shell.
func (o *CompletionOptions) Validate() error {
	if !slices.Contains(completionShells, o.shell) {
		return usageErrorf("shell %q: want bash, zsh, fish or powershell", o.shell)
	}
	return nil
}

// Run writes the script.
func (o *CompletionOptions) Run(ctx context.Context) error {
	desc := !o.NoDescriptions
	switch o.shell {
	case "bash":
		return o.root.GenBashCompletionV2(o.Out, desc)
	case "zsh":
		if !desc {
			return o.root.GenZshCompletionNoDesc(o.Out)
		}
		return o.root.GenZshCompletion(o.Out)
	case "fish":
		return o.root.GenFishCompletion(o.Out, desc)
	}
	if !desc {
		return o.root.GenPowerShellCompletion(o.Out)
	}
	return o.root.GenPowerShellCompletionWithDesc(o.Out)
}
