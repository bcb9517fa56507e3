package render

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/kubectl-gwtls/kubectl-gwtls/change"
)

// markdownBudget keeps a diff's comment under GitHub's 65,536 characters per
// comment, with room for the notes that say what was left out.
const markdownBudget = 60000

// Markdown writes a pull-request comment: the verdict, the takeovers, the
// counts and the regressions first, then every section collapsed in a
// <details> block. A comment that would be too long for GitHub keeps its
// summary whole and cuts the tables, saying how many rows it left out.
// Source links (opts.SourceURL) are made for head's files only: base's lines
// are not at that URL.
func (r DiffReport) Markdown(w io.Writer, opts MarkdownOptions) error {
	var b strings.Builder
	title := opts.Title
	if title == "" {
		title = "kubectl-gwtls diff"
	}
	s := r.Summary
	verdict := "✅ no regressions"
	switch {
	case s.Errors > 0:
		verdict = "❌ " + plural(s.Errors, "regression") + " at error"
	case s.Warnings > 0:
		verdict = "⚠️ " + plural(s.Warnings, "regression") + " at warning"
	case s.Regressions > 0:
		verdict = "ℹ️ " + plural(s.Regressions, "regression") + " at info"
	}
	fmt.Fprintf(&b, "## %s: %s\n\n", mdCell(title), verdict)
	fmt.Fprintf(&b, "Base: %s  \nHead: %s  \n", mdCell(r.Base.String()), mdCell(r.Head.String()))
	for _, a := range r.diffAdmission() {
		fmt.Fprintf(&b, "%s%s: %s  \n", strings.ToUpper(a[0][:1]), a[0][1:], mdCell(a[1]))
	}
	if r.Failed {
		fmt.Fprintf(&b, "Fails `--fail-on %s`.\n\n", r.FailOn)
	} else {
		fmt.Fprintf(&b, "Passes `--fail-on %s`.\n\n", r.FailOn)
	}
	if m := r.Migration; m != nil {
		mark := "✅"
		if !m.Same {
			mark = "❌"
		}
		fmt.Fprintf(&b, "**Ingress migration:** %s %s\n\n", mark, mdCell(m.Verdict))
	}
	cut := 0
	rows := func(out *strings.Builder, row string) {
		if b.Len()+out.Len()+len(row) > markdownBudget {
			cut++
			return
		}
		out.WriteString(row)
	}
	if n := s.Kinds[change.Takeover]; n > 0 {
		var t strings.Builder
		fmt.Fprintf(&t, "> [!CAUTION]\n> **%s**: a route in another namespace now takes a hostname another route served.\n", plural(n, "takeover"))
		r.Each(func(c *change.Change) {
			if c.Kind == change.Takeover {
				rows(&t, "> - "+mdCell(oneLine(c.Message))+" ("+r.mdChangeSource(c, opts.SourceURL)+")\n")
			}
		})
		b.WriteString(t.String())
		b.WriteString("\n")
	}
	if s.Changes == 0 {
		b.WriteString("No change in what is served, in route acceptance, in the DNS and certificate plans, or in findings.\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	b.WriteString(r.mdCounts())
	if s.Regressions > 0 {
		var t strings.Builder
		t.WriteString("### Regressions\n\n| | change | where | source | message |\n|---|---|---|---|---|\n")
		r.eachWhere(func(c *change.Change, where string) {
			if c.Regression {
				rows(&t, fmt.Sprintf("| %s | %s | %s | %s | %s |\n", severityEmoji(*c.Severity), mdCode(string(c.Kind)), where,
					r.mdChangeSource(c, opts.SourceURL), mdCell(oneLine(c.Message))))
			}
		})
		b.WriteString(t.String())
		b.WriteString("\n")
	}
	for _, sec := range r.mdSections(opts.SourceURL) {
		if len(sec.rows) == 0 {
			continue
		}
		var t strings.Builder
		fmt.Fprintf(&t, "<details><summary>%s (%s)</summary>\n\n%s", sec.title, plural(len(sec.rows), "change"), sec.header)
		for _, row := range sec.rows {
			rows(&t, row)
		}
		t.WriteString("\n</details>\n\n")
		b.WriteString(t.String())
	}
	if cut > 0 {
		fmt.Fprintf(&b, "%s left out to fit a comment: `kubectl gwtls diff -o json` has every change.\n", plural(cut, "row"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdCounts is a table of the changes by kind: regressions first, by severity.
func (r DiffReport) mdCounts() string {
	kinds := make([]change.Kind, 0, len(r.Summary.Kinds))
	for k := range r.Summary.Kinds {
		kinds = append(kinds, k)
	}
	rank := func(k change.Kind) int {
		if k == change.FindingNew {
			return 1 // regressions at the findings' own severities
		}
		if sev, ok := change.Regression(k); ok {
			return 3 - int(sev)
		}
		return 4
	}
	sort.Slice(kinds, func(i, j int) bool {
		if a, b := rank(kinds[i]), rank(kinds[j]); a != b {
			return a < b
		}
		return kinds[i] < kinds[j]
	})
	var b strings.Builder
	b.WriteString("| | change | count |\n|---|---|---:|\n")
	for _, k := range kinds {
		mark := "·"
		if sev, ok := change.Regression(k); ok {
			mark = severityEmoji(sev)
		} else if k == change.FindingNew {
			mark = "❗"
		}
		fmt.Fprintf(&b, "| %s | %s | %d |\n", mark, mdCode(string(k)), r.Summary.Kinds[k])
	}
	b.WriteString("\n")
	return b.String()
}

type mdSection struct {
	title, header string
	rows          []string
}

// mdSections are the collapsed tables, one row per change.
func (r DiffReport) mdSections(sourceURL string) []mdSection {
	mark := func(c *change.Change) string {
		if c.Regression {
			return severityEmoji(*c.Severity)
		}
		return "·"
	}
	src := func(c *change.Change) string { return r.mdChangeSource(c, sourceURL) }
	host := mdSection{title: "Hostnames", header: "| | change | gateway | port | hostname | from | to | source | message |\n|---|---|---|---:|---|---|---|---|---|\n"}
	for _, h := range r.Hostnames {
		for i := range h.Changes {
			c := &h.Changes[i]
			host.rows = append(host.rows, fmt.Sprintf("| %s | %s | %s | %d | %s | %s | %s | %s | %s |\n", mark(c), mdCode(string(c.Kind)), mdCell(h.Gateway), h.Port,
				mdCell(hostnameLabel(h.Hostname)), mdCell(dashMD(c.From)), mdCell(dashMD(c.To)), src(c), mdCell(oneLine(c.Message))))
		}
	}
	routes := mdSection{title: "Routes", header: "| | change | route | parent | from | to | source | message |\n|---|---|---|---|---|---|---|---|\n"}
	for _, rt := range r.Routes {
		c := &rt.Changes[0]
		routes.rows = append(routes.rows, fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %s | %s |\n", mark(c), mdCode(string(c.Kind)), mdCell(rt.Route.String()),
			mdCell(rt.Parent.String()), mdCell(dashMD(c.From)), mdCell(dashMD(c.To)), src(c), mdCell(oneLine(c.Message))))
	}
	dns := mdSection{title: "DNS records", header: "| change | hostname | type | gateway | from | to |\n|---|---|---|---|---|---|\n"}
	for _, d := range r.DNS {
		c := &d.Changes[0]
		dns.rows = append(dns.rows, fmt.Sprintf("| %s | %s | %s | %s | %s | %s |\n", mdCode(string(c.Kind)), mdCell(d.Hostname), d.Type, mdCell(d.Gateway),
			mdCell(dashMD(c.From)), mdCell(dashMD(c.To))))
	}
	certs := mdSection{title: "Certificate names", header: "| change | secret | hostname | gateway | listener |\n|---|---|---|---|---|\n"}
	for _, n := range r.Certificates {
		c := &n.Changes[0]
		certs.rows = append(certs.rows, fmt.Sprintf("| %s | %s | %s | %s | %s |\n", mdCode(string(c.Kind)), mdCell(dashMD(n.Secret)), mdCell(n.Hostname),
			mdCell(n.Gateway), mdCell(n.Listener)))
	}
	findings := mdSection{title: "Findings", header: "| | change | severity | rule | object | source | message |\n|---|---|---|---|---|---|---|\n"}
	for _, f := range r.Findings {
		c := &f.Changes[0]
		findings.rows = append(findings.rows, fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %s |\n", mark(c), mdCode(string(c.Kind)), f.Finding.Severity,
			mdCode(string(f.Finding.Rule.ID)), mdCell(f.Finding.Object.String()), src(c), mdCell(oneLine(f.Finding.Message))))
	}
	return []mdSection{host, routes, dns, certs, findings}
}

// eachWhere calls f on every change with where it is, in a few words.
func (r DiffReport) eachWhere(f func(c *change.Change, where string)) {
	for _, h := range r.Hostnames {
		where := mdCell(fmt.Sprintf("%s:%d %s", h.Gateway, h.Port, hostnameLabel(h.Hostname)))
		for i := range h.Changes {
			f(&h.Changes[i], where)
		}
	}
	for _, rt := range r.Routes {
		f(&rt.Changes[0], mdCell(rt.Route.String()+" on "+rt.Parent.String()))
	}
	for _, d := range r.DNS {
		f(&d.Changes[0], mdCell(d.Type+" "+d.Hostname))
	}
	for _, n := range r.Certificates {
		f(&n.Changes[0], mdCell(n.Secret+" "+n.Hostname))
	}
	for _, fd := range r.Findings {
		f(&fd.Changes[0], mdCode(string(fd.Finding.Rule.ID))+" "+mdCell(fd.Finding.Object.String()))
	}
}

// mdChangeSource is a change's file:line, a link for head's files, marked
// "(base)" for base's.
func (r DiffReport) mdChangeSource(c *change.Change, sourceURL string) string {
	src := sourceOf(c)
	if src.String() == "" {
		return "—"
	}
	if c.Side == change.Base {
		base := mdCode(src.String()) + " (base)"
		// An Ingress migration's finding: the head object that decides it,
		// linked as head's sources are.
		if rel := c.Related; rel != nil && rel.String() != "" {
			if _, ok := sourceFile(*rel); ok {
				return base + ", " + mdSource(*rel, sourceURL)
			}
			return base + ", " + mdCode(rel.String())
		}
		return base
	}
	if _, ok := sourceFile(src); !ok {
		return mdCode(src.String())
	}
	return mdSource(src, sourceURL)
}
