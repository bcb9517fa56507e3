package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
)

// GitHubAnnotations writes one GitHub Actions workflow command per finding
// (::error, ::warning or ::notice), with file and line where the finding came
// from a file, the rule ID as title, and the object, message and fix as text.
// It writes nothing else, so stdout can be left to the runner.
//
// A ::notice titled "admission" opens the output: which CRDs the objects were
// held to and how many were refused (Admission.String). Without file it shows
// in the run's summary, above the findings' annotations, and it fails nothing.
//
// With ShowSuppressed, each suppressed finding follows as a ::notice titled
// "RULE (suppressed)" with its reason: a notice does not fail a check.
func (r Report) GitHubAnnotations(w io.Writer) error {
	var b strings.Builder
	annotate := func(command, title string, f analyze.Finding, tail string) {
		var props []string
		if file, ok := sourceFile(f.Source); ok {
			props = append(props, "file="+escapeGitHubProperty(file))
			if f.Source.Line > 0 {
				props = append(props, "line="+strconv.Itoa(f.Source.Line))
			}
		}
		props = append(props, "title="+escapeGitHubProperty(title))
		msg := f.Object.String() + ": " + f.Message + tail
		fmt.Fprintf(&b, "::%s %s::%s\n", command, strings.Join(props, ","), escapeGitHubData(msg))
	}
	if r.Admission != nil {
		fmt.Fprintf(&b, "::notice title=admission::%s\n", escapeGitHubData(r.Admission.String()))
	}
	for _, f := range r.Findings {
		fix := ""
		if f.Fix != "" {
			fix = "\nFix: " + f.Fix
		}
		annotate(githubCommand(f.Severity), string(f.Rule.ID), f, fix)
	}
	for _, f := range r.listedSuppressed() {
		annotate("notice", string(f.Rule.ID)+" (suppressed)", f, "\nSuppressed: "+f.Suppression.Justification)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func githubCommand(s analyze.Severity) string {
	switch s {
	case analyze.SeverityError:
		return "error"
	case analyze.SeverityWarning:
		return "warning"
	}
	return "notice"
}

// githubData escapes a workflow command's message as the Actions toolkit
// does (escapeData in @actions/core).
var githubData = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")

// githubProperty escapes a workflow command's property value (escapeProperty in
// @actions/core): the data escapes plus ':' and ','.
var githubProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")

// The Actions log shows what a workflow command carries, and obeys ANSI
// sequences in it: controls are escaped as in a terminal first.
func escapeGitHubData(s string) string     { return githubData.Replace(TerminalLines(s)) }
func escapeGitHubProperty(s string) string { return githubProperty.Replace(TerminalLines(s)) }
