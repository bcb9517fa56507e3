package gwtls

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-gwtls/kubectl-gwtls/drift"
	"github.com/kubectl-gwtls/kubectl-gwtls/explain"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/render"
)

// ExplainOptions are the options of `explain`.
type ExplainOptions struct {
	Input    *InputOptions
	Listener string
	Output   string
	Color    string

	ref model.Ref // KIND/NAME, completed
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
with a fix to paste. The final conditions are those render status prints; with drift on
(a cluster, or files that carry status), each is shown beside what the controller wrote,
and where they differ, the check that decides the spec's answer.

KIND is one of httproute, grpcroute, tlsroute, tcproute, udproute, gateway, listenerset,
backendtlspolicy.`,
		Example: `  ` + commandName() + ` explain tlsroute/my-route -n apps -f manifests/
  ` + commandName() + ` explain gateway/edge -n infra --listener https
  ` + commandName() + ` explain backendtlspolicy/api-tls -n apps -o json`,
		Args: usageArgs(cobra.ExactArgs(1)),
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
	o.Input.AddDriftFlag(cmd)
	cmd.Flags().StringVar(&o.Listener, "listener", "", "with gateway/NAME: only this listener")
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "output format: tree (default), json")
	cmd.Flags().StringVar(&o.Color, "color", "auto", "colour: auto, always, never")
	return cmd
}

// Complete reads KIND/NAME in the request's namespace and asks the engine to
// trace that object's decisions.
func (o *ExplainOptions) Complete(cmd *cobra.Command, args []string) error {
	o.Input.completeDrift(cmd)
	if err := o.Input.Complete(); err != nil {
		return err
	}
	ref, err := explain.ParseRef(args[0], o.Input.namespace)
	if err != nil {
		return usageError{err}
	}
	o.ref = ref
	o.Input.trace, o.Input.traceOnly = true, &o.ref
	return nil
}

// Validate checks the flags.
func (o *ExplainOptions) Validate() error {
	switch o.Output {
	case "", "tree", "json":
	default:
		return usageErrorf("--output %q: want tree or json", o.Output)
	}
	if err := validColor(o.Color); err != nil {
		return err
	}
	return o.Input.Validate()
}

// Run explains one object.
func (o *ExplainOptions) Run(ctx context.Context) error {
	res, err := o.Input.Result(ctx, o.IOStreams)
	if err != nil {
		return err
	}
	opts := explain.Options{Listener: o.Listener}
	if o.Input.driftOn(res.Model) {
		opts.Drift = drift.New(res)
	}
	x, err := explain.Explain(res, o.ref, opts)
	if nf := (*explain.NotFoundError)(nil); errors.As(err, &nf) && nf.Refusal == nil {
		return fmt.Errorf("%w (use -n to pick the namespace)", err)
	}
	if err != nil {
		return err
	}
	adm := render.NewAdmission(res.Model.Admission)
	if o.Output == "json" {
		b, err := json.MarshalIndent(struct {
			*explain.Explanation
			Admission *render.Admission `json:"admission,omitempty"`
		}{x, adm}, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(o.Out, "%s\n", b)
		return err
	}
	st := render.Style{Color: useColor(o.Color, o.Out)}
	if err := render.ExplanationTree(o.Out, x, st); err != nil {
		return err
	}
	return render.WriteAdmission(o.Out, adm, st)
}
