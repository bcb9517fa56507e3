package analyze_test

import (
	"os"
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// Five cases of ../shared/conformance assert a state the upstream test reaches only
// after it changes an object, so conformance-check cannot see it from input.yaml.
// These tests make the same change to the loaded model and assert what the
// upstream test asserts.
func loadConformance(t *testing.T, name string) *model.Model {
	t.Helper()
	path := "../../shared/conformance/" + name + "/input.yaml"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("conformance corpus not found (%v)", err)
	}
	m, err := load.Files(load.FileOptions{Filenames: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TCPRouteReferenceGrant and UDPRouteReferenceGrant: "Deleting the ReferenceGrant
// should revoke permission ... ResolvedRefs to False with reason RefNotPermitted".
func TestConformanceReferenceGrantDeleted(t *testing.T) {
	for _, c := range []struct{ corpus, route string }{
		{"tcproute-reference-grant", "tcp-reference-grant"},
		{"udproute-reference-grant", "udp-route-reference-grant"},
	} {
		t.Run(c.corpus, func(t *testing.T) {
			m := loadConformance(t, c.corpus)
			before := routeResolvedRefs(t, analyze.Analyze(m, analyze.Options{Now: now}), c.route)
			if before.Status != "True" {
				t.Fatalf("with the grant: ResolvedRefs %s/%s, want True", before.Status, before.Reason)
			}
			m.ReferenceGrants = nil // the upstream test deletes it
			after := routeResolvedRefs(t, analyze.Analyze(m, analyze.Options{Now: now}), c.route)
			if after.Status != "False" || after.Reason != string(gwv1.RouteReasonRefNotPermitted) {
				t.Errorf("after deleting the grant: ResolvedRefs %s/%s, want False/RefNotPermitted", after.Status, after.Reason)
			}
		})
	}
}

func routeResolvedRefs(t *testing.T, res *analyze.Result, name string) analyze.Condition {
	t.Helper()
	for _, rr := range res.Routes {
		if rr.Route.ObjectMeta.Name == name {
			return rr.ResolvedRefs()
		}
	}
	t.Fatalf("route %s not in the result", name)
	return analyze.Condition{}
}

// BackendTLSPolicy: the upstream test updates a policy to reference a CA ConfigMap
// that does not exist and expects Accepted=False/NoValidCACertificate and
// ResolvedRefs=False/InvalidCACertificateRef on its ancestor.
func TestConformanceBackendTLSPolicyUpdatedToBadCA(t *testing.T) {
	m := loadConformance(t, "backendtlspolicy")
	var target *model.BackendTLSPolicy
	for _, p := range m.BackendTLSPolicies {
		if p.Obj.Name == "reconcile-test" {
			target = p
		}
	}
	if target == nil {
		t.Fatal("the corpus has no reconcile-test policy")
	}
	target.Obj.Spec.Validation.CACertificateRefs = []gwv1.LocalObjectReference{{Group: "", Kind: "ConfigMap", Name: "does-not-exist"}}
	res := analyze.Analyze(m, analyze.Options{Now: now})
	for _, p := range res.BackendTLSPolicies {
		if p.Policy != target {
			continue
		}
		acc, ref := analyze.Find(p.Conditions, "Accepted"), analyze.Find(p.Conditions, "ResolvedRefs")
		if acc.Reason != string(gwv1.BackendTLSPolicyReasonNoValidCACertificate) || ref.Reason != string(gwv1.BackendTLSPolicyReasonInvalidCACertificateRef) {
			t.Errorf("got Accepted %s/%s ResolvedRefs %s/%s", acc.Status, acc.Reason, ref.Status, ref.Reason)
		}
		if len(p.Ancestors) == 0 {
			t.Error("the policy should still have its Gateway ancestor")
		}
	}
}

// TCPRouteMultipleRoutesAttachment and UDPRouteMultipleRoutesAttachment: once
// the older route is accepted the test creates a newer one on the same
// listener and asserts both Accepted=True/Accepted and the listener's
// attachedRoutes == 2.
func TestConformanceNewerRouteAttaches(t *testing.T) {
	for _, c := range []struct{ corpus, older, newer, listener string }{
		{"tcproute-multiple-routes-attachment", "tcproute-attach-older", "tcproute-attach-newer", "tcp"},
		{"udproute-multiple-routes-attachment", "udproute-attach-older", "udproute-attach-newer", "udp"},
	} {
		t.Run(c.corpus, func(t *testing.T) {
			m := loadConformance(t, c.corpus)
			var older *model.Route
			for _, r := range m.Routes {
				if r.ObjectMeta.Name == c.older {
					older = r
				}
			}
			if older == nil {
				t.Fatalf("the corpus has no route %s", c.older)
			}
			newer := *older // the test creates it in code, on the same parentRef
			newer.ObjectMeta.Name = c.newer
			m.Routes = append(m.Routes, &newer)
			res := analyze.Analyze(m, analyze.Options{Now: now})
			for _, rr := range res.Routes {
				if name := rr.Route.ObjectMeta.Name; name == c.older || name == c.newer {
					if a, _ := rr.Parents[0].AcceptedCondition(); a.Status != "True" || a.Reason != string(gwv1.RouteReasonAccepted) {
						t.Errorf("%s: Accepted %s/%s, want True/Accepted", name, a.Status, a.Reason)
					}
					if l := rr.Parents[0].Attachments; len(l) != 1 || l[0].Listener.Name() != c.listener || l[0].Listener.AttachedRoutes() != 2 {
						t.Errorf("%s: attachments %v, want listener %s with attachedRoutes 2", name, l, c.listener)
					}
				}
			}
		})
	}
}
