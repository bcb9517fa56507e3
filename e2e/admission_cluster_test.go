package e2e

// The offline admission verdicts against a real kube-apiserver's: every Gateway
// API object of the repository's test manifests and of the conformance corpus,
// an object that breaks and one that keeps every CEL rule of the v1.6.3 CRDs of
// the kinds the tool loads, and the cases of strict field validation and
// ObjectMeta, sent with server-side dry-run (dryRun=All, fieldValidation=Strict
// as kubectl apply sends them) to the experimental-channel API server and to the
// standard-channel one (hack/apiserver.sh). Each answer must equal the offline
// Admitter's of that channel: admitted or not, the API server's message, its
// field errors in order, and for an admitted object the defaulted spec.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/celrules"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testinputs"
)

// admissionObject is one object of the differential corpus, as JSON.
type admissionObject struct {
	source           string // file (and document) or rule it comes from
	apiVersion, kind string
	raw              []byte
	rule             *celrules.Rule // the rule it breaks or keeps, for the CEL corpus
	ruleChannel      admit.Channel  // whose CRDs have the rule
	breaks           bool
}

// loadedKinds are the Gateway API kinds the tool reads (load/kinds.go, load/mesh.go).
var loadedKinds = map[string]bool{
	"GatewayClass": true, "Gateway": true, "ListenerSet": true, "ReferenceGrant": true, "BackendTLSPolicy": true,
	"HTTPRoute": true, "GRPCRoute": true, "TLSRoute": true, "TCPRoute": true, "UDPRoute": true, "XMesh": true,
}

// admissionEdgeCases are what the rules of the CRDs do not cover: kubectl's
// strict field validation, ObjectMeta, versions, the examples.
var admissionEdgeCases = []struct{ name, apiVersion, kind, json string }{
	{"unknown field", "gateway.networking.k8s.io/v1", "HTTPRoute",
		`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"edge-unknown","namespace":"default"},"spec":{"parentRef":[{"name":"gw"}]}}`},
	{"unknown metadata field", "gateway.networking.k8s.io/v1", "HTTPRoute",
		`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"edge-meta","namespace":"default","label":{}},"spec":{}}`},
	{"duplicate field", "gateway.networking.k8s.io/v1", "HTTPRoute",
		`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"edge-dup","namespace":"default"},"spec":{"hostnames":["a.example.com"],"hostnames":["b.example.com"]}}`},
	{"name not a DNS subdomain", "gateway.networking.k8s.io/v1", "HTTPRoute",
		`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"Edge_1","namespace":"default"},"spec":{}}`},
	{"no name", "gateway.networking.k8s.io/v1", "HTTPRoute",
		`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"namespace":"default"},"spec":{}}`},
	{"generateName", "gateway.networking.k8s.io/v1", "HTTPRoute",
		`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"generateName":"edge-","namespace":"default"},"spec":{}}`},
	{"a label value too long", "gateway.networking.k8s.io/v1", "Gateway",
		`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway","metadata":{"name":"edge-label","namespace":"default","labels":{"a":"` + strings.Repeat("x", 64) + `"}},"spec":{"gatewayClassName":"x","listeners":[{"name":"http","port":80,"protocol":"HTTP"}]}}`},
	{"a version only the experimental channel serves", "gateway.networking.k8s.io/v1alpha2", "TCPRoute",
		`{"apiVersion":"gateway.networking.k8s.io/v1alpha2","kind":"TCPRoute","metadata":{"name":"edge-v1alpha2","namespace":"default"},"spec":{"rules":[{"backendRefs":[{"name":"db","port":5432}]}]}}`},
	{"a field only the experimental channel has", "gateway.networking.k8s.io/v1", "HTTPRoute",
		`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"edge-udg","namespace":"default"},"spec":{"useDefaultGateways":"All"}}`},
	{"a header value only the standard channel takes", "gateway.networking.k8s.io/v1", "HTTPRoute",
		`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"edge-header","namespace":"default"},"spec":{"rules":[{"matches":[{"headers":[{"name":"x-team","value":"a  b"}]}]}]}}`},
	{"a written status with an unknown field", "gateway.networking.k8s.io/v1", "HTTPRoute",
		`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"edge-status","namespace":"default"},"spec":{},"status":{"parents":[],"extra":1}}`},
	{"a written status breaking its schema", "gateway.networking.k8s.io/v1", "HTTPRoute",
		`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"edge-status2","namespace":"default"},"spec":{},"status":{"parents":[{"controllerName":"x","parentRef":{"name":"gw"}}]}}`},
	{"a wrong type", "gateway.networking.k8s.io/v1", "Gateway",
		`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway","metadata":{"name":"edge-type","namespace":"default"},"spec":{"gatewayClassName":"x","listeners":[{"name":"http","port":"80","protocol":"HTTP"}]}}`},
	{"CEL errors in sibling fields (the API server orders them at random)", "gateway.networking.k8s.io/v1", "HTTPRoute",
		`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"edge-siblings","namespace":"default"},"spec":{"parentRefs":[{"name":"gw"},{"name":"gw","sectionName":"a"}],"rules":[{"name":"r","backendRefs":[{"name":"web"}]},{"name":"r","backendRefs":[{"name":"web"}]}]}}`},
	{"two listeners named http", "gateway.networking.k8s.io/v1", "Gateway",
		`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway","metadata":{"name":"edge-dup-listener","namespace":"default"},"spec":{"gatewayClassName":"x","listeners":[{"name":"http","port":80,"protocol":"HTTP"},{"name":"http","port":8080,"protocol":"HTTP"}]}}`},
	{"an HTTPS listener without tls", "gateway.networking.k8s.io/v1", "Gateway",
		`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway","metadata":{"name":"edge-https","namespace":"default"},"spec":{"gatewayClassName":"x","listeners":[{"name":"https","port":443,"protocol":"HTTPS"}]}}`},
	{"a listener hostname *", "gateway.networking.k8s.io/v1", "Gateway",
		`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway","metadata":{"name":"edge-star","namespace":"default"},"spec":{"gatewayClassName":"x","listeners":[{"name":"any","hostname":"*","port":80,"protocol":"HTTP"}]}}`},
	{"a Service backendRef without port", "gateway.networking.k8s.io/v1", "HTTPRoute",
		`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"edge-port","namespace":"default"},"spec":{"rules":[{"backendRefs":[{"name":"web"}]}]}}`},
}

