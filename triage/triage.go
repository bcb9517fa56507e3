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
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// Apply applies the configuration (nil: the defaults) and the manifest's
// suppressions to the findings: the findings of rules the configuration turns
// off are dropped, severities are overridden, suppressed findings move to
// res.Suppressed, and the suppressions' own problems (suppression/*) are
// added. The findings stay in the order CompareFindings gives.
func Apply(res *analyze.Result, cfg *config.Config) {
	ignores := readIgnores(res.Model)
	configure := configurer(cfg)
	// Kept in place: the findings kept are the first ones, in order, so each
	// is written at or before where it was read. A copy (even sized once) was
	// 3 MB at 100k routes, garbage that stays until the run's next
	// collection, which at 100k routes does not come before the output
	// (docs/performance.md). The engine's slice is the Result's alone.
	kept := res.Findings[:0]
	var suppressed []analyze.Finding
	for _, f := range res.Findings {
		f, on := configure(f)
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
	added := false
	for _, f := range ignores.problems(cfg) {
		if f, on := configure(f); on {
			kept = append(kept, f)
			added = true
		}
	}
	if added { // the engine's findings are in order already
		slices.SortStableFunc(kept, analyze.CompareFindings)
	}
	res.Findings = kept
	res.Suppressed = suppressed
}

// configurer makes a finding what the configuration has it be: whether its
// rule runs, and at which severity. Each rule is looked up once.
func configurer(cfg *config.Config) func(analyze.Finding) (analyze.Finding, bool) {
	byRule := map[*rules.Rule]config.RuleConfig{}
	return func(f analyze.Finding) (analyze.Finding, bool) {
		if cfg == nil {
			return f, true
		}
		rc, ok := byRule[f.Rule]
		if !ok {
			rc = cfg.Rule(f.Rule)
			byRule[f.Rule] = rc
		}
		if rc.Off {
			return f, false
		}
		if rc.Severity != nil {
			f.Severity = *rc.Severity
		}
		return f, true
	}
}
