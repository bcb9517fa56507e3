package render

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/kubectl-gwtls/kubectl-gwtls/drift"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/linediff"
)

// maxDiffEdits bounds the line diff of one object's statuses; past it, the
// two statuses are shown whole.
const maxDiffEdits = 2000

// StatusDiff writes, per object, a unified diff of the status its controller
// wrote ("-") against the status the spec says ("+"), each as drift compares
// them (drift.Pair); objects whose two sides agree print nothing. It returns
// how many objects were compared and how many differ.
func StatusDiff(w io.Writer, pairs []drift.Pair) (compared, differ int, err error) {
	bw := bufio.NewWriter(w)
	for _, p := range pairs {
		written, err := yamlLines(p.Written)
		if err != nil {
			return 0, 0, err
		}
		computed, err := yamlLines(p.Computed)
		if err != nil {
			return 0, 0, err
		}
		compared++
		name := p.Ref.Kind + " " + p.Ref.NamespacedName().String()
		from := "written: " + name
		if s := p.Source.String(); s != "" {
			from += " (" + s + ")"
		}
		d := linediff.Unified(from, "spec: "+name, written, computed, maxDiffEdits)
		if d == "" {
			continue
		}
		differ++
		bw.WriteString(d)
	}
	return compared, differ, bw.Flush()
}

// yamlLines is a value as YAML, one line per element.
func yamlLines(v any) ([]string, error) {
	b, err := yaml.Marshal(v)
	if err != nil {
		return nil, err
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"), nil
}

// StatusDiffSummary is the line that ends a status diff, on stderr.
func StatusDiffSummary(w io.Writer, compared, differ int) {
	fmt.Fprintf(w, "status diff: %d objects compared, %d differ (messages and lastTransitionTime are not compared)\n", compared, differ)
}
