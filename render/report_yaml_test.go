package render_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/render"
)

// TestReportYAMLMatchesSigsYAML: the streaming YAML report prints exactly what
// converting the whole report with sigs.k8s.io/yaml prints, long folded lines and
// multi-line fixes (ReferenceGrant YAML) included, and for an empty report and
// one with unreadable kinds.
func TestReportYAMLMatchesSigsYAML(t *testing.T) {
	in, err := generate.Load(t.TempDir(), "in", generate.Scaled(5, 1200))
	if err != nil {
		t.Fatal(err)
	}
	m := in.Model
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	generated := render.NewReport(analyze.Analyze(m, analyze.Options{Now: now}))
	if len(generated.Findings) < 100 {
		t.Fatalf("only %d findings", len(generated.Findings))
	}
	unreadable := render.NewReport(analyze.Analyze(&model.Model{Unreadable: []model.Unreadable{{Kind: "Secret", Namespace: "a", Reason: "forbidden"}}}, analyze.Options{Now: now}))
	for name, r := range map[string]render.Report{
		"generated":  generated,
		"empty":      render.NewReport(analyze.Analyze(&model.Model{}, analyze.Options{Now: now})),
		"unreadable": unreadable,
	} {
		js, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		want, err := yaml.JSONToYAML(js)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := r.YAML(&got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			g, w := got.String(), string(want)
			i := 0
			for i < len(g) && i < len(w) && g[i] == w[i] {
				i++
			}
			t.Errorf("%s: YAML differs from sigs.k8s.io/yaml at byte %d:\ngot  %q\nwant %q", name, i, g[max(0, i-80):min(len(g), i+80)], w[max(0, i-80):min(len(w), i+80)])
		}
	}
}
