package analyze

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The selector cache keys selectors by selectorID: two different selectors must
// never share an ID, and a cached parse must equal a fresh one.
func TestSelectorCacheKeepsSelectorsApart(t *testing.T) {
	in := func(key string, values ...string) metav1.LabelSelectorRequirement {
		return metav1.LabelSelectorRequirement{Key: key, Operator: metav1.LabelSelectorOpIn, Values: values}
	}
	selectors := []*metav1.LabelSelector{
		{},
		{MatchLabels: map[string]string{"env": "prod"}},
		{MatchLabels: map[string]string{"env": "prod", "team": "a"}},
		{MatchLabels: map[string]string{"envprod": ""}},
		{MatchLabels: map[string]string{"e": "nvprod"}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{in("env", "prod", "dev")}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{in("env", "proddev")}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{in("env", "prod"), in("dev")}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "env", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"prod", "dev"}}}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "env", Operator: metav1.LabelSelectorOpExists}}},
		{MatchLabels: map[string]string{"env": "prod"}, MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "team", Operator: metav1.LabelSelectorOpExists}}},
		{MatchLabels: map[string]string{"not valid!": "x"}},
	}
	seen := map[string]int{}
	var c selectorCache
	for round := range 2 { // the second round is answered from the cache
		for i, ls := range selectors {
			id := selectorID(ls)
			if j, ok := seen[id]; ok && j != i {
				t.Fatalf("selectors %d and %d share the ID %q", i, j, id)
			}
			seen[id] = i
			sel, key := c.parse(ls)
			want, wantKey := parseSelector(ls)
			if (sel == nil) != (want == nil) || key != wantKey {
				t.Errorf("round %d, selector %d: cache gave %q, parsing gives %q", round, i, key, wantKey)
			}
		}
	}
	if len(c.m) != len(selectors) {
		t.Errorf("cache holds %d selectors, want %d", len(c.m), len(selectors))
	}
}
