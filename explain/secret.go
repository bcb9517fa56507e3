package explain

import (
	"fmt"
	"strings"

	"github.com/smallstep/certinfo"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// secret explains a certificate Secret the way `step certificate inspect --short`
// shows a certificate (smallstep/certinfo), followed by the names it must cover,
// the listeners that serve it and its problems. Key material is never shown.
func secret(c *analyze.CertificateResult) (*Explanation, error) {
	o := c.Secret.Obj
	x := &Explanation{Object: model.Ref{Kind: "Secret", Namespace: o.Namespace, Name: o.Name}, Source: c.Secret.Source}
	for i, cert := range c.Chain {
		text, err := certinfo.CertificateShortText(cert)
		if err != nil {
			return nil, fmt.Errorf("the Secret %s certificate %d: %w", model.NameOf(o), i, err)
		}
		title := "leaf certificate"
		if i > 0 {
			title = fmt.Sprintf("chain certificate %d", i)
		}
		sec := Section{Title: title, Text: strings.TrimRight(text, "\n")}
		if len(cert.DNSNames) > 0 {
			sec.Steps = append(sec.Steps, Step{Step: analyze.Step{Rule: "certificate.dnsNames", Passed: true, Detail: "DNS names: " + strings.Join(cert.DNSNames, ", ")}})
		}
		x.Sections = append(x.Sections, sec)
	}
	cover := Section{Title: "names it is served for (intersected hostnames; a wildcard covers one label)"}
	for _, n := range c.Covered {
		cover.Steps = append(cover.Steps, Step{Step: analyze.Step{Rule: "certificate.covers", Passed: true, Detail: n + " is covered"}})
	}
	for _, n := range c.Uncovered {
		cover.Steps = append(cover.Steps, Step{Step: analyze.Step{Rule: "certificate.covers", Detail: n + " is NOT covered: TLS clients will reject the certificate",
			Fix: "add " + n + " to the certificate's DNS names"}})
	}
	if len(cover.Steps) == 0 {
		cover.Steps = append(cover.Steps, Step{Step: analyze.Step{Rule: "certificate.covers", Passed: true, Detail: "no route with a hostname is attached to a listener serving it"}})
	}
	x.Sections = append(x.Sections, cover)
	served := Section{Title: "served by"}
	for _, l := range c.Listeners {
		owner := l.Owner()
		served.Steps = append(served.Steps, Step{Step: analyze.Step{Rule: "listener", Passed: l.Accepted,
			Detail: fmt.Sprintf("%s %s listener %s (port %d, hostname %s)", owner.Kind, owner.NamespacedName(), l.Name(), l.Listener.Port, orAny(l.Hostname()))}})
	}
	x.Sections = append(x.Sections, served)
	checks := Section{Title: "checks"}
	for _, p := range c.Problems {
		checks.Steps = append(checks.Steps, Step{Step: analyze.Step{Rule: string(p.Rule.ID), Detail: fmt.Sprintf("%s: %s", p.Severity, p.Message), Fix: p.Fix}})
	}
	if len(checks.Steps) == 0 {
		checks.Steps = append(checks.Steps, Step{Step: analyze.Step{Rule: "certificate", Passed: true, Detail: "valid now, strong key and signature, chain in order"}})
	}
	x.Sections = append(x.Sections, checks)
	return x, nil
}

func orAny(h string) string {
	if h == "" {
		return "any"
	}
	return h
}