func TestClusterAdmission(t *testing.T) {
	env := clusterSetup(t)
	standardConfig := filepath.Join(filepath.Dir(env.admin), "standard.kubeconfig")
	if _, err := os.Stat(standardConfig); err != nil {
		t.Fatalf("no standard-channel API server (%v): hack/apiserver.sh start starts it", err)
	}
	channels := []struct {
		ch         admit.Channel
		kubeconfig string
	}{{admit.Experimental, env.admin}, {admit.Standard, standardConfig}}

	admitters := map[admit.Channel]*admit.Admitter{}
	crds := map[admit.Channel]admit.CRDs{}
	for _, c := range channels {
		var err error
		if crds[c.ch], err = admit.Builtin(c.ch); err != nil {
			t.Fatal(err)
		}
		if admitters[c.ch], err = admit.New(crds[c.ch]); err != nil {
			t.Fatal(err)
		}
	}

	// The corpus: manifests, the CEL rules of both channels, the edge cases.
	corpus := manifestObjects(t, admitters[admit.Experimental])
	manifests := len(corpus)
	reachable := map[admit.Channel]int{}
	for _, c := range channels {
		for i, r := range celrules.Rules(definitions(t, crds[c.ch])) {
			if !loadedKinds[r.Kind] || r.Unreachable() != "" {
				continue
			}
			reachable[c.ch]++
			bad, good, err := celrules.Objects(r, fmt.Sprintf("cel-%s-%d", c.ch, i))
			if err != nil {
				t.Fatal(err)
			}
			rule := r
			corpus = append(corpus,
				admissionObject{source: "breaks " + r.String(), apiVersion: r.APIVersion, kind: r.Kind, raw: bad, rule: &rule, ruleChannel: c.ch, breaks: true},
				admissionObject{source: "keeps " + r.String(), apiVersion: r.APIVersion, kind: r.Kind, raw: good, rule: &rule, ruleChannel: c.ch})
		}
	}
	for _, e := range admissionEdgeCases {
		corpus = append(corpus, admissionObject{source: e.name, apiVersion: e.apiVersion, kind: e.kind, raw: []byte(e.json)})
	}

	answers := map[admit.Channel][]serverAnswer{}
	for _, c := range channels {
		s := newAdmissionServer(t, c.kubeconfig)
		s.createNamespaces(t, corpus)
		answers[c.ch] = s.answerAll(t, corpus)
	}

	var compared, alreadyExisted int
	for _, c := range channels {
		a := admitters[c.ch]
		for i, o := range corpus {
			server := answers[c.ch][i]
			offline := a.Admit(o.apiVersion, o.kind, o.raw)
			if server.alreadyExists {
				alreadyExisted++
			}
			if diff := compareVerdicts(a, o, offline, server); diff != "" {
				t.Errorf("%s channel, %s (%s %s):\n%s\n  object %.400s", c.ch, o.source, o.apiVersion, o.kind, diff, o.raw)
			}
			// The loader's call, whose object shares the memos' values.
			if readOnly := a.AdmitReadOnly(o.apiVersion, o.kind, o.raw); !reflect.DeepEqual(readOnly, offline) {
				t.Errorf("%s channel, %s (%s %s): AdmitReadOnly's verdict differs from Admit's\n got %+v\nwant %+v", c.ch, o.source, o.apiVersion, o.kind, readOnly, offline)
			}
			compared++
		}
	}

	// The experimental Admitter's cross-check with the standard channel says
	// what the standard-channel API server says, as the loader asks for it.
	exp := admitters[admit.Experimental]
	for i, o := range corpus {
		v := exp.AdmitReadOnly(o.apiVersion, o.kind, o.raw)
		std := answers[admit.Standard][i]
		switch {
		case v.Admitted && (v.Standard != nil) == std.admitted:
			t.Errorf("%s: experimental admits; warning %q, yet the standard API server admitted = %v (%s)", o.source, v.Warning(), std.admitted, std.reason)
		case v.Admitted && v.Standard != nil && v.Standard.Reason != std.reason:
			t.Errorf("%s: standard channel's refusal\n  offline %s\n  server  %s", o.source, v.Standard.Reason, std.reason)
		case !v.Admitted && v.StandardAdmits != std.admitted:
			t.Errorf("%s: experimental refuses; StandardAdmits %v, yet the standard API server admitted = %v", o.source, v.StandardAdmits, std.admitted)
		}
	}

	// Every reachable rule, broken and kept on its own channel's API server.
	for _, c := range channels {
		broken, kept := map[celrules.Rule]bool{}, map[celrules.Rule]bool{}
		for i, o := range corpus {
			if o.rule == nil || o.ruleChannel != c.ch {
				continue
			}
			server := answers[c.ch][i]
			switch {
			case !o.breaks:
				kept[*o.rule] = kept[*o.rule] || server.admitted
			case o.rule.Shadowed() != "":
				// Refused, by the check that shadows the rule.
				broken[*o.rule] = broken[*o.rule] || !server.admitted && !hasRuleError(server.errors, *o.rule)
			default:
				broken[*o.rule] = broken[*o.rule] || !server.admitted && hasRuleError(server.errors, *o.rule)
			}
		}
		covered, shadowed := 0, 0
		for _, r := range celrules.Rules(definitions(t, crds[c.ch])) {
			if !loadedKinds[r.Kind] || r.Unreachable() != "" {
				continue
			}
			if !broken[r] || !kept[r] {
				t.Errorf("%s channel: the API server did not both refuse the breaking object and admit the keeping one of %s", c.ch, r)
				continue
			}
			covered++
			if r.Shadowed() != "" {
				shadowed++
			}
		}
		t.Logf("%s channel: %d of %d reachable CEL rules of the loaded kinds broken and kept on the API server (%d of them shadowed by an OpenAPI check)",
			c.ch, covered, reachable[c.ch], shadowed)
		if covered != reachable[c.ch] {
			t.Errorf("%s channel: %d reachable rules not covered", c.ch, reachable[c.ch]-covered)
		}
	}
	t.Logf("%d objects (%d from manifests, %d CEL cases, %d edge cases), %d verdicts compared with an API server's (%d answered AlreadyExists: admitted, not compared in full)",
		len(corpus), manifests, len(corpus)-manifests-len(admissionEdgeCases), len(admissionEdgeCases), compared, alreadyExisted)
}

