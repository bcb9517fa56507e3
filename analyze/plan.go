package analyze

import (
	"net/netip"
	"slices"
	"sort"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/hostname"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/cores"
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

// Plan computes the provisioning plan from the Result. A Gateway's records and
// certificates are its own (its listeners and their attachments), so
// Gateways are planned on every core and their parts joined in the Result's
// order, each slice made once at its size.
func (r *Result) Plan() Plan {
	parts := make([]gatewayPlan, len(r.Gateways))
	cores.Parts(len(r.Gateways), gatewaysPerPlanPart, func() func(lo, hi int) {
		var room planRoom
		return func(lo, hi int) {
			for i := lo; i < hi; i++ {
				parts[i] = room.gateway(r.Gateways[i])
			}
		}
	})
	dns, certs := 0, 0
	for i := range parts {
		dns += len(parts[i].hosts) * len(parts[i].types)
		certs += len(parts[i].certs)
	}
	p := Plan{DNS: make([]DNSRecord, 0, dns), Certificates: make([]CertificatePlan, 0, certs)}
	for i := range parts {
		gp := &parts[i]
		for j, h := range gp.hosts {
			for _, t := range gp.types {
				p.DNS = append(p.DNS, DNSRecord{Hostname: h, Gateway: gp.name, Listeners: gp.listeners[j], Addresses: gp.addrs[t], Type: t})
			}
		}
		p.Certificates = append(p.Certificates, gp.certs...)
	}
	return p
}

// gatewaysPerPlanPart is how many Gateways a core plans at a time.
const gatewaysPerPlanPart = 8

// gatewayPlan is one accepted Gateway's part of the plan: its DNS records are
// every host (in order of specificity) by every address type.
type gatewayPlan struct {
	name      string
	hosts     []string
	listeners [][]string // by host: the listeners that serve it
	addrs     map[string][]string
	types     []string
	certs     []CertificatePlan
}

// planRoom is the room one core plans a Gateway in, reused from Gateway to
// Gateway.
type planRoom struct {
	byHost      map[string]int // index in hosts
	hosts       []string
	listeners   [][]string
	intersected []string
}

func (room *planRoom) gateway(g *GatewayResult) gatewayPlan {
	if !IsTrue(g.Conditions, string(gwv1.GatewayConditionAccepted)) {
		return gatewayPlan{}
	}
	gp := gatewayPlan{name: model.NameOf(g.Gateway.Obj).String()}
	gp.addrs, gp.types = gatewayAddresses(g)
	if room.byHost == nil {
		room.byHost = map[string]int{}
	}
	clear(room.byHost)
	room.hosts, room.listeners = room.hosts[:0], room.listeners[:0]
	for _, rl := range mergedListeners(g) {
		l := rl.l
		if !l.Accepted || !carriesHostnames(l) {
			continue
		}
		intersected := room.intersected[:0]
		for _, a := range l.Attachments {
			if a.Parent.Accepted() {
				intersected = append(intersected, a.Hostnames...)
			}
		}
		room.intersected = intersected
		names, _ := hostname.DNSRecordNames(intersected)
		for _, n := range names {
			i, ok := room.byHost[n]
			if !ok {
				i = len(room.hosts)
				room.byHost[n] = i
				room.hosts = append(room.hosts, n)
				room.listeners = append(room.listeners, nil)
			}
			room.listeners[i] = appendUnique(room.listeners[i], l.Name())
		}
		if l.TLSMode() == gwv1.TLSModeTerminate && len(intersected) > 0 {
			gp.certs = append(gp.certs, certificatePlan(gp.name, l, intersected))
		}
	}
	// The hosts in order of specificity, each with its listeners.
	order := make([]int, len(room.hosts))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return hostname.Compare(room.hosts[a], room.hosts[b]) })
	gp.hosts = make([]string, len(order))
	gp.listeners = make([][]string, len(order))
	for i, j := range order {
		gp.hosts[i], gp.listeners[i] = room.hosts[j], room.listeners[j]
	}
	return gp
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
