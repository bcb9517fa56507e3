// Package ingress is the serving table an Ingress controller gives a set of
// networking.k8s.io/v1 Ingresses: for every controller, port and host, the
// paths it serves, the backend each reaches, the certificate presented, the
// HTTP to HTTPS redirect, backend TLS and TLS passthrough. It is the base of
// an Ingress migration: package migration asks it and a Gateway API
// configuration's serving table (package serving) the same requests.
//
// The Ingress specification decides hosts (exact, and `*.` wildcards of one
// label), Exact and Prefix paths and the default backend. What it leaves to
// the controller (ImplementationSpecific paths, TLS entries without hosts,
// one host in several Ingresses, which annotations change what) is data: the
// `ingress:` block and the effects of each controller's annotation set
// (annotations/sets), read here.
package ingress

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	networkingv1 "k8s.io/api/networking/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/annotations"
	"github.com/kubectl-gwtls/kubectl-gwtls/hostname"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
)

// Options steer how Ingresses are read.
type Options struct {
	// Analyze carries what the engine knows of Secrets the input does not
	// hold (--external, unreadable kinds): a TLS Secret is resolved as a
	// listener's certificateRef is (analyze.SecretCertificate).
	Analyze analyze.Options
	// Controller names the controller of Ingresses whose IngressClass is not
	// in the input (an implementation name, such as "ingress-nginx"); ""
	// infers it.
	Controller string
}

// ControllerNames are the controllers an Options.Controller may name.
func ControllerNames() []string {
	var out []string
	for _, s := range annotations.IngressControllers() {
		out = append(out, s.Implementation)
	}
	return out
}

// Table is what the Ingresses of a configuration serve.
type Table struct {
	// Ingresses are every Ingress of the input, in input order, with their
	// class and whether their controller serves them.
	Ingresses []*Ingress
	// Controllers are the controllers that serve at least one Ingress, in
	// the order of the known controllers; each serves its own servers.
	Controllers []*Serving
}

// Serving is what one controller serves.
type Serving struct {
	Controller *Controller
	// Servers are the hosts it serves, in the order their first Ingress
	// appears in the input, then by host.
	Servers []*Server
	// byHost indexes Servers by each host and alias they name ("" for a
	// rule without host), each list in Servers order: a request's name is
	// taken only by a server named after it, after its one-label wildcard,
	// or by one without host.
	byHost map[string][]int
}

// indexServers fills byHost, once Servers are final.
func (s *Serving) indexServers() {
	s.byHost = make(map[string][]int, len(s.Servers))
	for i, srv := range s.Servers {
		for _, h := range srv.Hostnames() {
			h = strings.ToLower(h)
			if l := s.byHost[h]; len(l) == 0 || l[len(l)-1] != i {
				s.byHost[h] = append(l, i)
			}
		}
	}
}

// serversNaming are the indexes of the servers that may take a name: those
// whose host or alias is the name, its one-label wildcard, or none.
func (s *Serving) serversNaming(name string) []int {
	name = strings.ToLower(name)
	out := slices.Clone(s.byHost[name])
	if _, rest, ok := strings.Cut(name, "."); ok {
		out = append(out, s.byHost["*."+rest]...)
	}
	out = append(out, s.byHost[""]...)
	slices.Sort(out)
	return slices.Compact(out)
}

// Ingress is one Ingress and what became of it.
type Ingress struct {
	Obj *model.Ingress
	Ref model.Ref
	// Class is its class and controller.
	Class Class
	// NotServed says why the controller does not serve it, "" when it does:
	// another controller's class, a rejected annotation, a canary without
	// a main Ingress.
	NotServed string
	// Problems are its annotations' problems (annotations.Validate).
	Problems []annotations.Problem
	// HostsTaken are its host rules whose host the controller gives another
	// Ingress (HostCollision "oldest").
	HostsTaken []HostTaken
	// settings are its annotations' effects.
	settings settings
}

// Source is where the Ingress was read from.
func (i *Ingress) Source() model.Source { return i.Obj.Source }

// place is a part of the Ingress, written where line finds it.
func (i *Ingress) place(field string, line func(*model.IngressLines) int) Place {
	return Place{Field: field, ingress: i, line: line}
}

// Whole is the Ingress as a place: its first line, no field.
func (i *Ingress) Whole() Place { return Place{ingress: i} }

