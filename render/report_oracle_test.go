package render

// The report as Markdown wrote it before its rows were written cell by cell
// (mdwrite.go), on the serial graph builder and Mermaid writer
// (graph_oracle_test.go): the oracle TestMarkdownAsTheOracleWritesIt holds
// Markdown to.

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// oracleMarkdown is Markdown as it was written with fmt, mdCell, mdSource,
// mdRule and oneLine alone.
func oracleMarkdown(w io.Writer, res *analyze.Result, opts MarkdownOptions) error {
	// The topology is built while the tables are written.
	graph := make(chan Graph, 1)
	go func() { graph <- oracleNewGraph(res) }()
	r := NewReport(res)
	r.ShowSuppressed = opts.ShowSuppressed
	// Written as it is built: at 100k routes the report is tens of megabytes.
	b := bufio.NewWriterSize(w, 64<<10)
	title := opts.Title
	if title == "" {
		title = "kubectl-gwtls"
	}
	s := r.Summary
	verdict := "✅ clean"
	switch {
	case s.Errors > 0:
		verdict = "❌ " + plural(s.Errors, "error")
	case s.Warnings > 0:
		verdict = "⚠️ " + plural(s.Warnings, "warning")
	}
	fmt.Fprintf(b, "## %s: %s\n\n", mdCell(title), verdict)
	fmt.Fprintf(b, "| objects | listeners | route attachments | errors | warnings | info |\n|---:|---:|---:|---:|---:|---:|\n")
	fmt.Fprintf(b, "| %d | %d | %d | %d | %d | %d |\n\n", s.Objects, r.Listeners.Len(), r.attachedRoutes, s.Errors, s.Warnings, s.Info)
	if r.Admission != nil {
		fmt.Fprintf(b, "Admission: %s.\n\n", mdCell(r.Admission.String()))
	}
	if s.Suppressed > 0 {
		fmt.Fprintf(b, "%s suppressed in the manifest (%s).\n\n", plural(s.Suppressed, "finding"), mdCode(rules.IgnoreAnnotation))
	}
	if bs := s.Baseline; bs != nil {
		fmt.Fprintf(b, "Baseline %s: %d new, %d known, %d no longer found.\n\n", mdCode(bs.File), bs.New, bs.Unchanged+bs.Updated, bs.Absent)
	}
	if len(s.Skipped) > 0 {
		kinds := make([]string, 0, len(s.Skipped))
		for k, n := range s.Skipped {
			kinds = append(kinds, fmt.Sprintf("%s (%d)", k, n))
		}
		sort.Strings(kinds)
		fmt.Fprintf(b, "Not analyzed: %s.\n\n", mdCell(strings.Join(kinds, ", ")))
	}

	b.WriteString("### Findings\n\n")
	if len(r.Findings) == 0 {
		b.WriteString("No findings.\n\n")
	} else {
		b.WriteString("| | severity | rule | object | source | message | fix |\n|---|---|---|---|---|---|---|\n")
		var details []analyze.Finding
		for _, f := range r.Findings {
			fix := oneLine(firstLine(f.Fix))
			if strings.Contains(strings.TrimSpace(f.Fix), "\n") {
				details = append(details, f)
				fix += " (below)"
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s |\n", severityEmoji(f.Severity), f.Severity, mdRule(f.Rule),
				mdCell(f.Object.String()), mdSource(f.Source, opts.SourceURL), mdCell(oneLine(f.Message)), mdCell(fix))
		}
		b.WriteString("\n")
		for _, f := range details {
			fmt.Fprintf(b, "<details><summary>Fix for %s on %s</summary>\n\n", mdCode(string(f.Rule.ID)), mdCell(f.Object.String()))
			fence := "```"
			for strings.Contains(f.Fix, fence) {
				fence += "`"
			}
			fmt.Fprintf(b, "%s\n%s\n%s\n\n</details>\n\n", fence, strings.TrimRight(f.Fix, "\n"), fence)
		}
	}

	if suppressed := r.listedSuppressed(); len(suppressed) > 0 {
		b.WriteString("### Suppressed\n\n| severity | rule | object | source | message | reason |\n|---|---|---|---|---|---|\n")
		for _, f := range suppressed {
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", f.Severity, mdRule(f.Rule), mdCell(f.Object.String()),
				mdSource(f.Source, opts.SourceURL), mdCell(oneLine(f.Message)), mdCell(oneLine(f.Suppression.Justification)))
		}
		b.WriteString("\n")
	}

	b.WriteString("### Listeners\n\n")
	if r.Listeners.Len() == 0 {
		b.WriteString("No listeners.\n\n")
	} else {
		b.WriteString("| gateway | listener | port | protocol | TLS | hostname | status | routes (intersected hostnames) |\n|---|---|---:|---|---|---|---|---|\n")
		var l ListenerSummary // built anew for each listener, in the same room
		for i := range r.Listeners.Len() {
			r.Listeners.into(i, &l)
			name := l.Name
			if l.Owner.Kind == "ListenerSet" {
				name = "ListenerSet " + l.Owner.NamespacedName().String() + " · " + l.Name
			}
			status := "✅ accepted"
			if !l.Accepted {
				status = "❌ not accepted"
			}
			fmt.Fprintf(b, "| %s | %s | %d | %s | %s | %s | %s | ", mdCell(l.Gateway), mdCell(name), l.Port, l.Protocol,
				dashMD(l.TLSMode), mdCell(dashMD(l.Hostname)), status)
			if len(l.Routes) == 0 {
				b.WriteString("—")
			}
			for k, rt := range l.Routes {
				if k > 0 {
					b.WriteString("<br>")
				}
				b.WriteString(mdCell(rt.Route.String() + " (" + hostnamesLabel(rt.Hostnames) + ")"))
			}
			b.WriteString(" |\n")
		}
		b.WriteString("\n")
	}

	b.WriteString("### Topology\n\n```mermaid\n")
	if err := b.Flush(); err != nil {
		return err
	}
	if err := oracleMermaid(<-graph, w); err != nil {
		return err
	}
	_, err := io.WriteString(w, "```\n")
	return err
}
