package gwtls

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/apply"
	"github.com/kubectl-gwtls/kubectl-gwtls/change"
	"github.com/kubectl-gwtls/kubectl-gwtls/gitrev"
	"github.com/kubectl-gwtls/kubectl-gwtls/ingress"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/migration"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/render"
)

// DiffOptions are the options of `diff`.
type DiffOptions struct {
	// Input is the head: the changed manifests (-f, -k), and the engine's flags
	// (--now, --warn-expiry, --controller, ...) for both sides.
	Input     *InputOptions
	Base      []string
	BaseRef   string
	Output    string
	FailOn    string
	Color     string
	SourceURL string
	// FromIngress compares the base's Ingresses with head's Gateway API
	// configuration (an Ingress migration); fromIngressSet says the flag was
	// given, else the comparison runs when the base holds Ingresses and head
	// none.
	FromIngress       bool
	fromIngressSet    bool
	IngressController string

	failOn analyze.Severity
	genericiooptions.IOStreams
}

// NewCmdDiff builds `diff`.
func NewCmdDiff(streams genericiooptions.IOStreams, configFlags *genericclioptions.ConfigFlags) *cobra.Command {
	o := &DiffOptions{Input: NewInputOptions(configFlags), IOStreams: streams}
	cmd := &cobra.Command{
		Use:   "diff",
		Short: "Show what a change does to traffic: hostnames gained and lost, takeovers, certificates, routes, plans, findings",
		Long: `Diff analyzes two configurations with the same engine and compares what they serve:
for every Gateway, port and hostname either side serves, which route, listener,
certificate and backends take it on each side. It reports hostnames gained and lost,
takeovers (a route in another namespace now takes a hostname), requests now refused,
certificates changed, no longer covering the hostname or expiring within
--warn-expiry, backends and BackendTLSPolicies changed, routes newly accepted or
rejected, the DNS records and certificate names to add or remove, and the findings
new and fixed.

The head is -f (or -k): the changed manifests. The base is --base PATH (other
manifests), --base-ref GITREF (the same -f paths at a git revision, read with git
from the repository that holds them: no checkout, no network), or else the current
cluster: then the head is the cluster with the files applied, as kubectl apply
would leave it, and the cluster is read in every namespace unless -n names one.

An Ingress migration (--from-ingress; on by default when the base holds
networking.k8s.io/v1 Ingresses and the head none): every request the base's Ingress
paths are served with, as their controller serves them (ingress-nginx or NGINX
Ingress Controller, by IngressClass, annotations or --ingress-controller), is asked
of the head's Gateway API configuration. Each difference is a new finding of a
migration/* rule on the line of the Ingress path, host rule or tls entry (a host or
path not served, another backend or canary split, a canary's header or cookie, gRPC's
HTTP/2, a redirect, backend TLS, passthrough, certificate or rewrite lost), naming the Gateway
API object that decides it; the report says when every host and path is served the
same way. With the cluster as base, its Ingresses and IngressClasses are read too.

Regressions (exit 1 at or above --fail-on): HostnameRemoved, HostnameRefused,
Takeover, RouteRejected, CoverageLost (error); RouteChanged, CertificateExpiring,
BackendTLSRemoved (warning); a new finding at its own severity.

Exit codes: 0 no regression at or above --fail-on, 1 regressions, 2 usage, load,
git or connection errors; the same in every output format.`,
		Example: `  # A pull request: the manifests under deploy/ against the target branch
  ` + commandName() + ` diff --base-ref origin/main -f deploy/ -R -o markdown > comment.md

  # Two folders of manifests
  ` + commandName() + ` diff --base old/ -f new/

  # What applying deploy/ to the current cluster would do to its traffic
  ` + commandName() + ` diff -f deploy/

  # An Ingress migration: is every host and path of ingress/ served the same way by gateway/?
  ` + commandName() + ` diff --base ingress/ -f gateway/

  # The cluster's Ingresses against the Gateway API manifests that replace them
  ` + commandName() + ` diff --from-ingress -f gateway/`,
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
	// The input flags say what analyze reads; diff reads its head from files,
	// and the cluster, as its base, in every namespace by default.
	cmd.Flags().Lookup("filename").Usage = "the head: the changed manifests, files, folders or - (stdin)"
	cmd.Flags().Lookup("all-namespaces").Usage = "without a base, read every namespace of the cluster (the default unless -n names one)"
	cmd.Flags().StringArrayVar(&o.Base, "base", nil, "the base: files or folders of manifests (repeatable; -R applies)")
	cmd.Flags().StringVar(&o.BaseRef, "base-ref", "", "the base: the -f paths at this git revision (a branch, tag or commit, e.g. origin/main)")
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "output format: table (default), json, markdown (a pull-request comment), github (GitHub Actions annotations)")
	cmd.Flags().StringVar(&o.FailOn, "fail-on", "error", "exit 1 when a regression has this severity or higher: error, warning, info, none")
	cmd.Flags().StringVar(&o.Color, "color", "auto", "colour the table: auto (on a terminal, unless NO_COLOR is set), always, never")
	cmd.Flags().StringVar(&o.SourceURL, "source-url", "", "-o markdown: link head's file:line to URL/FILE#LLINE (e.g. https://github.com/OWNER/REPO/blob/SHA)")
	cmd.Flags().BoolVar(&o.FromIngress, "from-ingress", false, "compare the base's Ingresses with the head's Gateway API configuration (an Ingress migration); on when the base holds Ingresses and the head none; with the cluster as base, also reads its Ingresses and IngressClasses")
	cmd.Flags().StringVar(&o.IngressController, "ingress-controller", "", "the controller of base Ingresses whose IngressClass is not in the input: "+strings.Join(ingress.ControllerNames(), " or ")+" (inferred from their annotations by default)")
	return cmd
}