// Place is a part of an Ingress and where it is written: a host rule, a
// path, a tls entry or the defaultBackend.
type Place struct {
	// Field is its path in the Ingress: spec.rules[0].http.paths[1]; ""
	// for the whole Ingress.
	Field   string
	ingress *Ingress
	line    func(*model.IngressLines) int
}

// Source is where the part is written: its own line when the loader knows
// it (model.Meta.IngressLines, read on first use), else the Ingress's.
func (p Place) Source() model.Source {
	if p.ingress == nil {
		return model.Source{}
	}
	src := p.ingress.Obj.Source
	if find := p.ingress.Obj.IngressLines; find != nil && p.line != nil {
		if l := p.line(find()); l > 0 {
			src.Line = l
		}
	}
	return src
}

// HostTaken is a host rule of an Ingress whose host another, older Ingress
// has.
type HostTaken struct {
	Rule Place
	// Why says so, naming the Ingress that has the host.
	Why string
}

// Canary reports whether the Ingress is a canary of another (ingress-nginx's
// canary annotation): it is served only as part of the main Ingress's paths.
func (i *Ingress) Canary() bool { return i.settings.canary }

// Server is one host a controller serves: every path of every Ingress that
// the controller gives the host.
type Server struct {
	Serving *Serving
	// Host is the rule host: precise, `*.` and one label, or "" for a rule
	// without host (every host no other server takes).
	Host string
	// Aliases are more hostnames served the same way (ingress-nginx's
	// server-alias).
	Aliases []string
	// HTTPPorts and HTTPSPorts are the ports the host is served on.
	HTTPPorts, HTTPSPorts []int32
	// TLS is how the host's TLS is terminated, nil when it is not.
	TLS *TLS
	// Passthrough is the location whose backend receives the host's TLS
	// connections undecrypted, nil without passthrough.
	Passthrough *Location
	// Locations are the paths, as the controller matches them.
	Locations []*Location
	// Ingresses are the Ingresses that define the host, oldest first: the
	// first owns it where the controller gives a host to one Ingress.
	Ingresses []*Ingress
	// regexHostWide: every path of the host matches as a regular expression
	// (ingress-nginx's use-regex and rewrite-target).
	regexHostWide bool
}

// TLS is the certificate a host is served with.
type TLS struct {
	Ingress *Ingress
	// Entry is the IngressTLS entry, spec.tls[i].
	Entry  Place
	Secret model.NamespacedName
	// Ref is the Secret resolved as a certificateRef is; nil when the entry
	// names no Secret (the controller's default certificate, or a refused
	// handshake).
	Ref *analyze.CertificateRef
	// Listed is false when the entry does not list the host and serves it
	// because its certificate covers the host (Controller.TLSHosts).
	Listed bool
}

// Certificate is what the host presents to a client that sent sni, nil when
// no Secret is named.
func (t *TLS) Certificate(sni string) *serving.Certificate {
	if t == nil || t.Ref == nil || !t.Ref.Usable() {
		return nil
	}
	return &serving.Certificate{Ref: t.Ref, Secret: t.Secret, Covers: t.Ref.Covers(sni)}
}

// Location is one path of a host, as an Ingress defines it.
type Location struct {
	Server  *Server
	Ingress *Ingress
	// Place is the path in the Ingress: spec.rules[i].http.paths[j], or
	// spec.defaultBackend.
	Place
	// Rule is the host rule the path serves, spec.rules[i]; for an Ingress
	// with only a defaultBackend, the defaultBackend.
	Rule Place
	// Path and PathType are as written (PathType defaulted to
	// ImplementationSpecific, the API's default).
	Path     string
	PathType networkingv1.PathType
	// Match is how the controller matches the path.
	Match annotations.PathMatching
	// Backend is where the path's requests go.
	Backend Backend
	// Canaries are other Ingresses' canaries of this host and path.
	Canaries []Canary
	// Rewrite is the path the backend receives instead, "" when unchanged:
	// a replacement of the matched path (ingress-nginx's rewrite-target,
	// with $1... from the path's regular expression; NGINX Ingress
	// Controller's rewrites).
	Rewrite string
	// RewriteKey is the annotation that sets Rewrite.
	RewriteKey string
}

