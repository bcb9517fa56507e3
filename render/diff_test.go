package render_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/change"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/render"
)

// DiffReport.JSON streams the report an entry per line; what it says is what
// encoding/json says of the same report, every section and field.
func TestDiffJSONIsTheReport(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var res [2]*analyze.Result
	for i, side := range []string{"base", "head"} {
		m, err := load.Files(load.FileOptions{Filenames: []string{"../testdata/diff/route-rejected-accepted/" + side + ".yaml"}})
		if err != nil {
			t.Fatal(err)
		}
		res[i] = analyze.Analyze(m, analyze.Options{Now: now})
	}
	d := change.Compare(res[0], res[1], change.Options{Now: now, WarnExpiry: 30 * 24 * time.Hour})
	for _, section := range []int{len(d.Hostnames), len(d.Routes), len(d.DNS), len(d.Certificates), len(d.Findings)} {
		if section == 0 {
			t.Fatal("a section is empty: the case proves less than it should")
		}
	}
	r := render.NewDiffReport(d, render.DiffInput{From: "files", Objects: 1}, render.DiffInput{From: "files", Objects: 2}, analyze.SeverityError)
	var streamed bytes.Buffer
	if err := r.JSON(&streamed); err != nil {
		t.Fatal(err)
	}
	whole, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	if err := json.Unmarshal(streamed.Bytes(), &a); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, streamed.Bytes())
	}
	if err := json.Unmarshal(whole, &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("the streamed report differs from encoding/json's:\n%s\n%s", streamed.Bytes(), whole)
	}
}
