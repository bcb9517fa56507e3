package gwtls

import (
	"context"
	"crypto/x509"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/change"
	"github.com/kubectl-gwtls/kubectl-gwtls/config"
	"github.com/kubectl-gwtls/kubectl-gwtls/ingress"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/migration"
	"github.com/kubectl-gwtls/kubectl-gwtls/render"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
	"github.com/kubectl-gwtls/kubectl-gwtls/triage"
)

// RulesOptions are the options of `rules`.
type RulesOptions struct {
	Output string
	Color  string

	selected []*rules.Rule
	genericiooptions.IOStreams
}

// NewCmdRules builds `rules`.
func NewCmdRules(streams genericiooptions.IOStreams) *cobra.Command {
	o := &RulesOptions{IOStreams: streams}
	cmd := &cobra.Command{
		Use:   "rules [RULE...]",
		Short: "List every rule: what it checks, the spec text it enforces, how to fix it",
		Long: `Rules prints the rule catalog: every rule's ID, default severity and summary, and
with -o json or -o markdown its help, fix, the spec text it enforces and a minimal
failing manifest with what analyze reports on it. RULE is an ID or a glob
(certificate/*, */ResolvedRefs/*), as in .gwtls.yaml and suppressions.
docs/rules.md is the Markdown of this command.`,
		Example: `  # Every rule
  ` + commandName() + ` rules

  # The certificate rules, in full
  ` + commandName() + ` rules 'certificate/*' -o markdown`,
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
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "output format: table (default), json, markdown")
	cmd.Flags().StringVar(&o.Color, "color", "auto", "colour the table: auto, always, never")
	return cmd
}

// Complete selects the rules the arguments name, every rule without any.
func (o *RulesOptions) Complete(cmd *cobra.Command, args []string) error {
	o.selected = nil
	if len(args) == 0 {
		o.selected = rules.All()
		return nil
	}
	seen := map[*rules.Rule]bool{}
	for _, a := range args {
		matched, err := config.MatchRules(a)
		if err != nil {
			return usageError{err}
		}
		for _, r := range matched {
			if !seen[r] {
				seen[r] = true
				o.selected = append(o.selected, r)
			}
		}
	}
	return nil
}

// Validate checks the flags.
func (o *RulesOptions) Validate() error {
	switch o.Output {
	case "", "table", "json", "markdown", "md":
	default:
		return usageErrorf("--output %q: want table, json or markdown", o.Output)
	}
	return validColor(o.Color)
}

// Run prints the catalog.
func (o *RulesOptions) Run(ctx context.Context) error {
	if o.Output == "" || o.Output == "table" {
		entries := make([]render.CatalogEntry, len(o.selected))
		for i, r := range o.selected {
			entries[i] = render.CatalogEntry{Rule: r}
		}
		return render.CatalogTable(o.Out, entries, render.Style{Color: useColor(o.Color, o.Out)})
	}
	entries, err := catalogEntries(o.selected)
	if err != nil {
		return err
	}
	if o.Output == "json" {
		return render.CatalogJSON(o.Out, entries)
	}
	return render.CatalogMarkdown(o.Out, entries, "kubectl gwtls")
}

