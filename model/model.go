// Package model is the typed, indexed view of a Gateway API configuration that the
// engine analyzes. The loader fills it; nothing in it knows where bytes came from
// beyond each object's Source.
package model

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// Source is where an object was read from: a file and the line its document starts
// on, or a cluster (File "cluster", Line 0).
type Source struct {
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
}

func (s Source) String() string {
	switch {
	case s.File == "":
		return ""
	case s.Line <= 0:
		return s.File
	default:
		return fmt.Sprintf("%s:%d", s.File, s.Line)
	}
}

// Meta is what the loader records about every object beside its typed view.
type Meta struct {
	// APIVersion is the version the user wrote; the typed view may be a newer
	// version of the same kind (TLSRoute v1alpha2 is analyzed as v1).
	APIVersion string
	Kind       string
	Source     Source
	// ListenerLines are the file lines of a Gateway's or ListenerSet's
	// spec.listeners items, in order; nil when the loader does not know them
	// (an object read from a cluster).
	ListenerLines []int
	// IngressLines finds the file lines of an Ingress's rules, paths, tls
	// entries and defaultBackend, reading its document again on the first
	// call only: few Ingresses have findings that need them. Nil when the
	// loader does not know them (an object read from a cluster).
	IngressLines func() *IngressLines
	// Raw is the object as JSON, as written. Output starts from it so that fields
	// this tool does not model survive, and provisional fields (GEP-3792) are read
	// from it. A command that does not print objects as written loads only the
	// Raw of Gateways and Meshes (load.FileOptions.WithoutRaw).
	Raw []byte
}

// IngressLines are where the parts of an Ingress are written, so that what
// is said about a host rule, a path or a TLS entry points at it rather than
// at the Ingress's first line. A line is 0 where it is not known.
type IngressLines struct {
	// Rules[i] is the line of spec.rules[i]; Paths[i][j] of
	// spec.rules[i].http.paths[j].
	Rules []int
	Paths [][]int
	// TLS[i] is the line of spec.tls[i].
	TLS []int
	// DefaultBackend is the line of spec.defaultBackend.
	DefaultBackend int
}

// Rule is the line of spec.rules[i], 0 when not known.
func (l *IngressLines) Rule(i int) int {
	if l == nil || i >= len(l.Rules) {
		return 0
	}
	return l.Rules[i]
}

// Path is the line of spec.rules[i].http.paths[j], 0 when not known.
func (l *IngressLines) Path(i, j int) int {
	if l == nil || i >= len(l.Paths) || j >= len(l.Paths[i]) {
		return 0
	}
	return l.Paths[i][j]
}

// TLSEntry is the line of spec.tls[i], 0 when not known.
func (l *IngressLines) TLSEntry(i int) int {
	if l == nil || i >= len(l.TLS) {
		return 0
	}
	return l.TLS[i]
}

// Default is the line of spec.defaultBackend, 0 when not known.
func (l *IngressLines) Default() int {
	if l == nil {
		return 0
	}
	return l.DefaultBackend
}

// Ref names one object of the model.
type Ref struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

func (r Ref) String() string {
	if r.Namespace == "" {
		return r.Kind + "/" + r.Name
	}
	return r.Kind + "/" + r.Namespace + "/" + r.Name
}

// NamespacedName is the object's namespace and name, without its kind.
func (r Ref) NamespacedName() NamespacedName {
	return NamespacedName{Namespace: r.Namespace, Name: r.Name}
}

// NameOf is an object's namespace and name.
func NameOf(o Named) NamespacedName {
	return NamespacedName{Namespace: o.GetNamespace(), Name: o.GetName()}
}

// CreatedOrder orders two objects by creation timestamp, oldest first, for the
// precedence rules that let the oldest win ("The oldest Route based on
// creation timestamp", HTTPRouteSpec.Rules; ListenerSetSpec.Listeners;
// BackendTLSPolicySpec.TargetRefs): negative when a was created first,
// positive when b was, 0 when they were created at the same instant or
// neither has a timestamp. An object without a creationTimestamp has not been
// created yet (a manifest about to be applied) and will be the newest when it
// is, so the zero time sorts after every set one. Callers break a 0 by
// namespace/name.
func CreatedOrder(a, b *metav1.Time) int {
	switch az, bz := a.IsZero(), b.IsZero(); {
	case az && bz:
		return 0
	case az:
		return 1
	case bz:
		return -1
	}
	return a.Time.Compare(b.Time)
}

