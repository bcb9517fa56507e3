package render

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	goyaml "go.yaml.in/yaml/v2"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// ReportAPIVersion versions the JSON/YAML schema of `analyze` (docs/output.md).
const ReportAPIVersion = "gwtls.kubectl.dev/v1"

// Report is the machine-readable output of `analyze`.
type Report struct {
	APIVersion string            `json:"apiVersion"`
	Kind       string            `json:"kind"`
	Summary    Summary           `json:"summary"`
	Admission  *Admission        `json:"admission,omitempty"`
	Findings   []analyze.Finding `json:"findings"`
	// Suppressed are the findings the manifest suppresses, each with its
	// suppression. Text, JSON, YAML and GitHub output list them only with
	// ShowSuppressed (--show-suppressed); SARIF always carries them, as
	// suppressed results that code-scanning UIs hide.
	Suppressed     []analyze.Finding  `json:"suppressed,omitempty"`
	ShowSuppressed bool               `json:"-"`
	Listeners      Listeners          `json:"listeners"`
	Unreadable     []model.Unreadable `json:"unreadable,omitempty"`
	// attachedRoutes is the sum of the listeners' AttachedRoutes.
	attachedRoutes int

	baseline *analyze.BaselineComparison
}

// Admission says which CRDs the Gateway API objects were held to, as the API
// server would hold them, and how many it refuses.
type Admission struct {
	// Enabled is false when the user turned admission off: nothing was
	// validated, and the CRDs' defaults were applied all the same.
	Enabled bool `json:"enabled"`
	// CRDs names them: "Gateway API v1.6.3 experimental channel, built in".
	CRDs string `json:"crds"`
	// Note says why they are not the ones asked for, when they are not.
	Note string `json:"note,omitempty"`
	// Refused counts the objects the API server refuses.
	Refused int `json:"refused"`
}

// NewAdmission is what the output says of the model's admission; nil when the
// loader did not judge it.
func NewAdmission(a *model.Admission) *Admission {
	if a == nil {
		return nil
	}
	return &Admission{Enabled: !a.Off, CRDs: a.CRDs, Note: a.Note, Refused: len(a.Refused)}
}

// String says it in one line, for the table's summary and the Markdown report,
// and every other view's header (WriteAdmission, WriteAdmissionComment).
func (a *Admission) String() string {
	if !a.Enabled {
		return "off; the defaults of " + a.CRDs + " applied"
	}
	return crdsSentence(a) + "; " + plural(a.Refused, "object") + " refused"
}

// WriteAdmission writes the "admission: ..." line of a text view (the table's
// summary, explain's tree, simulate's table, a note on stderr); nothing when a
// is nil.
func WriteAdmission(w io.Writer, a *Admission, st Style) error {
	if a == nil {
		return nil
	}
	_, err := fmt.Fprintf(w, "%s %s\n", st.paint(boldStyle, "admission:"), TerminalText(a.String()))
	return err
}

// WriteAdmissionComment writes the line as a YAML comment, to open a YAML
// stream that is not one object, or is meant for kubectl apply, where a field
// would change the contract: "# admission: ...".
func WriteAdmissionComment(w io.Writer, a *Admission) error {
	return writeAdmissionComment(w, "#", a)
}

// writeAdmissionComment writes the line as a comment that opens with marker
// ("#" in YAML, "//" in DOT, "%%" in Mermaid); nothing when a is nil.
func writeAdmissionComment(w io.Writer, marker string, a *Admission) error {
	if a == nil {
		return nil
	}
	_, err := fmt.Fprintf(w, "%s admission: %s\n", marker, TerminalText(a.String()))
	return err
}

// Summary counts what was analyzed and found. Errors, Warnings and Info count
// the findings reported, which --fail-on reads; suppressed findings and those
// a baseline knows are counted apart.
type Summary struct {
	Objects    int              `json:"objects"`
	Skipped    map[string]int   `json:"skipped,omitempty"`
	Errors     int              `json:"errors"`
	Warnings   int              `json:"warnings"`
	Info       int              `json:"info"`
	Suppressed int              `json:"suppressed,omitempty"`
	Baseline   *BaselineSummary `json:"baseline,omitempty"`
}

// BaselineSummary is the run compared with a baseline: findings not in it
// (new, the ones reported), in it (unchanged, or updated when the message
// changed) and in it but no longer found (absent).
type BaselineSummary struct {
	File      string `json:"file"`
	New       int    `json:"new"`
	Unchanged int    `json:"unchanged"`
	Updated   int    `json:"updated"`
	Absent    int    `json:"absent"`
}

