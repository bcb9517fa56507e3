package load

import (
	"encoding/json"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

type groupKind struct{ group, kind string }

// kindDecoder decodes every supported version of one kind into the one internal
// (v1) view. Older Gateway API versions of a kind share the v1 JSON shape for every
// field this tool reads, so decoding the written JSON into the v1 type is the
// conversion; Meta.APIVersion keeps what the user wrote.
type kindDecoder struct {
	versions   map[string]bool
	namespaced bool
	decode     func([]byte) (any, error)
}

func versions(vs ...string) map[string]bool {
	m := make(map[string]bool, len(vs))
	for _, v := range vs {
		m[v] = true
	}
	return m
}

func typed[T any]() func([]byte) (any, error) {
	return func(js []byte) (any, error) {
		o := new(T)
		if err := json.Unmarshal(js, o); err != nil {
			return nil, err
		}
		return o, nil
	}
}

// decoders lists the kinds and versions the tool analyzes (DESIGN.md, issue 2).
var decoders = map[groupKind]kindDecoder{
	{gatewayGroup, "GatewayClass"}:     {versions("v1", "v1beta1"), false, typed[gwv1.GatewayClass]()},
	{gatewayGroup, "Gateway"}:          {versions("v1", "v1beta1"), true, typed[gwv1.Gateway]()},
	{gatewayGroup, "ListenerSet"}:      {versions("v1"), true, typed[gwv1.ListenerSet]()},
	{gatewayGroup, "ReferenceGrant"}:   {versions("v1", "v1beta1", "v1alpha2"), true, typed[gwv1.ReferenceGrant]()},
	{gatewayGroup, "BackendTLSPolicy"}: {versions("v1", "v1alpha3"), true, typed[gwv1.BackendTLSPolicy]()},
	{gatewayGroup, "HTTPRoute"}:        {versions("v1", "v1beta1"), true, httpRoute},
	{gatewayGroup, "GRPCRoute"}:        {versions("v1", "v1alpha2"), true, grpcRoute},
	{gatewayGroup, "TLSRoute"}:         {versions("v1", "v1alpha3", "v1alpha2"), true, tlsRoute},
	{gatewayGroup, "TCPRoute"}:         {versions("v1", "v1alpha2"), true, tcpRoute},
	{gatewayGroup, "UDPRoute"}:         {versions("v1", "v1alpha2"), true, udpRoute},
	{"", "Secret"}:                     {versions("v1"), true, typed[corev1.Secret]()},
	{"", "ConfigMap"}:                  {versions("v1"), true, typed[corev1.ConfigMap]()},
	{"", "Service"}:                    {versions("v1"), true, typed[corev1.Service]()},
	{"", "Namespace"}:                  {versions("v1"), false, typed[corev1.Namespace]()},
}

func httpRoute(js []byte) (any, error) {
	var r gwv1.HTTPRoute
	if err := json.Unmarshal(js, &r); err != nil {
		return nil, err
	}
	rules := make([]model.RouteRule, len(r.Spec.Rules))
	for i, rule := range r.Spec.Rules {
		rules[i].Name = sectionName(rule.Name)
		if len(rule.BackendRefs) > 0 {
			rules[i].BackendRefs = make([]gwv1.BackendRef, len(rule.BackendRefs))
			for j, b := range rule.BackendRefs {
				rules[i].BackendRefs[j] = b.BackendRef
			}
		}
	}
	return &model.Route{ObjectMeta: r.ObjectMeta, ParentRefs: parentRefs(r.Spec.ParentRefs), Hostnames: nonNil(r.Spec.Hostnames), Rules: rules}, nil
}

func grpcRoute(js []byte) (any, error) {
	var r gwv1.GRPCRoute
	if err := json.Unmarshal(js, &r); err != nil {
		return nil, err
	}
	rules := make([]model.RouteRule, len(r.Spec.Rules))
	for i, rule := range r.Spec.Rules {
		rules[i].Name = sectionName(rule.Name)
		if len(rule.BackendRefs) > 0 {
			rules[i].BackendRefs = make([]gwv1.BackendRef, len(rule.BackendRefs))
			for j, b := range rule.BackendRefs {
				rules[i].BackendRefs[j] = b.BackendRef
			}
		}
	}
	return &model.Route{ObjectMeta: r.ObjectMeta, ParentRefs: parentRefs(r.Spec.ParentRefs), Hostnames: nonNil(r.Spec.Hostnames), Rules: rules}, nil
}

func tlsRoute(js []byte) (any, error) {
	var r gwv1.TLSRoute
	if err := json.Unmarshal(js, &r); err != nil {
		return nil, err
	}
	rules := make([]model.RouteRule, len(r.Spec.Rules))
	for i, rule := range r.Spec.Rules {
		rules[i] = model.RouteRule{Name: sectionName(rule.Name), BackendRefs: rule.BackendRefs}
	}
	return &model.Route{ObjectMeta: r.ObjectMeta, ParentRefs: parentRefs(r.Spec.ParentRefs), Hostnames: nonNil(r.Spec.Hostnames), Rules: rules}, nil
}

func tcpRoute(js []byte) (any, error) {
	var r gwv1.TCPRoute
	if err := json.Unmarshal(js, &r); err != nil {
		return nil, err
	}
	rules := make([]model.RouteRule, len(r.Spec.Rules))
	for i, rule := range r.Spec.Rules {
		rules[i] = model.RouteRule{Name: sectionName(rule.Name), BackendRefs: rule.BackendRefs}
	}
	return &model.Route{ObjectMeta: r.ObjectMeta, ParentRefs: parentRefs(r.Spec.ParentRefs), Rules: rules}, nil
}

func udpRoute(js []byte) (any, error) {
	var r gwv1.UDPRoute
	if err := json.Unmarshal(js, &r); err != nil {
		return nil, err
	}
	rules := make([]model.RouteRule, len(r.Spec.Rules))
	for i, rule := range r.Spec.Rules {
		rules[i] = model.RouteRule{Name: sectionName(rule.Name), BackendRefs: rule.BackendRefs}
	}
	return &model.Route{ObjectMeta: r.ObjectMeta, ParentRefs: parentRefs(r.Spec.ParentRefs), Rules: rules}, nil
}

// parentRefs defaults each parentRef's group and kind as the API server does
// (ParentReference's +kubebuilder:default markers: gateway.networking.k8s.io and
// Gateway), so that a route read from a file is the route a cluster holds, and
// a route's status can echo its parentRefs without copying them. The defaults
// are shared values: nothing writes through a parentRef's group or kind.
func parentRefs(refs []gwv1.ParentReference) []gwv1.ParentReference {
	for i := range refs {
		if refs[i].Group == nil {
			refs[i].Group = &defaultParentGroup
		}
		if refs[i].Kind == nil {
			refs[i].Kind = &defaultParentKind
		}
	}
	return refs
}

var (
	defaultParentGroup = gwv1.Group(gwv1.GroupName)
	defaultParentKind  = gwv1.Kind("Gateway")
)

// nonNil keeps "kind has hostnames but none are set" distinct from "kind has no
// hostnames" only through Route.HasHostnames; the slice itself may be empty.
func nonNil(hs []gwv1.Hostname) []gwv1.Hostname {
	if hs == nil {
		return []gwv1.Hostname{}
	}
	return hs
}

func sectionName(s *gwv1.SectionName) string {
	if s == nil {
		return ""
	}
	return string(*s)
}

// objectMeta returns the metadata of any decoded object, for defaulting.
func objectMeta(obj any) *metav1.ObjectMeta {
	switch o := obj.(type) {
	case *gwv1.GatewayClass:
		return &o.ObjectMeta
	case *gwv1.Gateway:
		return &o.ObjectMeta
	case *gwv1.ListenerSet:
		return &o.ObjectMeta
	case *gwv1.ReferenceGrant:
		return &o.ObjectMeta
	case *gwv1.BackendTLSPolicy:
		return &o.ObjectMeta
	case *corev1.Secret:
		return &o.ObjectMeta
	case *corev1.ConfigMap:
		return &o.ObjectMeta
	case *corev1.Service:
		return &o.ObjectMeta
	case *corev1.Namespace:
		return &o.ObjectMeta
	case *model.Route:
		return &o.ObjectMeta
	case *model.Mesh:
		return &o.ObjectMeta
	}
	return &metav1.ObjectMeta{}
}
