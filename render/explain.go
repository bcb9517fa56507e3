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
	b.WriteString(st.paint(boldStyle, head))
	if s := x.Source.String(); s != "" {
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
	b.WriteString(indent + branch + st.paint(boldStyle, sec.Title) + "\n")
	inner := indent + cont
	if sec.Text != "" {
		for _, l := range strings.Split(sec.Text, "\n") {
			b.WriteString(inner + "   " + strings.TrimRight(l, " ") + "\n")
		}
	}
	n := len(sec.Steps) + len(sec.Sections)
	if len(sec.Conditions) > 0 {
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
			text := fmt.Sprintf("%s=%s (%s)", c.Type, c.Status, c.Reason)
			if healthy(c.Type, metav1.ConditionStatus(c.Status)) {
				parts = append(parts, st.paint(okStyle, text))
			} else {
				parts = append(parts, st.paint(errorStyle, text))
			}
		}
		b.WriteString(inner + "└─ status: " + strings.Join(parts, "  ") + "\n")
	}
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
	line := fmt.Sprintf("%s %s  %s", mark, st.paint(dimStyle, s.Rule), s.Detail)
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
		lines := strings.Split(s.Fix, "\n")
		b.WriteString(detail + st.paint(warningStyle, "fix: ") + lines[0] + "\n")
		for _, l := range lines[1:] {
			b.WriteString(detail + "     " + l + "\n")
		}
	}
}
