package render_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/render"
)

// TestReportListenersOnEveryCore: a report with enough listeners that the
// JSON writer encodes them on every core at once (more than 4,096) writes
// each listener as At builds it. Each core builds its listeners in a summary
// of its own: merged with one summary shared by the cores, analyze -o json
// panicked at 100k routes or wrote listeners with each other's routes.
func TestReportListenersOnEveryCore(t *testing.T) {
	if testing.Short() {
		t.Skip("a 21,000-route input")
	}
	in, err := generate.Load(t.TempDir(), "in", generate.Scaled(1, 21000))
	if err != nil {
		t.Fatal(err)
	}
	r := render.NewReport(analyze.Analyze(in.Model, analyze.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}))
	if r.Listeners.Len() <= 4096 {
		t.Fatalf("%d listeners: too few to be encoded on every core", r.Listeners.Len())
	}
	written := writtenListeners(t, r)
	for i, got := range written {
		want, err := json.Marshal(r.Listeners.At(i))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("listener %d written as\n%s\nwant\n%s", i, got, want)
		}
	}
}

// writtenListeners is each listener as the report's JSON writes it, one
// per listener of the report.
func writtenListeners(t *testing.T, r render.Report) []json.RawMessage {
	t.Helper()
	var out bytes.Buffer
	if err := r.JSON(&out); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Listeners []json.RawMessage `json:"listeners"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Listeners) != r.Listeners.Len() {
		t.Fatalf("wrote %d listeners, want %d", len(doc.Listeners), r.Listeners.Len())
	}
	return doc.Listeners
}
