package triage

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// A baseline is the findings of one run, kept in a file so that later runs
// report only what is new (--write-baseline, --baseline). Findings are matched
// by analyze.FindingKey: rule, object and field, never line or message, so
// that an edit elsewhere in a file does not resurface them. docs/output.md
// documents the format.

// BaselineAPIVersion and BaselineKind head a baseline file.
const (
	BaselineAPIVersion = "gwtls.kubectl.dev/v1"
	BaselineKind       = "Baseline"
)

// Baseline is a baseline file.
type Baseline struct {
	APIVersion string            `json:"apiVersion"`
	Kind       string            `json:"kind"`
	Findings   []BaselineFinding `json:"findings"`
}

// BaselineFinding is one recorded finding: its key (rule, object, field), and
// for people and for the absent results of SARIF its severity, file and
// message, which matching ignores.
type BaselineFinding struct {
	Rule     rules.ID       `json:"rule"`
	Severity rules.Severity `json:"severity"`
	Object   model.Ref      `json:"object"`
	Field    string         `json:"field,omitempty"`
	File     string         `json:"file,omitempty"`
	Message  string         `json:"message"`
}

func (b BaselineFinding) key() analyze.FindingKey {
	return analyze.FindingKey{Rule: b.Rule, Object: b.Object, Field: b.Field}
}

// NewBaseline records findings, sorted by key then message, so that the same
// findings make the same file.
func NewBaseline(findings []analyze.Finding) *Baseline {
	b := &Baseline{APIVersion: BaselineAPIVersion, Kind: BaselineKind, Findings: make([]BaselineFinding, 0, len(findings))}
	for _, f := range findings {
		b.Findings = append(b.Findings, BaselineFinding{Rule: f.Rule.ID, Severity: f.Severity, Object: f.Object, Field: f.Field, File: f.Source.File, Message: f.Message})
	}
	slices.SortFunc(b.Findings, func(x, y BaselineFinding) int {
		return cmp.Or(strings.Compare(string(x.Rule), string(y.Rule)), strings.Compare(x.Object.String(), y.Object.String()),
			strings.Compare(x.Field, y.Field), strings.Compare(x.Message, y.Message))
	})
	return b
}

// Marshal is the baseline file's bytes: indented JSON, one key per line, so
// a change to a baseline reviews as a diff.
func (b *Baseline) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(b); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ReadBaseline reads a baseline file.
func ReadBaseline(path string) (*Baseline, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	return ParseBaseline(path, data)
}

// ParseBaseline reads a baseline file's contents; path names it in errors.
func ParseBaseline(path string, data []byte) (*Baseline, error) {
	var b Baseline
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("baseline %s: %w (write one with --write-baseline)", path, err)
	}
	if b.APIVersion != BaselineAPIVersion || b.Kind != BaselineKind {
		return nil, fmt.Errorf("baseline %s: apiVersion %q, kind %q: want %s %s (write one with --write-baseline)", path, b.APIVersion, b.Kind, BaselineAPIVersion, BaselineKind)
	}
	for i, f := range b.Findings {
		if _, ok := rules.Lookup(f.Rule); !ok {
			return nil, fmt.Errorf("baseline %s: findings[%d]: rule %q is not a rule of this version of kubectl-gwtls", path, i, f.Rule)
		}
	}
	return &b, nil
}

// CompareBaseline compares the run with a baseline read from file. The
// reported findings the baseline records move to res.Baseline.Known
// (unchanged, or updated when the message changed); the rest are marked new.
// Suppressed findings are compared too, after the reported ones, and stay
// suppressed: SARIF wants a state on every result. The recorded findings no
// longer found are res.Baseline.Absent. A finding the baseline records twice
// is matched twice: findings are counted, not only keyed.
func CompareBaseline(res *analyze.Result, b *Baseline, file string) {
	recorded := map[analyze.FindingKey][]BaselineFinding{}
	for _, f := range b.Findings {
		recorded[f.key()] = append(recorded[f.key()], f)
	}
	// match marks f against the recorded findings of its key, using one up.
	match := func(f *analyze.Finding) bool {
		candidates := recorded[f.Key()]
		if len(candidates) == 0 {
			f.BaselineState = analyze.BaselineNew
			return false
		}
		// The same message first: it is that one.
		i := slices.IndexFunc(candidates, func(c BaselineFinding) bool { return c.Message == f.Message })
		f.BaselineState = analyze.BaselineUnchanged
		if i < 0 {
			i = 0
			f.BaselineState = analyze.BaselineUpdated
		}
		recorded[f.Key()] = slices.Delete(candidates, i, i+1)
		return true
	}
	cmpn := &analyze.BaselineComparison{File: file}
	reported := res.Findings[:0:0]
	for _, f := range res.Findings {
		if match(&f) {
			cmpn.Known = append(cmpn.Known, f)
		} else {
			reported = append(reported, f)
		}
	}
	for i := range res.Suppressed {
		match(&res.Suppressed[i])
	}
	for _, f := range b.Findings {
		left := recorded[f.key()]
		if len(left) == 0 || left[0] != f {
			continue
		}
		recorded[f.key()] = left[1:]
		r, _ := rules.Lookup(f.Rule)
		cmpn.Absent = append(cmpn.Absent, analyze.Finding{Rule: r, Severity: f.Severity, Object: f.Object, Field: f.Field,
			Source: model.Source{File: f.File}, Message: f.Message, BaselineState: analyze.BaselineAbsent})
	}
	res.Findings = reported
	res.Baseline = cmpn
}
