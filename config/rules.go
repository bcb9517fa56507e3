package config

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/suggest"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// RuleSetting is one entry of rules: a rule ID or glob and what it says of
// the rules it matches: off, on (at their default severity) or on at a
// severity.
type RuleSetting struct {
	Pattern string
	Off     bool
	// Severity, when set, replaces the severity of the rules' findings.
	Severity *rules.Severity
	Line     int
	// matched are the rules the pattern matches.
	matched []*rules.Rule
}

// RuleValues are the values a rules: entry may have (and true and false, as
// on and off).
var RuleValues = []string{"off", "on", "error", "warning", "info"}

// rules reads the rules: mapping, pattern -> value.
func (d *decoder) rules(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return d.errorf(n, "rules: want a mapping of rule IDs or globs to off, on, error, warning or info")
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolve(n.Content[i+1])
		if seen[k.Value] {
			return d.errorf(k, "rules: %q is set twice", k.Value)
		}
		seen[k.Value] = true
		matched, err := MatchRules(k.Value)
		if err != nil {
			return d.errorf(k, "rules: %v", err)
		}
		s := RuleSetting{Pattern: k.Value, Line: k.Line, matched: matched}
		value, err := d.string(v)
		if err != nil {
			return d.errorf(v, "rules: %s: want one of %s", k.Value, strings.Join(RuleValues, ", "))
		}
		if v.Tag == "!!bool" {
			// YAML 1.1 readers (yaml.v2, many editors' schemas) read off and on
			// as false and true; either spelling means the same here.
			value = map[string]string{"true": "on", "false": "off"}[value]
		}
		switch value {
		case "off":
			s.Off = true
		case "on":
		case "error", "warning", "info":
			sev, _ := rules.ParseSeverity(value)
			s.Severity = &sev
		default:
			return d.errorf(v, "rules: %s: %q: want one of %s%s", k.Value, value, strings.Join(RuleValues, ", "), didYouMean(value, RuleValues))
		}
		d.cfg.Rules = append(d.cfg.Rules, s)
	}
	return nil
}

// MatchRules is every rule a pattern (an ID or a glob) matches, as
// rules.Match; when it matches none, the error names the closest rule ID.
func MatchRules(pattern string) ([]*rules.Rule, error) {
	matched, err := rules.Match(pattern)
	if err == nil {
		return matched, nil
	}
	if id, ok := ClosestRule(pattern); ok {
		return nil, fmt.Errorf("no rule matches %q (did you mean %s?); kubectl gwtls rules lists them", pattern, id)
	}
	return nil, fmt.Errorf("no rule matches %q; kubectl gwtls rules lists them", pattern)
}

// ClosestRule is the rule ID a pattern that matches no rule most likely
// meant, if one is close. A glob is compared with the IDs cut to its length,
// so certificate/Weak* is close to certificate/WeakKey.
func ClosestRule(pattern string) (rules.ID, bool) {
	var best rules.ID
	dist := -1
	for _, r := range rules.All() {
		id := string(r.ID)
		if strings.HasSuffix(pattern, "*") && len(id) >= len(pattern) {
			id = id[:len(pattern)-1] + "*"
		}
		if d := suggest.Distance(pattern, id); dist < 0 || d < dist {
			best, dist = r.ID, d
		}
	}
	return best, best != "" && dist <= max(3, len(pattern)/4)
}

// RuleConfig is what the configuration makes of one rule.
type RuleConfig struct {
	// Off: the rule does not run; its findings are dropped.
	Off bool
	// Severity, when set, is the severity of all its findings.
	Severity *rules.Severity
	// By is the entry that decided, nil for the defaults.
	By *RuleSetting
}

// Rule is what the configuration says of a rule. When several entries match
// it, the most specific decides: an ID before any glob, then the glob with the
// most characters other than '*'; between equals, the later in the file. So
// "certificate/*: off" with "certificate/Expired: error" runs only
// certificate/Expired, at error.
func (c *Config) Rule(r *rules.Rule) RuleConfig {
	if c == nil {
		return RuleConfig{}
	}
	var best *RuleSetting
	for i := range c.Rules {
		s := &c.Rules[i]
		if !matches(s.matched, r) {
			continue
		}
		if best == nil || specificity(s.Pattern) >= specificity(best.Pattern) {
			best = s
		}
	}
	if best == nil {
		return RuleConfig{}
	}
	return RuleConfig{Off: best.Off, Severity: best.Severity, By: best}
}

func matches(rs []*rules.Rule, r *rules.Rule) bool {
	for _, m := range rs {
		if m == r {
			return true
		}
	}
	return false
}

// specificity ranks a pattern: an ID above every glob, and a glob by its
// characters other than '*'.
func specificity(pattern string) int {
	if !strings.Contains(pattern, "*") {
		return 1 << 30
	}
	return len(pattern) - strings.Count(pattern, "*")
}
