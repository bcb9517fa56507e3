package load

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/fakecluster"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// TestListPagesDecodeEveryClusterKind: a list page's items carry no apiVersion
// or kind; decodePage gives them the list's, and each lands in the model as an
// object of the kind listed, namespaced or not as the kind is. (The e2e
// cluster tests list a real API server.)
func TestListPagesDecodeEveryClusterKind(t *testing.T) {
	listed := 0
	for i := range kinds {
		k := &kinds[i]
		if k.resource == "" {
			continue
		}
		listed++
		t.Run(k.name, func(t *testing.T) {
			apiVersion := k.versions[0]
			if k.group != "" {
				apiVersion = k.group + "/" + apiVersion
			}
			items := []json.RawMessage{
				json.RawMessage(`{"metadata":{"name":"a","namespace":"apps"}}`),
				json.RawMessage(`{"metadata":{"name":"b","namespace":"apps"}}`),
			}
			page, err := decodePage(items, header{APIVersion: apiVersion, Kind: k.name}, nil)
			objs := page.objects
			if err != nil {
				t.Fatal(err)
			}
			m := &model.Model{}
			for _, o := range objs {
				o.addTo(m)
			}
			// An Ingress migration's base is held beside what the engine analyzes.
			if n := m.Len() + len(m.Ingresses) + len(m.IngressClasses); n != 2 {
				t.Fatalf("%d objects in the model, want 2", n)
			}
			wantNS := "apps"
			if k.scope == clusterScoped {
				wantNS = ""
			}
			for _, o := range objs {
				meta, ns, typ := metaOf(o.obj)
				if typ != k.name && typ != "Route" {
					t.Errorf("a %s is decoded as a %s", k.name, typ)
				}
				if meta.Kind != k.name || meta.APIVersion != apiVersion || meta.Source.File != "cluster" {
					t.Errorf("Meta %+v, want kind %s, apiVersion %s from the cluster", meta, k.name, apiVersion)
				}
				if ns != wantNS {
					t.Errorf("namespace %q, want %q", ns, wantNS)
				}
			}
		})
	}
	if listed != 17 {
		t.Errorf("%d kinds are listed from a cluster, want 17", listed)
	}
}

// metaOf returns the Meta, the namespace and the typed view's type of a model
// object: model.Object[T] keeps its metadata in Obj (a T), model.Route and
// model.Mesh in ObjectMeta.
func metaOf(obj any) (meta model.Meta, namespace, typ string) {
	v := reflect.ValueOf(obj).Elem()
	typed := v
	if o := v.FieldByName("Obj"); o.IsValid() {
		typed = o.Elem()
	}
	ns := typed.FieldByName("ObjectMeta").FieldByName("Namespace").String()
	return v.FieldByName("Meta").Interface().(model.Meta), ns, typed.Type().Name()
}

const gatewayJSON = `{"metadata":{"name":"web","namespace":"infra"},"spec":{"gatewayClassName":"c","listeners":[{"name":"http","port":80,"protocol":"HTTP"}]}}`