// Backend is a path's backend, and how the controller speaks to it.
type Backend struct {
	// Service and Port name the backend Service; PortName is set instead of
	// Port when the Ingress names the port, and Port is then read from the
	// Service when the input holds it.
	Service  model.NamespacedName
	Port     int32
	PortName string
	// Resource is set for a resource backend (IngressBackend.Resource).
	Resource string
	// TLS: the controller speaks TLS to the backend; GRPC: gRPC (HTTP/2).
	TLS, GRPC bool
	// Verify: the backend's certificate is verified, against VerifyName when
	// set, with the CA in CASecret when set.
	Verify     bool
	VerifyName string
	CASecret   string
	// Keys are the annotations that decided the protocol and verification.
	Keys []string
}

// Canary is a canary Ingress's share of a path.
type Canary struct {
	Ingress *Ingress
	Backend Backend
	// Weight of WeightTotal of the requests go to the canary, when the
	// canary is by weight.
	Weight, WeightTotal int
	// By are the header and cookie that send requests to it, or keep them
	// off, before the weight is drawn.
	By CanaryBy
}

// Build reads a model's Ingresses into their serving table.
func Build(m *model.Model, opts Options) (*Table, error) {
	var controllers []*Controller
	var forced *Controller
	for _, s := range annotations.IngressControllers() {
		c := &Controller{Set: s}
		controllers = append(controllers, c)
		if strings.EqualFold(opts.Controller, s.Implementation) {
			forced = c
		}
	}
	if opts.Controller != "" && forced == nil {
		return nil, fmt.Errorf("--ingress-controller %q: want one of %s", opts.Controller, strings.Join(ControllerNames(), ", "))
	}
	b := &builder{m: m, opts: opts, t: &Table{}, services: map[model.NamespacedName]*model.Service{}, servers: map[serverKey]*Server{}}
	for _, s := range m.Services {
		b.services[model.NameOf(s.Obj)] = s
	}
	cls := newClassifier(m, controllers, forced)
	served := map[*Controller]*Serving{}
	for _, obj := range m.Ingresses {
		ing := &Ingress{Obj: obj, Ref: model.Ref{Kind: "Ingress", Namespace: obj.Obj.Namespace, Name: obj.Obj.Name}, Class: cls.classOf(obj.Obj)}
		b.t.Ingresses = append(b.t.Ingresses, ing)
		ctl := ing.Class.Controller
		if ctl == nil {
			ing.NotServed = notServedClass(ing.Class)
			continue
		}
		ing.Problems = annotations.Validate("Ingress", obj.Obj.Annotations)
		ing.settings = readSettings(ctl.Set, obj.Obj.Annotations, ing.Problems)
		if p := ing.settings.rejectedBy; p != nil {
			ing.NotServed = fmt.Sprintf("%s rejects it: %s", ctl.Name(), p.Message)
			continue
		}
		if served[ctl] == nil {
			served[ctl] = &Serving{Controller: ctl}
		}
	}
	for _, c := range controllers {
		if s := served[c]; s != nil {
			b.t.Controllers = append(b.t.Controllers, s)
			b.serve(s)
		}
	}
	for _, s := range b.t.Controllers {
		s.indexServers()
	}
	return b.t, nil
}

func notServedClass(c Class) string {
	switch {
	case c.Name == "":
		return "it names no class and no IngressClass is the default, so no controller serves it"
	case c.ControllerName != "":
		return fmt.Sprintf("class %s is controller %s's, which this tool does not model (known: %s)", c.Name, c.ControllerName, strings.Join(ControllerNames(), ", "))
	}
	return fmt.Sprintf("class %s names no controller this tool models (known: %s)", c.Name, strings.Join(ControllerNames(), ", "))
}

type builder struct {
	m        *model.Model
	opts     Options
	t        *Table
	services map[model.NamespacedName]*model.Service
	servers  map[serverKey]*Server
}

type serverKey struct {
	served *Serving
	host   string
}

