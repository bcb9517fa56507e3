package probe

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"time"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
)

// LiveOptions configure a probe of a running data plane.
type LiveOptions struct {
	// Targets are host:port addresses the user named (--target); every TLS hostname
	// of the configuration is tried on each.
	Targets []string
	// Gateway takes its addresses from the Gateway's status.addresses, each with
	// the port of the listener a hostname is on. With Targets, it only narrows the
	// hostnames to that Gateway's. Zero means every Gateway, at Targets.
	Gateway     model.NamespacedName
	Roots       *x509.CertPool
	Timeout     time.Duration // per handshake, default 5s
	Concurrency int           // default 8
	Now         time.Time
}

// Live is one handshake with a live address for one hostname.
type Live struct {
	Address  string `json:"address"`
	SNI      string `json:"sni"`
	Gateway  string `json:"gateway"`
	Listener string `json:"listener,omitempty"`
	Mode     string `json:"mode,omitempty"`
	// Secret is the Secret the configuration serves for the SNI (Terminate).
	Secret string     `json:"secret,omitempty"`
	TLS    *Handshake `json:"tls,omitempty"`
	// Validity is the presented leaf's validity window at --now.
	Validity Validity `json:"validity,omitempty"`
	// SameAsSecret is whether the leaf presented is the Secret's (SHA-256); nil
	// for passthrough, whose certificate is the backend's.
	SameAsSecret *bool    `json:"sameAsSecret,omitempty"`
	Verdict      Verdict  `json:"verdict"`
	Problems     []string `json:"problems,omitempty"`
	Notes        []string `json:"notes,omitempty"`
	// want is the leaf of the Secret the configuration presents for the SNI.
	want *x509.Certificate
}

// LiveProbe handshakes, for every name the serving table serves over TLS, with
// the addresses the user named or the Gateway's status lists, and only those.
func LiveProbe(ctx context.Context, res *analyze.Result, o LiveOptions) (Lives, error) {
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Second
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 8
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	for _, t := range o.Targets {
		if _, _, err := net.SplitHostPort(t); err != nil {
			return nil, fmt.Errorf("--target %s: want HOST:PORT: %w", t, err)
		}
	}
	table := serving.Build(res)
	named := o.Gateway != (model.NamespacedName{})
	var statusAddrs []string
	if named {
		g := table.Gateway(o.Gateway)
		if g == nil {
			return nil, fmt.Errorf("gateway %s is not in the input", o.Gateway)
		}
		if len(o.Targets) == 0 {
			for _, a := range g.Result.Gateway.Obj.Status.Addresses {
				if a.Type == nil || *a.Type == gwv1.IPAddressType || *a.Type == gwv1.HostnameAddressType {
					statusAddrs = append(statusAddrs, a.Value)
				}
			}
			if len(statusAddrs) == 0 {
				return nil, fmt.Errorf("gateway %s lists no IP or hostname in status.addresses: give --target HOST:PORT", o.Gateway)
			}
		}
	}
	if len(o.Targets) == 0 && len(statusAddrs) == 0 {
		return nil, errors.New("give --target HOST:PORT or --gateway NAMESPACE/NAME")
	}
	var todo Lives
	for _, row := range table.Rows() {
		g := row.Port.Gateway
		if row.Request.SNI == "" || (named && g.Name != o.Gateway) {
			continue
		}
		addrs := o.Targets
		if len(addrs) == 0 {
			addrs = nil
			for _, a := range statusAddrs {
				addrs = append(addrs, net.JoinHostPort(a, strconv.Itoa(int(row.Port.Number))))
			}
		}
		for _, a := range addrs {
			todo = append(todo, expectLive(a, g.Name.String(), row))
		}
	}
	sem := make(chan struct{}, o.Concurrency)
	var wg sync.WaitGroup
	for i := range todo {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			liveOne(ctx, &todo[i], o)
		}()
	}
	wg.Wait()
	return todo, nil
}

// expectLive is a handshake to make with a live address for a row, with what the
// configuration promises: the listener, its mode and the Secret presented.
func expectLive(addr, gateway string, row *serving.Row) Live {
	l := Live{Address: addr, SNI: row.Request.SNI, Gateway: gateway}
	if row.Listener != nil {
		l.Listener, l.Mode = row.Listener.Name, string(row.Listener.Mode)
	}
	if c := row.Certificate; c != nil {
		l.Secret, l.want = c.Secret.String(), c.Leaf()
	}
	return l
}

func liveOne(ctx context.Context, l *Live, o LiveOptions) {
	problem := func(format string, args ...any) {
		l.Verdict = VerdictFinding
		l.Problems = append(l.Problems, fmt.Sprintf(format, args...))
	}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	d := &tls.Dialer{Config: &tls.Config{ServerName: l.SNI, InsecureSkipVerify: true}}
	c, err := d.DialContext(ctx, "tcp", l.Address)
	if err != nil {
		problem("handshake with SNI %s failed: %v", l.SNI, err)
		return
	}
	st := c.(*tls.Conn).ConnectionState()
	c.Close()
	l.TLS = describeHandshake(st, l.SNI, o.Roots, "", o.Now)
	leaf := st.PeerCertificates[0]
	switch {
	case o.Now.After(leaf.NotAfter):
		l.Validity = Expired
		problem("the certificate expired on %s", leaf.NotAfter.UTC().Format(time.DateOnly))
	case o.Now.Before(leaf.NotBefore):
		l.Validity = NotYetValid
		problem("the certificate is not valid before %s", leaf.NotBefore.UTC().Format(time.DateOnly))
	default:
		l.Validity = Valid
	}
	if !l.TLS.CoversSNI {
		problem("the certificate presented does not cover SNI %s (DNS names %v)", l.SNI, leaf.DNSNames)
	}
	switch v := l.TLS.Verified; v.Status {
	case ChainUnverifiable:
		l.Notes = append(l.Notes, v.Err.Error())
	case ChainNotVerified:
		problem("the chain does not verify: %v", v.Err)
	}
	if l.Mode == string(gwv1.TLSModeTerminate) {
		if want := l.want; want != nil {
			same := serving.Fingerprint(want) == serving.Fingerprint(leaf)
			l.SameAsSecret = &same
			if !same {
				problem("stale certificate: the Gateway serves %s (SHA-256 %.16s…), not the certificate in Secret %s (SHA-256 %.16s…)",
					leaf.Subject.CommonName, serving.Fingerprint(leaf), l.Secret, serving.Fingerprint(want))
			}
		}
	} else {
		l.Notes = append(l.Notes, "passthrough: the certificate is the backend's")
	}
	if l.Verdict == "" {
		l.Verdict = VerdictOK
	}
}
