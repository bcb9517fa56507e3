package analyze

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"sync"

	corev1 "k8s.io/api/core/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// certificateCache parses each Secret and ConfigMap once, however many listeners
// reference it. It is safe for concurrent use: listeners of different Gateways
// are decided at once.
type certificateCache struct {
	mu       sync.Mutex
	keyPairs map[*model.Secret]keyPair
	bundles  map[*model.ConfigMap]caBundle
}

type keyPair struct {
	chain []*x509.Certificate
	err   error
}

type caBundle struct {
	certs []*x509.Certificate
	err   error
}

func newCertificateCache() *certificateCache {
	return &certificateCache{keyPairs: map[*model.Secret]keyPair{}, bundles: map[*model.ConfigMap]caBundle{}}
}

// keyPair parses a kubernetes.io/tls Secret: the chain in tls.crt and a private key
// in tls.key that matches the leaf. Errors never quote the data.
func (c *certificateCache) keyPair(s *model.Secret) keyPair {
	c.mu.Lock()
	kp, ok := c.keyPairs[s]
	c.mu.Unlock()
	if ok {
		return kp
	}
	// Parsed outside the lock; if two goroutines parse one Secret at once, the
	// first result stored is the one every listener gets.
	kp = parseKeyPair(s.Obj)
	c.mu.Lock()
	defer c.mu.Unlock()
	if first, ok := c.keyPairs[s]; ok {
		return first
	}
	c.keyPairs[s] = kp
	return kp
}

func parseKeyPair(s *corev1.Secret) keyPair {
	crt, key := s.Data[corev1.TLSCertKey], s.Data[corev1.TLSPrivateKeyKey]
	switch {
	case len(crt) == 0 && len(key) == 0:
		return keyPair{err: fmt.Errorf("the Secret has no %s and no %s", corev1.TLSCertKey, corev1.TLSPrivateKeyKey)}
	case len(crt) == 0:
		return keyPair{err: fmt.Errorf("the Secret has no %s", corev1.TLSCertKey)}
	case len(key) == 0:
		return keyPair{err: fmt.Errorf("the Secret has no %s", corev1.TLSPrivateKeyKey)}
	}
	pair, err := tls.X509KeyPair(crt, key)
	if err != nil {
		return keyPair{err: fmt.Errorf("%s and %s are not a usable key pair: %s", corev1.TLSCertKey, corev1.TLSPrivateKeyKey, keyPairError(err))}
	}
	chain := make([]*x509.Certificate, 0, len(pair.Certificate))
	for i, der := range pair.Certificate {
		if i == 0 && pair.Leaf != nil {
			chain = append(chain, pair.Leaf) // X509KeyPair parsed it already
			continue
		}
		cert, err := x509.ParseCertificate(der)
		if err != nil {
			return keyPair{err: fmt.Errorf("%s holds a certificate that does not parse: %v", corev1.TLSCertKey, err)}
		}
		chain = append(chain, cert)
	}
	return keyPair{chain: chain}
}

// keyPairError keeps crypto/tls's explanation but never any key material (it holds none).
func keyPairError(err error) string { return err.Error() }

// bundle parses the PEM CA certificates in a ConfigMap's ca.crt.
func (c *certificateCache) bundle(cm *model.ConfigMap) caBundle {
	c.mu.Lock()
	b, ok := c.bundles[cm]
	c.mu.Unlock()
	if ok {
		return b
	}
	b = parseBundle(cm.Obj.Data["ca.crt"])
	c.mu.Lock()
	defer c.mu.Unlock()
	if first, ok := c.bundles[cm]; ok {
		return first
	}
	c.bundles[cm] = b
	return b
}

func parseBundle(data string) caBundle {
	if data == "" {
		return caBundle{err: errors.New("ConfigMap has no ca.crt")}
	}
	certs, err := parsePEMCertificates([]byte(data))
	if err != nil {
		return caBundle{err: fmt.Errorf("ca.crt %v", err)}
	}
	return caBundle{certs: certs}
}

