package triage

import (
	"fmt"
	"strings"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/config"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// The gwtls.kubectl.dev/ignore annotation holds one entry per line, each
// "RULE: reason": RULE a rule ID or glob, the reason everything after the
// first colon (so it may hold commas and colons). A finding is suppressed by
// an entry on the object the finding names: a certificate finding names the
// Secret, a listener finding the Gateway or ListenerSet that declares it.

// entry is one line of the annotation.
type entry struct {
	pattern string
	reason  string
	// matched are the rules the pattern matches; err says why it matches none.
	matched []*rules.Rule
	err     error
	used    bool
}

// ignored is an object that carries the annotation.
type ignored struct {
	ref     model.Ref
	source  model.Source
	entries []*entry
}

// ignores are the annotated objects of a model, by the reference findings
// name them with, in input order.
type ignores struct {
	byRef map[model.Ref]*ignored
	order []*ignored
}

// readIgnores reads the annotation on every object of the model, whatever its
// kind, so an entry on an object no finding names is reported as unused.
func readIgnores(m *model.Model) *ignores {
	ig := &ignores{byRef: map[model.Ref]*ignored{}}
	add := func(meta model.Meta, namespace, name string, annotations map[string]string) {
		value, ok := annotations[rules.IgnoreAnnotation]
		if !ok {
			return
		}
		o := &ignored{ref: model.Ref{Kind: meta.Kind, Namespace: namespace, Name: name}, source: meta.Source, entries: parseIgnore(value)}
		ig.byRef[o.ref] = o
		ig.order = append(ig.order, o)
	}
	for _, o := range m.GatewayClasses {
		add(o.Meta, o.Obj.Namespace, o.Obj.Name, o.Obj.Annotations)
	}
	for _, o := range m.Gateways {
		add(o.Meta, o.Obj.Namespace, o.Obj.Name, o.Obj.Annotations)
	}
	for _, o := range m.ListenerSets {
		add(o.Meta, o.Obj.Namespace, o.Obj.Name, o.Obj.Annotations)
	}
	for _, o := range m.Routes {
		add(o.Meta, o.ObjectMeta.Namespace, o.ObjectMeta.Name, o.ObjectMeta.Annotations)
	}
	for _, o := range m.ReferenceGrants {
		add(o.Meta, o.Obj.Namespace, o.Obj.Name, o.Obj.Annotations)
	}
	for _, o := range m.BackendTLSPolicies {
		add(o.Meta, o.Obj.Namespace, o.Obj.Name, o.Obj.Annotations)
	}
	for _, o := range m.Secrets {
		add(o.Meta, o.Obj.Namespace, o.Obj.Name, o.Obj.Annotations)
	}
	for _, o := range m.ConfigMaps {
		add(o.Meta, o.Obj.Namespace, o.Obj.Name, o.Obj.Annotations)
	}
	for _, o := range m.Services {
		add(o.Meta, o.Obj.Namespace, o.Obj.Name, o.Obj.Annotations)
	}
	for _, o := range m.Namespaces {
		add(o.Meta, o.Obj.Namespace, o.Obj.Name, o.Obj.Annotations)
	}
	for _, o := range m.Meshes {
		add(o.Meta, o.ObjectMeta.Namespace, o.ObjectMeta.Name, o.ObjectMeta.Annotations)
	}
	return ig
}

// parseIgnore reads the annotation's entries; blank lines are skipped.
func parseIgnore(value string) []*entry {
	var out []*entry
	for _, line := range strings.Split(value, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		pattern, reason, _ := strings.Cut(line, ":")
		e := &entry{pattern: strings.TrimSpace(pattern), reason: strings.TrimSpace(reason)}
		e.matched, e.err = rules.Match(e.pattern)
		out = append(out, e)
	}
	return out
}

// suppress is the suppression of the first entry on the finding's object that
// matches its rule and gives a reason; nil when none does.
func (ig *ignores) suppress(f analyze.Finding) *analyze.Suppression {
	o := ig.byRef[f.Object]
	if o == nil {
		return nil
	}
	for _, e := range o.entries {
		if e.err == nil && e.reason != "" && matches(e.matched, f.Rule) {
			e.used = true
			return &analyze.Suppression{Kind: analyze.SuppressionInSource, Rule: e.pattern, Justification: e.reason}
		}
	}
	return nil
}

// problems are the findings about the entries themselves: an entry without a
// reason, one that names no rule, and one that suppressed nothing although
// its rules run.
func (ig *ignores) problems(cfg *config.Config) []analyze.Finding {
	var out []analyze.Finding
	for _, o := range ig.order {
		for _, e := range o.entries {
			add := func(p rules.Problem) {
				field := fmt.Sprintf("metadata.annotations[%s][%s]", rules.IgnoreAnnotation, e.pattern)
				out = append(out, analyze.Finding{Rule: p.Rule, Severity: p.Severity, Object: o.ref, Field: field, Source: o.source, Message: p.Message, Fix: p.Fix})
			}
			if e.err != nil {
				msg := fmt.Sprintf("suppression %q names no rule, so it suppresses nothing", e.pattern)
				fix := "write the rule ID as analyze prints it, or a glob such as certificate/*; kubectl gwtls rules lists them"
				if id, ok := config.ClosestRule(e.pattern); ok && e.pattern != "" {
					msg = fmt.Sprintf("suppression %q names no rule (did you mean %s?), so it suppresses nothing", e.pattern, id)
					fix = fmt.Sprintf("write it as %s: %s", id, orPlaceholder(e.reason))
				}
				add(rules.SuppressionUnknownRule.Problem(msg, fix))
			}
			if e.reason == "" {
				add(rules.SuppressionMissingReason.Problem(
					fmt.Sprintf("suppression %q gives no reason, so it suppresses nothing", e.pattern),
					fmt.Sprintf("write it as %s: %s, one entry per line", e.pattern, orPlaceholder(""))))
			}
			if e.err == nil && e.reason != "" && !e.used && anyRuns(e.matched, cfg) {
				add(rules.SuppressionUnused.Problem(
					fmt.Sprintf("suppression %q matches no finding on %s %s", e.pattern, o.ref.Kind, o.ref.NamespacedName()),
					"remove the entry if the problem is fixed; a suppression belongs on the object the finding names (a certificate finding names the Secret)"))
			}
		}
	}
	return out
}

// orPlaceholder is the reason, or what a reason says when there is none.
func orPlaceholder(reason string) string {
	if reason == "" {
		return "<why the finding is accepted, and until when>"
	}
	return reason
}

func matches(rs []*rules.Rule, r *rules.Rule) bool {
	for _, m := range rs {
		if m == r {
			return true
		}
	}
	return false
}

// anyRuns reports whether the configuration runs any of the rules: an entry
// for rules that are all off cannot be used, and is not reported unused.
func anyRuns(rs []*rules.Rule, cfg *config.Config) bool {
	for _, r := range rs {
		if !cfg.Rule(r).Off {
			return true
		}
	}
	return false
}
