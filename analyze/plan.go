package analyze

import (
	"net/netip"
	"sort"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/hostname"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// Plan is what must exist for the configuration to work (spec 003 "Programmatic use
// of the hostname field"): DNS records and certificates. Only the full, accepted
// ownership tree contributes: an accepted Gateway, an accepted listener, and a route
// accepted on it.
type Plan struct {
	DNS          []DNSRecord       `json:"dns"`
	Certificates []CertificatePlan `json:"certificates"`
}

// DNSRecord is one hostname that must resolve to a Gateway's addresses.
type DNSRecord struct {
	Hostname  string   `json:"hostname"`
	Gateway   string   `json:"gateway"`
	Listeners []string `json:"listeners"`
	Addresses []string `json:"addresses"`
	// Type is A, AAAA or CNAME by address type; "unknown" when the Gateway has no
	// address in status.addresses or spec.addresses.
	Type string `json:"type"`
}

// CertificatePlan is the precise hostnames a terminating listener's certificate
// must cover, and which of them the referenced Secret does not.
type CertificatePlan struct {
	Gateway   string             `json:"gateway"`
	Listener  string             `json:"listener"`
	Port      int32              `json:"port"`
	Secret    string             `json:"secret,omitempty"`
	Hostnames []string           `json:"hostnames"`
	Missing   []string           `json:"missing"`
	Skipped   []hostname.Skipped `json:"skipped,omitempty"`
}

// Plan computes the provisioning plan from the Result.
func (r *Result) Plan() Plan {
	p := Plan{DNS: []DNSRecord{}, Certificates: []CertificatePlan{}}
	for _, g := range r.Gateways {
		if !IsTrue(g.Conditions, string(gwv1.GatewayConditionAccepted)) {
			continue
		}
		gwName := model.NameOf(g.Gateway.Obj).String()
		addrs, typ := gatewayAddresses(g)
		byHost := map[string][]string{}
		var hosts []string
		for _, rl := range mergedListeners(g) {
			l := rl.l
			if !l.Accepted || !carriesHostnames(l) {
				continue
			}
			var intersected []string
			for _, a := range l.Attachments {
				if a.Parent.Accepted() {
					intersected = append(intersected, a.Hostnames...)
				}
			}
			names, _ := hostname.DNSRecordNames(intersected)
			for _, n := range names {
				if _, ok := byHost[n]; !ok {
					hosts = append(hosts, n)
				}
				byHost[n] = appendUnique(byHost[n], l.Name())
			}
			if l.TLSMode() == gwv1.TLSModeTerminate && len(intersected) > 0 {
				p.Certificates = append(p.Certificates, certificatePlan(gwName, l, intersected))
			}
		}
		hostname.SortBySpecificity(hosts)
		for _, h := range hosts {
			for _, t := range typ {
				p.DNS = append(p.DNS, DNSRecord{Hostname: h, Gateway: gwName, Listeners: byHost[h], Addresses: addrs[t], Type: t})
			}
		}
	}
	return p
}

func certificatePlan(gw string, l *ListenerResult, intersected []string) CertificatePlan {
	names, skipped := hostname.CertificateNames(intersected)
	cp := CertificatePlan{Gateway: gw, Listener: l.Name(), Port: int32(l.Listener.Port), Hostnames: names, Missing: []string{}, Skipped: skipped}
	if cp.Hostnames == nil {
		cp.Hostnames = []string{}
	}
	if len(l.Certificates) > 0 {
		c := l.Certificates[0]
		cp.Secret = c.NamespacedName().String()
	}
	for _, n := range names {
		if c, covers := l.CertificateFor(n); c == nil || !covers {
			cp.Missing = append(cp.Missing, n)
		}
	}
	return cp
}

// gatewayAddresses returns the Gateway's addresses by DNS record type:
// status.addresses (what the data plane got), else spec.addresses (what was asked
// for), else one "unknown" type with no address.
func gatewayAddresses(g *GatewayResult) (map[string][]string, []string) {
	gw := g.Gateway.Obj
	type addr struct{ typ, value string }
	var in []addr
	for _, a := range gw.Status.Addresses {
		in = append(in, addr{written(a.Type), a.Value})
	}
	if len(in) == 0 {
		for _, a := range gw.Spec.Addresses {
			in = append(in, addr{written(a.Type), a.Value})
		}
	}
	out := map[string][]string{}
	var types []string
	for _, a := range in {
		t := "CNAME"
		if a.typ == string(gwv1.IPAddressType) {
			ip, err := netip.ParseAddr(a.value)
			switch {
			case err != nil:
				continue
			case ip.Is4():
				t = "A"
			default:
				t = "AAAA"
			}
		} else if a.typ != string(gwv1.HostnameAddressType) {
			continue // a named address (NamedAddress) has no DNS form
		}
		if _, ok := out[t]; !ok {
			types = append(types, t)
		}
		out[t] = appendUnique(out[t], strings.TrimSuffix(a.value, "."))
	}
	if len(types) == 0 {
		return map[string][]string{"unknown": {}}, []string{"unknown"}
	}
	sort.Strings(types)
	return out, types
}