// parsePEMCertificates parses every CERTIFICATE block of a PEM bundle, skipping
// other block types; it fails on a certificate that does not parse or when there
// is none. Errors never quote the data.
func parsePEMCertificates(data []byte) ([]*x509.Certificate, error) {
	var certs []*x509.Certificate
	for rest := data; ; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("holds a certificate that does not parse: %v", err)
		}
		certs = append(certs, cert)
	}
	if len(certs) == 0 {
		return nil, errors.New("holds no PEM certificate")
	}
	return certs, nil
}

// resolveCertificates resolves a terminating listener's certificateRefs
// (ListenerTLSConfig.CertificateRefs: InvalidCertificateRef, RefNotPermitted).
func (e *engine) resolveCertificates(l *ListenerResult) {
	st := l.state
	owner := l.Owner()
	var refs []gwv1.SecretObjectReference
	if l.Listener.TLS != nil {
		refs = l.Listener.TLS.CertificateRefs
	}
	if len(refs) == 0 {
		p := problem{string(gwv1.ListenerReasonInvalidCertificateRef), "a terminating listener needs tls.certificateRefs",
			"add tls.certificateRefs naming a kubernetes.io/tls Secret"}
		st.unresolved = append(st.unresolved, p)
		st.certInvalid = true
		if e.tracingListener(l) {
			l.Trace = append(l.Trace, Step{Rule: "listener.tls.certificateRefs", Subject: "listener " + l.Name(), Detail: p.message, Fix: p.fix})
		}
		return
	}
	valid := 0
	var notPermitted, invalid []problem
	for i, ref := range refs {
		group, kind := groupOr(ref.Group, ""), kindOr(ref.Kind, "Secret")
		ns := namespaceOr(ref.Namespace, owner.Namespace)
		cr := &CertificateRef{Ref: ref, Namespace: ns}
		l.Certificates = append(l.Certificates, cr)
		var step Step // filled in only when tracing: this runs for every certificateRef
		if e.tracingListener(l) {
			step = Step{Rule: "listener.tls.certificateRefs", Subject: fmt.Sprintf("certificateRefs[%d] %s %s/%s", i, kind, ns, ref.Name)}
		}
		switch {
		case ns != owner.Namespace && e.ix.grantFor(gwv1.GroupName, owner.Kind, owner.Namespace, group, kind, ns, string(ref.Name)) == nil:
			cr.Problem = fmt.Sprintf("%s in namespace %s is not permitted: no ReferenceGrant in %s allows %s from namespace %s", kind, ns, ns, owner.Kind, owner.Namespace)
			notPermitted = append(notPermitted, problem{string(gwv1.ListenerReasonRefNotPermitted), cr.Problem,
				referenceGrantFix(ns, gwv1.GroupName, owner.Kind, owner.Namespace, group, kind, string(ref.Name))})
		case group != "" || kind != "Secret":
			cr.Problem = fmt.Sprintf("certificateRefs[%d] is a %s; only core Secrets are supported", i, groupKindString(group, kind))
			invalid = append(invalid, problem{string(gwv1.ListenerReasonInvalidCertificateRef), cr.Problem, "reference a Secret of type kubernetes.io/tls"})
		default:
			s := e.ix.secrets[nn{Namespace: ns, Name: string(ref.Name)}]
			switch {
			case s == nil && e.isUnverified("Secret", ns, string(ref.Name)):
				_, cr.Unverified = e.unverified("Secret", ns, string(ref.Name))
				cr.External = true
				valid++
				step.Passed, step.Detail = true, fmt.Sprintf("Secret %s/%s is %s: not verified", ns, ref.Name, cr.Unverified)
			case s == nil:
				cr.Problem = fmt.Sprintf("Secret %s/%s does not exist", ns, ref.Name)
				invalid = append(invalid, problem{string(gwv1.ListenerReasonInvalidCertificateRef), cr.Problem,
					fmt.Sprintf("create the Secret, fix the name, or declare it with --external Secret/%s/%s if it is issued outside these manifests", ns, ref.Name)})
			default:
				cr.Secret = s
				if kp := e.certs.keyPair(s); kp.err != nil {
					cr.Problem = fmt.Sprintf("Secret %s/%s: %v", ns, ref.Name, kp.err)
					invalid = append(invalid, problem{string(gwv1.ListenerReasonInvalidCertificateRef), cr.Problem,
						"put a PEM certificate chain (leaf first) in tls.crt and its private key in tls.key"})
				} else {
					valid++
					cr.Chain = kp.chain
					step.Passed = true
					if e.tracingListener(l) {
						step.Detail = fmt.Sprintf("Secret %s/%s holds a certificate and matching key", ns, ref.Name)
					}
				}
			}
		}
		if !step.Passed {
			step.Detail = cr.Problem
			if n := len(notPermitted) + len(invalid); n > 0 {
				if len(invalid) > 0 && invalid[len(invalid)-1].message == cr.Problem {
					step.Fix = invalid[len(invalid)-1].fix
				} else {
					step.Fix = notPermitted[len(notPermitted)-1].fix
				}
			}
		}
		if e.tracingListener(l) {
			l.Trace = append(l.Trace, step)
		}
	}
	// RefNotPermitted is the more specific reason; report it first.
	st.unresolved = append(st.unresolved, notPermitted...)
	st.unresolved = append(st.unresolved, invalid...)
	st.certInvalid = valid == 0 || len(notPermitted)+len(invalid) > 0
}