// serve builds one controller's servers from its Ingresses, oldest first:
// the oldest Ingress wins what two claim (a path, or a host where the
// controller gives a host to one Ingress).
func (b *builder) serve(s *Serving) {
	var ings []*Ingress
	for _, ing := range b.t.Ingresses {
		if ing.Class.Controller == s.Controller && ing.NotServed == "" {
			ings = append(ings, ing)
		}
	}
	byAge := slices.Clone(ings)
	slices.SortStableFunc(byAge, olderFirst)
	var canaries []*Ingress
	for _, ing := range byAge {
		if ing.settings.canary {
			canaries = append(canaries, ing)
			continue
		}
		b.addIngress(s, ing)
	}
	for _, c := range canaries {
		b.addCanary(s, c)
	}
	for _, srv := range s.Servers {
		b.finishServer(srv)
	}
}

// olderFirst orders Ingresses by creationTimestamp, then namespace/name: the
// order in which controllers let the oldest win (NGINX Ingress Controller's
// "Winner Selection Algorithm" breaks ties by uid, which a manifest lacks).
func olderFirst(a, b *Ingress) int {
	ta, tb := a.Obj.Obj.CreationTimestamp, b.Obj.Obj.CreationTimestamp
	if !ta.Equal(&tb) {
		if ta.Before(&tb) {
			return -1
		}
		return 1
	}
	return cmp.Or(strings.Compare(a.Ref.Namespace, b.Ref.Namespace), strings.Compare(a.Ref.Name, b.Ref.Name))
}

// addIngress adds an Ingress's rules to its controller's servers.
func (b *builder) addIngress(s *Serving, ing *Ingress) {
	spec := &ing.Obj.Obj.Spec
	ctl := s.Controller.Set.Ingress
	if len(spec.Rules) == 0 && spec.DefaultBackend != nil {
		// An Ingress with only a default backend serves every host no rule
		// takes (IngressSpec.DefaultBackend).
		def := ing.place("spec.defaultBackend", (*model.IngressLines).Default)
		srv := b.server(s, ing, "", def)
		if srv == nil {
			return
		}
		b.addLocation(srv, ing, def, def, "/", networkingv1.PathTypePrefix, spec.DefaultBackend)
		return
	}
	for i, rule := range spec.Rules {
		host := strings.ToLower(rule.Host)
		if host == "" && ctl.HostCollision == "oldest" {
			// NGINX Ingress Controller: "When defining an Ingress resource,
			// the host field is required" (Basic configuration > Restrictions).
			continue
		}
		rulePlace := ing.place(fmt.Sprintf("spec.rules[%d]", i), func(l *model.IngressLines) int { return l.Rule(i) })
		srv := b.server(s, ing, host, rulePlace)
		if srv == nil {
			continue
		}
		root := false
		if rule.HTTP != nil {
			for j := range rule.HTTP.Paths {
				p := &rule.HTTP.Paths[j]
				pt := networkingv1.PathTypeImplementationSpecific
				if p.PathType != nil {
					pt = *p.PathType
				}
				path := p.Path
				if path == "" {
					path = "/"
				}
				at := ing.place(fmt.Sprintf("spec.rules[%d].http.paths[%d]", i, j), func(l *model.IngressLines) int { return l.Path(i, j) })
				b.addLocation(srv, ing, at, rulePlace, path, pt, &p.Backend)
				root = root || path == "/"
			}
		}
		if !root && spec.DefaultBackend != nil {
			// A rule's host without a root path sends what its paths do not
			// take to the Ingress's default backend.
			b.addLocation(srv, ing, ing.place("spec.defaultBackend", (*model.IngressLines).Default), rulePlace, "/", networkingv1.PathTypePrefix, spec.DefaultBackend)
		}
	}
}

// server is the controller's server for a host, made for ing when it is the
// first Ingress of the host; nil when the controller gives the host to
// another Ingress (HostCollision "oldest").
func (b *builder) server(s *Serving, ing *Ingress, host string, rule Place) *Server {
	k := serverKey{s, host}
	srv := b.servers[k]
	if srv == nil {
		ctl := s.Controller.Set.Ingress
		srv = &Server{Serving: s, Host: host, HTTPPorts: ctl.HTTPPorts, HTTPSPorts: ctl.HTTPSPorts}
		if ps := ing.settings.httpPorts; len(ps) > 0 {
			srv.HTTPPorts = ps
		}
		if ps := ing.settings.httpsPorts; len(ps) > 0 {
			srv.HTTPSPorts = ps
		}
		b.servers[k] = srv
		s.Servers = append(s.Servers, srv)
	}
	if owner := srv.Ingresses; len(owner) > 0 && owner[0] != ing && s.Controller.Set.Ingress.HostCollision == "oldest" {
		ing.HostsTaken = append(ing.HostsTaken, HostTaken{Rule: rule,
			Why: fmt.Sprintf("host %s is taken by %s, which is older (%s serves a host from one Ingress)", displayHost(host), owner[0].Ref, s.Controller.Name())})
		return nil
	}
	if !slices.Contains(srv.Ingresses, ing) {
		srv.Ingresses = append(srv.Ingresses, ing)
	}
	return srv
}

