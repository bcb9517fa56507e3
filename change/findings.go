package change

import (
	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
)

// Finding is a finding new in head or fixed since base.
type Finding struct {
	// Finding is head's for a new finding, base's for a fixed one.
	Finding analyze.Finding `json:"finding"`
	Changes []Change        `json:"changes"`
}

// compareFindings matches findings by analyze.Finding.Key (rule, object,
// field), as many times as each side has a key: head's findings past base's
// count are new, base's past head's are fixed. New findings come first, then
// fixed ones, each in its side's order (the engine's: by file and line).
func compareFindings(b, h []analyze.Finding) []Finding {
	count := func(fs []analyze.Finding) map[analyze.FindingKey]int {
		m := make(map[analyze.FindingKey]int, len(fs))
		for i := range fs {
			m[fs[i].Key()]++
		}
		return m
	}
	inBase, inHead := count(b), count(h)
	out := []Finding{}
	for i := range h {
		f := &h[i]
		k := f.Key()
		if inBase[k] > 0 {
			inBase[k]--
			continue
		}
		c := newChange(FindingNew, f.Message, "", f.Severity.String(), located{f.Source, Head})
		sev := f.Severity
		c.Regression, c.Severity = true, &sev
		out = append(out, Finding{Finding: *f, Changes: []Change{c}})
	}
	for i := range b {
		f := &b[i]
		k := f.Key()
		if inHead[k] > 0 {
			inHead[k]--
			continue
		}
		out = append(out, Finding{Finding: *f, Changes: []Change{newChange(FindingFixed, f.Message, f.Severity.String(), "", located{f.Source, Base})}})
	}
	return out
}
