package gwtls

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-gwtls/kubectl-gwtls/drift"
	"github.com/kubectl-gwtls/kubectl-gwtls/render"
)

// NewCmdRender builds `render` and its subcommands.
func NewCmdRender(streams genericiooptions.IOStreams, configFlags *genericclioptions.ConfigFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "render",
		Short: "Render computed status and other views of the configuration",
	}
	cmd.AddCommand(NewCmdRenderStatus(streams, configFlags))
	cmd.AddCommand(NewCmdRenderPlan(streams, configFlags))
	cmd.AddCommand(NewCmdRenderGraph(streams, configFlags))
	cmd.AddCommand(NewCmdRenderReport(streams, configFlags))
	return cmd
}

// RenderPlanOptions are the options of `render plan`.
type RenderPlanOptions struct {
	Input  *InputOptions
	Output string
	Issuer string
	TTL    int64
	Color  string

	issuerKind, issuerName string
	genericiooptions.IOStreams
}

// NewCmdRenderPlan builds `render plan`.
func NewCmdRenderPlan(streams genericiooptions.IOStreams, configFlags *genericclioptions.ConfigFlags) *cobra.Command {
	o := &RenderPlanOptions{Input: NewInputOptions(configFlags), IOStreams: streams}
	cmd := &cobra.Command{
		Use:   "plan",
		Short: "Print the DNS records and certificates the configuration needs",
		Long: `Plan lists what must exist for the configuration to work, from the accepted
Gateways, listeners and routes only (spec 003 "Programmatic use of the hostname field"):
a DNS record for every intersected hostname pointing at every address of its Gateway,
and for every terminating listener the precise hostnames its certificate must cover
(never wildcards) and which of them the referenced Secret does not cover yet.

-o dnsendpoint prints external-dns DNSEndpoint objects; -o certificate prints
cert-manager Certificate objects for --issuer.`,
		Example: `  ` + commandName() + ` render plan -f manifests/
  ` + commandName() + ` render plan -f manifests/ -o json
  ` + commandName() + ` render plan -f manifests/ -o certificate --issuer ClusterIssuer/letsencrypt | kubectl apply -f -
  ` + commandName() + ` render plan -A -o dnsendpoint`,
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
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "output format: table (default), json, yaml, dnsendpoint, certificate")
	cmd.Flags().StringVar(&o.Issuer, "issuer", "", "with -o certificate: the cert-manager issuer as KIND/NAME (ClusterIssuer/letsencrypt)")
	cmd.Flags().Int64Var(&o.TTL, "ttl", 300, "with -o dnsendpoint: the record TTL in seconds")
	cmd.Flags().StringVar(&o.Color, "color", "auto", "colour: auto, always, never")
	return cmd
}

// Complete reads --issuer as KIND/NAME.
func (o *RenderPlanOptions) Complete(cmd *cobra.Command, args []string) error {
	if o.Issuer != "" {
		kind, name, err := parseIssuer(o.Issuer)
		if err != nil {
			return err
		}
		o.issuerKind, o.issuerName = kind, name
	}
	return o.Input.Complete()
}

// Validate checks the flags.
func (o *RenderPlanOptions) Validate() error {
	switch o.Output {
	case "", "table", "json", "yaml", "dnsendpoint":
	case "certificate":
		if o.issuerKind == "" || o.issuerName == "" {
			return usageErrorf("-o certificate needs --issuer KIND/NAME, for example --issuer ClusterIssuer/letsencrypt")
		}
	default:
		return usageErrorf("--output %q: want table, json, yaml, dnsendpoint or certificate", o.Output)
	}
	if err := validTTL(o.TTL); err != nil {
		return err
	}
	if err := validColor(o.Color); err != nil {
		return err
	}
	return o.Input.Validate()
}

