package load

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// DefaultRequestTimeout is the deadline of each request to a cluster unless
// the user gives another (kubectl's --request-timeout, which cmd defaults to
// it): a server that accepts a request and never answers must not hang a CI
// gate. A minute is far more than a page of 500 objects takes.
const DefaultRequestTimeout = time.Minute

// ClusterOptions say which cluster and namespace to read.
type ClusterOptions struct {
	// Config is the cluster's client configuration; its Timeout is each
	// request's deadline (0: none).
	Config *rest.Config
	// Namespace limits namespaced kinds to one namespace; "" reads all.
	Namespace string
	// Progress, when set, receives a progress line per kind listed (a terminal).
	Progress io.Writer
	// PageSize is the list page size (limit/continue); 0 means 500, and a
	// negative size lists each kind in one response.
	PageSize int64
	// MaxInputBytes bounds the bytes of every response together, discovery
	// and lists; 0 means DefaultMaxInputBytes.
	MaxInputBytes int64
	// Ingress also lists networking.k8s.io Ingresses and IngressClasses, the
	// base of an Ingress migration, and reads a cluster that does not serve
	// Gateway API yet; without it they are not asked for, so an identity that
	// may not list them loses nothing.
	Ingress bool
	// Admission says how the Gateway API objects are admitted; the zero value
	// holds them to the CRDs the cluster serves (see clusterAdmission).
	Admission Admission
	// WithoutRaw leaves Meta.Raw nil for every object but Gateways, as
	// FileOptions.WithoutRaw does: for a command that does not print objects
	// as written.
	WithoutRaw bool
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
	budget := newInputBudget(opts.MaxInputBytes)
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return budgetTransport{rt, budget} })
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("connecting to the cluster: %w", err)
	}
	served, err := servedVersions(dc)
	switch {
	case errors.Is(err, ErrNoGatewayAPI) && opts.Ingress && served != nil:
		// An Ingress migration's base: the cluster may not serve Gateway
		// API yet.
	case errors.Is(err, ErrNoGatewayAPI):
		return nil, err
	case err != nil:
		return nil, fmt.Errorf("discovering the cluster's resources: %w", clusterError(err, cfg, budget))
	}
	rc, err := rest.UnversionedRESTClientFor(rawConfig(cfg))
	if err != nil {
		return nil, fmt.Errorf("connecting to the cluster: %w", err)
	}
	adm, crdsUnreadable, err := clusterAdmission(ctx, rc, served, opts.Admission)
	if err != nil {
		return nil, clusterError(err, cfg, budget)
	}
	defer adm.done()

	type listed struct {
		decoded
		unreadable *model.Unreadable
		err        error
	}
	results := make([]listed, len(kinds))
	// Pages are decoded by at most one worker per core, whichever kind they are
	// of, while the next pages are on the way.
	decoders := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for i := range kinds {
		k := &kinds[i]
		if k.resource == "" {
			continue // read from files only
		}
		if k.group == ingressGroup && !opts.Ingress {
			continue
		}
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
		ns := ""
		if k.scope == namespaced {
			ns = opts.Namespace
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			objs, err := listKind(ctx, rc, k, version, ns, opts.PageSize, adm, !opts.WithoutRaw, decoders)
			switch {
			case apierrors.IsForbidden(err) || apierrors.IsUnauthorized(err):
				results[i].unreadable = &model.Unreadable{Kind: k.name, Namespace: ns, Reason: "forbidden: the identity may not list " + k.resource}
			case apierrors.IsNotFound(err):
			case err != nil:
				results[i].err = fmt.Errorf("listing %s: %w", k.resource, clusterError(err, cfg, budget))
			default:
				results[i].decoded = objs
			}
			if opts.Progress != nil {
				mu.Lock()
				done++
				fmt.Fprintf(opts.Progress, "\rloading: %d kinds listed, last %s (%d)   ", done, k.resource, len(objs.objects))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if opts.Progress != nil {
		fmt.Fprint(opts.Progress, "\r\033[K")
	}

	m := &model.Model{Skipped: map[string]int{}, Admission: adm.report}
	if crdsUnreadable != nil {
		m.Unreadable = append(m.Unreadable, *crdsUnreadable)
	}
	for _, r := range results {
		if r.err != nil {
			return nil, r.err
		}
		if r.unreadable != nil {
			m.Unreadable = append(m.Unreadable, *r.unreadable)
			continue
		}
		for _, o := range r.objects {
			o.addTo(m)
		}
		adm.record(r.decoded)
	}
	sort.Slice(m.Unreadable, func(i, j int) bool { return m.Unreadable[i].Kind < m.Unreadable[j].Kind })
	shareMetadata(m, adm != nil && adm.validate)
	return m, nil
}

// clusterError says why a request failed in a user's terms when it is one of
// the limits: the response budget, or the request's deadline.
func clusterError(err error, cfg *rest.Config, budget *inputBudget) error {
	if budget.spent() {
		return budget.exceeded(cfg.Host + " (the cluster's responses)")
	}
	var ne net.Error
	if cfg.Timeout > 0 && (errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()) {
		return fmt.Errorf("%s did not answer within %s (--request-timeout): check that the server is up and reachable, or raise --request-timeout: %w",
			cfg.Host, cfg.Timeout, err)
	}
	return err
}

// budgetTransport counts every response's bytes against the run's budget as
// they are read, so that a server sending a list without end is cut off at
// the budget instead of filling memory.
type budgetTransport struct {
	next   http.RoundTripper
	budget *inputBudget
}

func (t budgetTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if resp != nil && resp.Body != nil {
		resp.Body = &budgetBody{resp.Body, t.budget, req.URL.Host}
	}
	return resp, err
}

// WrappedRoundTripper lets client-go reach the transport below, to cancel
// requests (k8s.io/apimachinery's net.RoundTripperWrapper).
func (t budgetTransport) WrappedRoundTripper() http.RoundTripper { return t.next }

type budgetBody struct {
	io.ReadCloser
	budget *inputBudget
	host   string
}

func (b *budgetBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		if over := b.budget.take(b.host, n); over != nil {
			return n, over
		}
	}
	return n, err
}

// rawConfig is cfg for a client that reads list pages as JSON bytes.
func rawConfig(cfg *rest.Config) *rest.Config {
	c := dynamic.ConfigFor(cfg)
	c.ContentType, c.AcceptContentTypes = "application/json", "application/json"
	c.GroupVersion = nil
	c.APIPath = "/"
	return c
}

// listPage is one page of a list response, its items left as JSON.
type listPage struct {
	Metadata struct {
		Continue string `json:"continue"`
	} `json:"metadata"`
	Items []json.RawMessage `json:"items"`
}

// listKind reads every object of one kind with paginated lists (limit/continue),
// decoding each page's items straight into typed objects, as files are, on a
// worker from decoders while the next page is read, and admitting them with
// adm, and keeping every object's Meta.Raw when keepRaw is set. A continue
// token that expired mid-way (410 Gone) restarts the list once.
func listKind(ctx context.Context, rc *rest.RESTClient, k *kind, version, ns string, pageSize int64, adm *admission, keepRaw bool, decoders chan struct{}) (decoded, error) {
	path := "/apis/" + k.group + "/" + version
	apiVersion := k.group + "/" + version
	if k.group == "" {
		path, apiVersion = "/api/"+version, version
	}
	if ns != "" {
		path += "/namespaces/" + ns
	}
	path += "/" + k.resource
	h := header{APIVersion: apiVersion, Kind: k.name}

	// decodedPage is one page's objects, written by the worker that decoded it.
	type decodedPage struct {
		decoded
		err error
	}
	for attempt := 0; ; attempt++ {
		var pages []*decodedPage
		var wg sync.WaitGroup
		token := ""
		var err error
		for {
			req := rc.Get().AbsPath(path)
			if pageSize > 0 {
				req = req.Param("limit", strconv.FormatInt(pageSize, 10))
			}
			if token != "" {
				req = req.Param("continue", token)
			}
			var body []byte
			body, err = req.DoRaw(ctx)
			if err != nil {
				break
			}
			var page listPage
			if err = json.Unmarshal(body, &page); err != nil {
				err = fmt.Errorf("reading a page of %s: %w", k.resource, err)
				break
			}
			p := &decodedPage{}
			pages = append(pages, p)
			decoders <- struct{}{}
			wg.Add(1)
			go func() {
				defer func() { <-decoders; wg.Done() }()
				p.decoded, p.err = decodePage(page.Items, h, adm)
				if !keepRaw {
					p.decoded.dropRaw()
				}
			}()
			if token = page.Metadata.Continue; token == "" {
				break
			}
		}
		wg.Wait()
		if apierrors.IsResourceExpired(err) && attempt == 0 {
			continue
		}
		if err != nil {
			return decoded{}, err
		}
		var out decoded
		for _, p := range pages {
			if p.err != nil {
				return decoded{}, p.err
			}
			out.objects = append(out.objects, p.objects...)
			out.refused = append(out.refused, p.refused...)
		}
		return out, nil
	}
}

// decodePage decodes the items of one list page. Items of built-in kinds carry no
// apiVersion and kind in a list, and a custom resource's items are in the list's
// version: h, the list's, is every item's. Managed fields are the API server's
// bookkeeping, not part of what it admits.
func decodePage(items []json.RawMessage, h header, adm *admission) (decoded, error) {
	src := model.Source{File: "cluster"}
	var out decoded
	for _, item := range items {
		item = withoutManagedFields(item)
		if adm.covers(h.APIVersion) {
			item = withTypeMeta(item, h)
		}
		decodeObject(src, item, h, "", adm, &out)
		if out.err != nil {
			return decoded{}, out.err
		}
	}
	// The cluster serves each of these objects: that a standard-channel
	// cluster would not is no news about this one.
	out.experimentalOnly = nil
	return out, nil
}

// withTypeMeta is a list item that names its apiVersion and kind, which
// admission reads from the object as a create request carries them. An API
// server writes them in every custom resource's list items; one that leaves
// them out gets the list's.
func withTypeMeta(js []byte, h header) []byte {
	if _, ok := findMember(js, "kind"); ok {
		return js
	}
	i := skipSpace(js, 0)
	if i >= len(js) || js[i] != '{' {
		return js
	}
	typeMeta := fmt.Sprintf(`"apiVersion":%q,"kind":%q`, h.APIVersion, h.Kind)
	if j := skipSpace(js, i+1); j < len(js) && js[j] != '}' {
		typeMeta += ","
	}
	out := make([]byte, 0, len(js)+len(typeMeta))
	out = append(append(append(out, js[:i+1]...), typeMeta...), js[i+1:]...)
	return out
}

// servedVersions asks discovery which group/version/resources the cluster serves.
func servedVersions(dc discovery.DiscoveryInterface) (map[schema.GroupVersionResource]bool, error) {
	_, lists, err := dc.ServerGroupsAndResources()
	if err != nil && len(lists) == 0 {
		return nil, err
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
		return served, ErrNoGatewayAPI
	}
	return served, nil
}
