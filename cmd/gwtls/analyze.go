package gwtls

import (
	"context"
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/term"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/render"
)

// AnalyzeOptions are the options of `analyze`.
type AnalyzeOptions struct {
	Input  *InputOptions
	Output string
	FailOn string
	Color  string

	failOn analyze.Severity
	genericiooptions.IOStreams
}

// NewCmdAnalyze builds `analyze`.
func NewCmdAnalyze(streams genericiooptions.IOStreams, configFlags *genericclioptions.ConfigFlags) *cobra.Command {
	o := &AnalyzeOptions{Input: NewInputOptions(configFlags), IOStreams: streams}
	cmd := &cobra.Command{
		Use:   "analyze",
		Short: "Lint Gateway API configuration; the exit code gates CI",
		Long: `Analyze loads Gateways, ListenerSets, routes, ReferenceGrants, BackendTLSPolicies and
the Secrets, ConfigMaps, Services and Namespaces they reference, decides what a
conformant controller would decide, and prints every finding with a rule ID, where it
comes from and how to fix it.

In a cluster, and for files whose objects carry status (kubectl get -o yaml dumps), it
also compares the status each controller wrote with the status the spec says: missing,
behind (stale observedGeneration), different conditions, counts or kinds, orphaned
entries (drift/*, warnings; --drift=false turns it off).

Exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage, load or connection errors.`,
		Example: `  # Lint a folder of manifests (recursively)
  ` + commandName() + ` analyze -f manifests/ -R

  # Lint the current cluster, every namespace
  ` + commandName() + ` analyze -A

  # Does each controller's status agree with the spec? (fail on drift too)
  ` + commandName() + ` analyze -A --fail-on warning

  # CI: JSON output, fail on warnings too, Secrets come from cert-manager
  ` + commandName() + ` analyze -f deploy/ -o json --fail-on warning --external Secret`,
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
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "output format: table (default), wide, json, yaml, sarif (SARIF 2.1.0 for code scanning), github (GitHub Actions annotations)")
	cmd.Flags().StringVar(&o.FailOn, "fail-on", "error", "exit 1 when a finding has this severity or higher: error, warning, info, none")
	cmd.Flags().StringVar(&o.Color, "color", "auto", "colour the table: auto (on a terminal, unless NO_COLOR is set), always, never")
	return cmd
}

// Complete parses the flags' values; --fail-on comes from the configuration
// file unless it is set.
func (o *AnalyzeOptions) Complete(cmd *cobra.Command, args []string) error {
	o.Input.completeDrift(cmd)
	if err := o.Input.Complete(); err != nil {
		return err
	}
	if o.Input.fromConfig("fail-on", "failOn") {
		o.failOn = o.Input.config.FailOn
		return nil
	}
	sev, err := analyze.ParseSeverity(o.FailOn)
	if err != nil {
		return usageErrorf("--fail-on: %w", err)
	}
	o.failOn = sev
	return nil
}

// Validate checks the flags.
func (o *AnalyzeOptions) Validate() error {
	switch o.Output {
	case "", "table", "wide", "json", "yaml", "sarif", "github":
	default:
		return usageErrorf("--output %q: want table, wide, json, yaml, sarif or github", o.Output)
	}
	if err := validColor(o.Color); err != nil {
		return err
	}
	return o.Input.Validate()
}

// Run loads, analyzes and prints.
func (o *AnalyzeOptions) Run(ctx context.Context) error {
	res, err := o.Input.Result(ctx, o.IOStreams)
	if err != nil {
		return err
	}
	report := render.NewReport(res)
	report.ShowSuppressed = o.Input.Findings.ShowSuppressed
	switch o.Output {
	case "json":
		err = report.JSON(o.Out)
	case "yaml":
		err = report.YAML(o.Out)
	case "sarif":
		err = report.SARIF(o.Out, Version)
	case "github":
		err = report.GitHubAnnotations(o.Out)
	default:
		skippedSummary(o.ErrOut, res.Model)
		err = report.Table(o.Out, render.Style{Color: useColor(o.Color, o.Out)}, o.Output == "wide")
	}
	if err != nil {
		return err
	}
	if n := res.CountAtOrAbove(o.failOn); n > 0 {
		return findingsError{n}
	}
	return nil
}

func validColor(c string) error {
	switch c {
	case "auto", "always", "never":
		return nil
	}
	return usageErrorf("--color %q: want auto, always or never", c)
}

// useColor decides colour: always/never win; auto colours only a terminal and
// honours NO_COLOR (https://no-color.org).
func useColor(mode string, w any) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	if v, ok := os.LookupEnv("NO_COLOR"); ok && v != "" {
		return false
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
