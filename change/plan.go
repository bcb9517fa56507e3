package change

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
)

// DNSRecord is a record of the DNS plan that head adds, removes or points
// elsewhere.
type DNSRecord struct {
	Hostname string `json:"hostname"`
	Gateway  string `json:"gateway"`
	// Type is A, AAAA, CNAME, or unknown when the Gateway has no address.
	Type string `json:"type"`
	// Base and Head are the record's addresses on each side; nil when the side
	// has no such record.
	Base    []string `json:"base"`
	Head    []string `json:"head"`
	Changes []Change `json:"changes"`
}

// CertificateName is a hostname a terminating listener's certificate must
// cover on one side and not the other (spec 003: precise hostnames only).
type CertificateName struct {
	Gateway  string `json:"gateway"`
	Listener string `json:"listener"`
	// Secret is the listener's first certificateRef; empty when it has none.
	Secret   string   `json:"secret,omitempty"`
	Hostname string   `json:"hostname"`
	Changes  []Change `json:"changes"`
}

// comparePlans compares the provisioning plans (analyze.Result.Plan) of both
// sides: what a DNS operator and a certificate issuer must add and remove.
// Plans carry no source: changes point nowhere, the hostname changes that
// cause them do.
func comparePlans(b, h analyze.Plan) ([]DNSRecord, []CertificateName) {
	return compareDNS(b.DNS, h.DNS), compareCertificateNames(b.Certificates, h.Certificates)
}

// comparePlansSkipping is comparePlans with what both plans hold alike left
// out first: the DNS records of a Gateway whose records are equal on both
// sides (hostname, type and addresses, in order), and the certificate plan
// of a listener whose Secret and hostnames are equal on both. What is left
// out adds no key to one side that the other lacks and changes no address,
// so it has no change; the rest is compared as comparePlans compares it. A
// Gateway name that either side holds twice would give two records one key,
// which the comparison's sort need not order alike when others are left out:
// then nothing is (unique).
func comparePlansSkipping(b, h analyze.Plan, unique bool) ([]DNSRecord, []CertificateName) {
	if !unique {
		return comparePlans(b, h)
	}
	bd, hd := withoutSameDNS(b.DNS, h.DNS)
	bc, hc := withoutSameCertificates(b.Certificates, h.Certificates)
	return compareDNS(bd, hd), compareCertificateNames(bc, hc)
}

// withoutSameDNS are both sides' records less those of the Gateways whose
// records are the same on both.
func withoutSameDNS(b, h []analyze.DNSRecord) ([]analyze.DNSRecord, []analyze.DNSRecord) {
	br, hr := dnsRuns(b), dnsRuns(h)
	same := map[string]bool{}
	for gw, x := range br {
		y, ok := hr[gw]
		if ok && x.lo >= 0 && y.lo >= 0 && slices.EqualFunc(b[x.lo:x.hi], h[y.lo:y.hi], func(p, q analyze.DNSRecord) bool {
			return p.Hostname == q.Hostname && p.Type == q.Type && slices.Equal(p.Addresses, q.Addresses)
		}) {
			same[gw] = true
		}
	}
	if len(same) == 0 {
		return b, h
	}
	keep := func(rs []analyze.DNSRecord) []analyze.DNSRecord {
		out := make([]analyze.DNSRecord, 0, len(rs))
		for _, r := range rs {
			if !same[r.Gateway] {
				out = append(out, r)
			}
		}
		return out
	}
	return keep(b), keep(h)
}

// run is where a Gateway's records are in a plan's DNS; lo is -1 when they
// are not one run.
type run struct{ lo, hi int }

func dnsRuns(rs []analyze.DNSRecord) map[string]run {
	runs := map[string]run{}
	for i := 0; i < len(rs); {
		gw := rs[i].Gateway
		j := i + 1
		for j < len(rs) && rs[j].Gateway == gw {
			j++
		}
		if _, ok := runs[gw]; ok {
			runs[gw] = run{-1, -1}
		} else {
			runs[gw] = run{i, j}
		}
		i = j
	}
	return runs
}

// withoutSameCertificates are both sides' certificate plans less those of
// the listeners (by Gateway and name) that have one plan on each side, with
// the same Secret and hostnames: the names the comparison keys by that
// Gateway and listener are then the same on both.
func withoutSameCertificates(b, h []analyze.CertificatePlan) ([]analyze.CertificatePlan, []analyze.CertificatePlan) {
	type listenerKey struct{ gateway, listener string }
	index := func(ps []analyze.CertificatePlan) map[listenerKey]int {
		m := make(map[listenerKey]int, len(ps))
		for i, p := range ps {
			k := listenerKey{p.Gateway, p.Listener}
			if _, ok := m[k]; ok {
				m[k] = -1 // more than one plan: compared, not skipped
			} else {
				m[k] = i
			}
		}
		return m
	}
	bi, hi := index(b), index(h)
	same := func(k listenerKey) bool {
		i, j := bi[k], hi[k]
		return i >= 0 && j >= 0 && b[i].Secret == h[j].Secret && slices.Equal(b[i].Hostnames, h[j].Hostnames)
	}
	keep := func(ps []analyze.CertificatePlan, other map[listenerKey]int) []analyze.CertificatePlan {
		out := make([]analyze.CertificatePlan, 0, len(ps))
		for _, p := range ps {
			k := listenerKey{p.Gateway, p.Listener}
			if _, ok := other[k]; !ok || !same(k) {
				out = append(out, p)
			}
		}
		return out
	}
	return keep(b, hi), keep(h, bi)
}

