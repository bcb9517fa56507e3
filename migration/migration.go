// Package migration compares an Ingress configuration with the Gateway API
// configuration meant to replace it: every request an Ingress path is served
// with (package ingress's rows) is asked of the Gateway API configuration's
// serving table (package serving), and each way the two differ is a finding
// of a migration/* rule, placed on the Ingress path, that names the Gateway
// API object that decides it.
//
// It decides nothing itself: the Ingress side is the ingress package's
// reading of the controllers' documentation, the Gateway side the engine's
// Result as the serving table indexes it. It compares outcomes: whether the
// request is served, by which backends over which protocol, with which
// certificate, redirect and rewrite.
package migration

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/ingress"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
)

// Report is what the comparison found.
type Report struct {
	// Ingresses is the number of Ingresses compared (those their controller
	// serves); Hosts, Paths and Requests count the hosts (per controller),
	// the Ingress paths and the requests compared.
	Ingresses int `json:"ingresses"`
	Hosts     int `json:"hosts"`
	Paths     int `json:"paths"`
	Requests  int `json:"requests"`
	// Same reports that every host and path is served the same way: no
	// finding above info.
	Same bool `json:"same"`
	// Verdict says it in a sentence.
	Verdict string `json:"verdict"`
	// Findings are the differences, in the order of the Ingresses' files and
	// lines, then object, field and rule.
	Findings []Finding `json:"-"`
}

// Compare asks the Gateway API configuration (the engine's Result for it)
// every request the Ingresses' paths are served with.
func Compare(ing *ingress.Table, head *analyze.Result) *Report {
	c := &comparison{gw: serving.Build(head), res: head, found: map[findingKey]*finding{}}
	r := &Report{}
	for _, i := range ing.Ingresses {
		if i.NotServed != "" {
			c.add(i.Ref, i.Whole(), rules.MigrationIngressNotServed, "", decider{},
				fmt.Sprintf("not compared: %s", i.NotServed),
				"fix the Ingress, or leave it out of the base")
			continue
		}
		for _, taken := range i.HostsTaken {
			c.add(i.Ref, taken.Rule, rules.MigrationIngressNotServed, "", decider{}, "part of it is not compared: "+taken.Why,
				"drop the duplicate host from one of the Ingresses")
		}
		r.Ingresses++
	}
	paths := map[*ingress.Location]bool{}
	for _, s := range ing.Controllers {
		r.Hosts += len(s.Servers)
		for _, row := range s.Rows() {
			if row.Refusal != ingress.Served {
				continue // the controller does not serve it: nothing to keep
			}
			paths[row.Location] = true
			r.Requests++
			c.compare(row)
		}
	}
	r.Paths = len(paths)
	r.Requests += c.probes
	r.Findings = c.findings()
	differences, notes := 0, 0
	for _, f := range r.Findings {
		if f.Severity > analyze.SeverityInfo {
			differences++
		} else {
			notes++
		}
	}
	r.Same = differences == 0 && r.Requests > 0
	compared := fmt.Sprintf("%s, %s, %s, %s compared", plural(r.Ingresses, "Ingress"), plural(r.Hosts, "host"), plural(r.Paths, "path"), plural(r.Requests, "request"))
	switch {
	case r.Requests == 0:
		r.Verdict = "no Ingress path is served by a controller this tool models: nothing to compare"
	case r.Same:
		r.Verdict = "every host and path is served the same way (" + compared + ")"
	default:
		r.Verdict = fmt.Sprintf("%s where a host or path is not served the same way (%s)", plural(differences, "difference"), compared)
	}
	if notes > 0 && r.Requests > 0 {
		r.Verdict += fmt.Sprintf("; %s (info)", plural(notes, "note"))
	}
	return r
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if strings.HasSuffix(what, "s") {
		return fmt.Sprintf("%d %ses", n, what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// comparison gathers findings, one per rule, Ingress field, port and Gateway
// object; the requests that show it are listed in its message.
type comparison struct {
	gw    *serving.Table
	res   *analyze.Result
	found map[findingKey]*finding
	order []findingKey
	// services index the head's Services, for their ports' appProtocol;
	// built when first needed.
	services map[model.NamespacedName]*model.Service
	// probes counts the requests asked beside the rows': those carrying a
	// canary's header or cookie.
	probes int
}

type findingKey struct {
	rule    rules.ID
	ingress model.Ref
	field   string
	port    int32
	gateway string
	what    string
}

type finding struct {
	Finding
	requests []string
	text     string
}

// Finding is a difference: a finding of a migration/* rule on the Ingress
// path, and where the Gateway API object that decides the request is (the
// zero Source when none does: no listener on the port).
type Finding struct {
	analyze.Finding
	Decider model.Source
}

// add records a difference found on a part of an Ingress (its Field and
// line; the zero Field for the whole Ingress). A second request with the
// same key adds its request to the first's message.
func (c *comparison) add(ing model.Ref, at ingress.Place, r *rules.Rule, request string, gateway decider, text, fix string) {
	c.addAt(findingKey{rule: r.ID, ingress: ing, field: at.Field, gateway: gateway.label, what: text}, at.Source(), r, request, gateway, text, fix)
}

func (c *comparison) addAt(k findingKey, src model.Source, r *rules.Rule, request string, gateway decider, text, fix string) {
	f := c.found[k]
	if f == nil {
		f = &finding{Finding: Finding{Finding: analyze.Finding{Rule: r, Severity: r.Severity, Object: k.ingress, Field: k.field, Source: src, Fix: fix}, Decider: gateway.source}, text: text}
		if gateway.label != "" {
			f.text += "; Gateway API side: " + gateway.label
		}
		c.found[k] = f
		c.order = append(c.order, k)
	}
	if request != "" && !slices.Contains(f.requests, request) {
		f.requests = append(f.requests, request)
	}
}

// findings are the findings gathered, each message naming its requests.
func (c *comparison) findings() []Finding {
	out := make([]Finding, 0, len(c.order))
	for _, k := range c.order {
		f := c.found[k]
		switch n := len(f.requests); {
		case n == 0:
			f.Message = f.text
		case n <= 3:
			f.Message = strings.Join(f.requests, ", ") + ": " + f.text
		default:
			f.Message = fmt.Sprintf("%s and %d more: %s", strings.Join(f.requests[:3], ", "), n-3, f.text)
		}
		out = append(out, f.Finding)
	}
	slices.SortStableFunc(out, func(a, b Finding) int {
		return cmp.Or(analyze.CompareFindings(a.Finding, b.Finding), strings.Compare(a.Message, b.Message))
	})
	return out
}
