package load

import (
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/fastunstructured"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/typedjson"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// kind is one kind the tool reads, from files and from a cluster.
type kind struct {
	group, name string
	// resource is the kind's resource in a cluster's API, or "" for a kind that is
	// read from files only.
	resource string
	// versions are the versions read, preferred first: a cluster is listed in the
	// first one it serves. Older Gateway API versions of a kind share the v1 JSON
	// shape for every field this tool reads, so decoding the written JSON into the
	// v1 type is the conversion; Meta.APIVersion keeps what the user wrote.
	versions []string
	scope    scope
	codec
}

type scope int

const (
	namespaced scope = iota
	clusterScoped
)

// codec turns one object into its model object and files that in the model.
type codec struct {
	// decode reads one object into its model object. It also returns what
	// decodeObject completes: the object's metadata (name checked, namespace
	// defaulted) and its model.Meta.
	decode func(in source) (obj any, om objectMeta, meta *model.Meta, err error)
	// add appends an object decode returned to its list in the model.
	add func(m *model.Model, obj any)
}

// kinds are the kinds the tool analyzes (DESIGN.md "Data flow"). A cluster is
// listed in this order, which is the order of each kind's objects in the model;
// routes of every kind share one list.
var kinds = []kind{
	{gatewayGroup, "GatewayClass", "gatewayclasses", []string{"v1", "v1beta1"}, clusterScoped, typedObject(func(m *model.Model) *[]*model.GatewayClass { return &m.GatewayClasses })},
	{gatewayGroup, "Gateway", "gateways", []string{"v1", "v1beta1"}, namespaced, typedObject(func(m *model.Model) *[]*model.Gateway { return &m.Gateways })},
	{gatewayGroup, "ListenerSet", "listenersets", []string{"v1"}, namespaced, typedObject(func(m *model.Model) *[]*model.ListenerSet { return &m.ListenerSets })},
	{gatewayGroup, model.KindHTTPRoute, "httproutes", []string{"v1", "v1beta1"}, namespaced, directRoute(httpRoute, nil, true)},
	{gatewayGroup, model.KindGRPCRoute, "grpcroutes", []string{"v1", "v1alpha2"}, namespaced, route(grpcRoute)},
	{gatewayGroup, model.KindTLSRoute, "tlsroutes", []string{"v1", "v1alpha3", "v1alpha2"}, namespaced, directRoute(tlsRoute, onlyBackends(true), true)},
	{gatewayGroup, model.KindTCPRoute, "tcproutes", []string{"v1", "v1alpha2"}, namespaced, directRoute(tcpRoute, onlyBackends(false), false)},
	{gatewayGroup, model.KindUDPRoute, "udproutes", []string{"v1", "v1alpha2"}, namespaced, directRoute(udpRoute, onlyBackends(false), false)},
	{gatewayGroup, "ReferenceGrant", "referencegrants", []string{"v1", "v1beta1", "v1alpha2"}, namespaced, typedObject(func(m *model.Model) *[]*model.ReferenceGrant { return &m.ReferenceGrants })},
	{gatewayGroup, "BackendTLSPolicy", "backendtlspolicies", []string{"v1", "v1alpha3"}, namespaced, typedObject(func(m *model.Model) *[]*model.BackendTLSPolicy { return &m.BackendTLSPolicies })},
	{"", "Namespace", "namespaces", []string{"v1"}, clusterScoped, typedObject(func(m *model.Model) *[]*model.Namespace { return &m.Namespaces })},
	{"", "Service", "services", []string{"v1"}, namespaced, typedObject(func(m *model.Model) *[]*model.Service { return &m.Services })},
	{"", "Secret", "secrets", []string{"v1"}, namespaced, secret()},
	{"", "ConfigMap", "configmaps", []string{"v1"}, namespaced, typedObject(func(m *model.Model) *[]*model.ConfigMap { return &m.ConfigMaps })},
	// A ServiceImport is an Extended backend kind (HTTPBackendRef, GRPCBackendRef,
	// TLSRoute backendRefs); a cluster without the Multi-Cluster Services CRDs
	// serves none and is not asked.
	{"multicluster.x-k8s.io", "ServiceImport", "serviceimports", []string{"v1alpha1"}, namespaced, serviceImport},
	// An Ingress migration's base (package ingress): the engine does not
	// analyze them. A cluster is asked for them only when
	// ClusterOptions.Ingress says so; networking.k8s.io/v1beta1 and
	// extensions/v1beta1 Ingresses (removed in Kubernetes 1.22) are skipped.
	{ingressGroup, "Ingress", "ingresses", []string{"v1"}, namespaced, typedObject(func(m *model.Model) *[]*model.Ingress { return &m.Ingresses })},
	{ingressGroup, "IngressClass", "ingressclasses", []string{"v1"}, clusterScoped, typedObject(func(m *model.Model) *[]*model.IngressClass { return &m.IngressClasses })},
	// GEP-3792's Mesh is provisional: the GEP shows it as networking.x-k8s.io/v1
	// Mesh and the module ships gateway.networking.x-k8s.io/v1alpha1 XMesh. Both
	// are read from files only: a cluster is not asked for them.
	{"networking.x-k8s.io", "Mesh", "", []string{"v1", "v1alpha1"}, clusterScoped, mesh},
	{"gateway.networking.x-k8s.io", "XMesh", "", []string{"v1", "v1alpha1"}, clusterScoped, mesh},
}

// ingressGroup is the API group of Ingress and IngressClass.
const ingressGroup = "networking.k8s.io"

// source is one object for a codec to read: as the API server would store
// it, when admission gave it, else its JSON as written.
type source struct {
	js []byte
	// obj is read, never changed: it may share values with the Admitter's
	// memos (admit.Admitter.AdmitReadOnly). Its conversion copies what it
	// reads into the Go value.
	obj map[string]any
	// defaults, when set, applies the CRD's defaults to the object decoded
	// from js (admit.Admitter.TypedDefaults).
	defaults func(v any)
}

// into decodes the object into v. The admitted object is converted without a
// round trip through JSON, which would cost more than the decoding it
// replaces, and as apimachinery's runtime.DefaultUnstructuredConverter
// converts it.
func (s source) into(v any) error {
	if s.obj != nil {
		return fromUnstructured(s.obj, v)
	}
	if err := decodeTyped(s.js, v); err != nil {
		return err
	}
	if s.defaults != nil {
		s.defaults(v)
	}
	return nil
}

// decodeTyped decodes an object's JSON into its Go type's zero value as
// encoding/json does, value and error: a test holds it to encoding/json.
var decodeTyped = typedjson.Unmarshal

// fromUnstructured converts an admitted object to its Go type: a test holds
// it to apimachinery's converter.
var fromUnstructured = fastunstructured.FromUnstructured

type groupKind struct{ group, kind string }

// kindOf finds a kind by the group of an object's apiVersion and its kind.
var kindOf = func() map[groupKind]*kind {
	m := make(map[groupKind]*kind, len(kinds))
	for i := range kinds {
		m[groupKind{kinds[i].group, kinds[i].name}] = &kinds[i]
	}
	return m
}()

// typedObject is the codec of a kind whose model view is model.Object[T], kept
// in the list that list points at.
func typedObject[T any, P interface {
	*T
	metav1.Object
}](list func(*model.Model) *[]*model.Object[T]) codec {
	return codec{
		decode: func(in source) (any, objectMeta, *model.Meta, error) {
			o := &model.Object[T]{Obj: new(T)}
			if err := in.into(o.Obj); err != nil {
				return nil, nil, nil, err
			}
			return o, P(o.Obj), &o.Meta, nil
		},
		add: func(m *model.Model, obj any) {
			l := list(m)
			*l = append(*l, obj.(*model.Object[T]))
		},
	}
}

// secret is the Secret codec. kubectl apply merges stringData into data,
// stringData winning, and so does the loader: the engine reads data only.
func secret() codec {
	c := typedObject(func(m *model.Model) *[]*model.Secret { return &m.Secrets })
	decode := c.decode
	c.decode = func(in source) (any, objectMeta, *model.Meta, error) {
		obj, om, meta, err := decode(in)
		if err != nil {
			return nil, nil, nil, err
		}
		s := obj.(*model.Secret).Obj
		for k, v := range s.StringData {
			if s.Data == nil {
				s.Data = map[string][]byte{}
			}
			s.Data[k] = []byte(v)
		}
		s.StringData = nil
		return obj, om, meta, nil
	}
	return c
}

// route is the codec of an xRoute kind R: view reduces an R to the
// kind-independent model.Route, and every kind's routes share the model's list.
//
// The typed route is only read by view, which keeps its slices and copies the
// rest: the loader reuses it, zeroed, for the next route of the kind rather
// than leaving one behind per route.
func route[R any](view func(*R) model.Route) codec {
	pool := sync.Pool{New: func() any { return new(R) }}
	return codec{
		decode: func(in source) (any, objectMeta, *model.Meta, error) {
			r := pool.Get().(*R)
			defer func() {
				var zero R
				*r = zero // hold nothing of the model in the pool
				pool.Put(r)
			}()
			if err := in.into(r); err != nil {
				return nil, nil, nil, err
			}
			out := new(model.Route)
			*out = view(r)
			return out, &out.ObjectMeta, &out.Meta, nil
		},
		add: func(m *model.Model, obj any) { m.Routes = append(m.Routes, obj.(*model.Route)) },
	}
}

// routeJSON is an HTTP, TLS, TCP or UDP route as its JSON reads, its rules
// of the model's type (model.RouteRule has an HTTPRouteRule's JSON names, and
// its backendRefs are HTTPBackendRefs): decoded into it, a route's rules and
// backends are allocated once, as the model keeps them, where decoding the
// route's Go type and viewing it would allocate them twice and leave the
// first as garbage. Its fields are the JSON names and Go types of
// gwv1.HTTPRoute's, the rule's name aside (a string for a *SectionName: the
// same values decode, "" for none), so what the route's Go type decodes it
// decodes, and the CRD defaults (admit.Admitter.TypedDefaults, by JSON name)
// apply to it as to that type.
type routeJSON struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              routeSpecJSON        `json:"spec"`
	Status            gwv1.HTTPRouteStatus `json:"status,omitempty"`
}