// addLocation adds one path to a server; a path the server has from an older
// Ingress stays that Ingress's.
func (b *builder) addLocation(srv *Server, ing *Ingress, place, rule Place, path string, pt networkingv1.PathType, be *networkingv1.IngressBackend) {
	for _, l := range srv.Locations {
		if l.Path == path && l.PathType == pt {
			return
		}
	}
	loc := &Location{Server: srv, Ingress: ing, Place: place, Rule: rule, Path: path, PathType: pt, Backend: b.backend(ing, be)}
	switch m := ing.settings.pathMode; {
	case m != "":
		loc.Match = m
	case ing.settings.regexPaths:
		loc.Match = srv.Serving.Controller.Set.Ingress.RegexPaths
	default:
		loc.Match = srv.Serving.Controller.Set.Ingress.Paths[string(pt)]
		if loc.Match == "" {
			loc.Match = annotations.MatchElementPrefix
		}
	}
	if t := ing.settings.rewriteTarget; t != "" {
		loc.Rewrite, loc.RewriteKey = t, ing.settings.rewriteTargetKey
	}
	if t, ok := ing.settings.rewriteServices[loc.Backend.Service.Name]; ok {
		loc.Rewrite, loc.RewriteKey = t, "nginx.org/rewrites"
	}
	srv.Locations = append(srv.Locations, loc)
	srv.regexHostWide = srv.regexHostWide || ing.settings.regexHostWide
	for _, a := range ing.settings.aliases {
		if !slices.Contains(srv.Aliases, a) && a != srv.Host {
			srv.Aliases = append(srv.Aliases, a)
		}
	}
}

// backend reads an IngressBackend with the protocol its Ingress's
// annotations choose for it.
func (b *builder) backend(ing *Ingress, be *networkingv1.IngressBackend) Backend {
	return b.backendAs(ing.Obj.Obj.Namespace, &ing.settings, be)
}

// backendAs reads an IngressBackend of namespace ns with the protocol that
// st chooses for it.
func (b *builder) backendAs(ns string, st *settings, be *networkingv1.IngressBackend) Backend {
	var out Backend
	switch {
	case be.Service != nil:
		out.Service = model.NamespacedName{Namespace: ns, Name: be.Service.Name}
		out.Port, out.PortName = be.Service.Port.Number, be.Service.Port.Name
		if out.PortName != "" {
			out.Port = b.servicePort(out.Service, out.PortName)
		}
	case be.Resource != nil:
		out.Resource = fmt.Sprintf("%s/%s", be.Resource.Kind, be.Resource.Name)
	}
	out.TLS = st.backendTLS || st.tlsServices[out.Service.Name]
	out.GRPC = st.backendGRPC || st.grpcServices[out.Service.Name]
	if out.TLS {
		out.Verify, out.VerifyName, out.CASecret = st.verify, st.verifyName, st.caSecret
	}
	out.Keys = st.effectKeys
	return out
}

// servicePort is the number of a Service's named port, 0 when the input
// does not hold the Service or it has no such port.
func (b *builder) servicePort(svc model.NamespacedName, name string) int32 {
	s := b.services[svc]
	if s == nil {
		return 0
	}
	for _, p := range s.Obj.Spec.Ports {
		if p.Name == name {
			return p.Port
		}
	}
	return 0
}