type dnsKey struct{ hostname, gateway, typ string }

func compareDNS(b, h []analyze.DNSRecord) []DNSRecord {
	base := make(map[dnsKey]analyze.DNSRecord, len(b))
	for _, r := range b {
		base[dnsKey{r.Hostname, r.Gateway, r.Type}] = r
	}
	inHead := make(map[dnsKey]bool, len(h))
	out := []DNSRecord{}
	for _, r := range h {
		k := dnsKey{r.Hostname, r.Gateway, r.Type}
		inHead[k] = true
		br, ok := base[k]
		switch {
		case !ok:
			out = append(out, DNSRecord{Hostname: r.Hostname, Gateway: r.Gateway, Type: r.Type, Head: r.Addresses,
				Changes: []Change{newChange(DNSRecordAdded, fmt.Sprintf("add %s %s -> %s (Gateway %s)", r.Type, r.Hostname, addressesLabel(r.Addresses), r.Gateway),
					"", addressesLabel(r.Addresses), located{})}})
		case !slices.Equal(br.Addresses, r.Addresses):
			out = append(out, DNSRecord{Hostname: r.Hostname, Gateway: r.Gateway, Type: r.Type, Base: br.Addresses, Head: r.Addresses,
				Changes: []Change{newChange(DNSRecordChanged, fmt.Sprintf("point %s %s at %s instead of %s (Gateway %s)", r.Type, r.Hostname,
					addressesLabel(r.Addresses), addressesLabel(br.Addresses), r.Gateway), addressesLabel(br.Addresses), addressesLabel(r.Addresses), located{})}})
		}
	}
	for _, r := range b {
		if k := (dnsKey{r.Hostname, r.Gateway, r.Type}); !inHead[k] {
			out = append(out, DNSRecord{Hostname: r.Hostname, Gateway: r.Gateway, Type: r.Type, Base: r.Addresses,
				Changes: []Change{newChange(DNSRecordRemoved, fmt.Sprintf("remove %s %s -> %s (Gateway %s): nothing serves it there", r.Type, r.Hostname,
					addressesLabel(r.Addresses), r.Gateway), addressesLabel(r.Addresses), "", located{})}})
		}
	}
	slices.SortFunc(out, func(x, y DNSRecord) int {
		return cmp.Or(strings.Compare(x.Hostname, y.Hostname), strings.Compare(x.Gateway, y.Gateway), strings.Compare(x.Type, y.Type))
	})
	return out
}

func addressesLabel(as []string) string {
	if len(as) == 0 {
		return "no address yet"
	}
	return strings.Join(as, ", ")
}

type certKey struct{ gateway, listener, secret, hostname string }

func compareCertificateNames(b, h []analyze.CertificatePlan) []CertificateName {
	names := func(ps []analyze.CertificatePlan) map[certKey]bool {
		m := map[certKey]bool{}
		for _, p := range ps {
			for _, n := range p.Hostnames {
				m[certKey{p.Gateway, p.Listener, p.Secret, n}] = true
			}
		}
		return m
	}
	base, head := names(b), names(h)
	out := []CertificateName{}
	add := func(k certKey, kind Kind, verb string) {
		secret := "the listener's certificate"
		if k.secret != "" {
			secret = "Secret " + k.secret
		}
		msg := fmt.Sprintf("%s (Gateway %s listener %s) %s %s", secret, k.gateway, k.listener, verb, k.hostname)
		from, to := "", k.hostname
		if kind == CertificateNameRemoved {
			from, to = k.hostname, ""
		}
		out = append(out, CertificateName{Gateway: k.gateway, Listener: k.listener, Secret: k.secret, Hostname: k.hostname,
			Changes: []Change{newChange(kind, msg, from, to, located{})}})
	}
	for k := range head {
		if !base[k] {
			add(k, CertificateNameAdded, "must cover")
		}
	}
	for k := range base {
		if !head[k] {
			add(k, CertificateNameRemoved, "need not cover any more")
		}
	}
	slices.SortFunc(out, func(x, y CertificateName) int {
		return cmp.Or(strings.Compare(x.Gateway, y.Gateway), strings.Compare(x.Listener, y.Listener), strings.Compare(x.Secret, y.Secret),
			strings.Compare(x.Hostname, y.Hostname), strings.Compare(string(x.Changes[0].Kind), string(y.Changes[0].Kind)))
	})
	return out
}