// referenceGrantFix is the ReferenceGrant a user can apply to permit a reference.
func referenceGrantFix(toNS, fromGroup, fromKind, fromNS, toGroup, toKind, toName string) string {
	return fmt.Sprintf(`apply this ReferenceGrant:
apiVersion: gateway.networking.k8s.io/v1
kind: ReferenceGrant
metadata:
  name: allow-%s-from-%s
  namespace: %s
spec:
  from:
  - group: %q
    kind: %s
    namespace: %s
  to:
  - group: %q
    kind: %s
    name: %s`, lower(fromKind), fromNS, toNS, fromGroup, fromKind, fromNS, toGroup, toKind, toName)
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// frontendValidation returns the client-certificate validation that applies to a
// port: a perPort entry for the port, else the default (GatewayTLSConfig.Frontend).
func frontendValidation(g *gwv1.Gateway, port gwv1.PortNumber) *gwv1.FrontendTLSValidation {
	if g.Spec.TLS == nil || g.Spec.TLS.Frontend == nil {
		return nil
	}
	for _, pp := range g.Spec.TLS.Frontend.PerPort {
		if pp.Port == port {
			return pp.TLS.Validation
		}
	}
	return g.Spec.TLS.Frontend.Default.Validation
}

// resolveFrontendValidation checks the CA certificates an HTTPS listener validates
// client certificates against (FrontendTLSValidation.CACertificateRefs:
// InvalidCACertificateRef, InvalidCACertificateKind, RefNotPermitted; all invalid:
// Accepted False NoValidCACertificate).
func (e *engine) resolveFrontendValidation(g *GatewayResult, l *ListenerResult) {
	gw := g.Gateway.Obj
	v := frontendValidation(gw, l.Listener.Port)
	if v == nil {
		return
	}
	valid := 0
	for i, ref := range v.CACertificateRefs {
		group, kind := string(ref.Group), string(ref.Kind)
		ns := namespaceOr(ref.Namespace, gw.Namespace)
		subject := fmt.Sprintf("frontend caCertificateRefs[%d] %s %s/%s", i, kind, ns, ref.Name)
		var p *problem
		switch {
		case group != "" || kind != "ConfigMap":
			p = &problem{string(gwv1.ListenerReasonInvalidCACertificateKind),
				fmt.Sprintf("caCertificateRefs[%d] is a %s; only core ConfigMaps with ca.crt are supported", i, groupKindString(group, kind)),
				"reference a ConfigMap holding the CA bundle in ca.crt"}
		case ns != gw.Namespace && e.ix.grantFor(gwv1.GroupName, "Gateway", gw.Namespace, "", "ConfigMap", ns, string(ref.Name)) == nil:
			p = &problem{string(gwv1.ListenerReasonRefNotPermitted),
				fmt.Sprintf("ConfigMap %s/%s is not permitted: no ReferenceGrant in %s allows Gateway from namespace %s", ns, ref.Name, ns, gw.Namespace),
				referenceGrantFix(ns, gwv1.GroupName, "Gateway", gw.Namespace, "", "ConfigMap", string(ref.Name))}
		default:
			cm := e.ix.configMaps[nn{Namespace: ns, Name: string(ref.Name)}]
			switch {
			case cm == nil && e.isUnverified("ConfigMap", ns, string(ref.Name)):
			case cm == nil:
				p = &problem{string(gwv1.ListenerReasonInvalidCACertificateRef), fmt.Sprintf("ConfigMap %s/%s does not exist", ns, ref.Name),
					"create the ConfigMap with the client CA bundle in ca.crt, or fix the name"}
			default:
				if b := e.certs.bundle(cm); b.err != nil {
					p = &problem{string(gwv1.ListenerReasonInvalidCACertificateRef), fmt.Sprintf("ConfigMap %s/%s: %v", ns, ref.Name, b.err),
						"put the PEM-encoded client CA certificates in ca.crt"}
				}
			}
		}
		step := Step{Rule: "listener.frontend.caCertificateRefs", Subject: subject, Passed: p == nil, Detail: "CA bundle resolves"}
		if p != nil {
			step.Detail, step.Fix = p.message, p.fix
			l.state.unresolved = append(l.state.unresolved, *p)
		} else {
			valid++
		}
		if e.tracingListener(l) {
			l.Trace = append(l.Trace, step)
		}
	}
	if valid == 0 && len(v.CACertificateRefs) > 0 {
		l.state.noValidCA = true
	}
}

// gatewayClientCertificate resolves spec.tls.backend.clientCertificateRef
// (GatewayBackendTLS: InvalidClientCertificateRef, RefNotPermitted first).
func (e *engine) gatewayClientCertificate(g *GatewayResult) *problem {
	gw := g.Gateway.Obj
	if gw.Spec.TLS == nil || gw.Spec.TLS.Backend == nil || gw.Spec.TLS.Backend.ClientCertificateRef == nil {
		return nil
	}
	ref := gw.Spec.TLS.Backend.ClientCertificateRef
	group, kind := groupOr(ref.Group, ""), kindOr(ref.Kind, "Secret")
	ns := namespaceOr(ref.Namespace, gw.Namespace)
	invalid := string(gwv1.GatewayReasonInvalidClientCertificateRef)
	if ns != gw.Namespace && e.ix.grantFor(gwv1.GroupName, "Gateway", gw.Namespace, group, kind, ns, string(ref.Name)) == nil {
		return &problem{string(gwv1.GatewayReasonRefNotPermitted),
			fmt.Sprintf("spec.tls.backend.clientCertificateRef %s %s/%s is not permitted: no ReferenceGrant in %s allows Gateway from namespace %s", kind, ns, ref.Name, ns, gw.Namespace),
			referenceGrantFix(ns, gwv1.GroupName, "Gateway", gw.Namespace, group, kind, string(ref.Name))}
	}
	if group != "" || kind != "Secret" {
		return &problem{invalid, fmt.Sprintf("spec.tls.backend.clientCertificateRef is a %s; only core Secrets are supported", groupKindString(group, kind)),
			"reference a kubernetes.io/tls Secret"}
	}
	s := e.ix.secrets[nn{Namespace: ns, Name: string(ref.Name)}]
	if s == nil {
		if e.isUnverified("Secret", ns, string(ref.Name)) {
			return nil
		}
		return &problem{invalid, fmt.Sprintf("spec.tls.backend.clientCertificateRef: Secret %s/%s does not exist", ns, ref.Name),
			"create the Secret or fix the name"}
	}
	if kp := e.certs.keyPair(s); kp.err != nil {
		return &problem{invalid, fmt.Sprintf("spec.tls.backend.clientCertificateRef: Secret %s/%s: %v", ns, ref.Name, kp.err),
			"put the client certificate in tls.crt and its key in tls.key"}
	}
	return nil
}
