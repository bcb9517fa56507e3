package render

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// MarkdownOptions tune the Markdown report.
type MarkdownOptions struct {
	// SourceURL, when set, turns file:line into links: SourceURL/FILE#LLINE (for
	// example https://github.com/OWNER/REPO/blob/SHA).
	SourceURL string
	// Title is the report's heading; "kubectl-gwtls" when empty.
	Title string
	// ShowSuppressed lists the findings the manifest suppresses, with their
	// reasons; otherwise they are only counted.
	ShowSuppressed bool
}

// Markdown writes a pull-request comment: counts, the findings, every listener with
// its routes and intersected hostnames, and the topology as a Mermaid diagram.
// Output is deterministic.
func Markdown(w io.Writer, res *analyze.Result, opts MarkdownOptions) error {
	// The topology is built while the tables are written.
	graph := make(chan Graph, 1)
	go func() { graph <- NewGraph(res) }()
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
		// Rows written cell by cell (mdwrite.go): a large input has tens of
		// thousands of findings.
		var details []int
		links := mdRules{}
		for i := range r.Findings {
			f := &r.Findings[i]
			b.WriteString("| ")
			b.WriteString(severityEmoji(f.Severity))
			b.WriteString(" | ")
			b.WriteString(f.Severity.String())
			b.WriteString(" | ")
			b.WriteString(links.of(f.Rule))
			b.WriteString(" | ")
			writeMDCell(b, f.Object.String())
			b.WriteString(" | ")
			writeMDSource(b, f.Source, opts.SourceURL)
			b.WriteString(" | ")
			writeMDCell(b, oneLineFast(f.Message))
			b.WriteString(" | ")
			writeMDCell(b, oneLineFast(firstLine(f.Fix)))
			if strings.Contains(strings.TrimSpace(f.Fix), "\n") {
				details = append(details, i)
				b.WriteString(" (below)")
			}
			b.WriteString(" |\n")
		}
		b.WriteString("\n")
		for _, i := range details {
			f := &r.Findings[i]
			b.WriteString("<details><summary>Fix for ")
			b.WriteString(mdCode(string(f.Rule.ID)))
			b.WriteString(" on ")
			writeMDCell(b, f.Object.String())
			b.WriteString("</summary>\n\n")
			fence := "```"
			for strings.Contains(f.Fix, fence) {
				fence += "`"
			}
			b.WriteString(fence)
			b.WriteByte('\n')
			b.WriteString(strings.TrimRight(f.Fix, "\n"))
			b.WriteByte('\n')
			b.WriteString(fence)
			b.WriteString("\n\n</details>\n\n")
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
				writeMDRouteCell(b, rt.Route, rt.Hostnames)
			}
			b.WriteString(" |\n")
		}
		b.WriteString("\n")
	}

	b.WriteString("### Topology\n\n```mermaid\n")
	if err := b.Flush(); err != nil {
		return err
	}
	if err := (<-graph).Mermaid(w); err != nil {
		return err
	}
	_, err := io.WriteString(w, "```\n")
	return err
}

func severityEmoji(s analyze.Severity) string {
	switch s {
	case analyze.SeverityError:
		return "❌"
	case analyze.SeverityWarning:
		return "⚠️"
	}
	return "ℹ️"
}

func dashMD(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// mdCell escapes text for a Markdown table cell: pipes, HTML, emphasis
// (*.example.com), newlines, and controls as in a terminal (the report is
// read in one before it is posted).
func mdCell(s string) string {
	if mdPlain.all(s) {
		return s
	}
	return mdCellKeepBreaks(mdEscape.Replace(TerminalLines(s)))
}

func mdCellKeepBreaks(s string) string {
	return mdCellBreaks.Replace(s)
}

// mdCode writes inline code, or plain escaped text when s holds a backtick.
func mdCode(s string) string {
	if s == "" {
		return ""
	}
	if strings.Contains(s, "`") {
		return mdCell(s)
	}
	return "`" + strings.ReplaceAll(TerminalText(s), "|", `\|`) + "`"
}

// mdRule writes the rule ID as a link to its entry in the catalog.
func mdRule(r *rules.Rule) string {
	return "[" + mdCode(string(r.ID)) + "](" + r.HelpURI() + ")"
}

// mdSource writes file:line as code, or as a link to SourceURL/FILE#LLINE.
func mdSource(src model.Source, base string) string {
	text := src.String()
	if text == "" {
		return "—"
	}
	if base == "" || src.File == "-" {
		return mdCode(text)
	}
	url := strings.TrimRight(base, "/") + "/" + strings.TrimPrefix(src.File, "./")
	if src.Line > 0 {
		url += fmt.Sprintf("#L%d", src.Line)
	}
	url = mdURL.Replace(url)
	return "[" + mdCode(text) + "](" + url + ")"
}

// The replacers are built once, not per cell.
var (
	mdEscape     = strings.NewReplacer("<", "&lt;", ">", "&gt;", "*", `\*`, "_", `\_`, "`", "\\`")
	mdCellBreaks = strings.NewReplacer("|", `\|`, "\r", "", "\n", "<br>")
	mdURL        = strings.NewReplacer(" ", "%20", ")", "%29", "(", "%28", "|", "%7C")
	// mdPlain is the bytes a cell holds as they are: printable ASCII that
	// neither mdEscape nor mdCellBreaks replaces.
	mdPlain = plainBytes("<>*_`|")
)
