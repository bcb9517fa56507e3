// Package fakecluster runs a stand-in Kubernetes API server for tests: it
// serves discovery for the kinds kubectl-gwtls reads, and answers each list
// as the test says: with objects, forbidden, never, or without end. The real
// API server is tested in e2e; this one misbehaves on purpose.
package fakecluster

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
)

// gatewayGroup is the Gateway API's group; the core kinds are in "".
const gatewayGroup = "gateway.networking.k8s.io"

// ingressGroup is the group of Ingress and IngressClass.
const ingressGroup = "networking.k8s.io"

// Resources are the resources the server lists, by group, in the version it
// serves them in (v1 for every group).
var Resources = map[string][]string{
	"":           {"namespaces", "services", "secrets", "configmaps"},
	gatewayGroup: {"gatewayclasses", "gateways", "httproutes", "grpcroutes", "tlsroutes", "tcproutes", "udproutes", "referencegrants", "backendtlspolicies", "listenersets"},
	ingressGroup: {"ingresses", "ingressclasses"},
}

// clusterScoped are the resources that are not namespaced.
var clusterScoped = map[string]bool{"namespaces": true, "gatewayclasses": true, "ingressclasses": true}

// Server is the stand-in API server.
type Server struct {
	*httptest.Server
}

// New starts a server until the test ends. handlers answers the list of a
// resource by name (for example "gateways"), or any request by its path
// ("/apis", discovery); a resource without an entry is an empty list.
func New(tb testing.TB, handlers map[string]http.HandlerFunc) *Server {
	tb.Helper()
	routes := map[string]http.HandlerFunc{
		"/api":  serveJSON(metav1.APIVersions{Versions: []string{"v1"}}),
		"/apis": serveJSON(metav1.APIGroupList{Groups: []metav1.APIGroup{apiGroup(gatewayGroup), apiGroup(ingressGroup)}}),
	}
	for group, resources := range Resources {
		gv, prefix := group+"/v1", "/apis/"+group+"/v1"
		if group == "" {
			gv, prefix = "v1", "/api/v1"
		}
		list := metav1.APIResourceList{GroupVersion: gv}
		for _, r := range resources {
			list.APIResources = append(list.APIResources, metav1.APIResource{Name: r, Namespaced: !clusterScoped[r], Verbs: []string{"get", "list"}})
			handler := handlers[r]
			if handler == nil {
				handler = Items()
			}
			routes[prefix+"/"+r] = handler
			routes[prefix+"/namespaces/{ns}/"+r] = handler
		}
		routes[prefix] = serveJSON(list)
	}
	for path, h := range handlers {
		if strings.HasPrefix(path, "/") {
			routes[path] = h
		}
	}
	mux := http.NewServeMux()
	for path, h := range routes {
		mux.HandleFunc(path, h)
	}
	s := &Server{httptest.NewServer(mux)}
	tb.Cleanup(s.Close)
	return s
}

// apiGroup is the discovery of a group served in v1.
func apiGroup(name string) metav1.APIGroup {
	v1 := metav1.GroupVersionForDiscovery{GroupVersion: name + "/v1", Version: "v1"}
	return metav1.APIGroup{Name: name, Versions: []metav1.GroupVersionForDiscovery{v1}, PreferredVersion: v1}
}

// Config is a client configuration for the server, with timeout per request.
func (s *Server) Config(timeout time.Duration) *rest.Config {
	return &rest.Config{Host: s.URL, Timeout: timeout}
}

// Kubeconfig writes a kubeconfig for the server under dir and returns its path.
func (s *Server) Kubeconfig(tb testing.TB, dir string) string {
	tb.Helper()
	p := filepath.Join(dir, "kubeconfig")
	cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: fake
  cluster:
    server: %s
contexts:
- name: fake
  context:
    cluster: fake
    user: fake
    namespace: default
current-context: fake
users:
- name: fake
  user: {}
`, s.URL)
	if err := os.WriteFile(p, []byte(cfg), 0o600); err != nil {
		tb.Fatal(err)
	}
	return p
}

// Items answers a list with these objects (JSON), as a list page without a
// continue token.
func Items(objects ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"kind":"List","apiVersion":"v1","metadata":{},"items":[%s]}`, strings.Join(objects, ","))
	}
}

// Forbidden answers as the API server does when the identity may not list.
func Forbidden(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusForbidden)
	fmt.Fprintf(w, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","reason":"Forbidden","code":403,"message":"%s is forbidden"}`, r.URL.Path)
}

// Never accepts the request and never answers, until the client gives up.
func Never(w http.ResponseWriter, r *http.Request) {
	<-r.Context().Done()
}

// Endless answers 200 and streams list items without end, until the client
// gives up.
func Endless(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if _, err := fmt.Fprint(w, `{"kind":"List","apiVersion":"v1","metadata":{},"items":[`); err != nil {
		return
	}
	item := []byte(`{"metadata":{"name":"` + strings.Repeat("x", 200) + `"}},`)
	for i := 0; r.Context().Err() == nil; i++ {
		if _, err := w.Write(item); err != nil {
			return
		}
		if i%1000 == 0 {
			w.(http.Flusher).Flush()
		}
	}
}

func serveJSON(v any) http.HandlerFunc {
	body, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}
}
