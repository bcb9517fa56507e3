package gwtls

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
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

// setupCompletion adds cobra's `completion bash|zsh|fish|powershell` and says how
// completion works when kubectl runs the plugin.
func setupCompletion(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		c.Long = strings.TrimRight(c.Long, "\n") + `

As a kubectl plugin ("kubectl gwtls ..."), kubectl 1.26 and later complete the
plugin's arguments through an executable named kubectl_complete-gwtls on PATH, which
runs "kubectl-gwtls __complete". krew installs it with the plugin; from a release
archive, copy kubectl_complete-gwtls next to kubectl-gwtls. The scripts printed by
this command complete "` + root.Name() + `" when it is run directly.`
		c.Example = `  # bash, this session
  source <(` + root.Name() + ` completion bash)

  # zsh, every session
  ` + root.Name() + ` completion zsh > "${fpath[1]}/_` + root.Name() + `"

  # "kubectl gwtls <TAB>" (kubectl >= 1.26): put kubectl_complete-gwtls on PATH
  install -m 0755 kubectl_complete-gwtls ~/bin/`
	}
}
