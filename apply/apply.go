// Package apply builds the configuration a cluster holds after `kubectl apply
// -f`: the live objects, with the applied ones in their place and the new ones
// added. diff compares it with the live configuration, so that a file that
// holds one team's routes is read beside every other team's Gateways and
// routes, as the cluster will read it.
package apply

import (
	"maps"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// Onto is the model of a cluster holding live after applying files: an object
// of files replaces the live object of the same kind, namespace and name, in
// the live object's place; the others are added in the files' order.
//
// What apply does not write stays as the cluster has it. The status subresource
// is not written by apply, so an applied object keeps the live status (a
// Gateway's status.addresses, a GatewayClass's supportedFeatures). The API
// server sets metadata.creationTimestamp when it creates an object and never
// changes it, so a replaced object keeps the live one, and a new object is
// created at now, or after the newest live object when now (a pinned --now)
// is older: it is the newest, which decides route and listener precedence
// (Gateway API: oldest first).
//
// Onto copies what it changes; neither model is modified, and the result
// shares their unchanged objects.
func Onto(live, files *model.Model, now time.Time) *model.Model {
	created := metav1.NewTime(creationTime(live, now))
	m := &model.Model{Skipped: map[string]int{}, Unreadable: live.Unreadable}
	maps.Copy(m.Skipped, live.Skipped)
	for k, n := range files.Skipped {
		m.Skipped[k] += n
	}
	m.GatewayClasses = objects(live.GatewayClasses, files.GatewayClasses, created, func(o, l *gwv1.GatewayClass) { o.Status = l.Status })
	m.Gateways = objects(live.Gateways, files.Gateways, created, func(o, l *gwv1.Gateway) { o.Status = l.Status })
	m.ListenerSets = objects(live.ListenerSets, files.ListenerSets, created, func(o, l *gwv1.ListenerSet) { o.Status = l.Status })
	m.ReferenceGrants = objects(live.ReferenceGrants, files.ReferenceGrants, created, func(o, l *gwv1.ReferenceGrant) {})
	m.BackendTLSPolicies = objects(live.BackendTLSPolicies, files.BackendTLSPolicies, created, func(o, l *gwv1.BackendTLSPolicy) { o.Status = l.Status })
	m.Secrets = objects(live.Secrets, files.Secrets, created, func(o, l *corev1.Secret) {})
	m.ConfigMaps = objects(live.ConfigMaps, files.ConfigMaps, created, func(o, l *corev1.ConfigMap) {})
	m.Services = objects(live.Services, files.Services, created, func(o, l *corev1.Service) { o.Status = l.Status })
	m.Namespaces = objects(live.Namespaces, files.Namespaces, created, func(o, l *corev1.Namespace) { o.Status = l.Status })
	m.Routes = merge(live.Routes, files.Routes, func(r *model.Route) key { return key{r.Kind, r.ObjectMeta.Namespace, r.ObjectMeta.Name} },
		func(r, l *model.Route) *model.Route {
			c := *r
			c.ObjectMeta.CreationTimestamp = created
			if l != nil {
				c.ObjectMeta.CreationTimestamp = l.ObjectMeta.CreationTimestamp
				c.Status = l.Status
			}
			return &c
		})
	m.Meshes = merge(live.Meshes, files.Meshes, func(x *model.Mesh) key { return key{x.Kind, x.ObjectMeta.Namespace, x.ObjectMeta.Name} },
		func(x, l *model.Mesh) *model.Mesh {
			c := *x
			c.ObjectMeta.CreationTimestamp = created
			if l != nil {
				c.ObjectMeta.CreationTimestamp = l.ObjectMeta.CreationTimestamp
			}
			return &c
		})
	return m
}

// creationTime is when the API server would create a new object: now, unless
// a live object is as new or newer (a clock pinned in the past), then a second
// after the newest.
func creationTime(live *model.Model, now time.Time) time.Time {
	newest := now.Add(-time.Second)
	see := func(t metav1.Time) {
		if t.After(newest) {
			newest = t.Time
		}
	}
	eachCreated(live, see)
	return newest.Add(time.Second)
}

// eachCreated calls f with the creation time of every object of the model.
func eachCreated(m *model.Model, see func(metav1.Time)) {
	f := func(m *metav1.ObjectMeta) { see(m.CreationTimestamp) }
	for _, o := range m.GatewayClasses {
		f(&o.Obj.ObjectMeta)
	}
	for _, o := range m.Gateways {
		f(&o.Obj.ObjectMeta)
	}
	for _, o := range m.ListenerSets {
		f(&o.Obj.ObjectMeta)
	}
	for _, o := range m.ReferenceGrants {
		f(&o.Obj.ObjectMeta)
	}
	for _, o := range m.BackendTLSPolicies {
		f(&o.Obj.ObjectMeta)
	}
	for _, o := range m.Secrets {
		f(&o.Obj.ObjectMeta)
	}
	for _, o := range m.ConfigMaps {
		f(&o.Obj.ObjectMeta)
	}
	for _, o := range m.Services {
		f(&o.Obj.ObjectMeta)
	}
	for _, o := range m.Namespaces {
		f(&o.Obj.ObjectMeta)
	}
	for _, o := range m.Routes {
		see(o.ObjectMeta.CreationTimestamp)
	}
	for _, o := range m.Meshes {
		f(&o.ObjectMeta)
	}
}

// key identifies an object in the API server: its kind (all versions of a kind
// are one resource), namespace and name.
type key struct{ kind, namespace, name string }

// objects merges the objects of one typed kind; keepLive copies onto an applied
// object what apply leaves as the live object has it (its status).
func objects[T any, P interface {
	*T
	metav1.Object
}](live, files []*model.Object[T], created metav1.Time, keepLive func(applied, live *T)) []*model.Object[T] {
	return merge(live, files,
		func(o *model.Object[T]) key {
			p := P(o.Obj)
			return key{o.Kind, p.GetNamespace(), p.GetName()}
		},
		func(o, l *model.Object[T]) *model.Object[T] {
			obj := *o.Obj
			when := created
			if l != nil {
				keepLive(&obj, l.Obj)
				when = P(l.Obj).GetCreationTimestamp()
			}
			P(&obj).SetCreationTimestamp(when)
			c := *o
			c.Obj = &obj
			return &c
		})
}

// merge keeps live in order, each replaced by its applied version when files
// has one, then appends the files' new objects in order. applied makes the
// applied version from the file's object and the live one (nil when new). The
// loader refuses an object defined twice, so files has each key once.
func merge[O comparable](live, files []O, keyOf func(O) key, applied func(file, live O) O) []O {
	if len(files) == 0 {
		return live
	}
	byKey := make(map[key]int, len(files))
	for i, o := range files {
		byKey[keyOf(o)] = i
	}
	out := make([]O, 0, len(live)+len(files))
	used := make([]bool, len(files))
	var none O
	for _, l := range live {
		i, ok := byKey[keyOf(l)]
		if !ok {
			out = append(out, l)
			continue
		}
		out = append(out, applied(files[i], l))
		used[i] = true
	}
	for i, o := range files {
		if !used[i] {
			out = append(out, applied(o, none))
		}
	}
	return out
}