type routeSpecJSON struct {
	gwv1.CommonRouteSpec `json:",inline"`
	Hostnames            []gwv1.Hostname   `json:"hostnames,omitempty"`
	Rules                []model.RouteRule `json:"rules,omitempty"`
}

// directRoute is the codec of a route kind R decoded as a routeJSON, which
// holds every field R has and, but for HTTPRoute, fields R does not have:
// fits reports that the route has none of those, so that R would have
// decoded the same route. When it has one, or when the routeJSON does not
// decode, the route is decoded as R and viewed (route(view)): the model,
// every error and its message are then R's.
func directRoute[R any](view func(*R) model.Route, fits func(*routeJSON) bool, hostnames bool) codec {
	asR := route(view)
	pool := sync.Pool{New: func() any { return new(routeJSON) }}
	return codec{
		decode: func(in source) (any, objectMeta, *model.Meta, error) {
			r := pool.Get().(*routeJSON)
			defer func() {
				*r = routeJSON{} // hold nothing of the model in the pool
				pool.Put(r)
			}()
			if viewRoutesOnly {
				return asR.decode(in)
			}
			if err := in.into(r); err != nil || (fits != nil && !fits(r)) {
				*r = routeJSON{}
				return asR.decode(in)
			}
			out := &model.Route{ObjectMeta: model.RouteMetaOf(&r.ObjectMeta), ParentRefs: r.Spec.ParentRefs, Rules: tidy(r.Spec.Rules), Status: r.Status.RouteStatus}
			if hostnames {
				out.Hostnames = nonNil(r.Spec.Hostnames)
			}
			return out, &out.ObjectMeta, &out.Meta, nil
		},
		add: asR.add,
	}
}

