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
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
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
		// crypto/tls's errors explain the mismatch without quoting key material.
		return keyPair{err: fmt.Errorf("%s and %s are not a usable key pair: %v", corev1.TLSCertKey, corev1.TLSPrivateKeyKey, err)}
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
		p := rules.ListenerResolvedRefsInvalidCertificateRef.Problem("a terminating listener needs tls.certificateRefs",
			"add tls.certificateRefs naming a kubernetes.io/tls Secret")
		st.unresolved = append(st.unresolved, p)
		st.certInvalid = true
		if e.tracingListener(l) {
			l.Trace = append(l.Trace, Step{Rule: "listener.tls.certificateRefs", Subject: "listener " + l.Name(), Detail: p.Message, Fix: p.Fix})
		}
		return
	}
	valid := 0
	var notPermitted, invalid []rules.Problem
	for i, ref := range refs {
		group, kind := written(ref.Group), written(ref.Kind)
		ns := namespaceOr(ref.Namespace, owner.Namespace)
		cr := &CertificateRef{Ref: ref, Namespace: ns}
		secret := cr.NamespacedName()
		l.Certificates = append(l.Certificates, cr)
		var step Step // filled in only when tracing: this runs for every certificateRef
		if e.tracingListener(l) {
			step = Step{Rule: "listener.tls.certificateRefs", Subject: fmt.Sprintf("certificateRefs[%d] %s %s", i, kind, secret)}
		}
		grant := grantedRef{fromGroup: gwv1.GroupName, fromKind: owner.Kind, fromNamespace: owner.Namespace, toGroup: group, toKind: kind, to: secret}
		var p *rules.Problem
		switch {
		case !e.ix.permits(grant):
			cr.Problem = fmt.Sprintf("%s in namespace %s is not permitted: no ReferenceGrant in %s allows %s from namespace %s", kind, ns, ns, owner.Kind, owner.Namespace)
			p = problemOf(rules.ListenerResolvedRefsRefNotPermitted, cr.Problem, grant.fix())
			notPermitted = append(notPermitted, *p)
		case group != "" || kind != "Secret":
			cr.Problem = fmt.Sprintf("certificateRefs[%d] is a %s; only core Secrets are supported", i, groupKindString(group, kind))
			p = problemOf(rules.ListenerResolvedRefsInvalidCertificateRef, cr.Problem, "reference a Secret of type kubernetes.io/tls")
		default:
			s := e.ix.secrets[secret]
			switch {
			case s == nil && e.isUnverified("Secret", ns, secret.Name):
				_, cr.Unverified = e.unverified("Secret", ns, secret.Name)
				cr.External = true
				valid++
				step.Passed, step.Detail = true, fmt.Sprintf("Secret %s is %s: not verified", secret, cr.Unverified)
			case s == nil:
				cr.Problem = fmt.Sprintf("Secret %s does not exist", secret)
				p = problemOf(rules.ListenerResolvedRefsInvalidCertificateRef, cr.Problem,
					fmt.Sprintf("create the Secret, fix the name, or declare it with --external Secret/%s if it is issued outside these manifests", secret))
			default:
				cr.Secret = s
				if kp := e.certs.keyPair(s); kp.err != nil {
					cr.Problem = fmt.Sprintf("Secret %s: %v", secret, kp.err)
					p = problemOf(rules.ListenerResolvedRefsInvalidCertificateRef, cr.Problem,
						"put a PEM certificate chain (leaf first) in tls.crt and its private key in tls.key")
				} else {
					valid++
					cr.Chain = kp.chain
					step.Passed = true
					if e.tracingListener(l) {
						step.Detail = fmt.Sprintf("Secret %s holds a certificate and matching key", secret)
					}
				}
			}
		}
		if p != nil {
			if p.Rule != rules.ListenerResolvedRefsRefNotPermitted {
				invalid = append(invalid, *p)
			}
			step.Detail, step.Fix = p.Message, p.Fix
		}
		if e.tracingListener(l) {
			l.Trace = append(l.Trace, step)
		}
	}
	// RefNotPermitted is the more specific reason; report it first.
	st.unresolved = append(st.unresolved, notPermitted...)
	st.unresolved = append(st.unresolved, invalid...)
	// A listener still serves with its usable certificates
	// (rules.ListenerResolvedRefsInvalidCertificateRef): only ResolvedRefs
	// reports the others.
	st.certInvalid = valid == 0
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
		cm := model.NamespacedName{Namespace: namespaceOr(ref.Namespace, gw.Namespace), Name: string(ref.Name)}
		subject := fmt.Sprintf("frontend caCertificateRefs[%d] %s %s", i, kind, cm)
		grant := grantedRef{fromGroup: gwv1.GroupName, fromKind: "Gateway", fromNamespace: gw.Namespace, toKind: "ConfigMap", to: cm}
		var p *rules.Problem
		switch {
		case group != "" || kind != "ConfigMap":
			p = problemOf(rules.ListenerResolvedRefsInvalidCACertificateKind,
				fmt.Sprintf("caCertificateRefs[%d] is a %s; only core ConfigMaps with ca.crt are supported", i, groupKindString(group, kind)),
				"reference a ConfigMap holding the CA bundle in ca.crt")
		case !e.ix.permits(grant):
			p = problemOf(rules.ListenerResolvedRefsRefNotPermitted,
				fmt.Sprintf("ConfigMap %s is not permitted: no ReferenceGrant in %s allows Gateway from namespace %s", cm, cm.Namespace, gw.Namespace),
				grant.fix())
		default:
			obj := e.ix.configMaps[cm]
			switch {
			case obj == nil && e.isUnverified("ConfigMap", cm.Namespace, cm.Name):
			case obj == nil:
				p = problemOf(rules.ListenerResolvedRefsInvalidCACertificateRef, fmt.Sprintf("ConfigMap %s does not exist", cm),
					"create the ConfigMap with the client CA bundle in ca.crt, or fix the name")
			default:
				if b := e.certs.bundle(obj); b.err != nil {
					p = problemOf(rules.ListenerResolvedRefsInvalidCACertificateRef, fmt.Sprintf("ConfigMap %s: %v", cm, b.err),
						"put the PEM-encoded client CA certificates in ca.crt")
				}
			}
		}
		step := Step{Rule: "listener.frontend.caCertificateRefs", Subject: subject, Passed: p == nil, Detail: "CA bundle resolves"}
		if p != nil {
			step.Detail, step.Fix = p.Message, p.Fix
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
func (e *engine) gatewayClientCertificate(g *GatewayResult) *rules.Problem {
	gw := g.Gateway.Obj
	if gw.Spec.TLS == nil || gw.Spec.TLS.Backend == nil || gw.Spec.TLS.Backend.ClientCertificateRef == nil {
		return nil
	}
	ref := gw.Spec.TLS.Backend.ClientCertificateRef
	group, kind := written(ref.Group), written(ref.Kind)
	secret := model.NamespacedName{Namespace: namespaceOr(ref.Namespace, gw.Namespace), Name: string(ref.Name)}
	invalid := rules.GatewayResolvedRefsInvalidClientCertificateRef
	grant := grantedRef{fromGroup: gwv1.GroupName, fromKind: "Gateway", fromNamespace: gw.Namespace, toGroup: group, toKind: kind, to: secret}
	if !e.ix.permits(grant) {
		return problemOf(rules.GatewayResolvedRefsRefNotPermitted,
			fmt.Sprintf("spec.tls.backend.clientCertificateRef %s %s is not permitted: no ReferenceGrant in %s allows Gateway from namespace %s", kind, secret, secret.Namespace, gw.Namespace),
			grant.fix())
	}
	if group != "" || kind != "Secret" {
		return problemOf(invalid, fmt.Sprintf("spec.tls.backend.clientCertificateRef is a %s; only core Secrets are supported", groupKindString(group, kind)),
			"reference a kubernetes.io/tls Secret")
	}
	s := e.ix.secrets[secret]
	if s == nil {
		if e.isUnverified("Secret", secret.Namespace, secret.Name) {
			return nil
		}
		return problemOf(invalid, fmt.Sprintf("spec.tls.backend.clientCertificateRef: Secret %s does not exist", secret),
			"create the Secret or fix the name")
	}
	if kp := e.certs.keyPair(s); kp.err != nil {
		return problemOf(invalid, fmt.Sprintf("spec.tls.backend.clientCertificateRef: Secret %s: %v", secret, kp.err),
			"put the client certificate in tls.crt and its key in tls.key")
	}
	return nil
}