// catalogEntries runs each rule's example through the engine, as analyze
// would at rules.ExampleNow, so the catalog shows what analyze reports.
func catalogEntries(selected []*rules.Rule) ([]render.CatalogEntry, error) {
	entries := make([]render.CatalogEntry, 0, len(selected))
	for _, r := range selected {
		e := render.CatalogEntry{Rule: r}
		if ex, ok := r.Example(); ok {
			findings, err := exampleFindings(ex)
			if err != nil {
				return nil, fmt.Errorf("rule %s: example %s: %w", r.ID, ex.Name, err)
			}
			e.Example, e.Findings = &ex, findings
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// exampleFindings are the findings analyze reports on an example: its
// manifest read as from stdin, its flags, the clock at rules.ExampleNow,
// drift's findings when the manifest carries status, and the manifest's
// suppressions applied.
func exampleFindings(ex rules.Example) ([]analyze.Finding, error) {
	now, err := time.Parse(time.RFC3339, rules.ExampleNow)
	if err != nil {
		return nil, err
	}
	if base, ok := ex.Base(); ok {
		return migrationExampleFindings(ex, base, now)
	}
	files := load.FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(ex.Manifest), DefaultNamespace: "default"}
	opts := analyze.Options{Now: now}
	for i := 0; i < len(ex.Flags); i++ {
		name := ex.Flags[i]
		if name == "--admission=false" {
			// What no released CRD admits yet (GEP-3792's provisional
			// fields) only the engine can judge.
			files.Admission.Off = true
			continue
		}
		if i+1 == len(ex.Flags) {
			return nil, fmt.Errorf("flags %v: want --name value pairs, or --admission=false", ex.Flags)
		}
		i++
		switch value := ex.Flags[i]; name {
		case "--external":
			e, err := analyze.ParseExternal(value)
			if err != nil {
				return nil, err
			}
			opts.External = append(opts.External, e)
		case "--supported-features":
			opts.Features = analyze.ParseFeatures(value)
		case "--ca-bundle":
			opts.CABundle = x509.NewCertPool()
			if !opts.CABundle.AppendCertsFromPEM(ex.Files[value]) {
				return nil, fmt.Errorf("--ca-bundle %s: no PEM certificate", value)
			}
		case "--max-attachment-checks":
			n, err := strconv.ParseInt(value, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("--max-attachment-checks %s: %w", value, err)
			}
			opts.MaxAttachmentChecks = n
		default:
			return nil, fmt.Errorf("flag %s: an example may use --external, --supported-features, --ca-bundle, --max-attachment-checks and --admission=false", name)
		}
	}
	m, err := load.Files(files)
	if err != nil {
		return nil, err
	}
	res := analyze.Analyze(m, opts)
	// As analyze -f runs without --drift: on when the manifest carries status.
	input := InputOptions{filenames: []string{"-"}, driftMode: driftAuto}
	input.addDrift(res)
	triage.Apply(res, nil)
	return res.Findings, nil
}

// migrationExampleFindings are the new findings diff reports on a migration
// rule's example, as `diff --base BASE -f EXAMPLE` at rules.ExampleNow: the
// example's manifest is the Gateway API head, the file its --base flag names
// the Ingress base. Both are read from a temporary folder, whose path is
// dropped from the findings, so that they name the files as the catalog does.
func migrationExampleFindings(ex rules.Example, base string, now time.Time) ([]analyze.Finding, error) {
	dir, err := os.MkdirTemp("", "gwtls-example-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	read := func(name string, data []byte) (*analyze.Result, error) {
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, data, 0o600); err != nil {
			return nil, err
		}
		m, err := load.Files(load.FileOptions{Filenames: []string{file}, DefaultNamespace: "default"})
		if err != nil {
			return nil, err
		}
		return analyze.Analyze(m, analyze.Options{Now: now}), nil
	}
	b, err := read(base, ex.Files[base])
	if err != nil {
		return nil, err
	}
	h, err := read(ex.Name, []byte(ex.Manifest))
	if err != nil {
		return nil, err
	}
	d := change.Compare(b, h, change.Options{Now: now, WarnExpiry: 30 * 24 * time.Hour})
	it, err := ingress.Build(b.Model, ingress.Options{Analyze: analyze.Options{Now: now}})
	if err != nil {
		return nil, err
	}
	d.AddMigration(migration.Compare(it, h))
	prefix := dir + string(filepath.Separator)
	var out []analyze.Finding
	for _, f := range d.Findings {
		if f.Changes[0].Kind != change.FindingNew {
			continue
		}
		g := f.Finding
		g.Message = strings.ReplaceAll(g.Message, prefix, "")
		g.Fix = strings.ReplaceAll(g.Fix, prefix, "")
		g.Source.File = strings.TrimPrefix(g.Source.File, prefix)
		out = append(out, g)
	}
	return out, nil
}
