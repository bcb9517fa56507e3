package gwtls

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-gwtls/kubectl-gwtls/render"
)

// NewCmdRender builds `render` and its subcommands.
func NewCmdRender(streams genericiooptions.IOStreams, configFlags *genericclioptions.ConfigFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "render",
		Short: "Render computed status and other views of the configuration",
	}
	cmd.AddCommand(NewCmdRenderStatus(streams, configFlags))
	return cmd
}

// RenderStatusOptions are the options of `render status`.
type RenderStatusOptions struct {
	Input  *InputOptions
	Output string
	genericiooptions.IOStreams
}

// NewCmdRenderStatus builds `render status`.
func NewCmdRenderStatus(streams genericiooptions.IOStreams, configFlags *genericclioptions.ConfigFlags) *cobra.Command {
	o := &RenderStatusOptions{Input: NewInputOptions(configFlags), IOStreams: streams}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Print every Gateway, ListenerSet, route and BackendTLSPolicy with the status a conformant controller would write",
		Example: `  # The status a controller would write, as a v1 List
  ` + commandName() + ` render status -f manifests/ -o json

  # Reproducible output for golden files
  ` + commandName() + ` render status -f manifests/ -o yaml --now 2026-01-01T00:00:00Z`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.Input.Complete(); err != nil {
				return err
			}
			switch o.Output {
			case "", "json", "yaml":
			default:
				return usageErrorf("--output %q: want json or yaml", o.Output)
			}
			if err := o.Input.Validate(); err != nil {
				return err
			}
			return o.Run(cmd)
		},
	}
	o.Input.AddFlags(cmd)
	cmd.Flags().StringVarP(&o.Output, "output", "o", "yaml", "output format: yaml or json")
	return cmd
}

// Run loads, analyzes and prints the computed status.
func (o *RenderStatusOptions) Run(cmd *cobra.Command) error {
	m, err := o.Input.Load(cmd.Context(), o.IOStreams)
	if err != nil {
		return err
	}
	items, err := render.StatusItems(o.Input.Analyze(m))
	if err != nil {
		return err
	}
	if o.Output == "json" {
		return render.StatusJSON(o.Out, items)
	}
	return render.StatusYAML(o.Out, items)
}
