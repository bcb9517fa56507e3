package render_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/render"
)

// TestWriteStatusMatchesItems: the streaming writers (batches rendered on every
// core) print exactly what marshalling the whole list at once prints, across
// batch boundaries and for an input with nothing to report.
func TestWriteStatusMatchesItems(t *testing.T) {
	in, err := generate.Load(t.TempDir(), "in", generate.Scaled(3, 1200))
	if err != nil {
		t.Fatal(err)
	}
	m := in.Model
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for name, res := range map[string]*analyze.Result{
		"generated": analyze.Analyze(m, analyze.Options{Now: now}),
		"empty":     analyze.Analyze(&model.Model{}, analyze.Options{Now: now}),
	} {
		items, err := render.StatusItems(res)
		if err != nil {
			t.Fatal(err)
		}
		if name == "generated" && len(items) < 1000 {
			t.Fatalf("only %d items: the input should span several batches", len(items))
		}
		var want, got bytes.Buffer
		if err := render.StatusJSON(&want, items); err != nil {
			t.Fatal(err)
		}
		if err := render.WriteStatusJSON(&got, res); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(want.Bytes(), got.Bytes()) {
			t.Errorf("%s: WriteStatusJSON differs from StatusJSON (%d vs %d bytes)", name, got.Len(), want.Len())
		}
		want.Reset()
		got.Reset()
		if err := render.StatusYAML(&want, items); err != nil {
			t.Fatal(err)
		}
		if err := render.WriteStatusYAML(&got, res); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(want.Bytes(), got.Bytes()) {
			t.Errorf("%s: WriteStatusYAML differs from StatusYAML (%d vs %d bytes)", name, got.Len(), want.Len())
		}
	}
}