// JoinedCompare compares a1+"/"+a2 with b1+"/"+b2 without building them
// ("{namespace}/{name}", the order of precedence ties): namespaces "a" and
// "a-b" order "a-b/x" before "a/x", as the joined strings do.
func JoinedCompare(a1, a2, b1, b2 string) int {
	if a1 == b1 {
		return strings.Compare(a2, b2)
	}
	n := min(len(a1), len(b1))
	if a1[:n] != b1[:n] {
		return strings.Compare(a1[:n], b1[:n])
	}
	// One namespace is a prefix of the other: its "/" meets the other's next byte.
	switch {
	case len(a1) < len(b1) && b1[n] != '/':
		return cmpByte('/', b1[n])
	case len(a1) > len(b1) && a1[n] != '/':
		return cmpByte(a1[n], '/')
	}
	return strings.Compare(a1+"/"+a2, b1+"/"+b2)
}

func cmpByte(a, b byte) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Named is an object's metadata as NameOf reads it: a metav1.Object or a
// route's *RouteMeta.
type Named interface {
	GetName() string
	GetNamespace() string
}

// NamespacedName is the namespace/name key every index uses.
type NamespacedName struct{ Namespace, Name string }

func (n NamespacedName) String() string {
	if n.Namespace == "" {
		return n.Name
	}
	return n.Namespace + "/" + n.Name
}

// Object is one loaded object of a supported kind: its typed view and its Meta.
// The typed view holds the object's .status as written (by a controller, or by
// the API server's defaults), beside its spec: the engine reads the status of
// a few kinds as input (a GatewayClass's supportedFeatures, a Gateway's
// addresses), and drift compares the rest with the status it computes.
type Object[T any] struct {
	Meta
	Obj *T
}

type (
	GatewayClass     = Object[gwv1.GatewayClass]
	Gateway          = Object[gwv1.Gateway]
	ListenerSet      = Object[gwv1.ListenerSet]
	ReferenceGrant   = Object[gwv1.ReferenceGrant]
	BackendTLSPolicy = Object[gwv1.BackendTLSPolicy]
	Secret           = Object[corev1.Secret]
	ConfigMap        = Object[corev1.ConfigMap]
	Service          = Object[corev1.Service]
	Namespace        = Object[corev1.Namespace]
	// Ingress and IngressClass are not analyzed by the engine: they are the
	// base of an Ingress migration, which package ingress reads into a
	// serving table to compare with a Gateway API configuration's.
	Ingress      = Object[networkingv1.Ingress]
	IngressClass = Object[networkingv1.IngressClass]
)

// Mesh is a provisional GEP-3792 Mesh (networking.x-k8s.io/v1 Mesh, or
// gateway.networking.x-k8s.io/v1alpha1 XMesh). Its fields are provisional, so the
// engine reads them from Meta.Raw; only identity is typed.
type Mesh struct {
	Meta
	ObjectMeta metav1.ObjectMeta
}

// ServiceImport is a Multi-Cluster Services API ServiceImport
// (multicluster.x-k8s.io), an Extended backend kind of HTTPRoute, GRPCRoute
// and TLSRoute. Only its identity is read: a backendRef needs to know that it
// exists.
type ServiceImport struct {
	Meta
	ObjectMeta metav1.ObjectMeta
}

// RouteMeta is the part of a route's metadata the tool reads: its identity,
// generation, creation time, labels and annotations. A large model has a
// Route per route, and a full metav1.ObjectMeta was 232 of its 448 bytes; the
// fields kept have ObjectMeta's names, so r.ObjectMeta.Name reads as before.
// Output that prints the route as written starts from Meta.Raw.
type RouteMeta struct {
	Name              string
	Namespace         string
	UID               types.UID
	ResourceVersion   string
	Generation        int64
	CreationTimestamp metav1.Time
	Labels            map[string]string
	Annotations       map[string]string
}

