package analyze

import (
	"bytes"
	"crypto/x509"
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// GEP-3792 (spec 002) is provisional: its fields are read from the raw objects and
// every finding about them says so.

// OCGALPN is the ALPN protocol an out-of-cluster Gateway MUST offer to meshed
// workloads (GEP-3792 "Solving the Protocol Problem").
const OCGALPN = "ocg.gateway.networking.k8s.io/v1"

// OCGFeature is the feature name the GEP says both the Gateway's and the Mesh's
// implementation MUST list.
const OCGFeature = "OffClusterGateway"

// MeshResult is what the engine found about an out-of-cluster Gateway's mesh
// configuration (Gateway spec.mesh) or a Mesh's OCG configuration (spec.ocg).
type MeshResult struct {
	// Owner is the Gateway or Mesh.
	Owner  model.Ref
	Source model.Source
	// TrustBundle are the CA certificates the trust bundle Secrets resolve to.
	TrustBundle []*x509.Certificate
	// MeshedRoutes are the routes attached to the Gateway that the mesh selector
	// selects (by route labels or namespace labels): the Gateway must reach their
	// backends over mTLS offering OCGALPN.
	MeshedRoutes []*RouteResult
	Lints        []rules.Problem
}

type meshSpec struct {
	TrustBundle []gwv1.SecretObjectReference `json:"trustBundle"`
	Selector    *metav1.LabelSelector        `json:"selector"`
}

// ocg reads spec.mesh of every Gateway and spec.ocg of every Mesh.
func (e *engine) ocg() {
	for _, g := range e.res.Gateways {
		var raw struct {
			Spec struct {
				Mesh *meshSpec `json:"mesh"`
			} `json:"spec"`
		}
		// Decoding every Gateway again is the cost of this step at scale; one
		// without the key cannot set spec.mesh.
		if !bytes.Contains(g.Gateway.Raw, []byte(`"mesh"`)) || json.Unmarshal(g.Gateway.Raw, &raw) != nil || raw.Spec.Mesh == nil {
			continue
		}
		o := g.Gateway.Obj
		mr := &MeshResult{Owner: refOf("Gateway", o.ObjectMeta), Source: g.Gateway.Source}
		e.trustBundle(mr, raw.Spec.Mesh.TrustBundle, o.Namespace, "spec.mesh.trustBundle")
		e.meshedRoutes(g, mr, raw.Spec.Mesh.Selector)
		if f := e.features(g); f != nil && !f.Supports(OCGFeature) {
			mr.Lints = append(mr.Lints, provisional(rules.OCGFeatureNotSupported,
				fmt.Sprintf("the Gateway sets spec.mesh but its implementation does not list the %s feature", OCGFeature),
				"use a GatewayClass whose implementation supports "+OCGFeature+", or remove spec.mesh"))
		}
		g.Mesh = mr
	}
	for _, m := range e.res.Model.Meshes {
		var raw struct {
			Spec struct {
				OCG *meshSpec `json:"ocg"`
			} `json:"spec"`
		}
		if json.Unmarshal(m.Raw, &raw) != nil || raw.Spec.OCG == nil {
			continue
		}
		mr := &MeshResult{Owner: refOf(m.Kind, m.ObjectMeta), Source: m.Source}
		ns := m.ObjectMeta.Namespace
		e.trustBundle(mr, raw.Spec.OCG.TrustBundle, ns, "spec.ocg.trustBundle")
		e.res.Meshes = append(e.res.Meshes, mr)
	}
}

// provisional is a problem of the provisional GEP-3792 API: its message says so.
func provisional(r *rules.Rule, message, fix string) rules.Problem {
	return r.Problem("[provisional GEP-3792] "+message, fix)
}

// trustBundle resolves trust bundle Secrets (at least one is required) and checks
// that they hold valid CA certificates (in ca.crt, else tls.crt).
func (e *engine) trustBundle(mr *MeshResult, refs []gwv1.SecretObjectReference, defaultNS, field string) {
	lint := func(rule *rules.Rule, msg, fix string) {
		mr.Lints = append(mr.Lints, provisional(rule, msg, fix))
	}
	if len(refs) == 0 {
		lint(rules.OCGTrustBundleMissing, field+" lists no Secret; at least one is required",
			"reference the Secret holding the CA certificate(s) of the other side")
		return
	}
	for i, ref := range refs {
		secret := model.NamespacedName{Namespace: namespaceOr(ref.Namespace, defaultNS), Name: string(ref.Name)}
		where := fmt.Sprintf("%s[%d] Secret %s", field, i, secret)
		// GEP-3792's fields are in no CRD, so nothing defaulted this
		// reference: SecretObjectReference's defaults (core group, kind
		// Secret) are applied here.
		if written(ref.Group) != "" || (written(ref.Kind) != "" && written(ref.Kind) != "Secret") {
			lint(rules.OCGTrustBundleInvalid, where+" is not a core Secret", "reference a Secret")
			continue
		}
		s := e.ix.secrets[secret]
		if s == nil {
			if !e.isUnverified("Secret", secret.Namespace, secret.Name) {
				lint(rules.OCGTrustBundleNotFound, where+" does not exist", "create it with the CA certificate(s) in ca.crt")
			}
			continue
		}
		data := s.Obj.Data["ca.crt"]
		if len(data) == 0 {
			data = s.Obj.Data["tls.crt"]
		}
		if len(data) == 0 {
			lint(rules.OCGTrustBundleInvalid, where+" has neither ca.crt nor tls.crt", "put PEM CA certificates in ca.crt")
			continue
		}
		certs, err := parsePEMCertificates(data)
		if err != nil {
			lint(rules.OCGTrustBundleInvalid, where+" "+err.Error(), "put PEM CA certificates in ca.crt")
			continue
		}
		for _, c := range certs {
			switch {
			case !c.IsCA:
				lint(rules.OCGTrustBundleNotCA, fmt.Sprintf("%s holds %q, which is not a CA certificate", where, c.Subject.CommonName),
					"put the CA that signs the other side's mTLS certificates in the bundle, not a leaf")
			case e.opts.Now.After(c.NotAfter):
				lint(rules.OCGTrustBundleExpired, fmt.Sprintf("%s: CA %q expired on %s", where, c.Subject.CommonName, c.NotAfter.UTC().Format("2006-01-02")), "rotate the CA")
			case e.opts.Now.Before(c.NotBefore):
				lint(rules.OCGTrustBundleExpired, fmt.Sprintf("%s: CA %q is not valid before %s", where, c.Subject.CommonName, c.NotBefore.UTC().Format("2006-01-02")), "check the CA's validity")
			default:
				mr.TrustBundle = append(mr.TrustBundle, c)
			}
		}
	}
}

// meshedRoutes lists routes attached to the Gateway that the selector selects by
// their own labels or their namespace's labels (GEP-3792 "Solving the Discovery
// Problem", option 6).
func (e *engine) meshedRoutes(g *GatewayResult, mr *MeshResult, selector *metav1.LabelSelector) {
	if selector == nil {
		mr.Lints = append(mr.Lints, provisional(rules.OCGSelectorMissing, "spec.mesh has no selector, so no route is treated as meshed",
			"set spec.mesh.selector to the label the mesh uses for meshed namespaces (linkerd.io/inject: enabled, istio-injection: enabled)"))
		return
	}
	sel, err := metav1.LabelSelectorAsSelector(selector)
	if err != nil {
		mr.Lints = append(mr.Lints, provisional(rules.OCGSelectorInvalid, "spec.mesh.selector: "+err.Error(), "fix the label selector"))
		return
	}
	seen := map[*RouteResult]bool{}
	for _, l := range g.Listeners {
		for _, a := range l.Attachments {
			rr := a.Route
			if seen[rr] {
				continue
			}
			r := rr.Route
			if sel.Matches(labels.Set(r.ObjectMeta.Labels)) || sel.Matches(e.ix.namespaceLabelSet(r.ObjectMeta.Namespace)) {
				seen[rr] = true
				mr.MeshedRoutes = append(mr.MeshedRoutes, rr)
			}
		}
	}
}