// Run loads, analyzes and prints the plan.
func (o *RenderPlanOptions) Run(ctx context.Context) error {
	res, err := o.Input.Result(ctx, o.IOStreams)
	if err != nil {
		return err
	}
	plan := res.Plan()
	// The CRDs the objects were held to: a field of the plan; a comment
	// opening the objects meant for kubectl apply; a line under the table.
	adm := render.NewAdmission(res.Model.Admission)
	switch o.Output {
	case "json":
		return render.PlanJSON(o.Out, plan, adm)
	case "yaml":
		return render.PlanYAML(o.Out, plan, adm)
	case "dnsendpoint":
		if err := render.WriteAdmissionComment(o.Out, adm); err != nil {
			return err
		}
		unknown, err := render.DNSEndpoints(o.Out, plan, o.TTL)
		if len(unknown) > 0 {
			fmt.Fprintf(o.ErrOut, "warning: no DNSEndpoint for %s: the Gateway has no address in status.addresses or spec.addresses\n", strings.Join(unknown, ", "))
		}
		return err
	case "certificate":
		if err := render.WriteAdmissionComment(o.Out, adm); err != nil {
			return err
		}
		return render.Certificates(o.Out, plan, o.issuerKind, o.issuerName)
	}
	st := render.Style{Color: useColor(o.Color, o.Out)}
	if err := render.PlanTable(o.Out, plan, st); err != nil {
		return err
	}
	return render.WriteAdmission(o.Out, adm, st)
}

// RenderStatusOptions are the options of `render status`.
type RenderStatusOptions struct {
	Input  *InputOptions
	Output string
	// Diff prints, per object, a unified diff of the status its controller
	// wrote against the computed one.
	Diff bool
	genericiooptions.IOStreams
}

// NewCmdRenderStatus builds `render status`.
func NewCmdRenderStatus(streams genericiooptions.IOStreams, configFlags *genericclioptions.ConfigFlags) *cobra.Command {
	o := &RenderStatusOptions{Input: NewInputOptions(configFlags), IOStreams: streams}
	o.Input.printsObjects = true
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Print every Gateway, ListenerSet, route and BackendTLSPolicy with the status a conformant controller would write",
		Example: `  # The status a controller would write, as a v1 List
  ` + commandName() + ` render status -f manifests/ -o json

  # Reproducible output for golden files
  ` + commandName() + ` render status -f manifests/ -o yaml --now 2026-01-01T00:00:00Z

  # What the controllers wrote (-) against what the spec says (+), per object
  ` + commandName() + ` render status -A --diff`,
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
	cmd.Flags().StringVarP(&o.Output, "output", "o", "yaml", "output format: yaml or json")
	cmd.Flags().BoolVar(&o.Diff, "diff", false, "print, per object, a unified diff of the status its controller wrote (-) against the status the spec says (+), as drift compares them: without messages and lastTransitionTime, conditions sorted by type")
	return cmd
}

// Complete parses the input flags.
func (o *RenderStatusOptions) Complete(cmd *cobra.Command, args []string) error {
	return o.Input.Complete()
}

// Validate checks the flags.
func (o *RenderStatusOptions) Validate() error {
	switch o.Output {
	case "", "json", "yaml":
	default:
		return usageErrorf("--output %q: want json or yaml", o.Output)
	}
	if o.Diff && o.Output == "json" {
		return usageErrorf("--diff prints a unified diff of YAML; it takes no -o json")
	}
	return o.Input.Validate()
}

// Run loads, analyzes and prints the computed status.
func (o *RenderStatusOptions) Run(ctx context.Context) error {
	res, err := o.Input.Result(ctx, o.IOStreams)
	if err != nil {
		return err
	}
	// The CRDs the objects were held to, where kubectl apply does not read
	// them: a comment opening the YAML, a line on stderr beside JSON (which has
	// no comments, and whose v1 List has no field for it) and the diff.
	adm := render.NewAdmission(res.Model.Admission)
	if o.Diff {
		compared, differ, err := render.StatusDiff(o.Out, drift.New(res).Pairs())
		if err == nil {
			render.StatusDiffSummary(o.ErrOut, compared, differ)
			err = render.WriteAdmission(o.ErrOut, adm, render.Style{})
		}
		return err
	}
	if o.Output == "json" {
		if err := render.WriteStatusJSON(o.Out, res); err != nil {
			return err
		}
		return render.WriteAdmission(o.ErrOut, adm, render.Style{})
	}
	if err := render.WriteAdmissionComment(o.Out, adm); err != nil {
		return err
	}
	return render.WriteStatusYAML(o.Out, res)
}
