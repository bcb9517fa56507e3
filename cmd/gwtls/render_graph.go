package gwtls

import (
	"context"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-gwtls/kubectl-gwtls/render"
)

// RenderGraphOptions are the options of `render graph`.
type RenderGraphOptions struct {
	Input  *InputOptions
	Output string
	genericiooptions.IOStreams
}

// NewCmdRenderGraph builds `render graph`.
func NewCmdRenderGraph(streams genericiooptions.IOStreams, configFlags *genericclioptions.ConfigFlags) *cobra.Command {
	o := &RenderGraphOptions{Input: NewInputOptions(configFlags), IOStreams: streams}
	cmd := &cobra.Command{
		Use:   "graph",
		Short: "Draw Gateways -> listeners -> routes -> backends as Graphviz DOT or Mermaid",
		Long: `Graph draws the topology the analysis decided: every Gateway, its listeners (port,
protocol, TLS mode, hostname, status), the routes attached to each listener with the
intersected hostnames on the edge, and the backends with the BackendTLSPolicy that
applies. A route's parentRef that was not accepted is a dashed red edge to the
Gateway, labelled with the reason. Node IDs and order are deterministic.

-o dot is Graphviz (pipe it to "dot -Tsvg"); -o mermaid is a Mermaid flowchart,
which GitHub renders inside a ` + "```mermaid" + ` block of a pull-request comment.`,
		Example: `  # An SVG of the configuration
  ` + commandName() + ` render graph -f manifests/ | dot -Tsvg > topology.svg

  # Mermaid, for a pull-request comment or a Markdown page
  ` + commandName() + ` render graph -f manifests/ -o mermaid`,
		Args: usageArgs(cobra.NoArgs),
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
	o.Input.AddFlags(cmd)
	cmd.Flags().StringVarP(&o.Output, "output", "o", "dot", "output format: dot (Graphviz) or mermaid")
	return cmd
}

// Complete parses the input flags.
func (o *RenderGraphOptions) Complete(cmd *cobra.Command, args []string) error {
	return o.Input.Complete()
}

// Validate checks the flags.
func (o *RenderGraphOptions) Validate() error {
	switch o.Output {
	case "dot", "mermaid":
	default:
		return usageErrorf("--output %q: want dot or mermaid", o.Output)
	}
	return o.Input.Validate()
}

// Run loads, analyzes and draws.
func (o *RenderGraphOptions) Run(ctx context.Context) error {
	res, err := o.Input.Result(ctx, o.IOStreams)
	if err != nil {
		return err
	}
	g := render.NewGraph(res)
	if o.Output == "mermaid" {
		return g.Mermaid(o.Out)
	}
	return g.DOT(o.Out)
}