// Complete parses the flags' values.
func (o *DiffOptions) Complete(cmd *cobra.Command, args []string) error {
	sev, err := analyze.ParseSeverity(o.FailOn)
	if err != nil {
		return usageErrorf("--fail-on: %w", err)
	}
	o.failOn = sev
	o.fromIngressSet = cmd.Flags().Changed("from-ingress")
	o.Input.Ingress = o.FromIngress
	return o.Input.Complete()
}

// Validate checks the flags: the head comes from files, and at most one base.
func (o *DiffOptions) Validate() error {
	switch o.Output {
	case "", "table", "json", "markdown", "github":
	default:
		return usageErrorf("--output %q: want table, json, markdown or github", o.Output)
	}
	if err := validColor(o.Color); err != nil {
		return err
	}
	if !o.Input.fromFiles() {
		return usageErrorf("give the changed manifests with -f (or -k); the base is --base, --base-ref, or the cluster")
	}
	if len(o.Base) > 0 && o.BaseRef != "" {
		return usageErrorf("--base and --base-ref cannot be used together")
	}
	if o.BaseRef != "" {
		if o.Input.kustomize != "" {
			return usageErrorf("--base-ref reads the -f paths at the revision; it does not build -k")
		}
		if slices.Contains(o.Input.filenames, "-") {
			return usageErrorf("--base-ref reads the -f paths at the revision; standard input has none")
		}
	}
	if slices.Contains(o.Base, "-") && slices.Contains(o.Input.filenames, "-") {
		return usageErrorf("--base - and -f - cannot both read standard input")
	}
	if c := o.IngressController; c != "" && !slices.ContainsFunc(ingress.ControllerNames(), func(n string) bool { return strings.EqualFold(n, c) }) {
		return usageErrorf("--ingress-controller %q: want %s", c, strings.Join(ingress.ControllerNames(), " or "))
	}
	return o.Input.Validate()
}

