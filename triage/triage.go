// Package triage decides what becomes of each finding once the engine has
// found it: the configuration turns rules off and overrides their severity,
// the manifest suppresses a finding on the object it names with a reason (the
// gwtls.kubectl.dev/ignore annotation), and a baseline hides the findings a
// team already knows about. It writes its decisions into the Result
// (Findings, Suppressed, Baseline), so every renderer and the exit code read
// one outcome.
package triage

import (
	"slices"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/config"
)

// Apply applies the configuration (nil: the defaults) and the manifest's
// suppressions to the findings: the findings of rules the configuration turns
// off are dropped, severities are overridden, suppressed findings move to
// res.Suppressed, and the suppressions' own problems (suppression/*) are
// added. The findings stay in the order CompareFindings gives.
func Apply(res *analyze.Result, cfg *config.Config) {
	ignores := readIgnores(res.Model)
	var kept, suppressed []analyze.Finding
	for _, f := range res.Findings {
		f, on := configure(f, cfg)
		if !on {
			continue
		}
		if s := ignores.suppress(f); s != nil {
			f.Suppression = s
			suppressed = append(suppressed, f)
			continue
		}
		kept = append(kept, f)
	}
	for _, f := range ignores.problems(cfg) {
		if f, on := configure(f, cfg); on {
			kept = append(kept, f)
		}
	}
	slices.SortStableFunc(kept, analyze.CompareFindings)
	res.Findings = kept
	res.Suppressed = suppressed
}

// configure is the finding as the configuration has it: whether its rule runs,
// and at which severity.
func configure(f analyze.Finding, cfg *config.Config) (analyze.Finding, bool) {
	rc := cfg.Rule(f.Rule)
	if rc.Off {
		return f, false
	}
	if rc.Severity != nil {
		f.Severity = *rc.Severity
	}
	return f, true
}
