package render_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
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

// A diff names the CRDs once when both sides were held to the same ones, with
// each side's refusals, and each side's when they differ (a cluster's served
// CRDs as base, the built-in ones for the files), in every text view.
func TestDiffNamesTheCRDs(t *testing.T) {
	builtin := &render.Admission{Enabled: true, CRDs: "Gateway API v1.6.3 experimental channel, built in"}
	headBuiltin := &render.Admission{Enabled: true, CRDs: builtin.CRDs, Refused: 1}
	cluster := &render.Admission{Enabled: true, CRDs: "Gateway API v1.5.0 standard channel, from the cluster"}
	off := &render.Admission{CRDs: builtin.CRDs}
	for _, tc := range []struct {
		name       string
		base, head *render.Admission
		table      []string
		markdown   []string
		github     []string
	}{
		{"the same CRDs, named once with each side's refusals", builtin, headBuiltin,
			[]string{"admission: Gateway API v1.6.3 experimental channel, built in; 0 objects refused in base, 1 in head\n"},
			[]string{"Admission: Gateway API v1.6.3 experimental channel, built in; 0 objects refused in base, 1 in head  \n"},
			[]string{"::notice title=admission::Gateway API v1.6.3 experimental channel, built in; 0 objects refused in base, 1 in head\n"}},
		{"other CRDs on each side, each named", cluster, headBuiltin,
			[]string{"base admission: Gateway API v1.5.0 standard channel, from the cluster; 0 objects refused\n",
				"head admission: Gateway API v1.6.3 experimental channel, built in; 1 object refused\n"},
			[]string{"Base admission: Gateway API v1.5.0 standard channel, from the cluster; 0 objects refused  \n",
				"Head admission: Gateway API v1.6.3 experimental channel, built in; 1 object refused  \n"},
			[]string{"::notice title=base admission::Gateway API v1.5.0 standard channel, from the cluster; 0 objects refused\n",
				"::notice title=head admission::Gateway API v1.6.3 experimental channel, built in; 1 object refused\n"}},
		{"admission off on both sides, said once", off, off,
			[]string{"admission: off; the defaults of Gateway API v1.6.3 experimental channel, built in applied\n"},
			[]string{"Admission: off; the defaults of Gateway API v1.6.3 experimental channel, built in applied  \n"},
			[]string{"::notice title=admission::off; the defaults of Gateway API v1.6.3 experimental channel, built in applied\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := render.NewDiffReport(&change.Diff{}, render.DiffInput{From: "files", Admission: tc.base},
				render.DiffInput{From: "files", Admission: tc.head}, analyze.SeverityError)
			var table, markdown, github bytes.Buffer
			if err := r.Table(&table, render.Style{}); err != nil {
				t.Fatal(err)
			}
			if err := r.Markdown(&markdown, render.MarkdownOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := r.GitHubAnnotations(&github); err != nil {
				t.Fatal(err)
			}
			for _, view := range []struct {
				name  string
				out   string
				lines []string
			}{{"table", table.String(), tc.table}, {"markdown", markdown.String(), tc.markdown}, {"github", github.String(), tc.github}} {
				for _, line := range view.lines {
					if !strings.Contains(view.out, line) {
						t.Errorf("%s does not say %q:\n%s", view.name, line, view.out)
					}
				}
				if got, want := strings.Count(view.out, "dmission"), len(view.lines); got != want {
					t.Errorf("%s names the CRDs %d times, want %d:\n%s", view.name, got, want, view.out)
				}
			}
			if got := github.String(); !strings.HasPrefix(got, "::notice title=") {
				t.Errorf("github does not open with the admission notice:\n%s", got)
			}
		})
	}
}
