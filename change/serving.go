package change

import (
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
	"github.com/kubectl-gwtls/kubectl-gwtls/simulate"
)

// Serving is what one side does with a request, in simulate's terms, with the
// certificate's fingerprint and expiry.
type Serving struct {
	// Outcome is simulate's: routed or refused; Reason says why it is refused.
	Outcome       string     `json:"outcome"`
	Reason        string     `json:"reason,omitempty"`
	Listener      string     `json:"listener,omitempty"`
	ListenerOwner *model.Ref `json:"listenerOwner,omitempty"`
	Protocol      string     `json:"protocol,omitempty"`
	// Mode is Terminate or Passthrough for HTTPS and TLS listeners.
	Mode                string             `json:"mode,omitempty"`
	Route               *model.Ref         `json:"route,omitempty"`
	IntersectedHostname string             `json:"intersectedHostname,omitempty"`
	Certificate         *Certificate       `json:"certificate,omitempty"`
	Backends            []simulate.Backend `json:"backends,omitempty"`
}

// Certificate is the certificate a terminating listener presents for the SNI.
type Certificate struct {
	Secret string `json:"secret"`
	// SHA256 is the leaf's fingerprint (hex); empty for a Secret declared
	// external, which was not read.
	SHA256         string     `json:"sha256,omitempty"`
	NotAfter       *time.Time `json:"notAfter,omitempty"`
	DNSNames       []string   `json:"dnsNames"`
	VerifiesForSNI bool       `json:"verifiesForSNI"`
}

// serving says what a side does with a request, once.
func (c *hostnameComparison) serving(k rowKey, d *decision) *Serving {
	if d.state == nil {
		d.state = c.say(k, d)
	}
	return d.state
}

func (c *hostnameComparison) say(k rowKey, d *decision) *Serving {
	if !d.port {
		return &Serving{Outcome: simulate.Refused, Reason: d.missing}
	}
	o := simulate.OutcomeOf(simulate.Request{SNI: k.req.SNI, Host: k.req.Host, Port: k.port, Gateway: k.gateway.String()}, d.Decision)
	s := &Serving{Outcome: o.Outcome, Reason: o.Reason, Listener: o.Listener, ListenerOwner: o.ListenerOwner, Mode: o.Mode,
		Route: o.Route, IntersectedHostname: o.IntersectedHostname, Backends: o.Backends}
	if d.Listener != nil {
		s.Protocol = string(d.Listener.Protocol)
	}
	if cert := d.Certificate; cert != nil {
		names := cert.Ref.DNSNames()
		if names == nil {
			names = []string{}
		}
		s.Certificate = &Certificate{Secret: cert.Secret.String(), SHA256: cert.SHA256(), DNSNames: names, VerifiesForSNI: cert.Covers}
		if leaf := cert.Leaf(); leaf != nil {
			t := leaf.NotAfter.UTC()
			s.Certificate.NotAfter = &t
		}
	}
	return s
}

// reason is why a side refuses a request, in simulate's words.
func (c *hostnameComparison) reason(k rowKey, d *decision) string {
	if s := c.serving(k, d); s.Reason != "" {
		return s.Reason
	}
	return "served"
}

// route is where head's route is.
func (c *hostnameComparison) route(r *serving.Route) located {
	return located{r.Attachment.Route.Route.Source, Head}
}

// refusal is where the cause of head's refusal is: the listener that has no
// usable certificate, else the route whose backends do not resolve.
func (c *hostnameComparison) refusal(d *decision) located {
	if d.Refusal == serving.NoCertificate {
		return c.listener(d.Listener)
	}
	return c.route(d.Route())
}

// removedRoute is where to look for a route of base that no longer takes a
// request: the route in head, whose hostnames or parentRefs changed, or in
// base, when head does not have it.
func (c *hostnameComparison) removedRoute(r *serving.Route) located {
	if rr := c.head.routes[r.Ref]; rr != nil {
		return located{rr.Route.Source, Head}
	}
	return located{r.Attachment.Route.Route.Source, Base}
}

// listener is where head's listener is declared: its Gateway or ListenerSet.
func (c *hostnameComparison) listener(l *serving.Listener) located {
	if ls := l.Result.ListenerSet; ls != nil {
		return located{ls.ListenerSet.Source, Head}
	}
	return located{l.Result.Gateway.Gateway.Source, Head}
}

// certificate is where head's certificate is: its Secret, or the listener
// that references it when the Secret was not read.
func (c *hostnameComparison) certificate(cert *serving.Certificate, l *serving.Listener) located {
	if s := cert.Ref.Secret; s != nil {
		return located{s.Source, Head}
	}
	return c.listener(l)
}

// removedPolicy is where to look for a BackendTLSPolicy of base that no longer
// applies, and why: the policy in head (no longer accepted, or no longer
// targeting the backend), or in base when head does not have it.
func (c *hostnameComparison) removedPolicy(p *analyze.PolicyResult) (located, string) {
	o := p.Policy.Obj
	name := o.Namespace + "/" + o.Name
	for _, hp := range c.head.res.BackendTLSPolicies {
		ho := hp.Policy.Obj
		if ho.Namespace != o.Namespace || ho.Name != o.Name {
			continue
		}
		at := located{hp.Policy.Source, Head}
		if a := analyze.Find(hp.Conditions, string(gwv1.PolicyConditionAccepted)); a != nil && a.Status != metav1.ConditionTrue {
			return at, fmt.Sprintf("BackendTLSPolicy %s is not accepted (%s: %s)", name, a.Reason, a.Message)
		}
		return at, fmt.Sprintf("BackendTLSPolicy %s no longer applies to it", name)
	}
	return located{p.Policy.Source, Base}, fmt.Sprintf("BackendTLSPolicy %s was removed", name)
}
