package gwtls

import (
	"context"
	"crypto/x509"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"sigs.k8s.io/gateway-api/pkg/consts"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/config"
	"github.com/kubectl-gwtls/kubectl-gwtls/drift"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/render"
)

// InputOptions are the flags every command that reads configuration shares: where
// to read it (files, stdin, kustomize or the cluster, as kubectl's flags say) and
// how to analyze it.
type InputOptions struct {
	ConfigFlags   *genericclioptions.ConfigFlags
	FileFlags     *genericclioptions.FileNameFlags
	AllNamespaces bool
	// ChunkSize is kubectl's --chunk-size: objects per list page; 0 lists at once.
	ChunkSize int64

	Controller        string
	Now               string
	External          []string
	SupportedFeatures string
	WarnExpiry        time.Duration
	CABundle          string
	// AllowEmpty accepts an input without a Gateway API object.
	AllowEmpty bool
	// MaxInputBytes is --max-input-bytes, a quantity (1Gi).
	MaxInputBytes string
	// Admission is --admission: hold Gateway API objects to their CRDs as the
	// API server does; CRDs is --crds, a folder of CRDs to use instead of the
	// built-in ones (files) or the cluster's.
	Admission bool
	CRDs      string
	// MaxAttachmentChecks is --max-attachment-checks, the engine's bound on
	// attaching routes.
	MaxAttachmentChecks int64

	// AllowMixedTermination: the implementation serves HTTPS and TLS
	// Passthrough listeners on one port (analyze.Options).
	AllowMixedTermination bool
	// Ingress also reads a cluster's Ingresses and IngressClasses (the base
	// of an Ingress migration; load.ClusterOptions.Ingress).
	Ingress bool

	filenames []string
	kustomize string
	recursive bool
	// printsObjects: the command prints objects as written (render status),
	// so the loader keeps every object's text (load.FileOptions.WithoutRaw).
	printsObjects bool

	// Completed by Complete.
	now      time.Time
	external []analyze.ExternalRef
	features analyze.Features
	// newerFeatures are --supported-features names of a newer Gateway API
	// release than this build's: ignored, and said so.
	newerFeatures []string
	caBundle      *x509.CertPool
	maxInputBytes int64
	admission     load.Admission
	// namespace is the namespace of the request, resolved once as kubectl does
	// (-n, else the kubeconfig context's, else "default"): the cluster namespace
	// to read, the namespace of file objects that name none, and the namespace of
	// explain's KIND/NAME.
	namespace string
	// trace asks the engine to record decisions (explain reads them); traceOnly
	// limits that to the object explained.
	trace     bool
	traceOnly *model.Ref
	// Timings prints how long loading and analysis took to stderr (hidden flag).
	Timings bool
	loaded  time.Time

	// ConfigFile is --config (config.go); config is the file read, nil for none.
	ConfigFile string
	config     *config.Config
	flags      *pflag.FlagSet
	// Findings are the flags of commands that print findings (findings.go);
	// nil for the others.
	Findings *FindingOptions

	// Drift compares the status controllers wrote with the computed status
	// (--drift, on commands that report findings or explain them). driftMode
	// is its completed value: on, off, or auto (not given).
	Drift     bool
	driftMode driftMode
}

type driftMode int

const (
	driftOff driftMode = iota
	driftAuto
	driftOn
)

// NewInputOptions returns InputOptions with kubectl's defaults.
func NewInputOptions(configFlags *genericclioptions.ConfigFlags) *InputOptions {
	o := &InputOptions{ConfigFlags: configFlags, ChunkSize: 500, MaxInputBytes: "1Gi", MaxAttachmentChecks: analyze.DefaultMaxAttachmentChecks, Admission: true}
	o.FileFlags = &genericclioptions.FileNameFlags{
		Usage:     "files, folders or - (stdin) with Gateway API manifests; omit -f and -k to read the cluster",
		Filenames: &o.filenames,
		Kustomize: &o.kustomize,
		Recursive: &o.recursive,
	}
	return o
}