// ListenerSummary is what one listener serves: its routes and, per route, the
// intersected hostnames (spec 003).
type ListenerSummary struct {
	Owner          model.Ref    `json:"owner"`
	Gateway        string       `json:"gateway"`
	Name           string       `json:"name"`
	Port           int32        `json:"port"`
	Protocol       string       `json:"protocol"`
	TLSMode        string       `json:"tlsMode,omitempty"`
	Hostname       string       `json:"hostname,omitempty"`
	Accepted       bool         `json:"accepted"`
	AttachedRoutes int32        `json:"attachedRoutes"`
	Routes         []RouteOnSNI `json:"routes"`
	Source         model.Source `json:"source"`
}

// RouteOnSNI is a route attached to a listener and the hostnames the pair serves;
// an empty list means any hostname.
type RouteOnSNI struct {
	Route     model.Ref `json:"route"`
	Hostnames []string  `json:"hostnames"`
}

// NewReport builds the report of a Result.
func NewReport(res *analyze.Result) Report {
	r := Report{APIVersion: ReportAPIVersion, Kind: "Report", Findings: res.Findings, Suppressed: res.Suppressed, Unreadable: res.Model.Unreadable,
		baseline: res.Baseline, Admission: NewAdmission(res.Model.Admission)}
	if r.Findings == nil {
		r.Findings = []analyze.Finding{}
	}
	r.Summary.Objects = res.Model.Len()
	if len(res.Model.Skipped) > 0 {
		r.Summary.Skipped = res.Model.Skipped
	}
	r.Summary.Suppressed = len(res.Suppressed)
	if b := res.Baseline; b != nil {
		bs := &BaselineSummary{File: b.File, New: len(res.Findings), Absent: len(b.Absent)}
		for _, f := range b.Known {
			if f.BaselineState == analyze.BaselineUpdated {
				bs.Updated++
			} else {
				bs.Unchanged++
			}
		}
		r.Summary.Baseline = bs
	}
	for _, f := range res.Findings {
		switch f.Severity {
		case analyze.SeverityError:
			r.Summary.Errors++
		case analyze.SeverityWarning:
			r.Summary.Warnings++
		default:
			r.Summary.Info++
		}
	}
	n := 0
	for _, g := range res.Gateways {
		n += len(g.AllListeners())
	}
	r.Listeners.at = make([]listenerAt, 0, n) // sized once: a large input has tens of thousands
	for _, g := range res.Gateways {
		for _, l := range g.AllListeners() {
			r.Listeners.at = append(r.Listeners.at, listenerAt{g, l})
			r.attachedRoutes += int(l.AttachedRoutes())
		}
	}
	return r
}

// Listeners are the result's listeners in the report's order. Each one's
// ListenerSummary is built when it is written (At, MarshalJSON), so that a
// large report does not hold a copy of every attachment while it is printed.
type Listeners struct {
	at []listenerAt
}

// listenerAt is one listener of the report and its Gateway.
type listenerAt struct {
	gateway  *analyze.GatewayResult
	listener *analyze.ListenerResult
}

// Len is how many listeners the report lists.
func (ls Listeners) Len() int { return len(ls.at) }

// At is the report's i-th listener: what it serves, built anew on each call
// from the result.
func (ls Listeners) At(i int) ListenerSummary {
	var sum ListenerSummary
	ls.into(i, &sum)
	return sum
}

// into builds the report's i-th listener in sum, reusing the room of its
// Routes: the report's writers build the listeners one after the other into
// one summary, so that writing a large report allocates no summary per
// listener (the run's collector does not run between the analysis and the
// end of the output, so every allocation there adds to the peak).
func (ls Listeners) into(i int, sum *ListenerSummary) {
	g, l := ls.at[i].gateway, ls.at[i].listener
	routes := sum.Routes[:0]
	if routes == nil || cap(routes) < len(l.Attachments) {
		routes = make([]RouteOnSNI, 0, len(l.Attachments))
	}
	*sum = ListenerSummary{Owner: l.Owner(), Gateway: model.NameOf(g.Gateway.Obj).String(), Name: l.Name(), Port: int32(l.Listener.Port),
		Protocol: string(l.Listener.Protocol), TLSMode: string(l.TLSMode()), Hostname: l.Hostname(), Accepted: l.Accepted,
		AttachedRoutes: l.AttachedRoutes(), Routes: routes, Source: l.Source()}
	for _, a := range l.Attachments {
		rt := a.Route.Route
		hs := a.Hostnames
		if len(hs) == 1 && hs[0] == "" || hs == nil {
			hs = []string{}
		}
		sum.Routes = append(sum.Routes, RouteOnSNI{Route: model.Ref{Kind: rt.Kind, Namespace: rt.ObjectMeta.Namespace, Name: rt.ObjectMeta.Name}, Hostnames: hs})
	}
}

