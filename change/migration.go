package change

import (
	"github.com/kubectl-gwtls/kubectl-gwtls/migration"
)

// Migration is the comparison of the base's Ingresses with the head's
// Gateway API configuration (package migration): what was compared and the
// verdict. Its findings are in Diff.Findings, as new findings.
type Migration struct {
	Ingresses int  `json:"ingresses"`
	Hosts     int  `json:"hosts"`
	Paths     int  `json:"paths"`
	Requests  int  `json:"requests"`
	Same      bool `json:"same"`
	// Verdict says in a sentence whether every host and path is served the
	// same way.
	Verdict string `json:"verdict"`
	// Findings is the number of the migration's findings.
	Findings int `json:"findings"`
}

// AddMigration adds an Ingress migration's comparison to the diff: its
// verdict, and its findings as findings new in head, first. Each is placed
// on the Ingress path it is about, in the base's files; the Gateway API
// object that decides the request is its change's Related, and in its
// message.
func (d *Diff) AddMigration(r *migration.Report) {
	d.Migration = &Migration{Ingresses: r.Ingresses, Hosts: r.Hosts, Paths: r.Paths, Requests: r.Requests, Same: r.Same,
		Verdict: r.Verdict, Findings: len(r.Findings)}
	out := make([]Finding, 0, len(r.Findings)+len(d.Findings))
	for _, f := range r.Findings {
		c := newChange(FindingNew, f.Message, "", f.Severity.String(), located{f.Source, Base})
		sev := f.Severity
		c.Regression, c.Severity = true, &sev
		if f.Decider.File != "" {
			decider := f.Decider
			c.Related = &decider
		}
		out = append(out, Finding{Finding: f.Finding, Changes: []Change{c}})
	}
	d.Findings = append(out, d.Findings...)
}
