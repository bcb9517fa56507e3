// Command bench-cluster creates every object of a multi-document YAML file in a
// cluster, as fast as the API server takes them: cluster-scoped objects (Namespaces,
// GatewayClasses) first, then everything else, each phase with -workers concurrent
// POSTs and no client-side rate limit. hack/bench-cluster.sh uses it to fill the
// kube-apiserver of hack/apiserver.sh for the cluster-mode measurement of
// docs/performance.md.
//
//	go build -o bench-cluster ./hack/bench-cluster
//	bench-cluster -kubeconfig STATE/admin.kubeconfig -f 100k.yaml -workers 16
//
// The summary goes to stdout, progress and errors to stderr. It exits 1 if any
// object could not be created (an object that already exists counts as created, so
// a second run on the same cluster succeeds).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"
)

// object is one document of the input, converted to JSON, with where to POST it.
type object struct {
	js               []byte
	apiVersion, kind string
	namespace, name  string
	path             string // collection URL path
	clusterScoped    bool
	docIndex         int
	adjusted         bool // distinctListeners rewrote js
}

func (o *object) String() string {
	if o.namespace == "" {
		return fmt.Sprintf("%s %s (document %d)", o.kind, o.name, o.docIndex+1)
	}
	return fmt.Sprintf("%s %s/%s (document %d)", o.kind, o.namespace, o.name, o.docIndex+1)
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig of the cluster (an identity that may create every object)")
	file := flag.String("f", "", "multi-document YAML file to load")
	workers := flag.Int("workers", 16, "concurrent create requests")
	retries := flag.Int("retries", 10, "retries of a create that failed transiently (429, 5xx, timeouts, namespace not yet visible)")
	flag.Parse()
	if *kubeconfig == "" || *file == "" || *workers < 1 {
		fmt.Fprintln(os.Stderr, "usage: bench-cluster -kubeconfig FILE -f FILE [-workers N] [-retries N]")
		os.Exit(2)
	}
	if err := run(*kubeconfig, *file, *workers, *retries); err != nil {
		fmt.Fprintf(os.Stderr, "bench-cluster: %v\n", err)
		os.Exit(1)
	}
}

func run(kubeconfig, file string, workers, retries int) error {
	start := time.Now()
	objs, err := readObjects(file)
	if err != nil {
		return err
	}
	decoded := time.Since(start)

	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	// client-go's default of 5 QPS / burst 10 would cap creation at 5 objects/s; a
	// negative QPS turns the client-side rate limiter off. The server side does not
	// throttle either: the admin is in system:masters, which API Priority and
	// Fairness exempts, and --max-requests-inflight (400) and
	// --max-mutating-requests-inflight (200) are far above -workers.
	cfg.QPS, cfg.Burst = -1, 0
	warnings := &warningCounter{seen: map[string]int{}}
	cfg.WarningHandler = warnings
	cfg.Timeout = 60 * time.Second

	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return err
	}
	groups, err := restmapper.GetAPIGroupResources(dc)
	if err != nil {
		return fmt.Errorf("discovery: %w", err)
	}
	mapper := restmapper.NewDiscoveryRESTMapper(groups)
	if err := resolve(mapper, objs); err != nil {
		return err
	}

	// The dynamic client's REST client (JSON, unstructured), used directly so the
	// already-converted JSON bytes are POSTed as they are.
	rcfg := dynamic.ConfigFor(cfg)
	rcfg.ContentType, rcfg.AcceptContentTypes = "application/json", "application/json"
	rcfg.GroupVersion = nil
	rcfg.APIPath = "/"
	rc, err := rest.UnversionedRESTClientFor(rcfg)
	if err != nil {
		return err
	}

	var first, others []*object
	for _, o := range objs {
		if o.clusterScoped {
			first = append(first, o)
		} else {
			others = append(others, o)
		}
	}
	st := &stats{total: len(objs), start: time.Now()}
	stop := st.progress(os.Stderr)
	ctx := context.Background()
	createAll(ctx, rc, first, workers, retries, st)
	createAll(ctx, rc, others, workers, retries, st)
	stop()
	elapsed := time.Since(st.start)

	kinds := map[string]int{}
	for _, o := range objs {
		kinds[o.kind]++
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, kinds[k]))
	}
	fmt.Printf("objects:  %d in %s (%d cluster-scoped created first); read and converted to JSON in %s\n",
		len(objs), file, len(first), decoded.Round(time.Millisecond))
	fmt.Printf("kinds:    %s\n", strings.Join(parts, ", "))
	fmt.Printf("create:   %d created, %d already existed, %d failed in %s: %.0f objects/s (%d workers, %d retried requests)\n",
		st.created.Load(), st.existed.Load(), st.failed.Load(), elapsed.Round(time.Millisecond),
		float64(len(objs))/elapsed.Seconds(), workers, st.retried.Load())
	if n := st.adjusted.Load(); n > 0 {
		fmt.Printf("adjusted: %d objects had listeners with the same port, protocol and hostname, which the Gateway API CRD's\n"+
			"          validation rejects; %d later duplicates got a distinct hostname (dup-LISTENER.HOSTNAME)\n", n, st.renamed.Load())
	}
	if n := warnings.total(); n > 0 {
		fmt.Printf("warnings: %d (%s)\n", n, warnings.summary(5))
	}
	if n := st.failed.Load(); n > 0 {
		return fmt.Errorf("%d objects could not be created (the first errors are above)", n)
	}
	return census(ctx, rc, objs)
}