// each returns a function that builds the report's i-th listener in a
// summary it reuses from call to call: the value is good until its next
// call. Each call of each makes a summary of its own, so that goroutines
// writing listeners at once each call it (writeLines).
func (ls Listeners) each() func(i int) any {
	var sum ListenerSummary
	return func(i int) any {
		ls.into(i, &sum)
		return &sum
	}
}

// MarshalJSON encodes every listener's summary as one JSON array, for a
// caller that marshals a Report as a value; the report's own writers (JSON,
// YAML) write one listener at a time.
func (ls Listeners) MarshalJSON() ([]byte, error) {
	all := make([]ListenerSummary, ls.Len())
	for i := range all {
		all[i] = ls.At(i)
	}
	return json.Marshal(all)
}

// JSON writes the report: the summary indented, and each finding and listener as
// one compact line. Large reports then stream through a small buffer instead of
// being built and re-indented whole; `jq .` pretty-prints.
func (r Report) JSON(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	field := func(name string, v any, last bool) {
		fmt.Fprintf(bw, "  %q: ", name)
		b, _ := json.MarshalIndent(v, "  ", "  ")
		bw.Write(b)
		if !last {
			bw.WriteString(",")
		}
		bw.WriteString("\n")
	}
	array := lineArrays(bw)
	bw.WriteString("{\n")
	field("apiVersion", r.APIVersion, false)
	field("kind", r.Kind, false)
	field("summary", r.Summary, false)
	if r.Admission != nil {
		field("admission", r.Admission, false)
	}
	if err := array("findings", len(r.Findings), readOnly(func(i int) any { return &r.Findings[i] }), false); err != nil {
		return err
	}
	if suppressed := r.listedSuppressed(); len(suppressed) > 0 {
		if err := array("suppressed", len(suppressed), readOnly(func(i int) any { return suppressed[i] }), false); err != nil {
			return err
		}
	}
	if err := array("listeners", r.Listeners.Len(), r.Listeners.each, len(r.Unreadable) == 0); err != nil {
		return err
	}
	if len(r.Unreadable) > 0 {
		if err := array("unreadable", len(r.Unreadable), readOnly(func(i int) any { return r.Unreadable[i] }), true); err != nil {
			return err
		}
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// YAML writes the report as sigs.k8s.io/yaml prints it (keys sorted, go-yaml's
// layout and line folding), one finding and listener at a time, so that time
// and memory grow with the report, not faster: converting a large report whole
// goes through a generic YAML tree of all of it.
func (r Report) YAML(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	// Top-level keys in go-yaml's order; each value is printed at the column it
	// has in the whole document, so go-yaml folds long lines at the same places.
	field := func(key string, v any) error {
		b, err := yamlOf(map[string]any{key: v})
		bw.Write(b)
		return err
	}
	list := func(key string, n int, item func(i int) any) error {
		if n == 0 {
			return field(key, []any{})
		}
		bw.WriteString(key + ":\n")
		for i := 0; i < n; i++ {
			// A one-item sequence at column 0 is laid out as the items of a
			// sequence under a key are (go-yaml v2 does not indent those).
			b, err := yamlOf([]any{item(i)})
			if err != nil {
				return err
			}
			bw.Write(b)
		}
		return nil
	}
	var steps []func() error
	if r.Admission != nil {
		steps = append(steps, func() error { return field("admission", r.Admission) })
	}
	steps = append(steps,
		func() error { return field("apiVersion", r.APIVersion) },
		func() error { return list("findings", len(r.Findings), func(i int) any { return &r.Findings[i] }) },
		func() error { return field("kind", r.Kind) },
		func() error {
			return list("listeners", r.Listeners.Len(), r.Listeners.each())
		},
		func() error { return field("summary", r.Summary) },
	)
	if suppressed := r.listedSuppressed(); len(suppressed) > 0 {
		steps = append(steps, func() error { return list("suppressed", len(suppressed), func(i int) any { return suppressed[i] }) })
	}
	if len(r.Unreadable) > 0 {
		steps = append(steps, func() error { return list("unreadable", len(r.Unreadable), func(i int) any { return r.Unreadable[i] }) })
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// listedSuppressed are the suppressed findings text, JSON, YAML and GitHub
// output list: all of them with ShowSuppressed, else none.
func (r Report) listedSuppressed() []analyze.Finding {
	if !r.ShowSuppressed {
		return nil
	}
	return r.Suppressed
}

// yamlOf prints v as sigs.k8s.io/yaml.Marshal does (JSON first, so json tags
// apply), without its JSON -> go-yaml -> YAML round trip.
func yamlOf(v any) ([]byte, error) {
	js, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, err
	}
	return goyaml.Marshal(yamlValues(x))
}

// Style is how text output looks: colour only when writing to a terminal and
// NO_COLOR is unset (the caller decides).
type Style struct {
	Color bool
}

// palette names the emphasis the output uses.
type palette int

const (
	errorStyle palette = iota
	warningStyle
	infoStyle
	dimStyle
	boldStyle
	okStyle
)

// colorRenderer renders ANSI colours whatever the output is; Style decides whether
// to use it, so that --color=always works through pipes.
var colorRenderer = func() *lipgloss.Renderer {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	return r
}()

func (p palette) style() lipgloss.Style {
	st := colorRenderer.NewStyle()
	switch p {
	case errorStyle:
		return st.Foreground(lipgloss.Color("9")).Bold(true)
	case warningStyle:
		return st.Foreground(lipgloss.Color("11"))
	case infoStyle:
		return st.Foreground(lipgloss.Color("12"))
	case dimStyle:
		return st.Faint(true)
	case okStyle:
		return st.Foreground(lipgloss.Color("10")).Bold(true)
	}
	return st.Bold(true)
}

func (s Style) paint(p palette, text string) string {
	if !s.Color || text == "" {
		return text
	}
	return p.style().Render(text)
}

func (s Style) severity(sev analyze.Severity) string {
	switch sev {
	case analyze.SeverityError:
		return s.paint(errorStyle, "error")
	case analyze.SeverityWarning:
		return s.paint(warningStyle, "warning")
	}
	return s.paint(infoStyle, "info")
}

// Table writes findings as a table; wide adds the field, the fix and, below
// the table, a link to each reported rule's entry in the catalog. With
// ShowSuppressed a second table lists the suppressed findings and the reasons.
func (r Report) Table(w io.Writer, st Style, wide bool) error {
	if len(r.Findings) > 0 {
		header := []string{"SEVERITY", "RULE", "OBJECT", "SOURCE", "MESSAGE"}
		if wide {
			header = []string{"SEVERITY", "RULE", "OBJECT", "FIELD", "SOURCE", "MESSAGE", "FIX"}
		}
		rows := make([][]string, 0, len(r.Findings)+1)
		rows = append(rows, header)
		for _, f := range r.Findings {
			object, source, message := TerminalText(f.Object.String()), st.paint(dimStyle, TerminalText(f.Source.String())), terminalCell(f.Message)
			row := []string{st.severity(f.Severity), string(f.Rule.ID), object, source, message}
			if wide {
				// The fix whole, on as many lines as it has: a ReferenceGrant
				// to apply is of no use cut to its first line.
				row = []string{st.severity(f.Severity), string(f.Rule.ID), object, TerminalText(f.Field), source, message, TerminalLines(f.Fix)}
			}
			rows = append(rows, row)
		}
		if err := writeColumns(w, rows); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	if suppressed := r.listedSuppressed(); len(suppressed) > 0 {
		fmt.Fprintf(w, "%s\n", st.paint(boldStyle, "suppressed in the manifest:"))
		rows := [][]string{{"SEVERITY", "RULE", "OBJECT", "SOURCE", "MESSAGE", "REASON"}}
		for _, f := range suppressed {
			rows = append(rows, []string{st.severity(f.Severity), string(f.Rule.ID), TerminalText(f.Object.String()), st.paint(dimStyle, TerminalText(f.Source.String())),
				terminalCell(f.Message), terminalCell(f.Suppression.Justification)})
		}
		if err := writeColumns(w, rows); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	if wide {
		if err := r.ruleLinks(w, st); err != nil {
			return err
		}
	}
	return r.summaryLine(w, st)
}

// ruleLinks lists each rule the table shows with its entry in the catalog
// (docs/rules.md), where its help, the spec text and a failing example are.
func (r Report) ruleLinks(w io.Writer, st Style) error {
	seen := map[*rules.Rule]bool{}
	var shown []*rules.Rule
	for _, f := range append(slices.Clip(r.Findings), r.listedSuppressed()...) {
		if !seen[f.Rule] {
			seen[f.Rule] = true
			shown = append(shown, f.Rule)
		}
	}
	if len(shown) == 0 {
		return nil
	}
	slices.SortFunc(shown, func(a, b *rules.Rule) int { return strings.Compare(string(a.ID), string(b.ID)) })
	rows := [][]string{{"RULE", "HELP"}}
	for _, rule := range shown {
		rows = append(rows, []string{string(rule.ID), st.paint(dimStyle, rule.HelpURI())})
	}
	if err := writeColumns(w, rows); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w)
	return err
}

func (r Report) summaryLine(w io.Writer, st Style) error {
	s := r.Summary
	verdict := st.paint(okStyle, "clean")
	if s.Warnings > 0 { // the run passes, but warnings are not clean
		verdict = st.paint(okStyle, "no errors")
	}
	if s.Errors > 0 {
		verdict = st.paint(errorStyle, plural(s.Errors, "error"))
	}
	_, err := fmt.Fprintf(w, "%s: %s, %s, %s; %s, %s, %d info%s\n",
		st.paint(boldStyle, "analyzed"), plural(s.Objects, "object"), plural(r.Listeners.Len(), "listener"), plural(r.attachedRoutes, "route attachment"),
		plural(s.Errors, "error"), plural(s.Warnings, "warning"), s.Info, r.notReported())
	if err == nil {
		err = WriteAdmission(w, r.Admission, st)
	}
	if err == nil && s.Errors == 0 {
		_, err = fmt.Fprintf(w, "%s\n", verdict)
	}
	return err
}

// notReported says what the counts leave out: suppressed findings, and
// those a baseline knows; "" when nothing is left out.
func (r Report) notReported() string {
	var parts []string
	if n := r.Summary.Suppressed; n > 0 {
		part := fmt.Sprintf("%d suppressed", n)
		if !r.ShowSuppressed {
			part += " (--show-suppressed lists them)"
		}
		parts = append(parts, part)
	}
	if b := r.Summary.Baseline; b != nil {
		part := fmt.Sprintf("baseline %s: %d new, %d known", TerminalText(b.File), b.New, b.Unchanged+b.Updated)
		if b.Absent > 0 {
			part += fmt.Sprintf(", %d no longer found (rewrite it with --write-baseline)", b.Absent)
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 {
		return ""
	}
	return "; " + strings.Join(parts, "; ")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// plural writes "1 error", "2 errors".
func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// lineArrays returns what writes a top-level field of a JSON object as an
// array with one compact line per item (item(i) for i < n, item from
// items), followed by a comma unless it is the object's last field: the form
// of the reports that stream through bw. items is called once for each
// goroutine that encodes a batch of the array, and the function it returns
// is called by that goroutine only: an item built in reused room needs a
// function, and room, of its own per call (Listeners.each); one that only
// reads may share one function (readOnly).
func lineArrays(bw *bufio.Writer) func(name string, n int, items func() func(i int) any, last bool) error {
	return func(name string, n int, items func() func(i int) any, last bool) error {
		fmt.Fprintf(bw, "  %q: [", name)
		if err := writeLines(bw, n, items); err != nil {
			return err
		}
		if n > 0 {
			bw.WriteString("\n  ")
		}
		bw.WriteString("]")
		if !last {
			bw.WriteString(",")
		}
		bw.WriteString("\n")
		return nil
	}
}

// lineLayout is how the items of a line array are written.
type lineLayout struct {
	// lead is written before each item, after the comma of the one before.
	lead string
	// indented items are indented and HTML-escaped as json.MarshalIndent(list,
	// "", "  ") writes a list's items; others are compact and unescaped.
	indented bool
}

var (
	// compactLines are the reports' line arrays: one compact line per item,
	// under a top-level field.
	compactLines = lineLayout{lead: "\n    "}
	// indentedItems are a top-level list's items as json.MarshalIndent
	// writes them.
	indentedItems = lineLayout{lead: "\n  ", indented: true}
)

// lineBatch is the text of consecutive items of a line array.
type lineBatch struct {
	layout lineLayout
	buf    bytes.Buffer
	enc    *json.Encoder
	// item is this batch's own, from the array's items: only the goroutine
	// encoding the batch calls it.
	item func(i int) any
	err  error
}

// encode writes items [lo, hi): each after a comma unless it is the first of
// the array, on a line of its own; it stops at the first that fails.
func (b *lineBatch) encode(lo, hi int, items func() func(i int) any) {
	if b.enc == nil {
		b.enc = json.NewEncoder(&b.buf)
		if b.layout.indented {
			b.enc.SetIndent("  ", "  ")
		} else {
			b.enc.SetEscapeHTML(false)
		}
		b.item = items()
	}
	item := b.item
	b.buf.Reset()
	b.err = nil
	for i := lo; i < hi; i++ {
		if i > 0 {
			b.buf.WriteString(",")
		}
		b.buf.WriteString(b.layout.lead)
		v := item(i)
		if a, ok := v.(indentedAppender); ok && b.layout.indented {
			b.buf.Write(a.appendIndented(b.buf.AvailableBuffer(), 1))
			continue
		}
		if err := b.enc.Encode(v); err != nil {
			b.err = err
			return
		}
		b.buf.Truncate(b.buf.Len() - 1) // Encode's newline
	}
}

// readOnly is the items of a line array whose item only reads: every
// goroutine may call the same function.
func readOnly(item func(i int) any) func() func(i int) any {
	return func() func(i int) any { return item }
}

// lineBatchItems is how many items one core encodes at a time.
const lineBatchItems = 64

// writeLines writes the n items of a line array. A large array is encoded on
// every core, a batch of items per core at a time, and written in order while
// the next batches are encoded: at 100k routes the report's 20,000 listeners
// and 21,000 findings are 32 MB of JSON, a tenth of the run's wall time on one
// core. Each call of items gives the function that one goroutine calls for
// the items it encodes, so that an item may be built in room that function
// reuses (Listeners.each); the functions of different calls run at once.
func writeLines(bw *bufio.Writer, n int, items func() func(i int) any) error {
	return writeItems(bw, n, items, compactLines)
}

// IndentedList writes a list of n items, item(i) from items as writeLines
// takes them, as json.MarshalIndent(list, "", "  ") writes it, and a
// newline: one item at a time, on every core when there are many, rather
// than the whole list marshaled and then indented (at 100k routes,
// simulate --all's 45 MB).
func IndentedList(w io.Writer, n int, items func() func(i int) any) error {
	if n == 0 {
		_, err := io.WriteString(w, "[]\n")
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("[")
	if err := writeItems(bw, n, items, indentedItems); err != nil {
		return err
	}
	bw.WriteString("\n]\n")
	return bw.Flush()
}

// writeItems writes the n items of a line array in layout.
func writeItems(bw *bufio.Writer, n int, items func() func(i int) any, layout lineLayout) error {
	k := cores(n)
	if k == 1 {
		// One item at a time: the buffer grows to the largest item, not to
		// a batch.
		b := lineBatch{layout: layout}
		for i := 0; i < n; i++ {
			b.encode(i, i+1, items)
			bw.Write(b.buf.Bytes())
			if b.err != nil {
				return b.err
			}
		}
		return nil
	}
	// Two rounds of k batches: one is written while the other is encoded.
	rounds := [2][]lineBatch{make([]lineBatch, k), make([]lineBatch, k)}
	for r := range rounds {
		for w := range rounds[r] {
			rounds[r][w].layout = layout
		}
	}
	write := func(round []lineBatch) error {
		for w := range round {
			bw.Write(round[w].buf.Bytes())
			round[w].buf.Reset()
			if err := round[w].err; err != nil {
				return err
			}
		}
		return nil
	}
	step := k * lineBatchItems
	for r, start := 0, 0; start < n; r, start = r+1, start+step {
		round := rounds[r%2]
		var wg sync.WaitGroup
		for w := range k {
			lo := min(start+w*lineBatchItems, n)
			wg.Go(func() { round[w].encode(lo, min(lo+lineBatchItems, n), items) })
		}
		err := write(rounds[(r+1)%2]) // the round before, if any
		wg.Wait()
		if err != nil {
			return err
		}
	}
	return write(rounds[((n+step-1)/step-1)%2])
}
