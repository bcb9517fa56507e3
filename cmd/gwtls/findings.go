package gwtls

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/triage"
)

// FindingOptions are the flags of the commands that print findings (analyze,
// render report): baselines, and listing suppressed findings. Every command
// that reads input triages its findings (package triage: the configuration's
// rules, the manifest's suppressions); these add a baseline.
type FindingOptions struct {
	Baseline       string
	WriteBaseline  string
	ShowSuppressed bool

	baseline *triage.Baseline
}

// AddFindingFlags registers the finding flags on a command that prints
// findings.
func (o *InputOptions) AddFindingFlags(cmd *cobra.Command) {
	o.Findings = &FindingOptions{}
	cmd.Flags().StringVar(&o.Findings.Baseline, "baseline", "", "report only findings that are not in this baseline file (written by --write-baseline), matched by rule, object and field")
	cmd.Flags().StringVar(&o.Findings.WriteBaseline, "write-baseline", "", "record this run's findings in FILE; without --baseline, the run is then compared with it, so nothing is new")
	cmd.Flags().BoolVar(&o.Findings.ShowSuppressed, "show-suppressed", false, "list the findings the manifest suppresses (annotation gwtls.kubectl.dev/ignore), with their reasons")
}

// completeFindings reads the baseline (--baseline, else the configuration's),
// before any input is loaded.
func (o *InputOptions) completeFindings() error {
	f := o.Findings
	if f == nil {
		return nil
	}
	if o.fromConfig("baseline", "baseline") {
		f.Baseline = o.config.Baseline
	}
	f.baseline = nil
	if f.Baseline == "" {
		return nil
	}
	b, err := triage.ReadBaseline(f.Baseline)
	switch {
	case errors.Is(err, fs.ErrNotExist) && f.WriteBaseline != "":
		return nil // the first --write-baseline: there is nothing to compare with yet
	case err != nil:
		return loadError{err}
	}
	f.baseline = b
	return nil
}

// triage applies the configuration and the manifest's suppressions to the
// findings, writes a baseline when asked, and compares with one.
func (o *InputOptions) triage(res *analyze.Result, streams genericiooptions.IOStreams) error {
	triage.Apply(res, o.config)
	f := o.Findings
	if f == nil {
		return nil
	}
	baseline, file := f.baseline, f.Baseline
	if f.WriteBaseline != "" {
		written := triage.NewBaseline(res.Findings)
		data, err := written.Marshal()
		if err == nil {
			err = os.WriteFile(f.WriteBaseline, data, 0o644)
		}
		if err != nil {
			return fmt.Errorf("--write-baseline: %w", err)
		}
		fmt.Fprintf(streams.ErrOut, "wrote baseline %s: %d findings\n", f.WriteBaseline, len(written.Findings))
		if baseline == nil {
			baseline, file = written, f.WriteBaseline
		}
	}
	if baseline != nil {
		triage.CompareBaseline(res, baseline, file)
	}
	return nil
}