// RouteMetaOf is the part of m a Route keeps.
func RouteMetaOf(m *metav1.ObjectMeta) RouteMeta {
	return RouteMeta{
		Name: m.Name, Namespace: m.Namespace, UID: m.UID, ResourceVersion: m.ResourceVersion,
		Generation: m.Generation, CreationTimestamp: m.CreationTimestamp,
		Labels: m.Labels, Annotations: m.Annotations,
	}
}

// GetName, GetNamespace, GetGeneration, GetLabels and GetAnnotations are
// metav1.ObjectMeta's accessors.
func (m *RouteMeta) GetName() string                   { return m.Name }
func (m *RouteMeta) GetNamespace() string              { return m.Namespace }
func (m *RouteMeta) GetGeneration() int64              { return m.Generation }
func (m *RouteMeta) GetLabels() map[string]string      { return m.Labels }
func (m *RouteMeta) GetAnnotations() map[string]string { return m.Annotations }

// SetNamespace sets the namespace, as metav1.ObjectMeta's does (the loader
// defaults it).
func (m *RouteMeta) SetNamespace(namespace string) { m.Namespace = namespace }

// Route kinds the engine analyzes.
const (
	KindHTTPRoute = "HTTPRoute"
	KindGRPCRoute = "GRPCRoute"
	KindTLSRoute  = "TLSRoute"
	KindTCPRoute  = "TCPRoute"
	KindUDPRoute  = "UDPRoute"
)

// Route is the kind-independent view of every xRoute: what attachment, hostname
// intersection, reference resolution and the serving table need, and the
// status as written. Output starts from Meta.Raw, so fields not kept here
// still reach it.
type Route struct {
	Meta
	ObjectMeta RouteMeta
	ParentRefs []gwv1.ParentReference
	// Hostnames is nil for kinds without hostnames (TCPRoute, UDPRoute).
	Hostnames []gwv1.Hostname
	Rules     []RouteRule
	// Status is .status as written: one entry per parentRef and controller
	// that wrote one (every route kind's status is a RouteStatus).
	Status gwv1.RouteStatus
}

// RouteRule is one rule of a route: its matches, its filters and its backends.
// Filters are kept in HTTPRoute's form for every kind that has them: a
// GRPCRouteFilter's types (RequestHeaderModifier, ResponseHeaderModifier,
// RequestMirror, ExtensionRef) are HTTPRouteFilter's, with the same fields.
//
// Its JSON names are an HTTPRouteRule's: the loader decodes the rules of
// HTTP, TLS, TCP and UDP routes straight into it (package load, routeJSON),
// so that a route's rules and backends are allocated once, as the model
// keeps them.
type RouteRule struct {
	Name string `json:"name,omitempty"`
	// Matches are an HTTPRoute rule's matches, as written (nil: the CRD default,
	// a PathPrefix match on "/", is not applied here).
	Matches []gwv1.HTTPRouteMatch `json:"matches,omitempty"`
	// GRPCMatches are a GRPCRoute rule's matches, as written.
	GRPCMatches []gwv1.GRPCRouteMatch `json:"-"`
	// Filters are the rule's filters (HTTPRoute and GRPCRoute).
	Filters []gwv1.HTTPRouteFilter `json:"filters,omitempty"`
	// BackendRefs are the rule's backends, every kind's in HTTPBackendRef's
	// form: Filters are an HTTP or GRPC backendRef's filters (a GRPCRoute's in
	// HTTPRoute's form), nil for the other kinds. Nil when the rule has none.
	BackendRefs []gwv1.HTTPBackendRef `json:"backendRefs,omitempty"`
	// Timeouts, Retry (HTTPRoute) and SessionPersistence (HTTPRoute and
	// GRPCRoute) are as written; the engine does not read them.
	Timeouts           *gwv1.HTTPRouteTimeouts  `json:"timeouts,omitempty"`
	Retry              *gwv1.HTTPRouteRetry     `json:"retry,omitempty"`
	SessionPersistence *gwv1.SessionPersistence `json:"sessionPersistence,omitempty"`
}

// HasHostnames reports whether the route kind carries spec.hostnames.
func (r *Route) HasHostnames() bool {
	switch r.Kind {
	case KindHTTPRoute, KindGRPCRoute, KindTLSRoute:
		return true
	}
	return false
}

// Key is the route's namespace/name.
func (r *Route) Key() NamespacedName {
	return NamespacedName{r.ObjectMeta.Namespace, r.ObjectMeta.Name}
}