// TestClusterServerThatNeverAnswers: a request the server accepts and never
// answers, a list or discovery, fails at the request's deadline with a message
// naming the flag that sets it, instead of hanging.
func TestClusterServerThatNeverAnswers(t *testing.T) {
	for _, tt := range []struct {
		name, path, want string
	}{
		{"a list", "httproutes", "listing httproutes: "},
		{"discovery", "/apis", "discovering the cluster's resources: "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := fakecluster.New(t, map[string]http.HandlerFunc{tt.path: fakecluster.Never})
			const deadline = time.Second
			start := time.Now()
			_, err := Cluster(context.Background(), ClusterOptions{Config: srv.Config(deadline)})
			if err == nil {
				t.Fatal("a request that was never answered gave a model")
			}
			// Requests run at once: the whole read ends at about one deadline.
			if took := time.Since(start); took > 10*deadline {
				t.Errorf("gave up after %s, the deadline is %s", took, deadline)
			}
			for _, w := range []string{tt.want, srv.URL + " did not answer within 1s (--request-timeout)", "raise --request-timeout"} {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

// TestClusterEndlessList: a server streaming a list without end is cut off at
// the input budget, in bounded memory, with a message naming the limit.
func TestClusterEndlessList(t *testing.T) {
	srv := fakecluster.New(t, map[string]http.HandlerFunc{"gateways": fakecluster.Endless})
	const limit = 8 << 20
	var err error
	alloc := allocatedDuring(func() {
		_, err = Cluster(context.Background(), ClusterOptions{Config: srv.Config(30 * time.Second), MaxInputBytes: limit})
	})
	if !errors.Is(err, ErrInputTooLarge) {
		t.Fatalf("err = %v, want the input cap", err)
	}
	for _, w := range []string{"listing gateways: ", "larger than 8 MiB (--max-input-bytes)", "raise --max-input-bytes"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not contain %q", err, w)
		}
	}
	// The response buffer doubles up to the limit; the server's own writes
	// are in this process too.
	if alloc > 8*limit {
		t.Errorf("allocated %d MiB to refuse a list at %d MiB", alloc>>20, limit>>20)
	}
}

// TestClusterForbiddenKindsDegrade: kinds the identity may not list are
// recorded as unreadable, and the rest is read.
func TestClusterForbiddenKindsDegrade(t *testing.T) {
	srv := fakecluster.New(t, map[string]http.HandlerFunc{
		"secrets":  fakecluster.Forbidden,
		"gateways": fakecluster.Items(gatewayJSON),
	})
	m, err := Cluster(context.Background(), ClusterOptions{Config: srv.Config(10 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Gateways) != 1 {
		t.Errorf("%d Gateways, want 1", len(m.Gateways))
	}
	if len(m.Unreadable) != 1 || m.Unreadable[0].Kind != "Secret" || !strings.Contains(m.Unreadable[0].Reason, "forbidden") {
		t.Errorf("Unreadable = %+v, want Secrets forbidden", m.Unreadable)
	}
}

// TestClusterListsIngressesOnlyWhenAsked: Ingresses and IngressClasses are an
// Ingress migration's base, not the engine's input; a cluster is asked for
// them only for a migration, so that an identity that may not list them loses
// nothing otherwise.
func TestClusterListsIngressesOnlyWhenAsked(t *testing.T) {
	const ingressJSON = `{"metadata":{"name":"web","namespace":"apps"},"spec":{"rules":[{"host":"web.example.com"}]}}`
	srv := fakecluster.New(t, map[string]http.HandlerFunc{
		"gateways":       fakecluster.Items(gatewayJSON),
		"ingresses":      fakecluster.Items(ingressJSON),
		"ingressclasses": fakecluster.Forbidden,
	})
	m, err := Cluster(context.Background(), ClusterOptions{Config: srv.Config(10 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Ingresses) != 0 || len(m.Unreadable) != 0 {
		t.Errorf("without Ingress: %d Ingresses, Unreadable %+v; want none of either", len(m.Ingresses), m.Unreadable)
	}
	m, err = Cluster(context.Background(), ClusterOptions{Config: srv.Config(10 * time.Second), Ingress: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Ingresses) != 1 || m.Ingresses[0].Obj.Spec.Rules[0].Host != "web.example.com" || m.Ingresses[0].Source.File != "cluster" {
		t.Errorf("with Ingress: Ingresses %+v, want apps/web from the cluster", m.Ingresses)
	}
	if len(m.Unreadable) != 1 || m.Unreadable[0].Kind != "IngressClass" {
		t.Errorf("with Ingress: Unreadable = %+v, want IngressClass forbidden", m.Unreadable)
	}
}

func TestDefaultRequestTimeoutIsAtMostAMinute(t *testing.T) {
	if DefaultRequestTimeout <= 0 || DefaultRequestTimeout > time.Minute {
		t.Errorf("DefaultRequestTimeout = %s", DefaultRequestTimeout)
	}
}

// crdHandler answers a GET of a CustomResourceDefinition with the built-in CRD
// of that name from channel (JSON, as the API server sends it), or 404.
func crdHandler(channel string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		name := r.PathValue("name") // resource.group
		resource, group, _ := strings.Cut(name, ".")
		js, err := os.ReadFile(filepath.Join("..", "admit", "crds", "v1.6.3", channel, group+"_"+resource+".json"))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(js)
	}
}

const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{name}"

// TestClusterAdmissionUsesTheServedCRDs: a cluster's objects are held to the
// CRDs it serves. One those refuse (a field of the experimental channel, on a
// cluster with the standard channel's CRDs) was stored all the same: it stays
// in the model, and its refusal is recorded as a stored object's.
func TestClusterAdmissionUsesTheServedCRDs(t *testing.T) {
	srv := fakecluster.New(t, map[string]http.HandlerFunc{
		crdPath: crdHandler("standard"),
		"httproutes": fakecluster.Items(
			`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"fine","namespace":"apps"},"spec":{"parentRefs":[{"name":"gw"}]}}`,
			`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"experimental","namespace":"apps"},"spec":{"useDefaultGateways":"All"}}`),
	})
	m, err := Cluster(context.Background(), ClusterOptions{Config: srv.Config(10 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Routes) != 2 {
		t.Fatalf("%d routes, want both: the cluster holds them", len(m.Routes))
	}
	if m.Admission == nil || m.Admission.CRDs != "Gateway API v1.6.3 standard channel, from the cluster" || m.Admission.Note != "" {
		t.Fatalf("admission %+v, want the cluster's standard-channel CRDs", m.Admission)
	}
	want := []model.Refusal{{
		Object: model.Ref{Kind: "HTTPRoute", Namespace: "apps", Name: "experimental"}, APIVersion: "gateway.networking.k8s.io/v1",
		Source: model.Source{File: "cluster"}, Stored: true,
		Reason: `HTTPRoute in version "v1" cannot be handled as a HTTPRoute: strict decoding error: unknown field "spec.useDefaultGateways"`,
		Errors: []model.FieldError{{Field: "spec.useDefaultGateways", Message: "unknown field", Source: model.Source{File: "cluster"}}},
	}}
	if !reflect.DeepEqual(m.Admission.Refused, want) {
		t.Errorf("refused:\n got %+v\nwant %+v", m.Admission.Refused, want)
	}
	if len(m.Unreadable) != 0 {
		t.Errorf("unreadable %+v", m.Unreadable)
	}
}

// TestClusterAdmissionWithoutCRDs: an identity that may not read the CRDs gets
// the built-in ones, and a warning that says so; --admission=false reads no
// CRD at all.
func TestClusterAdmissionWithoutCRDs(t *testing.T) {
	srv := fakecluster.New(t, map[string]http.HandlerFunc{crdPath: fakecluster.Forbidden, "gateways": fakecluster.Items(gatewayJSON)})
	m, err := Cluster(context.Background(), ClusterOptions{Config: srv.Config(10 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	if m.Admission == nil || m.Admission.CRDs != "Gateway API v1.6.3 experimental channel, built in" || !strings.Contains(m.Admission.Note, "may not read customresourcedefinitions.apiextensions.k8s.io") {
		t.Errorf("admission %+v, want the built-in CRDs and a note", m.Admission)
	}
	if len(m.Unreadable) != 1 || m.Unreadable[0].Kind != "CustomResourceDefinition" || !strings.Contains(m.Unreadable[0].Reason, "validated against the Gateway API v1.6.3 experimental channel, built in instead") {
		t.Errorf("Unreadable = %+v, want the CRDs, forbidden", m.Unreadable)
	}
	if len(m.Gateways) != 1 || len(m.Admission.Refused) != 0 {
		t.Errorf("%d Gateways, refused %+v: want the Gateway, admitted (its list item names no kind: the list's is taken)", len(m.Gateways), m.Admission.Refused)
	}

	m, err = Cluster(context.Background(), ClusterOptions{Config: srv.Config(10 * time.Second), Admission: Admission{Off: true}})
	if err != nil {
		t.Fatal(err)
	}
	if !m.Admission.Off || len(m.Unreadable) != 0 {
		t.Errorf("admission off: %+v, unreadable %+v", m.Admission, m.Unreadable)
	}
}

// TestClusterWithoutRaw: as for files, a command that does not print objects
// as written keeps the text of Gateways only, whose provisional fields the
// engine reads; everything else decodes as it does with the text kept.
func TestClusterWithoutRaw(t *testing.T) {
	const routeJSON = `{"metadata":{"name":"r","namespace":"apps"},"spec":{"parentRefs":[{"name":"web","namespace":"infra"}],"hostnames":["a.example.com"],"rules":[{"backendRefs":[{"name":"svc","port":80}]}]}}`
	const serviceJSON = `{"metadata":{"name":"svc","namespace":"apps"},"spec":{"ports":[{"port":80}]}}`
	srv := fakecluster.New(t, map[string]http.HandlerFunc{
		"gateways":   fakecluster.Items(gatewayJSON),
		"httproutes": fakecluster.Items(routeJSON),
		"services":   fakecluster.Items(serviceJSON),
	})
	load := func(withoutRaw bool) *model.Model {
		t.Helper()
		m, err := Cluster(context.Background(), ClusterOptions{Config: srv.Config(10 * time.Second), WithoutRaw: withoutRaw})
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Gateways) != 1 || len(m.Routes) != 1 || len(m.Services) != 1 {
			t.Fatalf("WithoutRaw %v: %d Gateways, %d routes, %d Services; want one of each", withoutRaw, len(m.Gateways), len(m.Routes), len(m.Services))
		}
		return m
	}
	with, without := load(false), load(true)
	if len(with.Routes[0].Raw) == 0 || len(with.Services[0].Raw) == 0 {
		t.Fatal("with the text kept, a route or Service has no Raw")
	}
	if g := without.Gateways[0]; len(g.Raw) == 0 || !bytes.Equal(g.Raw, with.Gateways[0].Raw) {
		t.Errorf("WithoutRaw: Gateway Raw %q, want %q", g.Raw, with.Gateways[0].Raw)
	}
	if without.Routes[0].Raw != nil || without.Services[0].Raw != nil {
		t.Errorf("WithoutRaw: route Raw %q, Service Raw %q; want none", without.Routes[0].Raw, without.Services[0].Raw)
	}
	with.Routes[0].Raw, with.Services[0].Raw = nil, nil
	if !reflect.DeepEqual(with, without) {
		t.Error("WithoutRaw changed more than Raw")
	}
}
