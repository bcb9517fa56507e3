package probe

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
)

// dialPassthrough connects to the backend of a passthrough listener, which
// terminates TLS itself: the client's bytes go to it untouched.
func (p *Proxy) dialPassthrough(rt route, rec *ConnRecord, deadline time.Time) (net.Conn, error) {
	addr, err := p.reg.address(rt, passthroughBackend, nil)
	if err != nil {
		return nil, err
	}
	rec.Address = addr
	_, mapped := p.reg.mapped(rec.Backend)
	rec.builtin = !mapped
	return p.reg.dial(addr, deadline)
}

// terminateConfig serves the certificate the configuration presents for the SNI
// (serving.Decision.Certificate, the engine's CertificateFor).
func (p *Proxy) terminateConfig(rt route) *tls.Config {
	l := rt.decision.Listener
	cert := rt.decision.Certificate
	cfg := &tls.Config{
		GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
			if cert == nil || cert.Ref.Secret == nil {
				return nil, fmt.Errorf("listener %s has no usable certificate in the input", l.Name)
			}
			return p.reg.keyPair(cert.Ref.Secret)
		},
	}
	if l.Protocol == gwv1.HTTPSProtocolType {
		cfg.NextProtos = []string{"http/1.1"} // the proxy forwards HTTP/1 bytes
	}
	return cfg
}

// dialTerminated connects to the backend of a terminated connection: in plain
// text, or re-encrypted when a BackendTLSPolicy applies (GEP-1897: the policy's
// hostname is the SNI and, without subjectAltNames, the name verified; the CA is
// the policy's). Connecting, and the backend TLS handshake, end by the deadline.
func (p *Proxy) dialTerminated(rt route, rec *ConnRecord, deadline time.Time) (net.Conn, error) {
	key := rt.backendKey()
	_, mapped := p.reg.mapped(key)
	rec.Address, rec.BackendTLS, rec.builtin = "", "", !mapped
	pol := rt.backend.Policy
	if pol == nil {
		addr, err := p.reg.address(rt, plainBackend, nil)
		if err != nil {
			return nil, err
		}
		rec.Address = addr
		return p.reg.dial(addr, deadline)
	}
	v := pol.Policy.Obj.Spec.Validation
	names := []string{string(v.Hostname)}
	for _, san := range v.SubjectAltNames {
		if san.Hostname != "" {
			names = append(names, string(san.Hostname))
		}
	}
	addr, err := p.reg.address(rt, reencryptBackend, names)
	if err != nil {
		return nil, err
	}
	rec.Address = addr
	roots, how, err := policyRoots(pol)
	if err != nil {
		return nil, err
	}
	if !mapped {
		if _, err := p.reg.ca.Cert.Verify(x509.VerifyOptions{Roots: roots}); err != nil {
			// A built-in backend cannot hold a certificate from the policy's real CA:
			// verify it against the probe's CA, and say so.
			roots = x509.NewCertPool()
			roots.AddCert(p.reg.ca.Cert)
			how = "the probe's backend CA (the policy's CA does not sign built-in backends; map the backend to a real one with --backend)"
		}
	}
	c, err := p.reg.dial(addr, deadline)
	if err != nil {
		return nil, err
	}
	cfg := &tls.Config{ServerName: string(v.Hostname), RootCAs: roots}
	if len(v.SubjectAltNames) > 0 {
		// With subjectAltNames, those are verified instead of the hostname.
		cfg.InsecureSkipVerify = true
		cfg.VerifyConnection = func(cs tls.ConnectionState) error { return verifySANs(cs, roots, v.SubjectAltNames) }
	}
	tc := tls.Client(c, cfg)
	c.SetDeadline(deadline)
	if err := tc.Handshake(); err != nil {
		c.Close()
		o := pol.Policy.Obj
		return nil, fmt.Errorf("backend TLS (policy %s/%s, SNI %s, CA %s): %w", o.Namespace, o.Name, v.Hostname, how, err)
	}
	c.SetDeadline(time.Now().Add(p.opts.ConnTimeout))
	st := tc.ConnectionState()
	rec.BackendTLS = fmt.Sprintf("%s, SNI %s, verified against %s", tls.VersionName(st.Version), v.Hostname, how)
	return tc, nil
}

// policyRoots is the trust the policy names: the CA certificates the engine
// parsed from its caCertificateRefs, or the system pool for
// wellKnownCACertificates: System.
func policyRoots(pr *analyze.PolicyResult) (*x509.CertPool, string, error) {
	pol := pr.Policy.Obj
	v := pol.Spec.Validation
	if v.WellKnownCACertificates != nil && *v.WellKnownCACertificates == gwv1.WellKnownCACertificatesSystem {
		pool, err := x509.SystemCertPool()
		return pool, "the system roots", err
	}
	if len(pr.CACertificates) == 0 {
		return nil, "", fmt.Errorf("BackendTLSPolicy %s/%s: no CA certificate in its caCertificateRefs", pol.Namespace, pol.Name)
	}
	pool := x509.NewCertPool()
	for _, c := range pr.CACertificates {
		pool.AddCert(c)
	}
	return pool, strings.Join(pr.CASources, ", "), nil
}

func verifySANs(cs tls.ConnectionState, roots *x509.CertPool, sans []gwv1.SubjectAltName) error {
	if len(cs.PeerCertificates) == 0 {
		return errors.New("the backend presented no certificate")
	}
	inter := x509.NewCertPool()
	for _, c := range cs.PeerCertificates[1:] {
		inter.AddCert(c)
	}
	leaf := cs.PeerCertificates[0]
	if _, err := leaf.Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter}); err != nil {
		return err
	}
	for _, san := range sans {
		if san.Hostname != "" && leaf.VerifyHostname(string(san.Hostname)) == nil {
			return nil
		}
		for _, u := range leaf.URIs {
			if san.URI != "" && u.String() == string(san.URI) {
				return nil
			}
		}
	}
	return errors.New("the backend certificate matches none of the policy's subjectAltNames")
}