// AddFlags registers the input and analysis flags.
func (o *InputOptions) AddFlags(cmd *cobra.Command) {
	o.flags = cmd.Flags()
	cmd.Flags().StringVar(&o.ConfigFile, "config", "", configUsage)
	o.FileFlags.AddFlags(cmd.Flags())
	cmd.Flags().BoolVarP(&o.AllNamespaces, "all-namespaces", "A", false, "read every namespace of the cluster")
	cmd.Flags().Int64Var(&o.ChunkSize, "chunk-size", o.ChunkSize, "read a cluster's objects in pages of this many (as kubectl does); 0 lists each kind at once")
	cmd.Flags().StringVar(&o.Controller, "controller", "", "analyze only GatewayClasses with this spec.controllerName (default: every class in the input)")
	cmd.Flags().StringVar(&o.Now, "now", "", "the time to check certificates against and stamp conditions with (RFC 3339; default: the current time)")
	cmd.Flags().StringArrayVar(&o.External, "external", nil, "a kind (Secret) or object (Secret/NAMESPACE/NAME) that lives outside the input: reported as unverified instead of missing (repeatable)")
	cmd.Flags().DurationVar(&o.WarnExpiry, "warn-expiry", 30*24*time.Hour, "warn about certificates that expire within this long")
	cmd.Flags().StringVar(&o.CABundle, "ca-bundle", "", "PEM file of trusted CA certificates: certificate chains must verify against it")
	cmd.Flags().BoolVar(&o.Timings, "timings", false, "print how long loading, analysis and output took to stderr")
	_ = cmd.Flags().MarkHidden("timings")
	cmd.Flags().StringVar(&o.SupportedFeatures, "supported-features", "", "comma-separated Gateway API features the implementation supports (default: a class's status.supportedFeatures, else all)")
	cmd.Flags().BoolVar(&o.AllowEmpty, "allow-empty", false, "accept an input without any Gateway API object (by default that is an error, exit 2)")
	cmd.Flags().StringVar(&o.MaxInputBytes, "max-input-bytes", o.MaxInputBytes, "the most one run reads, from files and stdin or from the cluster's responses (a quantity: 512Mi, 2Gi)")
	cmd.Flags().BoolVar(&o.AllowMixedTermination, "allow-mixed-termination", false, "the implementation serves HTTPS (Terminate) and TLS Passthrough listeners on one port, routing on SNI; without it they conflict, as GEP-2643 says (TLS/Terminate beside TLS/Passthrough is the TLSRouteModeMixed feature)")
	cmd.Flags().BoolVar(&o.Admission, "admission", o.Admission, "validate Gateway API objects as the API server does (CRD schema and CEL rules) and leave out what it refuses; --admission=false analyzes every object as written, with the CRDs' defaults")
	cmd.Flags().StringVar(&o.CRDs, "crds", "", "a folder of Gateway API CRDs (a release's config/crd/experimental, or standard-install.yaml) to validate against, instead of the built-in "+admit.Release+" CRDs or a cluster's own")
	cmd.Flags().Int64Var(&o.MaxAttachmentChecks, "max-attachment-checks", o.MaxAttachmentChecks,
		"the most attachment checks (one route hostname against one listener its parentRefs select) the analysis makes; routes past it are not attached, each with an analysis/WorkBounded finding")
}

// AddDriftFlag registers --drift, on the commands that report what drift
// finds (analyze, render report) or shows it (explain).
func (o *InputOptions) AddDriftFlag(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&o.Drift, "drift", true, "compare the status controllers wrote with the status the spec says (default: on for a cluster, and for files whose objects carry status); --drift=false turns it off")
}

// completeDrift reads --drift: given, it is on or off; not given, it is on
// for a cluster and for files that carry status (auto).
func (o *InputOptions) completeDrift(cmd *cobra.Command) {
	switch f := cmd.Flags().Lookup("drift"); {
	case f == nil:
		o.driftMode = driftOff
	case !f.Changed:
		o.driftMode = driftAuto
	case o.Drift:
		o.driftMode = driftOn
	default:
		o.driftMode = driftOff
	}
}

// driftOn reports whether drift compares the statuses of a model.
func (o *InputOptions) driftOn(m *model.Model) bool {
	switch o.driftMode {
	case driftOn:
		return true
	case driftAuto:
		return !o.fromFiles() || drift.Carried(m)
	}
	return false
}

// addDrift adds drift's findings to the result when drift is on for its
// model, and reports whether it was. Analyze and the catalog's examples both
// run it, so an example reports what analyze reports on its file.
func (o *InputOptions) addDrift(res *analyze.Result) bool {
	if !o.driftOn(res.Model) {
		return false
	}
	res.AddFindings(drift.Findings(res))
	return true
}

