package render

import (
	"fmt"
	"io"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/explain"
)

// ExplanationTree writes an explanation as a tree: each section's checks in order,
// ✓ or ✗, the decisive failure marked, inputs, fixes, then the final conditions.
func ExplanationTree(w io.Writer, x *explain.Explanation, st Style) error {
	var b strings.Builder
	head := fmt.Sprintf("%s %s", x.Object.Kind, x.Object.NamespacedName())
	if x.Object.Namespace == "" {
		head = fmt.Sprintf("%s %s", x.Object.Kind, x.Object.Name)
	}
	b.WriteString(st.paint(boldStyle, TerminalText(head)))
	if s := TerminalText(x.Source.String()); s != "" {
		b.WriteString("  " + st.paint(dimStyle, s))
	}
	b.WriteString("\n")
	for i, sec := range x.Sections {
		writeSection(&b, sec, "", i == len(x.Sections)-1, st)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeSection(b *strings.Builder, sec explain.Section, indent string, last bool, st Style) {
	branch, cont := "├─ ", "│  "
	if last {
		branch, cont = "└─ ", "   "
	}
	b.WriteString(indent + branch + st.paint(boldStyle, TerminalText(sec.Title)) + "\n")
	inner := indent + cont
	if sec.Text != "" {
		for _, l := range strings.Split(TerminalLines(sec.Text), "\n") {
			b.WriteString(inner + "   " + strings.TrimRight(l, " ") + "\n")
		}
	}
	n := len(sec.Steps) + len(sec.Sections)
	if len(sec.Conditions) > 0 || len(sec.Written) > 0 {
		n++
	}
	i := 0
	for _, s := range sec.Steps {
		i++
		writeStep(b, s, inner, i == n, st)
	}
	for _, sub := range sec.Sections {
		i++
		writeSection(b, sub, inner, i == n, st)
	}
	if len(sec.Conditions) > 0 {
		var parts []string
		for _, c := range sec.Conditions {
			text := TerminalText(fmt.Sprintf("%s=%s (%s)", c.Type, c.Status, c.Reason))
			if healthy(c.Type, metav1.ConditionStatus(c.Status)) {
				parts = append(parts, st.paint(okStyle, text))
			} else {
				parts = append(parts, st.paint(errorStyle, text))
			}
		}
		b.WriteString(inner + "└─ status: " + strings.Join(parts, "  ") + "\n")
	} else if len(sec.Written) > 0 {
		b.WriteString(inner + "└─ status: not in the spec\n")
	}
	for _, w := range sec.Written {
		writeWritten(b, w, inner+"   ", st)
	}
}

// writeWritten writes what a controller wrote beside what the spec says, one
// row per condition type and compared field; a condition that differs is
// followed by the check that decides the spec's answer.
func writeWritten(b *strings.Builder, w explain.Written, indent string, st Style) {
	who := "controller wrote"
	if w.Controller != "" {
		who += " (" + TerminalText(w.Controller) + ")"
	}
	if w.Part != "" && strings.HasPrefix(w.Part, "ancestor ") {
		who += " for " + TerminalText(w.Part)
	}
	if w.NotCompared != "" {
		b.WriteString(indent + who + ": " + st.paint(dimStyle, "not compared: "+TerminalText(w.NotCompared)) + "\n")
		return
	}
	rows := [][4]string{{"", "spec says", who, ""}}
	var decided []string
	for _, c := range w.Conditions {
		rows = append(rows, [4]string{TerminalText(c.Type), TerminalText(c.SpecSays.String()), TerminalText(c.Wrote.String()), string(c.Verdict)})
		decided = append(decided, TerminalText(c.DecidedBy))
	}
	for _, c := range w.Counts {
		v := "same"
		if c.Differs {
			v = "differs"
		}
		rows = append(rows, [4]string{TerminalText(c.Field), TerminalText(orDash(c.Spec)), TerminalText(orDash(c.Written)), v})
		decided = append(decided, "")
	}
	var width [3]int
	for _, r := range rows {
		for i := range width {
			width[i] = max(width[i], len([]rune(r[i])))
		}
	}
	pad := func(s string, n int) string { return s + strings.Repeat(" ", n-len([]rune(s))) }
	for i, r := range rows {
		line := pad(r[0], width[0]) + "  " + pad(r[1], width[1]) + "  " + pad(r[2], width[2])
		if i == 0 {
			b.WriteString(indent + st.paint(dimStyle, strings.TrimRight(line, " ")) + "\n")
			continue
		}
		b.WriteString(indent + line + "  " + verdictMark(r[3], st) + "\n")
		if d := decided[i-1]; d != "" {
			b.WriteString(indent + "   " + st.paint(warningStyle, "decided by: ") + d + "\n")
		}
	}
}

// verdictMark shows a verdict: ✓ for what agrees, ✗ for what differs, the
// verdict's name for what is not compared.
func verdictMark(v string, st Style) string {
	switch v {
	case "same":
		return st.paint(okStyle, "✓")
	case "differs":
		return st.paint(errorStyle, "✗ differs")
	case "status-only":
		return st.paint(okStyle, "✓") + " " + st.paint(dimStyle, "same status; implementation-specific reason")
	case "implementation-specific":
		return st.paint(dimStyle, "implementation-specific condition")
	case "not-decided":
		return st.paint(dimStyle, "not decided from configuration")
	case "data-plane":
		return st.paint(dimStyle, "data-plane state")
	case "not-written":
		return st.paint(dimStyle, "not written")
	}
	return v
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func writeStep(b *strings.Builder, s explain.Step, indent string, last bool, st Style) {
	branch, cont := "├─ ", "│  "
	if last {
		branch, cont = "└─ ", "   "
	}
	mark := st.paint(okStyle, "✓")
	if !s.Passed {
		mark = st.paint(errorStyle, "✗")
	}
	line := fmt.Sprintf("%s %s  %s", mark, st.paint(dimStyle, TerminalText(s.Rule)), TerminalText(s.Detail))
	if s.Decisive {
		line += "  " + st.paint(errorStyle, "◀ decided here")
	}
	b.WriteString(indent + branch + line + "\n")
	detail := indent + cont + "   "
	if len(s.Inputs) > 0 {
		keys := make([]string, 0, len(s.Inputs))
		for k := range s.Inputs {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var kv []string
		for _, k := range keys {
			kv = append(kv, fmt.Sprintf("%s=%q", k, s.Inputs[k]))
		}
		b.WriteString(detail + st.paint(dimStyle, "inputs: "+strings.Join(kv, " ")) + "\n")
	}
	if s.Fix != "" {
		lines := strings.Split(TerminalLines(s.Fix), "\n")
		b.WriteString(detail + st.paint(warningStyle, "fix: ") + lines[0] + "\n")
		for _, l := range lines[1:] {
			b.WriteString(detail + "     " + l + "\n")
		}
	}
}