func hasRuleError(errs []admit.FieldError, r celrules.Rule) bool {
	for _, e := range errs {
		if e.Field == r.Field() && strings.HasSuffix(e.Message, ": "+r.Message) {
			return true
		}
	}
	return false
}

// compareVerdicts returns how the offline verdict differs from the API server's
// answer, or "".
func compareVerdicts(a *admit.Admitter, o admissionObject, offline admit.Verdict, server serverAnswer) string {
	var diffs []string
	if offline.Admitted != server.admitted {
		diffs = append(diffs, fmt.Sprintf("  admitted: offline %v, server %v\n  offline reason %s\n  server reason  %s", offline.Admitted, server.admitted, offline.Reason, server.reason))
		return strings.Join(diffs, "\n")
	}
	if !server.admitted {
		// The API server reports the CEL errors of sibling fields in Go's map
		// order, the Admitter in one of those orders: the same errors, and the
		// same message once they are in the same order.
		sameOrder := reflect.DeepEqual(offline.Errors, server.errors)
		if server.invalid && !sameOrder && !reflect.DeepEqual(sortedErrors(offline.Errors), sortedErrors(server.errors)) {
			diffs = append(diffs, fmt.Sprintf("  field errors:\n    offline %q\n    server  %q", offline.Errors, server.errors))
		}
		if (sameOrder || !server.invalid) && offline.Reason != server.reason ||
			!sameOrder && server.invalid && len(offline.Reason) != len(server.reason) {
			diffs = append(diffs, fmt.Sprintf("  reason:\n    offline %s\n    server  %s", offline.Reason, server.reason))
		}
		return strings.Join(diffs, "\n")
	}
	if server.object == nil {
		return "" // AlreadyExists: the API server validated it, and stored nothing
	}
	// The defaulted object: everything but the metadata (system fields) and the
	// status (create drops it; the API server answers with the placeholder).
	got, want := normalizeJSON(offline.Object), normalizeJSON(server.object)
	for _, m := range []map[string]any{got, want} {
		delete(m, "metadata")
		delete(m, "status")
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		diffs = append(diffs, fmt.Sprintf("  defaulted object:\n    offline %s\n    server  %s", g, w))
	}
	return strings.Join(diffs, "\n")
}