// Complete reads the configuration file, parses the flags' values and
// resolves the namespace.
func (o *InputOptions) Complete() error {
	if err := o.loadConfig(); err != nil {
		return err
	}
	if err := o.completeFindings(); err != nil {
		return err
	}
	o.now = time.Now()
	if o.Now != "" {
		t, err := time.Parse(time.RFC3339, o.Now)
		if err != nil {
			return usageErrorf("--now %q: want an RFC 3339 time such as 2026-01-02T15:04:05Z", o.Now)
		}
		o.now = t
	}
	o.external = nil
	for _, s := range o.External {
		e, err := analyze.ParseExternal(s)
		if err != nil {
			return usageError{err}
		}
		o.external = append(o.external, e)
	}
	if o.SupportedFeatures != "" {
		o.features = analyze.ParseFeatures(o.SupportedFeatures)
		// Validate refuses what is not a feature name; a newer release's
		// feature is reported when the input is read (Result).
		o.newerFeatures, _ = checkSupportedFeatures(o.SupportedFeatures)
	}
	limit, err := resource.ParseQuantity(o.MaxInputBytes)
	if err != nil || limit.Sign() <= 0 {
		return usageErrorf("--max-input-bytes %q: want a positive size such as 512Mi or 2Gi", o.MaxInputBytes)
	}
	o.maxInputBytes = limit.Value()
	if o.CABundle != "" {
		data, err := os.ReadFile(o.CABundle)
		if err != nil {
			return usageErrorf("--ca-bundle: %w", err)
		}
		o.caBundle = x509.NewCertPool()
		if !o.caBundle.AppendCertsFromPEM(data) {
			return usageErrorf("--ca-bundle %s: no PEM certificate in it", o.CABundle)
		}
	}
	o.namespace = requestNamespace(o.ConfigFlags)
	o.admission = load.Admission{Off: !o.Admission}
	if o.CRDs != "" {
		crds, err := admit.FromDir(o.CRDs)
		if err != nil {
			return usageErrorf("--crds: %w", err)
		}
		if o.admission.Admitter, err = admit.New(crds); err != nil {
			return usageErrorf("--crds: %w", err)
		}
	}
	return nil
}

// requestNamespace is the namespace a kubectl command works in:
// ToRawKubeConfigLoader().Namespace() gives -n, else the current context's
// namespace, else "default". A kubeconfig that cannot be read does not stop an
// analysis of files: -n, else "default".
func requestNamespace(flags *genericclioptions.ConfigFlags) string {
	ns, _, err := flags.ToRawKubeConfigLoader().Namespace()
	if err != nil || ns == "" {
		if flags.Namespace != nil && *flags.Namespace != "" {
			return *flags.Namespace
		}
		return "default"
	}
	return ns
}

// Validate rejects flag values and combinations that cannot work.
func (o *InputOptions) Validate() error {
	if o.ChunkSize < 0 {
		return usageErrorf("--chunk-size %d: want 0 (no pages) or a page size", o.ChunkSize)
	}
	if o.kustomize != "" && len(o.filenames) > 0 {
		return usageErrorf("-k and -f cannot be used together")
	}
	if o.kustomize != "" && o.recursive {
		return usageErrorf("-R applies to folders given with -f; -k builds the kustomization as kustomize does: drop -R")
	}
	if err := validWarnExpiry(o.WarnExpiry); err != nil {
		return err
	}
	if o.MaxAttachmentChecks < 1 {
		return usageErrorf("--max-attachment-checks %d: want at least 1 (default %d)", o.MaxAttachmentChecks, analyze.DefaultMaxAttachmentChecks)
	}
	_, err := checkSupportedFeatures(o.SupportedFeatures)
	return err
}

func (o *InputOptions) fromFiles() bool { return len(o.filenames) > 0 || o.kustomize != "" }

// loadFiles reads the model from -f and -k; shared, when set, holds the
// documents another load of the same options decoded (diff's base). The
// caller sets the collector's limit (limitMemoryToInput).
func (o *InputOptions) loadFiles(streams genericiooptions.IOStreams, shared *load.Shared) (*model.Model, error) {
	m, err := load.Files(load.FileOptions{Filenames: o.filenames, Recursive: o.recursive, Kustomize: o.kustomize, DefaultNamespace: o.namespace, Stdin: streams.In,
		MaxInputBytes: o.maxInputBytes, Admission: o.admission, WithoutRaw: !o.printsObjects, Shared: shared})
	if err != nil {
		return nil, loadError{err}
	}
	if err := o.requireSomething(m, streams); err != nil {
		return nil, err
	}
	return m, nil
}

// Load reads the model from files or the cluster.
func (o *InputOptions) Load(ctx context.Context, streams genericiooptions.IOStreams) (*model.Model, error) {
	if o.fromFiles() {
		o.limitMemoryToInput()
		return o.loadFiles(streams, nil)
	}
	ns := o.namespace
	if o.AllNamespaces {
		ns = ""
	}
	cfg, err := o.ConfigFlags.ToRESTConfig()
	if err != nil {
		return nil, loadError{fmt.Errorf("no manifests given (-f, -k) and no cluster configured: %w", err)}
	}
	var progress io.Writer
	if f, ok := streams.ErrOut.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		progress = streams.ErrOut
	}
	pageSize := o.ChunkSize
	if pageSize == 0 {
		pageSize = -1 // load.Cluster: no limit
	}
	m, err := load.Cluster(ctx, load.ClusterOptions{Config: cfg, Namespace: ns, Progress: progress, PageSize: pageSize, MaxInputBytes: o.maxInputBytes, Admission: o.admission, Ingress: o.Ingress, WithoutRaw: !o.printsObjects})
	if err != nil {
		return nil, loadError{err}
	}
	if err := o.requireSomething(m, streams); err != nil {
		return nil, err
	}
	return m, nil
}

