package probe

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// OCGOptions configure the handshake an out-of-cluster Gateway makes to a meshed
// backend (GEP-3792, spec 002, provisional).
type OCGOptions struct {
	// Target is the meshed backend's HOST:PORT, as the user names it.
	Target     string
	ServerName string
	// ClientCertificate is the Gateway's mesh identity.
	ClientCertificate tls.Certificate
	// TrustBundle is the Gateway's spec.mesh.trustBundle: what the backend's chain
	// must verify against.
	TrustBundle []*x509.Certificate
	// MeshTrust, when known (a Mesh's spec.ocg.trustBundle), is what the client
	// certificate must verify against on the mesh's side.
	MeshTrust []*x509.Certificate
	Timeout   time.Duration
}

// OCG is what the mTLS handshake showed.
type OCG struct {
	Target       string `json:"target"`
	ServerName   string `json:"serverName"`
	ALPNOffered  string `json:"alpnOffered"`
	ALPNSelected string `json:"alpnSelected"`
	// ServerVerified: the backend's chain verifies against the Gateway's trust bundle.
	ServerVerified bool       `json:"serverVerified"`
	ServerChain    []CertInfo `json:"serverChain,omitempty"`
	// ClientAccepted: the backend completed the handshake with the client
	// certificate (a TLS 1.3 server rejects it only after the client's Finished,
	// so this waits briefly for an alert).
	ClientAccepted bool `json:"clientAccepted"`
	// ClientVerified: whether the client chain verifies against the mesh's trust
	// bundle (nil when no Mesh in the input names one).
	ClientVerified *Verification `json:"clientVerified,omitempty"`
	Verdict        Verdict       `json:"verdict"`
	Problems       []string      `json:"problems,omitempty"`
}

// OCGTrust is what an out-of-cluster Gateway's handshake trusts (GEP-3792): the
// spec.mesh.trustBundle of the Gateway named (of every Gateway with a mesh when
// gateway is zero), and the trust bundles of the input's Meshes, which the
// client certificate must verify against on the mesh's side.
func OCGTrust(res *analyze.Result, gateway model.NamespacedName) (gatewayTrust, meshTrust []*x509.Certificate) {
	for _, g := range res.Gateways {
		o := g.Gateway.Obj
		if g.Mesh != nil && (gateway == (model.NamespacedName{}) || gateway == model.NamespacedName{Namespace: o.Namespace, Name: o.Name}) {
			gatewayTrust = append(gatewayTrust, g.Mesh.TrustBundle...)
		}
	}
	for _, m := range res.Meshes {
		meshTrust = append(meshTrust, m.TrustBundle...)
	}
	return gatewayTrust, meshTrust
}

// OCGHandshake performs the out-of-cluster Gateway's handshake.
func OCGHandshake(ctx context.Context, o OCGOptions) (r OCG) {
	r = OCG{Target: o.Target, ServerName: o.ServerName, ALPNOffered: analyze.OCGALPN}
	problem := func(format string, args ...any) { r.Problems = append(r.Problems, fmt.Sprintf(format, args...)) }
	defer func() {
		r.Verdict = VerdictOK
		if len(r.Problems) > 0 {
			r.Verdict = VerdictFinding
		}
	}()
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Second
	}
	if len(o.TrustBundle) == 0 {
		problem("the Gateway has no usable spec.mesh.trustBundle to verify the backend against")
	}
	roots := x509.NewCertPool()
	for _, c := range o.TrustBundle {
		roots.AddCert(c)
	}
	if r.ServerName == "" {
		host, _, _ := net.SplitHostPort(o.Target)
		r.ServerName = host
	}
	if len(o.MeshTrust) > 0 && len(o.ClientCertificate.Certificate) > 0 {
		r.ClientVerified = &Verification{Status: ChainVerified}
		if err := verifyDER(o.ClientCertificate.Certificate, o.MeshTrust, x509.ExtKeyUsageClientAuth); err != nil {
			r.ClientVerified = &Verification{Status: ChainNotVerified, Err: err}
			problem("the client certificate does not verify against the mesh's trust bundle: %v", err)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	d := &tls.Dialer{Config: &tls.Config{
		ServerName: r.ServerName, NextProtos: []string{analyze.OCGALPN},
		Certificates: []tls.Certificate{o.ClientCertificate},
		// Verified below against the trust bundle, so that a failure is reported
		// alongside what else the handshake showed.
		InsecureSkipVerify: true,
	}}
	c, err := d.DialContext(ctx, "tcp", o.Target)
	if err != nil {
		if strings.Contains(err.Error(), "no application protocol") {
			problem("the backend did not select ALPN %s: it refused the handshake (no_application_protocol)", analyze.OCGALPN)
		}
		problem("mTLS handshake with %s failed: %v", o.Target, err)
		return r
	}
	defer c.Close()
	tc := c.(*tls.Conn)
	st := tc.ConnectionState()
	r.ALPNSelected = st.NegotiatedProtocol
	r.ServerChain = describeChain(st.PeerCertificates)
	if r.ALPNSelected != analyze.OCGALPN {
		problem("the backend did not select ALPN %s (selected %q): it does not know it is talking to an out-of-cluster Gateway", analyze.OCGALPN, r.ALPNSelected)
	}
	var raw [][]byte
	for _, pc := range st.PeerCertificates {
		raw = append(raw, pc.Raw)
	}
	if err := verifyDER(raw, o.TrustBundle, x509.ExtKeyUsageServerAuth); err != nil {
		problem("the backend's chain does not verify against the Gateway's trust bundle: %v", err)
	} else {
		r.ServerVerified = true
	}
	// A TLS 1.3 server reports a rejected client certificate with an alert after
	// the handshake; a read that times out means it did not.
	tc.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	_, err = tc.Read(make([]byte, 1))
	var ne net.Error
	switch {
	case err == nil, errors.As(err, &ne) && ne.Timeout(), errors.Is(err, io.EOF):
		r.ClientAccepted = true // no alert: the backend accepted the client certificate
	default:
		problem("the backend rejected the client certificate: %v", err)
	}
	return r
}

func verifyDER(chain [][]byte, trust []*x509.Certificate, usage x509.ExtKeyUsage) error {
	if len(chain) == 0 {
		return errors.New("no certificate")
	}
	roots, inter := x509.NewCertPool(), x509.NewCertPool()
	for _, c := range trust {
		roots.AddCert(c)
	}
	var leaf *x509.Certificate
	for i, der := range chain {
		c, err := x509.ParseCertificate(der)
		if err != nil {
			return err
		}
		if i == 0 {
			leaf = c
		} else {
			inter.AddCert(c)
		}
	}
	_, err := leaf.Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter, KeyUsages: []x509.ExtKeyUsage{usage}})
	return err
}