// Model is every object the loader produced, in input order, plus what it skipped.
type Model struct {
	GatewayClasses     []*GatewayClass
	Gateways           []*Gateway
	ListenerSets       []*ListenerSet
	Routes             []*Route
	ReferenceGrants    []*ReferenceGrant
	BackendTLSPolicies []*BackendTLSPolicy
	Secrets            []*Secret
	ConfigMaps         []*ConfigMap
	Services           []*Service
	Namespaces         []*Namespace
	Meshes             []*Mesh
	ServiceImports     []*ServiceImport
	Ingresses          []*Ingress
	IngressClasses     []*IngressClass

	// Skipped counts objects of kinds the tool does not analyze, by apiVersion/kind.
	Skipped map[string]int
	// Unreadable lists what the loader could not read and why (for example a kind the
	// identity may not list in a cluster). The engine reports these as skipped checks.
	Unreadable []Unreadable
	// Admission is what the API server's admission of the Gateway API objects
	// found; nil when the loader did not judge it.
	Admission *Admission
}

// Admission is what validating the Gateway API objects against their CRDs, as
// the API server does, found. The engine reports every Refusal; objects it
// refuses from manifests are not in the model, and what refers to them says why.
type Admission struct {
	// CRDs says which CRDs the objects were held to: "Gateway API v1.6.3
	// experimental channel, built in".
	CRDs string
	// Note says why the CRDs are not the ones the input asked for, when they are
	// not (a cluster identity that may not list CRDs).
	Note string
	// Off is set when objects were not validated (the user turned admission
	// off): the CRDs' defaults were still applied, and nothing was refused.
	Off bool
	// Refused are the objects the API server refuses, in input order.
	Refused []Refusal
	// ExperimentalOnly are admitted objects that a cluster with the standard
	// channel's CRDs of the same release refuses.
	ExperimentalOnly []Refusal
	// Referrers are where the objects in the model refer to one the API
	// server refuses, by the referring field (a route's spec.parentRefs[0], a
	// ListenerSet's spec.parentRef, a Gateway's spec.gatewayClassName), so
	// that what is said of the reference points at it; nil when none does or
	// the loader cannot tell.
	Referrers map[FieldRef]Source
}

// FieldRef is one field of an object: Field as the findings name it
// (spec.parentRefs[0]).
type FieldRef struct {
	Object Ref
	Field  string
}

// Refusal is the API server's answer to an object it does not admit.
type Refusal struct {
	Object     Ref
	APIVersion string
	// Source is where the object starts.
	Source Source
	// Reason is the API server's message, as kubectl prints it.
	Reason string
	// Errors are the fields the API server names, in its order; none when it
	// names no field (a version no CRD serves).
	Errors []FieldError
	// Stored is set for an object read from a cluster, which stored it under
	// CRDs that admitted it then: it exists, and it is in the model.
	Stored bool
	// StandardAdmits is set when the experimental channel's CRDs refuse the
	// object and the standard channel's of the same release admit it.
	StandardAdmits bool
	// RulesNotChecked: the API server did not run the CRD's CEL rules, since
	// a type, required, enum or size error came first. Its whole-object error
	// saying so is not among Errors when another error is: it is a note on
	// them, not a problem of its own.
	RulesNotChecked bool
}

// FieldError is one field the API server names when it refuses an object.
type FieldError struct {
	// Field is the API server's path to it (spec.listeners[1].name); empty for
	// an error about the whole object.
	Field string
	// Message is what the API server says of it.
	Message string
	// Source is where the field is written, or the object's Source when the
	// loader cannot tell.
	Source Source
}

// Unreadable is a kind (optionally in one namespace) that the loader could not read.
type Unreadable struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Reason    string `json:"reason"`
}

// Len is the number of analyzed objects.
func (m *Model) Len() int {
	return len(m.GatewayClasses) + len(m.Gateways) + len(m.ListenerSets) + len(m.Routes) +
		len(m.ReferenceGrants) + len(m.BackendTLSPolicies) + len(m.Secrets) + len(m.ConfigMaps) +
		len(m.Services) + len(m.Namespaces) + len(m.Meshes) + len(m.ServiceImports)
}