func sortedErrors(errs []admit.FieldError) []admit.FieldError {
	out := append([]admit.FieldError(nil), errs...)
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

func normalizeJSON(v map[string]any) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		return map[string]any{"unmarshalable": err.Error()}
	}
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

// manifestObjects reads the Gateway API objects of every test manifest of the
// repository and of the conformance corpus beside it.
func manifestObjects(t *testing.T, a *admit.Admitter) []admissionObject {
	t.Helper()
	files, corpus, err := testinputs.Manifests("..", false)
	if err != nil {
		t.Fatal(err)
	}
	if corpus == 0 {
		t.Log("no conformance corpus beside the repository (../shared/conformance): its manifests are left out")
	}

	var out []admissionObject
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
		for doc := 1; ; doc++ {
			body, err := r.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				break // a malformed file of a load test: nothing to send
			}
			js, err := yaml.YAMLToJSON(body)
			if err != nil {
				continue
			}
			for _, item := range listItems(js) {
				var head struct {
					APIVersion string `json:"apiVersion"`
					Kind       string `json:"kind"`
				}
				if json.Unmarshal(item, &head) != nil || !a.Covers(head.APIVersion) {
					continue
				}
				out = append(out, admissionObject{source: fmt.Sprintf("%s document %d", f, doc), apiVersion: head.APIVersion, kind: head.Kind, raw: item})
			}
		}
	}
	return out
}

// listItems returns the items of a List, or the object itself.
func listItems(js []byte) [][]byte {
	var l struct {
		Kind  string            `json:"kind"`
		Items []json.RawMessage `json:"items"`
	}
	if json.Unmarshal(js, &l) == nil && strings.HasSuffix(l.Kind, "List") && l.Items != nil {
		out := make([][]byte, len(l.Items))
		for i, it := range l.Items {
			out[i] = it
		}
		return out
	}
	return [][]byte{js}
}

// admissionServer sends objects to one API server with server-side dry-run.
type admissionServer struct {
	host      string
	client    *http.Client
	resources map[schema.GroupVersionKind]metav1.APIResource
}

func newAdmissionServer(t *testing.T, kubeconfig string) *admissionServer {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	client, err := rest.HTTPClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, lists, err := dc.ServerGroupsAndResources()
	if err != nil {
		t.Fatal(err)
	}
	s := &admissionServer{host: strings.TrimSuffix(cfg.Host, "/"), client: client, resources: map[schema.GroupVersionKind]metav1.APIResource{}}
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range l.APIResources {
			if !strings.Contains(r.Name, "/") {
				s.resources[gv.WithKind(r.Kind)] = r
			}
		}
	}
	return s
}

