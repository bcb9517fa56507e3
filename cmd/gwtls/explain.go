package gwtls

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-gwtls/kubectl-gwtls/explain"
	"github.com/kubectl-gwtls/kubectl-gwtls/render"
)

// ExplainOptions are the options of `explain`.
type ExplainOptions struct {
	Input    *InputOptions
	Listener string
	Output   string
	Color    string
	genericiooptions.IOStreams
}

// NewCmdExplain builds `explain`.
func NewCmdExplain(streams genericiooptions.IOStreams, configFlags *genericclioptions.ConfigFlags) *cobra.Command {
	o := &ExplainOptions{Input: NewInputOptions(configFlags), IOStreams: streams}
	cmd := &cobra.Command{
		Use:   "explain KIND/NAME",
		Short: "Show the decisions behind one object's status: each check, its inputs, its outcome and a fix",
		Long: `Explain shows, for a route, each parentRef's candidate listeners and the checks a
controller makes in order (parent, sectionName and port, protocol and kind, allowed
namespaces, hostname intersection) and each backendRef; for a Gateway or listener its
validity, conflicts, certificate references and attached routes; for a BackendTLSPolicy
its targets, CA references and precedence. The check that decided a failure is marked,
with a fix to paste. The final conditions are those render status prints.

KIND is one of httproute, grpcroute, tlsroute, tcproute, udproute, gateway, listenerset,
backendtlspolicy.`,
		Example: `  ` + commandName() + ` explain tlsroute/my-route -n apps -f manifests/
  ` + commandName() + ` explain gateway/edge -n infra --listener https
  ` + commandName() + ` explain backendtlspolicy/api-tls -n apps -o json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch o.Output {
			case "", "tree", "json":
			default:
				return usageErrorf("--output %q: want tree or json", o.Output)
			}
			if err := validColor(o.Color); err != nil {
				return err
			}
			if err := o.Input.Complete(); err != nil {
				return err
			}
			if err := o.Input.Validate(); err != nil {
				return err
			}
			return o.Run(cmd, args[0])
		},
	}
	o.Input.AddFlags(cmd)
	cmd.Flags().StringVar(&o.Listener, "listener", "", "with gateway/NAME: only this listener")
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "output format: tree (default), json")
	cmd.Flags().StringVar(&o.Color, "color", "auto", "colour: auto, always, never")
	return cmd
}

// Run explains one object.
func (o *ExplainOptions) Run(cmd *cobra.Command, arg string) error {
	ns, _ := o.Input.namespace()
	ref, err := explain.ParseRef(arg, ns)
	if err != nil {
		return usageErrorf("%v", err)
	}
	o.Input.trace, o.Input.traceOnly = true, &ref
	res, err := o.Input.Result(cmd.Context(), o.IOStreams)
	if err != nil {
		return err
	}
	x, err := explain.Explain(res, ref, explain.Options{Listener: o.Listener})
	var nf *explain.NotFoundError
	if errors.As(err, &nf) {
		return usageErrorf("%v (use -n to pick the namespace)", err)
	}
	if err != nil {
		return usageErrorf("%v", err)
	}
	if o.Output == "json" {
		b, err := json.MarshalIndent(x, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(o.Out, "%s\n", b)
		return err
	}
	return render.ExplanationTree(o.Out, x, render.Style{Color: useColor(o.Color, o.Out)})
}