// addCanary adds a canary Ingress's backends to the main Ingress's paths of
// the same host and path (ingress-nginx: "the Ingress spec acts as an
// alternative service for requests to route to"); a canary whose host and
// path no main Ingress has serves nothing.
func (b *builder) addCanary(s *Serving, ing *Ingress) {
	added := false
	for _, rule := range ing.Obj.Obj.Spec.Rules {
		srv := b.servers[serverKey{s, strings.ToLower(rule.Host)}]
		if srv == nil || rule.HTTP == nil {
			continue
		}
		for _, p := range rule.HTTP.Paths {
			path := p.Path
			if path == "" {
				path = "/"
			}
			for _, l := range srv.Locations {
				if l.Path != path || l.Ingress.settings.canary {
					continue
				}
				// "when you mark an ingress as canary, then all the other
				// non-canary annotations will be ignored (inherited from
				// the corresponding main ingress)": the main's protocol.
				c := Canary{Ingress: ing, Backend: b.backendAs(ing.Obj.Obj.Namespace, &l.Ingress.settings, &p.Backend), WeightTotal: ing.settings.canaryWeightTotal, By: ing.settings.canaryBy}
				if ing.settings.canaryHasWeight {
					c.Weight = ing.settings.canaryWeight
				}
				l.Canaries = append(l.Canaries, c)
				added = true
			}
		}
	}
	if !added {
		ing.NotServed = "it is a canary, and no other Ingress of its class has its host and path"
	}
}

// finishServer decides what the server's Ingresses decide for the whole host:
// its TLS, its passthrough, and whether its paths are regular expressions.
func (b *builder) finishServer(srv *Server) {
	ctl := srv.Serving.Controller.Set.Ingress
	if srv.regexHostWide {
		for _, l := range srv.Locations {
			l.Match = ctl.RegexPaths
		}
	}
	ings := srv.Ingresses
	sample := analyze.SampleSNI(srv.Host, "")
	for _, ing := range ings {
		if t := b.tlsFor(ing, srv.Host, sample, ctl.TLSHosts == "listed-or-certificate"); t != nil {
			srv.TLS = t
			break
		}
	}
	for _, ing := range ings {
		if !ing.settings.passthrough {
			continue
		}
		for _, l := range srv.Locations {
			if l.Ingress == ing && (srv.Passthrough == nil || l.Path == "/") {
				srv.Passthrough = l
			}
		}
		break
	}
}

// tlsFor is the IngressTLS entry of ing that terminates TLS for host: the
// entry that lists it, else (when byCertificate) one whose Secret holds a
// certificate that covers it; nil when none does.
func (b *builder) tlsFor(ing *Ingress, host, sample string, byCertificate bool) *TLS {
	obj := ing.Obj.Obj
	for i, t := range obj.Spec.TLS {
		for _, h := range t.Hosts {
			if strings.EqualFold(h, host) && host != "" {
				return b.tls(ing, i, t.SecretName, true)
			}
		}
	}
	if !byCertificate {
		return nil
	}
	for i, t := range obj.Spec.TLS {
		if t.SecretName == "" {
			continue
		}
		if tls := b.tls(ing, i, t.SecretName, false); tls.Ref.Usable() && tls.Ref.Covers(sample) {
			return tls
		}
	}
	return nil
}

func (b *builder) tls(ing *Ingress, i int, secret string, listed bool) *TLS {
	t := &TLS{Ingress: ing, Entry: ing.place(fmt.Sprintf("spec.tls[%d]", i), func(l *model.IngressLines) int { return l.TLSEntry(i) }), Listed: listed}
	if secret == "" {
		return t
	}
	t.Secret = model.NamespacedName{Namespace: ing.Obj.Obj.Namespace, Name: secret}
	t.Ref = analyze.SecretCertificate(b.m, b.opts.Analyze, t.Secret.Namespace, t.Secret.Name)
	return t
}

// Hostnames are the names the server is served under: its host and aliases.
func (s *Server) Hostnames() []string {
	return append([]string{s.Host}, s.Aliases...)
}

// takes reports whether the server's host (or an alias) takes a request's
// name: a precise host equal to it, or a wildcard whose one label it adds
// (networking/v1 IngressRule.Host: "the request matches this rule if the http
// host header is equal to the suffix (removing the first label) of the
// wildcard rule", one label as an SNI wildcard matches); "" takes any.
func (s *Server) takes(name string) (string, bool) {
	for _, h := range s.Hostnames() {
		if h == "" || hostname.MatchesSNI(h, name) {
			return h, true
		}
	}
	return "", false
}

func displayHost(h string) string {
	if h == "" {
		return "(any)"
	}
	return h
}