// coreKinds are the core kinds cluster mode reads (load/cluster.go); the census
// counts them even when the file has none.
var coreKinds = []struct{ kind, resource string }{
	{"Namespace", "namespaces"}, {"Service", "services"}, {"Secret", "secrets"}, {"ConfigMap", "configmaps"},
}

// census counts, per kind of the file plus coreKinds, the objects the cluster holds
// (one list request with limit=1 each: its remainingItemCount), prints them with the
// difference to the file, and names the objects in Namespaces the file does not
// have: what `analyze -A` reads beyond the file.
func census(ctx context.Context, rc *rest.RESTClient, objs []*object) error {
	type coll struct {
		path       string // cluster-wide collection path
		namespaced bool
	}
	colls := map[string]coll{}
	want := map[string]int{}
	fileNS := map[string]bool{}
	for _, o := range objs {
		want[o.kind]++
		if o.kind == "Namespace" {
			fileNS[o.name] = true
		}
		if _, ok := colls[o.kind]; !ok {
			p := o.path
			if !o.clusterScoped { // .../namespaces/NS/RESOURCE -> .../RESOURCE
				i := strings.LastIndex(p, "/namespaces/")
				p = p[:i] + p[i+len("/namespaces/")+len(o.namespace):]
			}
			colls[o.kind] = coll{p, !o.clusterScoped}
		}
	}
	for _, k := range coreKinds {
		if _, ok := colls[k.kind]; !ok {
			colls[k.kind] = coll{"/api/v1/" + k.resource, k.kind != "Namespace"}
		}
	}
	type list struct {
		Metadata struct {
			RemainingItemCount *int64 `json:"remainingItemCount"`
		} `json:"metadata"`
		Items []struct {
			Metadata struct{ Name, Namespace string } `json:"metadata"`
		} `json:"items"`
	}
	get := func(path, query string) (*list, error) {
		req := rc.Get().AbsPath(path)
		if query != "" {
			req = req.Param("limit", query)
		}
		raw, err := req.DoRaw(ctx)
		if err != nil {
			return nil, fmt.Errorf("census: listing %s: %w", path, err)
		}
		var l list
		if err := json.Unmarshal(raw, &l); err != nil {
			return nil, fmt.Errorf("census: %s: %w", path, err)
		}
		return &l, nil
	}
	var parts []string
	total, totalWant := 0, 0
	for _, kind := range slices.Sorted(maps.Keys(colls)) {
		l, err := get(colls[kind].path, "1")
		if err != nil {
			return err
		}
		n := len(l.Items)
		if l.Metadata.RemainingItemCount != nil {
			n += int(*l.Metadata.RemainingItemCount)
		}
		total += n
		totalWant += want[kind]
		if n == want[kind] {
			parts = append(parts, fmt.Sprintf("%s %d", kind, n))
		} else {
			parts = append(parts, fmt.Sprintf("%s %d (%+d)", kind, n, n-want[kind]))
		}
	}
	fmt.Printf("cluster:  %d objects of these kinds (%+d vs the file): %s\n", total, total-totalWant, strings.Join(parts, ", "))

	// The objects in Namespaces that are not from the file (default, kube-system, ...).
	nss, err := get(colls["Namespace"].path, "")
	if err != nil {
		return err
	}
	var extra []string
	var other []string
	for _, it := range nss.Items {
		if !fileNS[it.Metadata.Name] {
			other = append(other, it.Metadata.Name)
			extra = append(extra, "Namespace "+it.Metadata.Name)
		}
	}
	for _, kind := range slices.Sorted(maps.Keys(colls)) {
		c := colls[kind]
		if !c.namespaced {
			continue
		}
		for _, ns := range other {
			i := strings.LastIndex(c.path, "/")
			l, err := get(c.path[:i]+"/namespaces/"+ns+c.path[i:], "")
			if err != nil {
				return err
			}
			for _, it := range l.Items {
				extra = append(extra, kind+" "+ns+"/"+it.Metadata.Name)
			}
		}
	}
	if len(extra) > 0 {
		fmt.Printf("          in Namespaces not from the file: %s\n", strings.Join(extra, ", "))
	}
	return nil
}

