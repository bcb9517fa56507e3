package gwtls

import (
	"context"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-gwtls/kubectl-gwtls/render"
)

// RenderReportOptions are the options of `render report`.
type RenderReportOptions struct {
	Input     *InputOptions
	Output    string
	SourceURL string
	Title     string
	genericiooptions.IOStreams
}

// NewCmdRenderReport builds `render report`.
func NewCmdRenderReport(streams genericiooptions.IOStreams, configFlags *genericclioptions.ConfigFlags) *cobra.Command {
	o := &RenderReportOptions{Input: NewInputOptions(configFlags), IOStreams: streams}
	cmd := &cobra.Command{
		Use:   "report",
		Short: "Summarize the analysis as Markdown for a pull-request comment",
		Long: `Report writes a Markdown summary for a pull-request comment: the counts, every
finding (severity, rule, object, file:line, message, fix), every listener with the
routes attached to it and their intersected hostnames, and the topology as a Mermaid
diagram. It exits 0 whatever it finds (post the comment, gate with analyze);
output is deterministic.`,
		Example: `  # A PR comment with the GitHub CLI
  ` + commandName() + ` render report -f deploy/ > report.md && gh pr comment "$PR" --body-file report.md

  # file:line as links into the commit under review
  ` + commandName() + ` render report -f deploy/ --source-url "https://github.com/$GITHUB_REPOSITORY/blob/$GITHUB_SHA"`,
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
	o.Input.AddFindingFlags(cmd)
	o.Input.AddDriftFlag(cmd)
	cmd.Flags().StringVarP(&o.Output, "output", "o", "markdown", "output format: markdown")
	cmd.Flags().StringVar(&o.SourceURL, "source-url", "", "link file:line to SOURCE_URL/FILE#LLINE (e.g. https://github.com/OWNER/REPO/blob/SHA)")
	cmd.Flags().StringVar(&o.Title, "title", "kubectl-gwtls", "the report's heading")
	return cmd
}

// Complete parses the input flags.
func (o *RenderReportOptions) Complete(cmd *cobra.Command, args []string) error {
	o.Input.completeDrift(cmd)
	return o.Input.Complete()
}

// Validate checks the flags.
func (o *RenderReportOptions) Validate() error {
	switch o.Output {
	case "markdown", "md":
	default:
		return usageErrorf("--output %q: want markdown", o.Output)
	}
	return o.Input.Validate()
}

// Run loads, analyzes and writes the report.
func (o *RenderReportOptions) Run(ctx context.Context) error {
	res, err := o.Input.Result(ctx, o.IOStreams)
	if err != nil {
		return err
	}
	return render.Markdown(o.Out, res, render.MarkdownOptions{SourceURL: o.SourceURL, Title: o.Title, ShowSuppressed: o.Input.Findings.ShowSuppressed})
}
