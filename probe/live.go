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
	"github.com/kubectl-gwtls/kubectl-gwtls/simulate"
)

// LiveOptions configure a probe of a running data plane.
type LiveOptions struct {
	// Targets are host:port addresses the user named (--target); every TLS hostname
	// of the configuration is tried on each.
	Targets []string
	// Gateway (NAMESPACE/NAME) takes its addresses from the Gateway's
	// status.addresses, each with the port of the listener a hostname is on. With
	// Targets, it only narrows the hostnames to that Gateway's.
	Gateway     string
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
	Secret string         `json:"secret,omitempty"`
	TLS    *handshakeInfo `json:"tls,omitempty"`
	// Validity is "valid", "expired" or "not yet valid" at --now.
	Validity string `json:"validity,omitempty"`
	// SameAsSecret is whether the leaf presented is the Secret's (SHA-256); nil
	// for passthrough, whose certificate is the backend's.
	SameAsSecret *bool    `json:"sameAsSecret,omitempty"`
	Verdict      string   `json:"verdict"`
	Problems     []string `json:"problems,omitempty"`
	Notes        []string `json:"notes,omitempty"`
}

// LiveProbe handshakes, for every intersected TLS hostname, with the addresses the
// user named or the Gateway's status lists, and only those.
func LiveProbe(ctx context.Context, res *analyze.Result, o LiveOptions) ([]Live, error) {
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
	var statusAddrs []string
	if o.Gateway != "" {
		g := gatewayNamed(res, o.Gateway)
		if g == nil {
			return nil, fmt.Errorf("gateway %s is not in the input", o.Gateway)
		}
		if len(o.Targets) == 0 {
			for _, a := range g.Gateway.Obj.Status.Addresses {
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
	sim := simulate.New(res)
	var todo []Live
	for _, out := range sim.All() {
		if out.Request.SNI == "" || (o.Gateway != "" && out.Gateway != o.Gateway) {
			continue
		}
		addrs := o.Targets
		if len(addrs) == 0 {
			addrs = nil
			for _, a := range statusAddrs {
				addrs = append(addrs, net.JoinHostPort(a, strconv.Itoa(int(out.Request.Port))))
			}
		}
		for _, a := range addrs {
			l := Live{Address: a, SNI: out.Request.SNI, Gateway: out.Gateway, Listener: out.Listener, Mode: out.Mode}
			if out.Certificate != nil {
				l.Secret = out.Certificate.Secret
			}
			todo = append(todo, l)
		}
	}
	sem := make(chan struct{}, o.Concurrency)
	var wg sync.WaitGroup
	for i := range todo {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			liveOne(ctx, res, &todo[i], o)
		}()
	}
	wg.Wait()
	return todo, nil
}

func gatewayNamed(res *analyze.Result, name string) *analyze.GatewayResult {
	for _, g := range res.Gateways {
		if g.Gateway.Obj.Namespace+"/"+g.Gateway.Obj.Name == name {
			return g
		}
	}
	return nil
}

// secretLeaf is the leaf of the certificate the listener selects for the SNI
// (ListenerResult.CertificateFor), the one a live Gateway should present.
func secretLeaf(res *analyze.Result, l *Live) *x509.Certificate {
	g := gatewayNamed(res, l.Gateway)
	if g == nil {
		return nil
	}
	for _, lr := range g.AllListeners() {
		if lr.Name() == l.Listener && lr.Accepted {
			if c, _ := lr.CertificateFor(l.SNI); c != nil && len(c.Chain) > 0 {
				return c.Chain[0]
			}
		}
	}
	return nil
}

func liveOne(ctx context.Context, res *analyze.Result, l *Live, o LiveOptions) {
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
	l.TLS, _ = describeHandshake(st, l.SNI, o.Roots, o.Now)
	leaf := st.PeerCertificates[0]
	switch {
	case o.Now.After(leaf.NotAfter):
		l.Validity = "expired"
		problem("the certificate expired on %s", leaf.NotAfter.UTC().Format(time.DateOnly))
	case o.Now.Before(leaf.NotBefore):
		l.Validity = "not yet valid"
		problem("the certificate is not valid before %s", leaf.NotBefore.UTC().Format(time.DateOnly))
	default:
		l.Validity = "valid"
	}
	if !l.TLS.CoversSNI {
		problem("the certificate presented does not cover SNI %s (DNS names %v)", l.SNI, leaf.DNSNames)
	}
	switch {
	case errors.Is(l.TLS.verifyErr, errNoRoot):
		l.Notes = append(l.Notes, errNoRoot.Error())
	case l.TLS.verifyErr != nil:
		problem("the chain does not verify: %v", l.TLS.verifyErr)
	}
	if l.Mode == string(gwv1.TLSModeTerminate) {
		if want := secretLeaf(res, l); want != nil {
			same := Fingerprint(want) == Fingerprint(leaf)
			l.SameAsSecret = &same
			if !same {
				problem("stale certificate: the Gateway serves %s (SHA-256 %.16s…), not the certificate in Secret %s (SHA-256 %.16s…)",
					leaf.Subject.CommonName, Fingerprint(leaf), l.Secret, Fingerprint(want))
			}
		}
	} else {
		l.Notes = append(l.Notes, "passthrough: the certificate is the backend's")
	}
	if l.Verdict == "" {
		l.Verdict = VerdictOK
	}
}
