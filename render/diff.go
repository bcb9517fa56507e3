package render

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/change"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// DiffReport is the machine-readable output of `diff` (docs/output.md): where
// both sides came from, whether the run fails, the counts, and the diff.
type DiffReport struct {
	APIVersion string    `json:"apiVersion"`
	Kind       string    `json:"kind"`
	Base       DiffInput `json:"base"`
	Head       DiffInput `json:"head"`
	// FailOn is --fail-on; Failed is whether a regression is at or above it
	// (the run exits 1).
	FailOn  string         `json:"failOn"`
	Failed  bool           `json:"failed"`
	Summary change.Summary `json:"summary"`
	*change.Diff
}

// DiffInput says where one side of a diff came from.
type DiffInput struct {
	// From is files, git (the files at a revision), cluster, or cluster+files
	// (the cluster as it would be with the files applied).
	From   string   `json:"from"`
	Paths  []string `json:"paths,omitempty"`
	Ref    string   `json:"ref,omitempty"`
	Commit string   `json:"commit,omitempty"`
	// Objects is the number of objects analyzed.
	Objects int `json:"objects"`
	// Admission is what this side's Gateway API objects were validated
	// against, as analyze's report says it; absent when not judged.
	Admission *Admission `json:"admission,omitempty"`
}

func (in DiffInput) String() string {
	paths := strings.Join(in.Paths, ", ")
	var s string
	switch in.From {
	case "git":
		commit := in.Commit
		if len(commit) > 12 {
			commit = commit[:12]
		}
		s = fmt.Sprintf("%s at %s (%s)", paths, in.Ref, commit)
	case "cluster":
		s = "the cluster"
	case "cluster+files":
		s = "the cluster with " + paths + " applied"
	default:
		s = paths
	}
	return fmt.Sprintf("%s (%s)", s, plural(in.Objects, "object"))
}

// NewDiffReport wraps a diff for output.
func NewDiffReport(d *change.Diff, base, head DiffInput, failOn analyze.Severity) DiffReport {
	return DiffReport{APIVersion: ReportAPIVersion, Kind: "Diff", Base: base, Head: head, FailOn: severityName(failOn),
		Failed: d.CountAtOrAbove(failOn) > 0, Summary: d.Summary(), Diff: d}
}

// severityName is a --fail-on value's name: none is above every severity.
func severityName(s analyze.Severity) string {
	if s > analyze.SeverityError {
		return "none"
	}
	return s.String()
}

