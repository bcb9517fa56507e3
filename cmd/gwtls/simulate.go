package gwtls

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-gwtls/kubectl-gwtls/hostname"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/render"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
	"github.com/kubectl-gwtls/kubectl-gwtls/simulate"
)

// SimulateOptions are the options of `simulate`.
type SimulateOptions struct {
	Input   *InputOptions
	SNI     string
	Host    string
	Port    int32
	Gateway string
	All     bool
	Output  string
	Color   string

	port    int32                // --port, or its default for the request
	portSet bool                 // --port was given
	gateway model.NamespacedName // --gateway
	genericiooptions.IOStreams
}

// NewCmdSimulate builds `simulate`.
func NewCmdSimulate(streams genericiooptions.IOStreams, configFlags *genericclioptions.ConfigFlags) *cobra.Command {
	o := &SimulateOptions{Input: NewInputOptions(configFlags), IOStreams: streams}
	cmd := &cobra.Command{
		Use:   "simulate",
		Short: "Show what happens to a connection with a given SNI (and Host): listener, route, certificate, backends, or why it is refused",
		Long: `Simulate follows a connection through the configuration as the spec orders it:
the listener on the port whose hostname matches most specifically (exact, then the most
specific wildcard, then no hostname), the route whose intersected hostname matches the
SNI (RFC 2818: a wildcard matches one label) or the Host header (one or more labels),
the certificate served and whether it verifies for the SNI, the backends and the
BackendTLSPolicy that applies to each. Exit 1 when the connection is refused.`,
		Example: `  ` + commandName() + ` simulate -f manifests/ --sni shop.example.com --port 443
  ` + commandName() + ` simulate -A --sni api.example.com --host api.example.com
  ` + commandName() + ` simulate -f manifests/ --all          # every intersected hostname, as a matrix`,
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
	cmd.Flags().StringVar(&o.SNI, "sni", "", "TLS server name the client sends (omit for plain HTTP)")
	cmd.Flags().StringVar(&o.Host, "host", "", "HTTP Host header (default: the SNI)")
	cmd.Flags().Int32Var(&o.Port, "port", 0, "Gateway port (default 443 with --sni, 80 without)")
	cmd.Flags().StringVar(&o.Gateway, "gateway", "", "only this Gateway (NAMESPACE/NAME), with --sni or --all")
	cmd.Flags().BoolVar(&o.All, "all", false, "simulate every intersected hostname of every listener (of --gateway's)")
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "output format: table (default), json, yaml")
	cmd.Flags().StringVar(&o.Color, "color", "auto", "colour: auto, always, never")
	return cmd
}

// Complete picks the port: --port, else 443 for TLS and 80 for plain HTTP; and
// reads --gateway as NAMESPACE/NAME.
func (o *SimulateOptions) Complete(cmd *cobra.Command, args []string) error {
	if o.Gateway != "" {
		g, err := parseGatewayFlag(o.Gateway)
		if err != nil {
			return err
		}
		o.gateway = g
	}
	o.portSet = cmd.Flags().Changed("port")
	o.port = o.Port
	if o.port == 0 {
		o.port = 443
		if o.SNI == "" {
			o.port = 80
		}
	}
	return o.Input.Complete()
}

// Validate checks the flags.
func (o *SimulateOptions) Validate() error {
	switch o.Output {
	case "", "table", "json", "yaml":
	default:
		return usageErrorf("--output %q: want table, json or yaml", o.Output)
	}
	if !o.All && o.SNI == "" && o.Host == "" {
		return usageErrorf("give --sni (and/or --host), or --all")
	}
	if o.portSet {
		if err := validPort("--port", o.Port); err != nil {
			return err
		}
	}
	if o.SNI != "" {
		if err := hostname.ValidatePrecise(o.SNI); err != nil {
			return usageErrorf("--sni: %v", err)
		}
	}
	if err := validColor(o.Color); err != nil {
		return err
	}
	return o.Input.Validate()
}

// Run simulates and prints.
func (o *SimulateOptions) Run(ctx context.Context) error {
	res, err := o.Input.Result(ctx, o.IOStreams)
	if err != nil {
		return err
	}
	start := time.Now()
	table := serving.Build(res)
	built := time.Now()
	if o.Gateway != "" {
		if err := gatewayInInput(table, o.gateway); err != nil {
			return err
		}
	}
	sim := simulate.ForTable(table)
	var outs []simulate.Outcome
	var single any
	if o.All {
		if o.Gateway != "" {
			outs = sim.AllOf(o.gateway)
		} else {
			outs = sim.All()
		}
		if outs == nil {
			outs = []simulate.Outcome{}
		}
		single = outs
	} else {
		out := sim.Simulate(simulate.Request{SNI: o.SNI, Host: o.Host, Port: o.port, Gateway: o.Gateway})
		outs = []simulate.Outcome{out}
		single = out
	}
	simulated := time.Now()
	// The CRDs the objects were held to: a field of a single outcome; before
	// the list of --all, a YAML comment, and for JSON, which has none, a line
	// on stderr (docs/output.md).
	adm := render.NewAdmission(res.Model.Admission)
	if out, ok := single.(simulate.Outcome); ok {
		single = struct {
			simulate.Outcome
			Admission *render.Admission `json:"admission,omitempty"`
		}{out, adm}
	}
	switch o.Output {
	case "json":
		if o.All {
			if err := render.SimulationJSON(o.Out, outs); err != nil {
				return err
			}
		} else {
			b, err := json.MarshalIndent(single, "", "  ")
			if err != nil {
				return err
			}
			fmt.Fprintf(o.Out, "%s\n", b)
		}
		if o.All {
			if err := render.WriteAdmission(o.ErrOut, adm, render.Style{}); err != nil {
				return err
			}
		}
	case "yaml":
		b, err := yaml.Marshal(single)
		if err != nil {
			return err
		}
		if o.All {
			if err := render.WriteAdmissionComment(o.Out, adm); err != nil {
				return err
			}
		}
		o.Out.Write(b)
	default:
		st := render.Style{Color: useColor(o.Color, o.Out)}
		if err := render.SimulationTable(o.Out, outs, st); err != nil {
			return err
		}
		if err := render.WriteAdmission(o.Out, adm, st); err != nil {
			return err
		}
	}
	if o.Input.Timings {
		fmt.Fprintf(o.ErrOut, "timings: serving table %s, simulate %s (%d outcomes), output %s\n", built.Sub(start).Round(time.Millisecond),
			simulated.Sub(built).Round(time.Millisecond), len(outs), time.Since(simulated).Round(time.Millisecond))
	}
	if n := simulate.CountRefused(outs); n > 0 {
		return findingsError{n}
	}
	return nil
}
