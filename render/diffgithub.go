package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kubectl-gwtls/kubectl-gwtls/change"
)

// GitHubAnnotations writes one GitHub Actions workflow command per regression
// (new findings included), at its severity: on head's file and line where the
// change is in a file of head; for a change only base has, on the head object
// it relates to when it has one (an Ingress migration's finding: the Gateway
// API object that decides the request), else without a file (a removed
// route: its lines are not in the pull request's files). It writes nothing
// else, but the CRDs each side was held to first and, for an Ingress
// migration, its verdict, as notices (its differences are findings, annotated
// at their own severity).
func (r DiffReport) GitHubAnnotations(w io.Writer) error {
	var b strings.Builder
	// Which CRDs each side was held to, first and without a file, as analyze
	// -o github says it: GitHub shows it in the run's summary, and a notice
	// fails nothing.
	for _, a := range r.diffAdmission() {
		fmt.Fprintf(&b, "::notice title=%s::%s\n", escapeGitHubProperty(a[0]), escapeGitHubData(a[1]))
	}
	annotate := func(c *change.Change, title, msg string) {
		var props []string
		if file, ok := sourceFile(sourceOf(c)); ok && c.Side == change.Head {
			props = append(props, "file="+escapeGitHubProperty(file))
			if c.Source.Line > 0 {
				props = append(props, "line="+strconv.Itoa(c.Source.Line))
			}
		} else if c.Related != nil {
			// A base-side change with a head object (an Ingress migration's
			// finding): on the head's lines, which the pull request holds.
			if file, ok := sourceFile(*c.Related); ok {
				props = append(props, "file="+escapeGitHubProperty(file))
				if c.Related.Line > 0 {
					props = append(props, "line="+strconv.Itoa(c.Related.Line))
				}
			}
		}
		if c.Side == change.Base && c.Source != nil && c.Source.String() != "" {
			msg += " (base: " + c.Source.String() + ")"
		}
		props = append(props, "title="+escapeGitHubProperty(title))
		fmt.Fprintf(&b, "::%s %s::%s\n", githubCommand(*c.Severity), strings.Join(props, ","), escapeGitHubData(msg))
	}
	r.Each(func(c *change.Change) {
		if c.Regression && c.Kind != change.FindingNew {
			annotate(c, "gwtls diff: "+string(c.Kind), c.Message)
		}
	})
	// New findings as analyze annotates them: the rule as title, the object,
	// message and fix as text.
	for i := range r.Findings {
		f := &r.Findings[i]
		if c := &f.Changes[0]; c.Kind == change.FindingNew {
			msg := "new: " + f.Finding.Object.String() + ": " + f.Finding.Message
			if f.Finding.Fix != "" {
				msg += "\nFix: " + f.Finding.Fix
			}
			annotate(c, string(f.Finding.Rule.ID), msg)
		}
	}
	if m := r.Migration; m != nil {
		fmt.Fprintf(&b, "::notice title=%s::%s\n", escapeGitHubProperty("gwtls diff: Ingress migration"), escapeGitHubData(m.Verdict))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