// JSON writes the report as analyze's Report is written: the header indented,
// and every entry of every section as one compact line, streamed through a
// small buffer. A diff of two unrelated 100k-route configurations has half a
// million changes; indenting it whole took a minute and gigabytes. `jq .`
// pretty-prints.
func (r DiffReport) JSON(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	field := func(name string, v any) error {
		b, err := json.MarshalIndent(v, "  ", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(bw, "  %q: %s,\n", name, b)
		return nil
	}
	array := lineArrays(bw)
	bw.WriteString("{\n")
	for _, f := range []struct {
		name string
		v    any
	}{{"apiVersion", r.APIVersion}, {"kind", r.Kind}, {"base", r.Base}, {"head", r.Head}, {"failOn", r.FailOn}, {"failed", r.Failed}, {"summary", r.Summary}} {
		if err := field(f.name, f.v); err != nil {
			return err
		}
	}
	if r.Migration != nil {
		if err := field("migration", r.Migration); err != nil {
			return err
		}
	}
	for _, a := range []struct {
		name string
		n    int
		item func(int) any
	}{
		{"hostnames", len(r.Hostnames), func(i int) any { return r.Hostnames[i] }},
		{"routes", len(r.Routes), func(i int) any { return r.Routes[i] }},
		{"dns", len(r.DNS), func(i int) any { return r.DNS[i] }},
		{"certificates", len(r.Certificates), func(i int) any { return r.Certificates[i] }},
		{"findings", len(r.Findings), func(i int) any { return r.Findings[i] }},
	} {
		if err := array(a.name, a.n, readOnly(a.item), a.name == "findings"); err != nil {
			return err
		}
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// Table writes the diff as one table per section, takeovers called out first,
// and a summary line that says whether the run fails.
func (r DiffReport) Table(w io.Writer, st Style) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "%s %s\n%s %s\n", st.paint(boldStyle, "base:"), TerminalText(r.Base.String()), st.paint(boldStyle, "head:"), TerminalText(r.Head.String()))
	for _, a := range r.diffAdmission() {
		fmt.Fprintf(bw, "%s %s\n", st.paint(boldStyle, a[0]+":"), TerminalText(a[1]))
	}
	bw.WriteString("\n")
	if n := r.Summary.Kinds[change.Takeover]; n > 0 {
		fmt.Fprintf(bw, "%s a route in another namespace now takes a hostname another route served (see Takeover below)\n\n",
			st.paint(errorStyle, "⚠ "+plural(n, "takeover")+":"))
	}
	if m := r.Migration; m != nil {
		style := okStyle
		if !m.Same {
			style = errorStyle
		}
		fmt.Fprintf(bw, "%s %s\n\n", st.paint(boldStyle, "Ingress migration:"), st.paint(style, m.Verdict))
	}
	sections := []struct {
		title  string
		header []string
		rows   func(add func(*change.Change, ...string))
	}{
		{"Hostnames", []string{"SEVERITY", "CHANGE", "GATEWAY", "PORT", "HOSTNAME", "SOURCE", "MESSAGE"}, func(add func(*change.Change, ...string)) {
			for i := range r.Hostnames {
				h := &r.Hostnames[i]
				for j := range h.Changes {
					add(&h.Changes[j], h.Gateway, strconv.Itoa(int(h.Port)), hostnameLabel(h.Hostname))
				}
			}
		}},
		{"Routes", []string{"SEVERITY", "CHANGE", "ROUTE", "PARENT", "FROM", "TO", "SOURCE"}, func(add func(*change.Change, ...string)) {
			for i := range r.Routes {
				rt := &r.Routes[i]
				add(&rt.Changes[0], rt.Route.String(), rt.Parent.String(), dash(rt.Changes[0].From), dash(rt.Changes[0].To))
			}
		}},
		{"DNS records", []string{"CHANGE", "HOSTNAME", "TYPE", "GATEWAY", "FROM", "TO"}, func(add func(*change.Change, ...string)) {
			for i := range r.DNS {
				d := &r.DNS[i]
				add(&d.Changes[0], d.Hostname, d.Type, d.Gateway, dash(d.Changes[0].From), dash(d.Changes[0].To))
			}
		}},
		{"Certificate names", []string{"CHANGE", "SECRET", "HOSTNAME", "GATEWAY", "LISTENER"}, func(add func(*change.Change, ...string)) {
			for i := range r.Certificates {
				c := &r.Certificates[i]
				add(&c.Changes[0], dash(c.Secret), c.Hostname, c.Gateway, c.Listener)
			}
		}},
		{"Findings", []string{"SEVERITY", "CHANGE", "RULE", "OBJECT", "SOURCE", "MESSAGE"}, func(add func(*change.Change, ...string)) {
			for i := range r.Findings {
				f := &r.Findings[i]
				add(&f.Changes[0], string(f.Finding.Rule.ID), f.Finding.Object.String())
			}
		}},
	}
	wrote := false
	for _, sec := range sections {
		rows := [][]string{sec.header}
		sec.rows(func(c *change.Change, cells ...string) {
			row := make([]string, 0, len(sec.header))
			if sec.header[0] == "SEVERITY" {
				row = append(row, changeSeverity(st, c))
			}
			row = append(row, changeKind(st, c))
			for _, c := range cells {
				row = append(row, TerminalText(c))
			}
			for len(row) < len(sec.header) {
				switch sec.header[len(row)] {
				case "SOURCE":
					row = append(row, st.paint(dimStyle, TerminalText(changeSource(c))))
				case "MESSAGE":
					row = append(row, terminalCell(c.Message))
				}
			}
			rows = append(rows, row)
		})
		if len(rows) == 1 {
			continue
		}
		wrote = true
		fmt.Fprintln(bw, st.paint(boldStyle, sec.title))
		if err := writeColumns(bw, rows); err != nil {
			return err
		}
		fmt.Fprintln(bw)
	}
	if !wrote {
		fmt.Fprintln(bw, "No change in what is served, in route acceptance, in the DNS and certificate plans, or in findings.")
		fmt.Fprintln(bw)
	}
	r.summaryLine(bw, st)
	return bw.Flush()
}

func (r DiffReport) summaryLine(w io.Writer, st Style) {
	s := r.Summary
	fmt.Fprintf(w, "%s %s, %s (%s, %s, %d info)\n", st.paint(boldStyle, "diff:"), plural(s.Changes, "change"), plural(s.Regressions, "regression"),
		plural(s.Errors, "error"), plural(s.Warnings, "warning"), s.Info)
	if r.Failed {
		fmt.Fprintf(w, "%s\n", st.paint(errorStyle, "fails --fail-on "+r.FailOn))
	} else {
		fmt.Fprintf(w, "%s\n", st.paint(okStyle, "passes --fail-on "+r.FailOn))
	}
}

func changeSeverity(st Style, c *change.Change) string {
	if !c.Regression {
		return "-"
	}
	return st.severity(*c.Severity)
}

// changeKind is the kind, in colour for regressions; a takeover always stands
// out.
func changeKind(st Style, c *change.Change) string {
	k := string(c.Kind)
	switch {
	case c.Kind == change.Takeover:
		return st.paint(errorStyle, k)
	case c.Regression && *c.Severity == analyze.SeverityError:
		return st.paint(errorStyle, k)
	case c.Regression && *c.Severity == analyze.SeverityWarning:
		return st.paint(warningStyle, k)
	}
	return k
}

// changeSource is where a change is, marked when it is on the base side.
func changeSource(c *change.Change) string {
	if c.Source == nil || c.Source.String() == "" {
		return "-"
	}
	if c.Side == change.Base {
		return c.Source.String() + " (base)"
	}
	return c.Source.String()
}

func hostnameLabel(h string) string {
	if h == "" {
		return "(any)"
	}
	return h
}

// sourceOf is a change's source, the zero Source when it has none.
func sourceOf(c *change.Change) model.Source {
	if c.Source == nil {
		return model.Source{}
	}
	return *c.Source
}
