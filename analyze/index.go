package analyze

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

type nn = model.NamespacedName

// index holds every lookup the engine makes, built once so that no rule scans the
// model: attachment cost then grows with the number of parentRefs, not with
// listeners x routes.
type index struct {
	classes      map[string]*GatewayClassResult
	gateways     map[nn]*GatewayResult
	listenerSets map[nn]*ListenerSetResult
	namespaces   map[string]*model.Namespace
	secrets      map[nn]*model.Secret
	configMaps   map[nn]*model.ConfigMap
	services     map[nn]*service
	// serviceImports are the ServiceImports, an Extended backend kind.
	serviceImports map[nn]*model.ServiceImport
	// grants are the ReferenceGrants by what their spec.from admits, in input
	// order: a reference is checked against the few grants that name its side.
	grants map[grantFrom][]*model.ReferenceGrant
	// labelSets caches namespace labels for selectors.
	labelSets map[string]labels.Set
	// allGateways and allListenerSets include objects out of scope, to tell a
	// parent of another controller from a missing one.
	allGateways     map[nn]bool
	allListenerSets map[nn]bool
	// refused are the objects the API server refuses, which are not in the
	// model (refusedObjects).
	refused map[model.Ref]*model.Refusal
	// packed holds the copies of the maps' keys and the Services' ports.
	packed arena
}

func newIndex(m *model.Model) *index {
	ix := &index{
		classes:      make(map[string]*GatewayClassResult, len(m.GatewayClasses)),
		gateways:     make(map[nn]*GatewayResult, len(m.Gateways)),
		listenerSets: make(map[nn]*ListenerSetResult, len(m.ListenerSets)),
		namespaces:   make(map[string]*model.Namespace, len(m.Namespaces)),
		secrets:      make(map[nn]*model.Secret, len(m.Secrets)),
		configMaps:   make(map[nn]*model.ConfigMap, len(m.ConfigMaps)),
		services:     make(map[nn]*service, len(m.Services)),
		grants:       map[grantFrom][]*model.ReferenceGrant{},
		labelSets:    map[string]labels.Set{},

		serviceImports: make(map[nn]*model.ServiceImport, len(m.ServiceImports)),

		allGateways:     make(map[nn]bool, len(m.Gateways)),
		allListenerSets: make(map[nn]bool, len(m.ListenerSets)),
		refused:         refusedObjects(m.Admission),
	}
	for _, g := range m.Gateways {
		ix.allGateways[nn{Namespace: g.Obj.Namespace, Name: g.Obj.Name}] = true
	}
	for _, ls := range m.ListenerSets {
		ix.allListenerSets[nn{Namespace: ls.Obj.Namespace, Name: ls.Obj.Name}] = true
	}
	for _, n := range m.Namespaces {
		ix.namespaces[n.Obj.Name] = n
	}
	for i, k := range ix.packed.keys(len(m.Secrets), func(i int) nn { return nn{Namespace: m.Secrets[i].Obj.Namespace, Name: m.Secrets[i].Obj.Name} }) {
		ix.secrets[k] = m.Secrets[i]
	}
	for i, k := range ix.packed.keys(len(m.ConfigMaps), func(i int) nn { return nn{Namespace: m.ConfigMaps[i].Obj.Namespace, Name: m.ConfigMaps[i].Obj.Name} }) {
		ix.configMaps[k] = m.ConfigMaps[i]
	}
	svcs := services(m.Services, &ix.packed)
	for i, k := range ix.packed.keys(len(m.Services), func(i int) nn { return nn{Namespace: m.Services[i].Obj.Namespace, Name: m.Services[i].Obj.Name} }) {
		ix.services[k] = &svcs[i]
	}
	for _, si := range m.ServiceImports {
		ix.serviceImports[nn{Namespace: si.ObjectMeta.Namespace, Name: si.ObjectMeta.Name}] = si
	}
	for _, g := range m.ReferenceGrants {
		for _, f := range g.Obj.Spec.From {
			k := grantFrom{toNS: g.Obj.Namespace, group: string(f.Group), kind: string(f.Kind), ns: string(f.Namespace)}
			if gs := ix.grants[k]; len(gs) == 0 || gs[len(gs)-1] != g { // a grant may repeat a from entry
				ix.grants[k] = append(gs, g)
			}
		}
	}
	return ix
}

