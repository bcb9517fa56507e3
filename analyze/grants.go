package analyze

import (
	"fmt"
	"strings"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// grantedRef is a reference from an object to another, named as a
// ReferenceGrant names its two sides: spec.from (group, kind, namespace) and
// spec.to (group, kind, name), the grant living in the target's namespace.
type grantedRef struct {
	fromGroup, fromKind, fromNamespace string
	toGroup, toKind                    string
	to                                 model.NamespacedName
}

// grantFrom is one spec.from entry of a ReferenceGrant in namespace toNS: the
// key the index files grants under.
type grantFrom struct{ toNS, group, kind, ns string }

// permits reports whether a reference is allowed: within one namespace always;
// across namespaces when a ReferenceGrant in the target's namespace admits the
// referrer's group, kind and namespace and names the target's group and kind,
// and its name or none (ReferenceGrant spec.from, spec.to).
func (ix *index) permits(r grantedRef) bool {
	if r.fromNamespace == r.to.Namespace {
		return true
	}
	for _, g := range ix.grants[grantFrom{toNS: r.to.Namespace, group: r.fromGroup, kind: r.fromKind, ns: r.fromNamespace}] {
		for _, t := range g.Obj.Spec.To {
			if string(t.Group) == r.toGroup && string(t.Kind) == r.toKind && (t.Name == nil || *t.Name == "" || string(*t.Name) == r.to.Name) {
				return true
			}
		}
	}
	return false
}

// fix is the ReferenceGrant a user can apply to permit the reference.
func (r grantedRef) fix() string {
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
    name: %s`, strings.ToLower(r.fromKind), r.fromNamespace, r.to.Namespace, r.fromGroup, r.fromKind, r.fromNamespace, r.toGroup, r.toKind, r.to.Name)
}