// readObjects splits the file into documents and converts them to JSON on every
// core, keeping the file's order.
func readObjects(file string) ([]*object, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := utilyaml.NewYAMLReader(bufio.NewReaderSize(f, 1<<20))
	var docs [][]byte
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		docs = append(docs, doc)
	}
	out := make([]*object, len(docs))
	errs := make([]error, len(docs))
	var wg sync.WaitGroup
	n := runtime.GOMAXPROCS(0)
	for w := 0; w < n; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(docs); i += n {
				out[i], errs[i] = convert(i, docs[i])
			}
		}(w)
	}
	wg.Wait()
	objs := out[:0]
	for i, o := range out {
		if errs[i] != nil {
			return nil, fmt.Errorf("%s: document %d: %w", file, i+1, errs[i])
		}
		if o != nil {
			objs = append(objs, o)
		}
	}
	return objs, nil
}

func convert(i int, doc []byte) (*object, error) {
	js, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return nil, err
	}
	if s := strings.TrimSpace(string(js)); s == "null" || s == "{}" {
		return nil, nil // an empty document (only comments)
	}
	var h struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(js, &h); err != nil {
		return nil, err
	}
	if h.APIVersion == "" || h.Kind == "" || h.Metadata.Name == "" {
		return nil, fmt.Errorf("no apiVersion, kind or metadata.name")
	}
	return &object{js: js, apiVersion: h.APIVersion, kind: h.Kind, namespace: h.Metadata.Namespace, name: h.Metadata.Name, docIndex: i}, nil
}

// resolve finds each object's collection path with discovery, so that an unknown
// kind fails before anything is created.
func resolve(mapper meta.RESTMapper, objs []*object) error {
	type key struct{ apiVersion, kind string }
	mappings := map[key]*meta.RESTMapping{}
	for _, o := range objs {
		k := key{o.apiVersion, o.kind}
		m, ok := mappings[k]
		if !ok {
			gv, err := schema.ParseGroupVersion(o.apiVersion)
			if err != nil {
				return fmt.Errorf("%s: %w", o, err)
			}
			m, err = mapper.RESTMapping(gv.WithKind(o.kind).GroupKind(), gv.Version)
			if err != nil {
				return fmt.Errorf("%s: the cluster does not serve %s %s: %w", o, o.apiVersion, o.kind, err)
			}
			mappings[k] = m
		}
		prefix := "/apis/" + m.Resource.Group + "/" + m.Resource.Version
		if m.Resource.Group == "" {
			prefix = "/api/" + m.Resource.Version
		}
		if m.Scope.Name() == meta.RESTScopeNameRoot {
			o.clusterScoped, o.namespace = true, ""
			o.path = prefix + "/" + m.Resource.Resource
			continue
		}
		if o.namespace == "" {
			o.namespace = "default" // what analyze -f assumes
		}
		o.path = prefix + "/namespaces/" + o.namespace + "/" + m.Resource.Resource
	}
	return nil
}

type stats struct {
	total                             int
	start                             time.Time
	created, existed, failed, retried atomic.Int64
	adjusted, renamed                 atomic.Int64 // objects and listeners distinctListeners changed
	printed                           atomic.Int64 // error messages printed
}

// progress prints a line every 10 s until the returned func is called.
func (s *stats) progress(w io.Writer) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(10 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				n := s.created.Load() + s.existed.Load() + s.failed.Load()
				el := time.Since(s.start)
				fmt.Fprintf(w, "bench-cluster: %d/%d objects after %s (%.0f/s)\n", n, s.total, el.Round(time.Second), float64(n)/el.Seconds())
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

func createAll(ctx context.Context, rc *rest.RESTClient, objs []*object, workers, retries int, st *stats) {
	next := make(chan *object)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for o := range next {
				create(ctx, rc, o, retries, st)
			}
		}()
	}
	for _, o := range objs {
		next <- o
	}
	close(next)
	wg.Wait()
}