// viewRoutesOnly makes every route decode as its kind's Go type and view,
// which the direct decoding must agree with (a test sets it).
var viewRoutesOnly bool

// onlyBackends is fits for a kind whose rules have a name and backendRefs
// only, and hostnames only when it has them (TLSRoute; not TCPRoute or
// UDPRoute).
func onlyBackends(hostnames bool) func(*routeJSON) bool {
	return func(r *routeJSON) bool {
		if !hostnames && r.Spec.Hostnames != nil {
			return false
		}
		for i := range r.Spec.Rules {
			rule := &r.Spec.Rules[i]
			if rule.Matches != nil || rule.GRPCMatches != nil || rule.Filters != nil ||
				rule.Timeouts != nil || rule.Retry != nil || rule.SessionPersistence != nil {
				return false
			}
			for j := range rule.BackendRefs {
				if rule.BackendRefs[j].Filters != nil {
					return false
				}
			}
		}
		return true
	}
}

// tidy is a route's rules as the model holds them: never nil, and a rule's
// backendRefs nil when it has none.
func tidy(rules []model.RouteRule) []model.RouteRule {
	if rules == nil {
		return []model.RouteRule{}
	}
	for i := range rules {
		if len(rules[i].BackendRefs) == 0 {
			rules[i].BackendRefs = nil
		}
	}
	return rules
}

// Each route view keeps what attachment, reference resolution and the serving
// table read: parentRefs, hostnames, and each rule's matches, filters and
// backends; and the status as written. HTTP, GRPC and TLS routes have
// hostnames, possibly none (see nonNil); TCP and UDP routes have none to
// have, nor matches or filters. Only GRPCRoutes are always read through
// their view (their matches and filters are not HTTPRoute's); the other
// kinds' views read a route that directRoute declines, and state what its
// routeJSON must agree with (TestDirectRoutesAgreeWithTheirViews).

func httpRoute(r *gwv1.HTTPRoute) model.Route {
	return model.Route{ObjectMeta: model.RouteMetaOf(&r.ObjectMeta), ParentRefs: r.Spec.ParentRefs, Hostnames: nonNil(r.Spec.Hostnames), Status: r.Status.RouteStatus,
		Rules: rules(r.Spec.Rules, func(rule *gwv1.HTTPRouteRule) model.RouteRule {
			return model.RouteRule{Name: sectionName(rule.Name), Matches: rule.Matches, Filters: rule.Filters, BackendRefs: rule.BackendRefs,
				Timeouts: rule.Timeouts, Retry: rule.Retry, SessionPersistence: rule.SessionPersistence}
		})}
}

