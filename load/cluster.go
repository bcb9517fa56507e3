package load

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/pager"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// ClusterOptions say which cluster and namespace to read.
type ClusterOptions struct {
	Config *rest.Config
	// Namespace limits namespaced kinds to one namespace; "" reads all.
	Namespace string
	// Progress, when set, receives a progress line per kind listed (a terminal).
	Progress io.Writer
	// PageSize is the list page size (limit/continue); 0 means 500.
	PageSize int64
}

// clusterKind is a resource the tool reads from a cluster.
type clusterKind struct {
	group, resource, kind string
	namespaced            bool
	versions              []string // preferred first
}

var clusterKinds = []clusterKind{
	{gatewayGroup, "gatewayclasses", "GatewayClass", false, []string{"v1", "v1beta1"}},
	{gatewayGroup, "gateways", "Gateway", true, []string{"v1", "v1beta1"}},
	{gatewayGroup, "listenersets", "ListenerSet", true, []string{"v1"}},
	{gatewayGroup, "httproutes", "HTTPRoute", true, []string{"v1", "v1beta1"}},
	{gatewayGroup, "grpcroutes", "GRPCRoute", true, []string{"v1", "v1alpha2"}},
	{gatewayGroup, "tlsroutes", "TLSRoute", true, []string{"v1", "v1alpha3", "v1alpha2"}},
	{gatewayGroup, "tcproutes", "TCPRoute", true, []string{"v1", "v1alpha2"}},
	{gatewayGroup, "udproutes", "UDPRoute", true, []string{"v1", "v1alpha2"}},
	{gatewayGroup, "referencegrants", "ReferenceGrant", true, []string{"v1", "v1beta1", "v1alpha2"}},
	{gatewayGroup, "backendtlspolicies", "BackendTLSPolicy", true, []string{"v1", "v1alpha3"}},
	{"", "namespaces", "Namespace", false, []string{"v1"}},
	{"", "services", "Service", true, []string{"v1"}},
	{"", "secrets", "Secret", true, []string{"v1"}},
	{"", "configmaps", "ConfigMap", true, []string{"v1"}},
}

// ErrNoGatewayAPI is returned when the cluster serves no Gateway API resources.
var ErrNoGatewayAPI = errors.New("the cluster does not serve the Gateway API (group gateway.networking.k8s.io): install the Gateway API CRDs, or analyze manifests with -f")

// Cluster reads every supported kind from a cluster with paginated lists, all kinds
// at once. A kind the identity may not list is recorded in Model.Unreadable and the
// analysis goes on without it.
func Cluster(ctx context.Context, opts ClusterOptions) (*model.Model, error) {
	if opts.PageSize == 0 {
		opts.PageSize = 500
	}
	cfg := rest.CopyConfig(opts.Config)
	cfg.QPS, cfg.Burst = 50, 100
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("connecting to the cluster: %w", err)
	}
	served, err := servedVersions(dc)
	if err != nil {
		return nil, err
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("connecting to the cluster: %w", err)
	}

	type listed struct {
		items      []unstructured.Unstructured
		unreadable *model.Unreadable
		err        error
	}
	results := make([]listed, len(clusterKinds))
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for i, k := range clusterKinds {
		version := ""
		for _, v := range k.versions {
			if served[schema.GroupVersionResource{Group: k.group, Version: v, Resource: k.resource}] {
				version = v
				break
			}
		}
		if version == "" {
			continue // this cluster does not serve the kind (for example no ListenerSet CRD)
		}
		wg.Add(1)
		go func(i int, k clusterKind, gvr schema.GroupVersionResource) {
			defer wg.Done()
			var ri dynamic.ResourceInterface = dyn.Resource(gvr)
			ns := ""
			if k.namespaced && opts.Namespace != "" {
				ns = opts.Namespace
				ri = dyn.Resource(gvr).Namespace(ns)
			}
			p := pager.New(func(ctx context.Context, lo metav1.ListOptions) (runtime.Object, error) {
				return ri.List(ctx, lo)
			})
			p.PageSize = opts.PageSize
			var items []unstructured.Unstructured
			err := p.EachListItem(ctx, metav1.ListOptions{}, func(obj runtime.Object) error {
				u, ok := obj.(*unstructured.Unstructured)
				if !ok {
					return fmt.Errorf("unexpected list item %T", obj)
				}
				items = append(items, *u)
				return nil
			})
			switch {
			case apierrors.IsForbidden(err) || apierrors.IsUnauthorized(err):
				results[i].unreadable = &model.Unreadable{Kind: k.kind, Namespace: ns, Reason: "forbidden: the identity may not list " + k.resource}
			case apierrors.IsNotFound(err):
			case err != nil:
				results[i].err = fmt.Errorf("listing %s: %w", k.resource, err)
			default:
				results[i].items = items
			}
			if opts.Progress != nil {
				mu.Lock()
				done++
				fmt.Fprintf(opts.Progress, "\rloading: %d kinds listed, last %s (%d)   ", done, k.resource, len(items))
				mu.Unlock()
			}
		}(i, k, schema.GroupVersionResource{Group: k.group, Version: version, Resource: k.resource})
	}
	wg.Wait()
	if opts.Progress != nil {
		fmt.Fprint(opts.Progress, "\r\033[K")
	}

	m := &model.Model{Skipped: map[string]int{}}
	for i, r := range results {
		if r.err != nil {
			return nil, r.err
		}
		if r.unreadable != nil {
			m.Unreadable = append(m.Unreadable, *r.unreadable)
			continue
		}
		k := clusterKinds[i]
		for _, u := range r.items {
			unstructured.RemoveNestedField(u.Object, "metadata", "managedFields")
			js, err := json.Marshal(u.Object)
			if err != nil {
				return nil, fmt.Errorf("%s %s/%s: %w", k.kind, u.GetNamespace(), u.GetName(), err)
			}
			src := model.Source{File: "cluster"}
			var out decoded
			decodeJSON(src, js, u.GetNamespace(), &out)
			if out.err != nil {
				return nil, out.err
			}
			for _, o := range out.objects {
				add(m, o)
			}
		}
	}
	sort.Slice(m.Unreadable, func(i, j int) bool { return m.Unreadable[i].Kind < m.Unreadable[j].Kind })
	return m, nil
}

// servedVersions asks discovery which group/version/resources the cluster serves.
func servedVersions(dc discovery.DiscoveryInterface) (map[schema.GroupVersionResource]bool, error) {
	_, lists, err := dc.ServerGroupsAndResources()
	if err != nil && len(lists) == 0 {
		return nil, fmt.Errorf("discovering the cluster's resources: %w", err)
	}
	served := map[schema.GroupVersionResource]bool{}
	gatewayAPI := false
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			continue
		}
		for _, r := range l.APIResources {
			served[gv.WithResource(r.Name)] = true
			if gv.Group == gatewayGroup {
				gatewayAPI = true
			}
		}
	}
	if !gatewayAPI {
		return nil, ErrNoGatewayAPI
	}
	return served, nil
}