// createNamespaces creates the namespaces the corpus names, so that the
// namespace lifecycle admission lets dry-run creates through.
func (s *admissionServer) createNamespaces(t *testing.T, corpus []admissionObject) {
	t.Helper()
	seen := map[string]bool{"default": true}
	for _, o := range corpus {
		var m struct {
			Metadata struct {
				Namespace any `json:"namespace"`
			} `json:"metadata"`
		}
		_ = json.Unmarshal(o.raw, &m)
		ns, _ := m.Metadata.Namespace.(string)
		if ns == "" || seen[ns] {
			continue
		}
		seen[ns] = true
		body := fmt.Sprintf(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":%q}}`, ns)
		resp, err := s.client.Post(s.host+"/api/v1/namespaces", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
}

// serverAnswer is what an API server answered to a dry-run create.
type serverAnswer struct {
	admitted      bool
	alreadyExists bool
	invalid       bool // 422: errors are the Status causes
	reason        string
	errors        []admit.FieldError
	object        map[string]any
}

func (s *admissionServer) answerAll(t *testing.T, corpus []admissionObject) []serverAnswer {
	t.Helper()
	out := make([]serverAnswer, len(corpus))
	errs := make([]error, len(corpus))
	var wg sync.WaitGroup
	work := make(chan int)
	for range 8 {
		wg.Go(func() {
			for i := range work {
				out[i], errs[i] = s.answer(corpus[i])
			}
		})
	}
	for i := range corpus {
		work <- i
	}
	close(work)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("%s: %v", corpus[i].source, err)
		}
	}
	return out
}

func (s *admissionServer) answer(o admissionObject) (serverAnswer, error) {
	gv, err := schema.ParseGroupVersion(o.apiVersion)
	if err != nil {
		return serverAnswer{}, err
	}
	res, ok := s.resources[gv.WithKind(o.kind)]
	if !ok {
		// kubectl finds no resource to send it to.
		return serverAnswer{reason: fmt.Sprintf("no matches for kind %q in version %q", o.kind, o.apiVersion)}, nil
	}
	path := "/apis/" + gv.Group + "/" + gv.Version
	if res.Namespaced {
		var m struct {
			Metadata struct {
				Namespace any `json:"namespace"`
			} `json:"metadata"`
		}
		_ = json.Unmarshal(o.raw, &m)
		ns, _ := m.Metadata.Namespace.(string)
		if ns == "" {
			ns = "default" // kubectl's context namespace
		}
		path += "/namespaces/" + url.PathEscape(ns)
	}
	path += "/" + res.Name + "?dryRun=All&fieldValidation=Strict"
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, s.host+path, bytes.NewReader(o.raw))
	if err != nil {
		return serverAnswer{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		return serverAnswer{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return serverAnswer{}, err
	}
	if resp.StatusCode/100 == 2 {
		var obj map[string]any
		if err := json.Unmarshal(body, &obj); err != nil {
			return serverAnswer{}, fmt.Errorf("HTTP %d: %w", resp.StatusCode, err)
		}
		return serverAnswer{admitted: true, object: obj}, nil
	}
	var st metav1.Status
	if err := json.Unmarshal(body, &st); err != nil {
		return serverAnswer{}, fmt.Errorf("HTTP %d: %s", resp.StatusCode, body)
	}
	switch st.Reason {
	case metav1.StatusReasonAlreadyExists:
		// Another cluster test created an object of that name: the dry run got
		// past validation to the store.
		return serverAnswer{admitted: true, alreadyExists: true}, nil
	case metav1.StatusReasonInvalid:
		a := serverAnswer{invalid: true, reason: st.Message}
		if st.Details != nil {
			for _, c := range st.Details.Causes {
				f := c.Field
				if f == "<nil>" {
					f = ""
				}
				a.errors = append(a.errors, admit.FieldError{Field: f, Message: c.Message})
			}
		}
		return a, nil
	case metav1.StatusReasonBadRequest:
		return serverAnswer{reason: st.Message}, nil
	}
	return serverAnswer{}, fmt.Errorf("HTTP %d %s: %s", resp.StatusCode, st.Reason, st.Message)
}

// definitions returns the CRDs' definitions, decoded.
func definitions(t testing.TB, crds admit.CRDs) []*apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	defs, err := crds.Definitions()
	if err != nil {
		t.Fatal(err)
	}
	return defs
}
