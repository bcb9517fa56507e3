package render

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
)

// PlanTable writes the DNS records and certificates a plan needs as two tables.
func PlanTable(w io.Writer, p analyze.Plan, st Style) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, st.paint(boldStyle, "DNS records"))
	if len(p.DNS) == 0 {
		fmt.Fprintln(bw, " none: no accepted route on an accepted listener names a hostname")
	} else {
		rows := make([][]string, 1, 1+len(p.DNS))
		rows[0] = []string{"HOSTNAME", "TYPE", "ADDRESSES", "GATEWAY", "LISTENERS"}
		for _, r := range p.DNS {
			addrs := TerminalText(strings.Join(r.Addresses, ", "))
			if r.Type == "unknown" {
				addrs = st.paint(warningStyle, "unknown: the Gateway has no address yet")
			}
			rows = append(rows, []string{TerminalText(r.Hostname), r.Type, addrs, TerminalText(r.Gateway), TerminalText(strings.Join(r.Listeners, ", "))})
		}
		if err := writeColumns(bw, rows); err != nil {
			return err
		}
	}
	fmt.Fprintln(bw)
	fmt.Fprintln(bw, st.paint(boldStyle, "Certificates"))
	if len(p.Certificates) == 0 {
		fmt.Fprintln(bw, " none: no terminating listener has an accepted route")
	} else {
		rows := make([][]string, 1, 1+len(p.Certificates))
		rows[0] = []string{"GATEWAY", "LISTENER", "SECRET", "MUST COVER", "MISSING", "SKIPPED"}
		for _, c := range p.Certificates {
			missing := st.paint(okStyle, "none")
			if len(c.Missing) > 0 {
				missing = st.paint(errorStyle, TerminalText(strings.Join(c.Missing, ", ")))
			}
			var skipped []string
			for _, s := range c.Skipped {
				skipped = append(skipped, s.Hostname)
			}
			rows = append(rows, []string{TerminalText(c.Gateway), TerminalText(c.Listener), TerminalText(dash(c.Secret)), TerminalText(dash(strings.Join(c.Hostnames, ", "))),
				missing, TerminalText(dash(strings.Join(skipped, ", ")))})
		}
		if err := writeColumns(bw, rows); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// PlanJSON writes the plan: {"dns":[...],"certificates":[...],"admission":{...}},
// admission saying which CRDs the objects were held to (omitted when nil).
func PlanJSON(w io.Writer, p analyze.Plan, adm *Admission) error {
	b, err := json.MarshalIndent(planWithAdmission{p, adm}, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// PlanYAML writes the plan as YAML, as PlanJSON.
func PlanYAML(w io.Writer, p analyze.Plan, adm *Admission) error {
	b, err := yaml.Marshal(planWithAdmission{p, adm})
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// planWithAdmission is a plan and the CRDs its objects were held to.
type planWithAdmission struct {
	analyze.Plan
	Admission *Admission `json:"admission,omitempty"`
}

// DNSEndpoints writes one external-dns DNSEndpoint (externaldns.k8s.io/v1alpha1)
// per Gateway, in the Gateway's namespace, with a record per hostname and type.
// Records whose Gateway has no known address cannot be written; they are returned.
func DNSEndpoints(w io.Writer, p analyze.Plan, ttl int64) (unknown []string, err error) {
	type endpoint struct {
		DNSName    string   `json:"dnsName"`
		RecordType string   `json:"recordType"`
		RecordTTL  int64    `json:"recordTTL,omitempty"`
		Targets    []string `json:"targets"`
	}
	byGateway := map[string][]endpoint{}
	var gateways []string
	for _, r := range p.DNS {
		if r.Type == "unknown" {
			unknown = append(unknown, r.Hostname+" ("+r.Gateway+")")
			continue
		}
		if _, ok := byGateway[r.Gateway]; !ok {
			gateways = append(gateways, r.Gateway)
		}
		byGateway[r.Gateway] = append(byGateway[r.Gateway], endpoint{DNSName: r.Hostname, RecordType: r.Type, RecordTTL: ttl, Targets: r.Addresses})
	}
	sort.Strings(gateways)
	for i, gw := range gateways {
		ns, name, _ := strings.Cut(gw, "/")
		obj := map[string]any{
			"apiVersion": "externaldns.k8s.io/v1alpha1",
			"kind":       "DNSEndpoint",
			"metadata": map[string]any{"name": "gateway-" + name, "namespace": ns,
				"labels": map[string]string{"app.kubernetes.io/managed-by": "kubectl-gwtls"}},
			"spec": map[string]any{"endpoints": byGateway[gw]},
		}
		if err := writeYAMLDoc(w, obj, i > 0); err != nil {
			return unknown, err
		}
	}
	return unknown, nil
}

// Certificates writes one cert-manager Certificate (cert-manager.io/v1) per
// terminating listener plan with a Secret: the Secret the listener references, for
// exactly the precise intersected hostnames (spec 003: never a wildcard). issuer is
// KIND/NAME (ClusterIssuer/letsencrypt, Issuer/internal-ca).
func Certificates(w io.Writer, p analyze.Plan, issuerKind, issuerName string) error {
	seen := map[string]int{}
	var secrets []string
	dnsNames := map[string][]string{}
	for _, c := range p.Certificates {
		if c.Secret == "" || len(c.Hostnames) == 0 {
			continue
		}
		if _, ok := seen[c.Secret]; !ok {
			secrets = append(secrets, c.Secret)
			seen[c.Secret] = 1
		}
		for _, h := range c.Hostnames {
			if !contains(dnsNames[c.Secret], h) {
				dnsNames[c.Secret] = append(dnsNames[c.Secret], h)
			}
		}
	}
	for i, s := range secrets {
		ns, name, _ := strings.Cut(s, "/")
		obj := map[string]any{
			"apiVersion": "cert-manager.io/v1",
			"kind":       "Certificate",
			"metadata": map[string]any{"name": name, "namespace": ns,
				"labels": map[string]string{"app.kubernetes.io/managed-by": "kubectl-gwtls"}},
			"spec": map[string]any{
				"secretName": name,
				"dnsNames":   dnsNames[s],
				"issuerRef":  map[string]string{"group": "cert-manager.io", "kind": issuerKind, "name": issuerName},
			},
		}
		if err := writeYAMLDoc(w, obj, i > 0); err != nil {
			return err
		}
	}
	return nil
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func writeYAMLDoc(w io.Writer, obj any, separator bool) error {
	b, err := yaml.Marshal(obj)
	if err != nil {
		return err
	}
	if separator {
		if _, err := io.WriteString(w, "---\n"); err != nil {
			return err
		}
	}
	_, err = w.Write(b)
	return err
}