func grpcRoute(r *gwv1.GRPCRoute) model.Route {
	return model.Route{ObjectMeta: model.RouteMetaOf(&r.ObjectMeta), ParentRefs: r.Spec.ParentRefs, Hostnames: nonNil(r.Spec.Hostnames), Status: r.Status.RouteStatus,
		Rules: rules(r.Spec.Rules, func(rule *gwv1.GRPCRouteRule) model.RouteRule {
			refs := backends(rule.BackendRefs, func(b *gwv1.GRPCBackendRef) gwv1.HTTPBackendRef {
				return gwv1.HTTPBackendRef{BackendRef: b.BackendRef, Filters: grpcFilters(b.Filters)}
			})
			return model.RouteRule{Name: sectionName(rule.Name), GRPCMatches: rule.Matches, Filters: grpcFilters(rule.Filters), BackendRefs: refs,
				SessionPersistence: rule.SessionPersistence}
		})}
}

func tlsRoute(r *gwv1.TLSRoute) model.Route {
	return model.Route{ObjectMeta: model.RouteMetaOf(&r.ObjectMeta), ParentRefs: r.Spec.ParentRefs, Hostnames: nonNil(r.Spec.Hostnames), Status: r.Status.RouteStatus,
		Rules: rules(r.Spec.Rules, func(rule *gwv1.TLSRouteRule) model.RouteRule {
			return model.RouteRule{Name: sectionName(rule.Name), BackendRefs: plainBackends(rule.BackendRefs)}
		})}
}

func tcpRoute(r *gwv1.TCPRoute) model.Route {
	return model.Route{ObjectMeta: model.RouteMetaOf(&r.ObjectMeta), ParentRefs: r.Spec.ParentRefs, Status: r.Status.RouteStatus,
		Rules: rules(r.Spec.Rules, func(rule *gwv1.TCPRouteRule) model.RouteRule {
			return model.RouteRule{Name: sectionName(rule.Name), BackendRefs: plainBackends(rule.BackendRefs)}
		})}
}

func udpRoute(r *gwv1.UDPRoute) model.Route {
	return model.Route{ObjectMeta: model.RouteMetaOf(&r.ObjectMeta), ParentRefs: r.Spec.ParentRefs, Status: r.Status.RouteStatus,
		Rules: rules(r.Spec.Rules, func(rule *gwv1.UDPRouteRule) model.RouteRule {
			return model.RouteRule{Name: sectionName(rule.Name), BackendRefs: plainBackends(rule.BackendRefs)}
		})}
}

// rules reduces a route's rules to the model's (tidy); ruleOf reads one rule
// of the route's kind.
func rules[Rule any](rs []Rule, ruleOf func(*Rule) model.RouteRule) []model.RouteRule {
	out := make([]model.RouteRule, len(rs))
	for i := range rs {
		out[i] = ruleOf(&rs[i])
	}
	return tidy(out)
}

// backends are a rule's backends in HTTPBackendRef's form; nil when there
// are none.
func backends[B any](bs []B, ref func(*B) gwv1.HTTPBackendRef) []gwv1.HTTPBackendRef {
	if len(bs) == 0 {
		return nil
	}
	refs := make([]gwv1.HTTPBackendRef, len(bs))
	for i := range bs {
		refs[i] = ref(&bs[i])
	}
	return refs
}

// plainBackends are the backends of a rule of a kind without backend
// filters.
func plainBackends(bs []gwv1.BackendRef) []gwv1.HTTPBackendRef {
	return backends(bs, func(b *gwv1.BackendRef) gwv1.HTTPBackendRef { return gwv1.HTTPBackendRef{BackendRef: *b} })
}

// grpcFilters are GRPCRoute filters in HTTPRoute's form: every GRPCRouteFilter
// type is an HTTPRouteFilter type of the same name and fields.
func grpcFilters(fs []gwv1.GRPCRouteFilter) []gwv1.HTTPRouteFilter {
	if len(fs) == 0 {
		return nil
	}
	out := make([]gwv1.HTTPRouteFilter, len(fs))
	for i, f := range fs {
		out[i] = gwv1.HTTPRouteFilter{Type: gwv1.HTTPRouteFilterType(f.Type), RequestHeaderModifier: f.RequestHeaderModifier,
			ResponseHeaderModifier: f.ResponseHeaderModifier, RequestMirror: f.RequestMirror, ExtensionRef: f.ExtensionRef}
	}
	return out
}

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
