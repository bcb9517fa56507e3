package render

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// The rule catalog: `rules` prints it, and docs/rules.md is its Markdown.

// CatalogAPIVersion versions the JSON of `rules -o json` (docs/output.md).
const CatalogAPIVersion = "gwtls.kubectl.dev/v1"

// CatalogEntry is one rule of the catalog, with its example and what
// analyze reports on the example.
type CatalogEntry struct {
	Rule *rules.Rule
	// Example is the rule's minimal failing manifest; nil for a rule no
	// manifest fires (Rule.WithoutExample says why).
	Example *rules.Example
	// Findings are what analyze reports on the example at rules.ExampleNow.
	Findings []analyze.Finding
}

// CatalogTable lists the rules: ID, default severity, summary.
func CatalogTable(w io.Writer, entries []CatalogEntry, st Style) error {
	rows := [][]string{{"RULE", "SEVERITY", "SUMMARY"}}
	for _, e := range entries {
		rows = append(rows, []string{TerminalText(string(e.Rule.ID)), st.severity(e.Rule.Severity), terminalCell(e.Rule.Summary)})
	}
	if err := writeColumns(w, rows); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%s. rules RULE -o markdown explains one, with the spec text and a failing example; all are at %s\n",
		plural(len(entries), "rule"), rules.CatalogURL)
	return err
}

type catalogJSON struct {
	APIVersion string        `json:"apiVersion"`
	Kind       string        `json:"kind"`
	Rules      []catalogRule `json:"rules"`
}

type catalogRule struct {
	ID             rules.ID        `json:"id"`
	Severity       rules.Severity  `json:"severity"`
	Summary        string          `json:"summary"`
	Help           string          `json:"help"`
	Fix            string          `json:"fix"`
	Spec           []catalogSpec   `json:"spec"`
	Condition      *catalogCond    `json:"condition,omitempty"`
	HelpURI        string          `json:"helpUri"`
	Example        *catalogExample `json:"example,omitempty"`
	WithoutExample string          `json:"withoutExample,omitempty"`
}

type catalogSpec struct {
	Document string `json:"document"`
	Section  string `json:"section"`
	File     string `json:"file,omitempty"`
}

type catalogCond struct {
	Object    string `json:"object"`
	Type      string `json:"type"`
	Reason    string `json:"reason"`
	Healthy   string `json:"healthy"`
	Unhealthy string `json:"unhealthy"`
}

type catalogExample struct {
	Name string `json:"name"`
	// Manifest is shown with Secret data abbreviated, never in full.
	Manifest  string            `json:"manifest"`
	Flags     []string          `json:"flags,omitempty"`
	Files     map[string]string `json:"files,omitempty"`
	Now       string            `json:"now"`
	Findings  []catalogFinding  `json:"findings"`
	AlsoFires []catalogAlso     `json:"alsoFires,omitempty"`
}

type catalogAlso struct {
	Rule rules.ID `json:"rule"`
	Why  string   `json:"why"`
}

type catalogFinding struct {
	Rule     rules.ID       `json:"rule"`
	Severity rules.Severity `json:"severity"`
	Object   model.Ref      `json:"object"`
	Field    string         `json:"field,omitempty"`
	Message  string         `json:"message"`
	Fix      string         `json:"fix,omitempty"`
}

func catalogRuleOf(e CatalogEntry) catalogRule {
	r := e.Rule
	out := catalogRule{ID: r.ID, Severity: r.Severity, Summary: r.Summary, Help: r.Help, Fix: r.Fix, HelpURI: r.HelpURI(), WithoutExample: r.WithoutExample()}
	for _, s := range r.Spec {
		out.Spec = append(out.Spec, catalogSpec(s))
	}
	if c := r.Condition; c != nil {
		out.Condition = &catalogCond{Object: c.Object, Type: c.Type, Reason: c.Reason, Healthy: string(c.Healthy), Unhealthy: string(c.Unhealthy())}
	}
	if ex := e.Example; ex != nil {
		ce := &catalogExample{Name: ex.Name, Manifest: ShownManifest(ex.Manifest), Flags: ex.Flags, Now: rules.ExampleNow, Findings: []catalogFinding{}}
		for name, data := range ex.Files {
			if ce.Files == nil {
				ce.Files = map[string]string{}
			}
			ce.Files[name] = exampleFile(name, data)
		}
		for _, a := range ex.AlsoFires {
			ce.AlsoFires = append(ce.AlsoFires, catalogAlso(a))
		}
		for _, f := range e.Findings {
			ce.Findings = append(ce.Findings, catalogFinding{Rule: f.Rule.ID, Severity: f.Severity, Object: f.Object, Field: f.Field, Message: f.Message, Fix: f.Fix})
		}
		out.Example = ce
	}
	return out
}