// requireSomething refuses a run that read no Gateway API object, unless
// --allow-empty says one is expected: a CI gate must not pass having read
// nothing.
func (o *InputOptions) requireSomething(m *model.Model, streams genericiooptions.IOStreams) error {
	err := load.NothingToAnalyze(m)
	where := "the cluster, namespace " + o.namespace
	switch {
	case o.AllNamespaces && !o.fromFiles():
		where = "the cluster, every namespace"
	case o.kustomize != "":
		where = o.kustomize
	case len(o.filenames) > 0:
		names := slices.Clone(o.filenames)
		if i := slices.Index(names, "-"); i >= 0 {
			names[i] = "<stdin>"
		}
		where = strings.Join(names, ", ")
	}
	switch {
	case err == nil:
		return nil
	case o.AllowEmpty:
		fmt.Fprintf(streams.ErrOut, "warning: %s (--allow-empty)\n", render.TerminalText(fmt.Sprintf("%s: %v", where, err)))
		return nil
	}
	return loadError{fmt.Errorf("%s: %w: give the manifests or the namespace that hold your Gateways and routes, or pass --allow-empty if an input without any is expected", where, err)}
}

// Result loads the input and runs the engine on it: the pipeline every command
// starts with. The model is Result.Model.
func (o *InputOptions) Result(ctx context.Context, streams genericiooptions.IOStreams) (*analyze.Result, error) {
	start := time.Now()
	if len(o.newerFeatures) > 0 {
		fmt.Fprintf(streams.ErrOut, "warning: --supported-features: %s: not features of Gateway API %s, which this build knows; ignored (none changes what the analysis decides)\n",
			strings.Join(o.newerFeatures, ", "), consts.BundleVersion)
	}
	m, err := o.Load(ctx, streams)
	if err != nil {
		return nil, err
	}
	o.loaded = time.Now()
	// Before a large analysis the loader's garbage is collected (gc.go), counted
	// in the analysis's time.
	collected := collectBeforeAnalysis(m)
	gc := time.Since(o.loaded)
	res := o.Analyze(m)
	analyzed := time.Now()
	drifted := o.addDrift(res)
	if b := res.Bounded; b != nil {
		fmt.Fprintf(streams.ErrOut, "warning: %d of %d routes were not attached: the input needs %d attachment checks, past --max-attachment-checks %d; each has an analysis/WorkBounded finding\n",
			b.Skipped, len(res.Routes), b.Needed, b.Limit)
	}
	if err := o.triage(res, streams); err != nil {
		return nil, err
	}
	if o.Timings {
		note := ""
		if collected {
			note = fmt.Sprintf(" (%s of it collecting the loader's garbage)", gc.Round(time.Millisecond))
		}
		if drifted {
			note += fmt.Sprintf(", drift %s", time.Since(analyzed).Round(time.Millisecond))
		}
		fmt.Fprintf(streams.ErrOut, "timings: load %s (%d objects), analyze %s%s\n",
			o.loaded.Sub(start).Round(time.Millisecond), m.Len(), analyzed.Sub(o.loaded).Round(time.Millisecond), note)
	}
	return res, nil
}

// Analyze runs the engine with the completed options.
func (o *InputOptions) Analyze(m *model.Model) *analyze.Result {
	return analyze.Analyze(m, o.analyzeOptions())
}

func (o *InputOptions) analyzeOptions() analyze.Options {
	return analyze.Options{Controller: o.Controller, Now: o.now, External: o.external, Features: o.features,
		AllowMixedTermination: o.AllowMixedTermination, WarnExpiry: o.WarnExpiry, CABundle: o.caBundle, Trace: o.trace, TraceOnly: o.traceOnly,
		MaxAttachmentChecks: o.MaxAttachmentChecks}
}

// skippedSummary tells on stderr which kinds were not analyzed, so a user can see
// that a typo'd kind was not silently ignored.
func skippedSummary(w io.Writer, m *model.Model) {
	if len(m.Skipped) == 0 {
		return
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m.Skipped)) {
		parts = append(parts, fmt.Sprintf("%s (%d)", k, m.Skipped[k]))
	}
	fmt.Fprintf(w, "skipped objects of kinds this tool does not analyze: %s\n", strings.Join(parts, ", "))
}