// Run loads and analyzes both sides at once, compares them and prints.
func (o *DiffOptions) Run(ctx context.Context) error {
	defer holdConfigurations(2)()
	start := time.Now()
	base, head, err := o.results(ctx)
	if err != nil {
		return err
	}
	analyzed := time.Now()
	warn := o.Input.WarnExpiry
	if warn == 0 {
		warn = 30 * 24 * time.Hour // as the engine reads 0
	}
	d := change.Compare(base.res, head.res, change.Options{Now: o.Input.now, WarnExpiry: warn})
	if o.migration(base, head) {
		if err := ingressesRead(base.res.Model, o.IngressController); err != nil {
			return loadError{err}
		}
		it, err := ingress.Build(base.res.Model, ingress.Options{Analyze: o.Input.analyzeOptions(), Controller: o.IngressController})
		if err != nil {
			return usageErrorf("%w", err)
		}
		d.AddMigration(migration.Compare(it, head.res))
	}
	compared := time.Now()
	report := render.NewDiffReport(d, base.input, head.input, o.failOn)
	switch o.Output {
	case "json":
		err = report.JSON(o.Out)
	case "markdown":
		err = report.Markdown(o.Out, render.MarkdownOptions{SourceURL: o.SourceURL})
	case "github":
		err = report.GitHubAnnotations(o.Out)
	default:
		skippedSummary(o.ErrOut, head.res.Model)
		err = report.Table(o.Out, render.Style{Color: useColor(o.Color, o.Out)})
	}
	if err != nil {
		return err
	}
	if o.Input.Timings {
		fmt.Fprintf(o.ErrOut, "timings: base load %s, analyze %s; head load %s, analyze %s; both sides %s; compare %s; output %s\n",
			base.load.Round(time.Millisecond), base.analyze.Round(time.Millisecond), head.load.Round(time.Millisecond), head.analyze.Round(time.Millisecond),
			analyzed.Sub(start).Round(time.Millisecond), compared.Sub(analyzed).Round(time.Millisecond), time.Since(compared).Round(time.Millisecond))
	}
	if n := d.CountAtOrAbove(o.failOn); n > 0 {
		return findingsError{n}
	}
	return nil
}

// migration reports whether the diff compares the base's Ingresses with the
// head's Gateway API configuration: --from-ingress, else when the base holds
// Ingresses and the head none (the Ingresses are what the head replaces).
func (o *DiffOptions) migration(base, head *diffSide) bool {
	if o.fromIngressSet {
		return o.FromIngress
	}
	return len(base.res.Model.Ingresses) > 0 && len(head.res.Model.Ingresses) == 0
}

// ingressesRead fails an Ingress migration whose base is a cluster the
// identity may not list Ingresses of: compared with no Ingress, any Gateway
// API configuration would pass, as if there were nothing to migrate. Without
// the IngressClasses, which name each Ingress's controller, every Ingress
// would be one no modelled controller serves, unless --ingress-controller
// (controller) names it.
func ingressesRead(base *model.Model, controller string) error {
	for _, u := range base.Unreadable {
		where := "in every namespace"
		if u.Namespace != "" {
			where = "in namespace " + u.Namespace
		}
		switch {
		case u.Kind == "Ingress":
			return fmt.Errorf("an Ingress migration needs the cluster's Ingresses, and they could not be read %s: %s; grant the identity list on ingresses and ingressclasses (group networking.k8s.io), or give the Ingresses as files with --base", where, u.Reason)
		case u.Kind == "IngressClass" && controller == "":
			return fmt.Errorf("an Ingress migration needs the cluster's IngressClasses to know which controller serves each Ingress, and they could not be read: %s; grant the identity list on ingressclasses (group networking.k8s.io, cluster-wide), or name the controller with --ingress-controller", u.Reason)
		}
	}
	return nil
}

// diffSide is one analyzed side and how long it took.
type diffSide struct {
	res           *analyze.Result
	input         render.DiffInput
	load, analyze time.Duration
}

