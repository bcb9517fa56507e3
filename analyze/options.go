package analyze

import (
	"crypto/x509"
	"fmt"
	"strings"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// Options steer the engine.
type Options struct {
	// Controller selects GatewayClasses by spec.controllerName; empty selects all.
	Controller string
	// Now is the clock for time-dependent checks and condition timestamps.
	Now time.Time
	// External lists objects that live outside the input (a Secret issued by
	// cert-manager, a Service from another repository). A missing reference to one
	// is reported as unverified instead of failing.
	External []ExternalRef
	// WarnExpiry is how long before expiry a certificate is reported (default 30 days).
	WarnExpiry time.Duration
	// CABundle, when set, is the trust store certificate chains must verify against.
	CABundle *x509.CertPool
	// Trace records every decision step for explain. Off, only the conditions (with
	// their messages and fixes) are kept, which is what analyze and render need.
	Trace bool
	// TraceOnly, with Trace, records the steps of one object only: a route, a
	// Gateway (its listeners and its ListenerSets' listeners), a ListenerSet (its
	// listeners) or a BackendTLSPolicy. explain names one object; on a large
	// input, recording every route's steps would cost more than the analysis.
	TraceOnly *model.Ref
	// MaxAttachmentChecks bounds the engine's work attaching routes (see
	// DefaultMaxAttachmentChecks, the bound when it is 0); routes past it are
	// not attached, and each has an analysis/WorkBounded finding.
	MaxAttachmentChecks int64
	// Features overrides the features every in-scope GatewayClass supports; nil
	// means a class's status.supportedFeatures, or every feature when it lists none.
	Features Features
	// AllowMixedTermination says the implementation serves HTTPS (Terminate)
	// and TLS Passthrough listeners on one port, routing on SNI. GEP-2643 makes
	// them a conflict by default; Gateway API v1.6 names no feature for it and
	// leaves it to implementations (rules.ListenerAcceptedProtocolConflict).
	AllowMixedTermination bool
}

func (o *Options) warnExpiry() time.Duration {
	if o.WarnExpiry == 0 {
		return 30 * 24 * time.Hour
	}
	return o.WarnExpiry
}

// ExternalRef declares a kind, or one object of it, as living outside the input.
type ExternalRef struct {
	Kind      string
	Namespace string // "" with Name "": every object of Kind
	Name      string
}

// ParseExternal reads KIND or KIND/NAMESPACE/NAME.
func ParseExternal(s string) (ExternalRef, error) {
	parts := strings.Split(s, "/")
	switch {
	case len(parts) == 1 && parts[0] != "":
		return ExternalRef{Kind: parts[0]}, nil
	case len(parts) == 3 && parts[0] != "" && parts[1] != "" && parts[2] != "":
		return ExternalRef{Kind: parts[0], Namespace: parts[1], Name: parts[2]}, nil
	}
	return ExternalRef{}, fmt.Errorf("--external %q: want KIND (every Secret: Secret) or KIND/NAMESPACE/NAME (Secret/infra/edge-cert)", s)
}

func (o *Options) isExternal(kind, namespace, name string) bool {
	for _, e := range o.External {
		if !strings.EqualFold(e.Kind, kind) {
			continue
		}
		if e.Name == "" || (e.Namespace == namespace && e.Name == name) {
			return true
		}
	}
	return false
}

// declaresKind reports whether any --external names the kind, by itself or
// with one of its objects: the implementation knows the kind.
func (o *Options) declaresKind(kind string) bool {
	for _, e := range o.External {
		if strings.EqualFold(e.Kind, kind) {
			return true
		}
	}
	return false
}