// CatalogJSON writes the catalog as JSON: every rule with its help, fix,
// spec text, condition, catalog link and example.
func CatalogJSON(w io.Writer, entries []CatalogEntry) error {
	doc := catalogJSON{APIVersion: CatalogAPIVersion, Kind: "RuleCatalog", Rules: make([]catalogRule, 0, len(entries))}
	for _, e := range entries {
		doc.Rules = append(doc.Rules, catalogRuleOf(e))
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// CatalogMarkdown writes the catalog as docs/rules.md has it: an index, then
// per rule an explicit anchor (rules.Rule.Anchor, which SARIF's helpUri and
// the other outputs link to), its severity, what it checks, the spec text,
// the fix, and a minimal failing manifest with what analyze reports on it.
func CatalogMarkdown(w io.Writer, entries []CatalogEntry, command string) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "<!-- Generated by `%s rules -o markdown > docs/rules.md`; do not edit. A test fails when it is stale. -->\n\n", command)
	bw.WriteString("# Rule catalog\n\n")
	fmt.Fprintf(bw, "Every rule kubectl-gwtls checks (%d). Each entry says what the rule checks, the text it enforces, how to fix it, and a minimal manifest that fails it, with what `analyze` reports on that manifest. "+
		"Rule IDs and the anchors below never change once released.\n\n", len(entries))
	bw.WriteString("Turn a rule off or change its severity in `.gwtls.yaml`, and accept a finding on one object with the `" + rules.IgnoreAnnotation + "` annotation: see [configuration.md](configuration.md).\n\n")
	bw.WriteString("| rule | severity | summary |\n|---|---|---|\n")
	for _, e := range entries {
		fmt.Fprintf(bw, "| [%s](#%s) | %s | %s |\n", mdCode(string(e.Rule.ID)), e.Rule.Anchor(), e.Rule.Severity, mdCell(e.Rule.Summary))
	}
	family := ""
	for _, e := range entries {
		r := e.Rule
		if f, _, _ := strings.Cut(string(r.ID), "/"); f != family {
			family = f
			fmt.Fprintf(bw, "\n## %s\n", family)
		}
		fmt.Fprintf(bw, "\n<a id=\"%s\"></a>\n\n### %s\n\n", r.Anchor(), mdCode(string(r.ID)))
		fmt.Fprintf(bw, "**Severity:** %s", r.Severity)
		if c := r.Condition; c != nil {
			fmt.Fprintf(bw, " · **Condition:** %s `%s=%s`, reason `%s` (healthy: `%s=%s`)", c.Object, c.Type, c.Unhealthy(), c.Reason, c.Type, c.Healthy)
		}
		bw.WriteString("\n\n" + mdText(r.Summary) + " " + mdText(r.Help) + "\n\n")
		bw.WriteString("**Fix:** " + mdText(r.Fix) + "\n\n**Spec:**\n\n")
		for _, s := range r.Spec {
			bw.WriteString("- " + mdText(s.String()) + "\n")
		}
		bw.WriteString("\n")
		ex := e.Example
		if ex == nil {
			bw.WriteString("**Example:** none. " + mdText(r.WithoutExample()) + "\n")
			continue
		}
		args := strings.Join(append([]string{"--now", rules.ExampleNow}, ex.Flags...), " ")
		fmt.Fprintf(bw, "**Example** ([rules/examples/%s](../rules/examples/%s)%s):\n\n", ex.Name, ex.Name, secretNote(ex.Manifest))
		fmt.Fprintf(bw, "```yaml\n%s\n```\n\n", strings.TrimRight(ShownManifest(ex.Manifest), "\n"))
		for _, name := range slices.Sorted(maps.Keys(ex.Files)) {
			if strings.HasSuffix(name, ".yaml") {
				fmt.Fprintf(bw, "%s, beside it:\n\n```yaml\n%s\n```\n\n", mdCode(name), strings.TrimRight(exampleFile(name, ex.Files[name]), "\n"))
				continue
			}
			fmt.Fprintf(bw, "%s holds %s.\n\n", mdCode(name), mdText(describePEM(ex.Files[name])))
		}
		verb := "analyze"
		if _, ok := ex.Base(); ok {
			verb = "diff" // a migration rule's: the example is the head, its --base the Ingresses
		}
		fmt.Fprintf(bw, "`%s %s -f %s %s` reports:\n\n", command, verb, ex.Name, args)
		for _, f := range e.Findings {
			where := mdCell(f.Object.String())
			if f.Field != "" {
				where += ", " + mdCell(f.Field)
			}
			fmt.Fprintf(bw, "- %s %s on %s: %s", f.Severity, mdCode(string(f.Rule.ID)), where, mdText(oneLine(f.Message)))
			if f.Fix != "" {
				fmt.Fprintf(bw, "  \n  Fix: %s", mdText(oneLine(f.Fix)))
			}
			bw.WriteString("\n")
		}
		for _, also := range ex.AlsoFires {
			fmt.Fprintf(bw, "\nThe example cannot help firing %s too: %s\n", mdCode(string(also.Rule)), mdText(also.Why))
		}
	}
	return bw.Flush()
}

// secretNote says, for an example with Secret data, that the catalog
// abbreviates it.
func secretNote(manifest string) string {
	if ShownManifest(manifest) == manifest {
		return ""
	}
	return "; certificate and key data abbreviated here"
}

// mdText escapes prose for Markdown outside tables.
func mdText(s string) string { return mdEscape.Replace(TerminalLines(s)) }

// exampleFile is how the catalog shows a file beside an example: a manifest
// (a migration example's Ingress base) as its Secrets abbreviated, else the
// PEM it holds, described.
func exampleFile(name string, data []byte) string {
	if strings.HasSuffix(name, ".yaml") {
		return ShownManifest(string(data))
	}
	return describePEM(data)
}
