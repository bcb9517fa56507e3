package gwtls

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
)

// NewCmdGenerate builds the hidden `generate` command, which writes a large
// synthetic configuration for benchmarks and scale tests (docs/performance.md).
func NewCmdGenerate(streams genericiooptions.IOStreams) *cobra.Command {
	c := generate.Config{Seed: 1, Gateways: 1000, ListenersPerGateway: 20, Routes: 100000}
	var output string
	cmd := &cobra.Command{
		Use:    "generate",
		Short:  "Write a large synthetic Gateway API configuration (for benchmarks)",
		Hidden: true,
		Example: `  # The 100k-route case of docs/performance.md
  ` + commandName() + ` generate --seed 1 --gateways 1000 --listeners 20 --routes 100000 -o big.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if c.Gateways < 1 || c.ListenersPerGateway < 1 || c.Routes < 0 {
				return usageErrorf("--gateways and --listeners must be at least 1, --routes at least 0")
			}
			var w io.Writer = streams.Out
			if output != "" && output != "-" {
				f, err := os.Create(output)
				if err != nil {
					return err
				}
				if err := generate.Write(f, c); err != nil {
					f.Close()
					return err
				}
				if err := f.Close(); err != nil {
					return fmt.Errorf("%s: %w", output, err)
				}
				return nil
			}
			return generate.Write(w, c)
		},
	}
	cmd.Flags().Int64Var(&c.Seed, "seed", c.Seed, "seed of every choice; the same flags write the same structure")
	cmd.Flags().IntVar(&c.Gateways, "gateways", c.Gateways, "number of Gateways")
	cmd.Flags().IntVar(&c.ListenersPerGateway, "listeners", c.ListenersPerGateway, "listeners per Gateway")
	cmd.Flags().IntVar(&c.Routes, "routes", c.Routes, "number of routes (HTTPRoute, GRPCRoute, TLSRoute, TCPRoute)")
	cmd.Flags().StringVarP(&output, "output", "o", "", "write to FILE instead of standard output")
	return cmd
}