// results loads both sides at once, then analyzes both at once. Without a
// base, the head is the cluster with the files applied: the cluster is read
// once, beside the files.
func (o *DiffOptions) results(ctx context.Context) (base, head *diffSide, err error) {
	base, head = &diffSide{}, &diffSide{}
	var bm, hm *model.Model
	head.input = render.DiffInput{From: "files", Paths: o.Input.filenames}
	if o.Input.kustomize != "" {
		head.input.Paths = append(head.input.Paths, o.Input.kustomize)
	}
	// Two sets of files share what both hold: a document of the head whose
	// text is one of the base's is decoded once (load.Shared), so the head
	// loads after the base, each on every core.
	var shared *load.Shared
	if len(o.Base) > 0 && o.BaseRef == "" {
		shared = load.NewShared()
	}
	loadHead := func() (err error) {
		start := time.Now()
		if shared != nil {
			hm, err = o.Input.loadFiles(o.IOStreams, shared)
		} else {
			hm, err = o.Input.Load(ctx, o.IOStreams)
		}
		head.load = time.Since(start)
		return err
	}
	loadBase := func() (err error) {
		start := time.Now()
		bm, base.input, err = o.loadBase(ctx, shared)
		base.load = time.Since(start)
		return err
	}
	if shared != nil {
		// The collector is set for the head's files before either side
		// loads, as InputOptions.Load sets it when both load at once. The
		// head is loaded even when the base fails, as it is then: what it
		// warns of is said all the same.
		o.Input.limitMemoryToInput()
		berr := loadBase()
		herr := loadHead()
		shared = nil // its documents are garbage once both are loaded
		if berr != nil {
			return nil, nil, berr
		}
		if herr != nil {
			return nil, nil, herr
		}
	} else if err := concurrently(loadBase, loadHead); err != nil {
		return nil, nil, err
	}
	// Each side says which CRDs its objects were held to; with the cluster as
	// base, head's are the files' (the cluster's objects are the base's).
	base.input.Admission, head.input.Admission = render.NewAdmission(bm.Admission), render.NewAdmission(hm.Admission)
	if base.input.From == "cluster" {
		hm = apply.Onto(bm, hm, o.Input.now)
		head.input.From = "cluster+files"
	}
	// Ingresses and IngressClasses are held beside what the engine analyzes
	// (an Ingress migration's base), and counted as read.
	objects := func(m *model.Model) int { return m.Len() + len(m.Ingresses) + len(m.IngressClasses) }
	base.input.Objects, head.input.Objects = objects(bm), objects(hm)
	// The loaders' garbage is collected before the engine runs (gc.go).
	larger := bm
	if hm.Len() > bm.Len() {
		larger = hm
	}
	collectBeforeAnalysis(larger)
	// Each side's findings are triaged as analyze's are (the configuration's
	// rules, the manifest's suppressions) before they are compared.
	analyzeSide := func(s *diffSide, m *model.Model) func() error {
		return func() error {
			start := time.Now()
			s.res = o.Input.Analyze(m)
			err := o.Input.triage(s.res, o.IOStreams)
			s.analyze = time.Since(start)
			return err
		}
	}
	if err := concurrently(analyzeSide(base, bm), analyzeSide(head, hm)); err != nil {
		return nil, nil, err
	}
	return base, head, nil
}

// concurrently runs f and g at once and returns the first one's error, else
// the second's.
func concurrently(f, g func() error) error {
	var ferr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ferr = f()
	}()
	gerr := g()
	wg.Wait()
	if ferr != nil {
		return ferr
	}
	return gerr
}

// loadBase reads --base, --base-ref, or else the cluster; shared, when set,
// is what the --base files share with the head's.
func (o *DiffOptions) loadBase(ctx context.Context, shared *load.Shared) (*model.Model, render.DiffInput, error) {
	switch {
	case o.BaseRef != "":
		m, rev, err := gitrev.Load(ctx, gitrev.Options{Ref: o.BaseRef, Paths: o.Input.filenames, Recursive: o.Input.recursive,
			DefaultNamespace: o.Input.namespace, MaxInputBytes: o.Input.maxInputBytes, Admission: o.Input.admission})
		if err != nil {
			return nil, render.DiffInput{}, loadError{err}
		}
		return m, render.DiffInput{From: "git", Paths: o.Input.filenames, Ref: rev.Ref, Commit: rev.Commit}, nil
	case len(o.Base) > 0:
		// A base may hold nothing (the files are new), so it is not required
		// to hold a Gateway API object as the head is.
		m, err := load.Files(load.FileOptions{Filenames: o.Base, Recursive: o.Input.recursive, DefaultNamespace: o.Input.namespace, Stdin: o.In,
			MaxInputBytes: o.Input.maxInputBytes, Admission: o.Input.admission, WithoutRaw: !o.Input.printsObjects, Shared: shared})
		if err != nil {
			return nil, render.DiffInput{}, loadError{fmt.Errorf("--base: %w", err)}
		}
		return m, render.DiffInput{From: "files", Paths: o.Base}, nil
	}
	live := *o.Input
	live.filenames, live.kustomize = nil, ""
	// A change to one namespace's routes can take hostnames from another's,
	// and routes attach to Gateways elsewhere: read every namespace unless -n
	// names one.
	live.AllNamespaces = live.AllNamespaces || o.Input.ConfigFlags.Namespace == nil || *o.Input.ConfigFlags.Namespace == ""
	// A cluster without Gateway API objects is a base like any other: what
	// the files would add to it.
	live.AllowEmpty = true
	m, err := live.Load(ctx, o.IOStreams)
	return m, render.DiffInput{From: "cluster"}, err
}