// service is a Service as backendRefs look it up: its ports are copied side by
// side with every other Service's (arena), so that checking a backendRef's port
// does not read the Service object.
type service struct {
	obj   *model.Service
	ports []int32 // spec.ports[].port
	// transports are the ports' protocols, by position; nil when every port is
	// TCP, as most are (a Service port's protocol defaults to TCP).
	transports []transport
}

// transport is the protocol a Service port speaks, or a route carries.
type transport uint8

const (
	tcp transport = iota
	udp
	otherTransport // SCTP
)

// transportOf is a Service port's protocol as a transport.
func transportOf(p corev1.Protocol) transport {
	switch p {
	case "", corev1.ProtocolTCP:
		return tcp
	case corev1.ProtocolUDP:
		return udp
	}
	return otherTransport
}

// services returns the Services' lookup entries, their ports in one block.
func services(ss []*model.Service, a *arena) []service {
	n := 0
	for _, s := range ss {
		n += len(s.Obj.Spec.Ports)
	}
	a.reservePorts(n)
	out := make([]service, len(ss))
	for i, s := range ss {
		ports := a.ports(len(s.Obj.Spec.Ports))
		var transports []transport
		for j, p := range s.Obj.Spec.Ports {
			ports[j] = p.Port
			if t := transportOf(p.Protocol); t != tcp {
				if transports == nil {
					transports = make([]transport, len(ports))
				}
				transports[j] = t
			}
		}
		out[i] = service{obj: s, ports: ports, transports: transports}
	}
	return out
}

// hasPort reports whether a backendRef's port reaches the Service over the
// route's transport t. A Service that declares no ports (headless,
// selector-less) has none to check. declared says whether the port number is
// declared at all, with another protocol, for messages.
func (s *service) hasPort(port int32, t transport) (ok, declared bool) {
	if len(s.ports) == 0 {
		return true, true
	}
	for i, p := range s.ports {
		if p != port {
			continue
		}
		declared = true
		if s.transport(i) == t {
			return true, true
		}
	}
	return false, declared
}

// transport is the protocol of the Service's port number i.
func (s *service) transport(i int) transport {
	if s.transports == nil {
		return tcp
	}
	return s.transports[i]
}

// service returns the Service ns/name, or nil.
func (ix *index) service(k nn) *model.Service {
	if s := ix.services[k]; s != nil {
		return s.obj
	}
	return nil
}

// namespaceLabels returns a namespace's labels. A namespace missing from the input
// still carries kubernetes.io/metadata.name, which the API server sets on every
// namespace; known is false then.
func (ix *index) namespaceLabels(name string) (labels map[string]string, known bool) {
	if ns, ok := ix.namespaces[name]; ok {
		l := make(map[string]string, len(ns.Obj.Labels)+1)
		for k, v := range ns.Obj.Labels {
			l[k] = v
		}
		l["kubernetes.io/metadata.name"] = name
		return l, true
	}
	return map[string]string{"kubernetes.io/metadata.name": name}, false
}

// namespaceLabelSet is namespaceLabels as a labels.Set, built once per namespace.
func (ix *index) namespaceLabelSet(name string) labels.Set {
	if s, ok := ix.labelSets[name]; ok {
		return s
	}
	l, _ := ix.namespaceLabels(name)
	s := labels.Set(l)
	ix.labelSets[name] = s
	return s
}

// written is an optional field the CRDs default (a reference's group and
// kind, tls.mode, allowedRoutes' from, an address type) as the object holds
// it. The loader applies every CRD default (load.Admission), so these are set
// as the API server stores them; a model built otherwise (an object of a
// version no CRD serves, a test's own) reads an unset one as empty, never as
// the default a CRD would have written.
func written[T ~string](p *T) string {
	if p == nil {
		return ""
	}
	return string(*p)
}

func namespaceOr(n *gwv1.Namespace, def string) string {
	if n == nil || *n == "" {
		return def
	}
	return string(*n)
}
