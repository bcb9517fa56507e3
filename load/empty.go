package load

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// ErrNothingToAnalyze is the cause of NothingToAnalyze's error.
var ErrNothingToAnalyze = errors.New("no Gateway API object to analyze")

// NothingToAnalyze returns an error that says what m holds when m holds no
// Gateway API object (GatewayClass, Gateway, ListenerSet, route,
// ReferenceGrant, BackendTLSPolicy or mesh) nor one the API server refuses,
// and nil when it holds one. A CI gate must not pass because it read nothing:
// an empty file, a folder of other files, a cluster where every kind is
// forbidden. Whether an empty input is expected is the caller's to say.
func NothingToAnalyze(m *model.Model) error {
	if len(m.GatewayClasses)+len(m.Gateways)+len(m.ListenerSets)+len(m.Routes)+
		len(m.ReferenceGrants)+len(m.BackendTLSPolicies)+len(m.Meshes) > 0 {
		return nil
	}
	if m.Admission != nil && len(m.Admission.Refused) > 0 {
		return nil // the refusals are the findings
	}
	var held []string
	for _, k := range []struct {
		kind string
		n    int
	}{{"Namespace", len(m.Namespaces)}, {"Service", len(m.Services)}, {"Secret", len(m.Secrets)}, {"ConfigMap", len(m.ConfigMaps)},
		{"Ingress", len(m.Ingresses)}, {"IngressClass", len(m.IngressClasses)}} {
		if k.n > 0 {
			held = append(held, fmt.Sprintf("%s (%d)", k.kind, k.n))
		}
	}
	var skipped []string
	for _, k := range slices.Sorted(maps.Keys(m.Skipped)) {
		skipped = append(skipped, fmt.Sprintf("%s (%d)", k, m.Skipped[k]))
	}
	var unreadable []string
	for _, u := range m.Unreadable {
		unreadable = append(unreadable, u.Kind)
	}
	var what []string
	if len(held) > 0 {
		what = append(what, "it holds only "+strings.Join(held, ", "))
	}
	if len(skipped) > 0 {
		what = append(what, "objects of kinds this tool does not analyze: "+strings.Join(skipped, ", "))
	}
	if len(unreadable) > 0 {
		what = append(what, "the identity may not list "+strings.Join(unreadable, ", "))
	}
	if len(what) == 0 {
		return fmt.Errorf("%w: the input holds no Kubernetes object", ErrNothingToAnalyze)
	}
	return fmt.Errorf("%w: %s", ErrNothingToAnalyze, strings.Join(what, "; "))
}