func create(ctx context.Context, rc *rest.RESTClient, o *object, retries int, st *stats) {
	delay := 100 * time.Millisecond
	for try := 0; ; try++ {
		err := rc.Post().AbsPath(o.path).Body(o.js).Do(ctx).Error()
		switch {
		case err == nil:
			st.created.Add(1)
			return
		case apierrors.IsAlreadyExists(err):
			st.existed.Add(1)
			return
		case apierrors.IsInvalid(err) && strings.Contains(err.Error(), "must be unique for each listener") && !o.adjusted:
			if js, n, derr := distinctListeners(o.js); derr == nil && n > 0 {
				o.js, o.adjusted = js, true
				st.adjusted.Add(1)
				st.renamed.Add(int64(n))
				try--
				continue
			}
		case try < retries && transient(err):
			st.retried.Add(1)
			time.Sleep(delay)
			delay = min(2*delay, 2*time.Second)
			continue
		}
		st.failed.Add(1)
		if st.printed.Add(1) <= 10 {
			fmt.Fprintf(os.Stderr, "bench-cluster: creating %s: %v\n", o, err)
		}
		return
	}
}

// distinctListeners gives each listener of a Gateway or ListenerSet whose port,
// protocol and hostname repeat an earlier listener's a distinct hostname, so that
// the CRD's validation ("Combination of port, protocol and hostname must be unique
// for each listener") accepts the object. The generator makes such conflicts on
// purpose (every 50th Gateway) to exercise the analyzer's conflict check, which a
// real cluster cannot hold. It returns the new JSON and how many listeners changed.
func distinctListeners(js []byte) ([]byte, int, error) {
	var obj map[string]any
	if err := json.Unmarshal(js, &obj); err != nil {
		return nil, 0, err
	}
	spec, _ := obj["spec"].(map[string]any)
	listeners, _ := spec["listeners"].([]any)
	seen := map[string]bool{}
	n := 0
	for _, l := range listeners {
		l, ok := l.(map[string]any)
		if !ok {
			continue
		}
		host, _ := l["hostname"].(string)
		key := fmt.Sprint(l["port"], "/", l["protocol"], "/", host)
		if seen[key] {
			name, _ := l["name"].(string)
			switch {
			case host == "":
				host = "dup-" + name + ".invalid"
			case strings.HasPrefix(host, "*."):
				host = "*.dup-" + name + "." + host[2:]
			default:
				host = "dup-" + name + "." + host
			}
			l["hostname"] = host
			n++
			key = fmt.Sprint(l["port"], "/", l["protocol"], "/", host)
		}
		seen[key] = true
	}
	out, err := json.Marshal(obj)
	return out, n, err
}

// transient says whether a failed create is worth retrying: server overload and
// timeouts, transport errors, and NotFound (a Namespace created a moment ago that
// the admission cache does not know yet).
func transient(err error) bool {
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return true // connection reset, EOF, ...
	}
	return apierrors.IsNotFound(err) || apierrors.IsTooManyRequests(err) || apierrors.IsServerTimeout(err) ||
		apierrors.IsTimeout(err) || apierrors.IsServiceUnavailable(err) || apierrors.IsInternalError(err)
}

// warningCounter counts the API server's warnings (unknown fields and the like)
// instead of printing each one.
type warningCounter struct {
	mu   sync.Mutex
	n    int
	seen map[string]int
}

func (w *warningCounter) HandleWarningHeader(code int, agent, text string) {
	if code != 299 || text == "" {
		return
	}
	w.mu.Lock()
	w.n++
	w.seen[text]++
	w.mu.Unlock()
}

func (w *warningCounter) total() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n
}

func (w *warningCounter) summary(limit int) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	keys := slices.Sorted(maps.Keys(w.seen))
	sort.SliceStable(keys, func(i, j int) bool { return w.seen[keys[i]] > w.seen[keys[j]] })
	var parts []string
	for i, k := range keys {
		if i == limit {
			parts = append(parts, fmt.Sprintf("%d more distinct", len(keys)-limit))
			break
		}
		parts = append(parts, fmt.Sprintf("%dx %q", w.seen[k], k))
	}
	return strings.Join(parts, "; ")
}
