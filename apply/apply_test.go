package apply_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/apply"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

var now = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func loadYAML(t *testing.T, docs ...string) *model.Model {
	t.Helper()
	m, err := load.Files(load.FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(strings.Join(docs, "\n---\n"))})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

const liveGateway = `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra, creationTimestamp: "2025-01-01T00:00:00Z"}
spec:
  gatewayClassName: gc
  listeners: [{name: http, port: 80, protocol: HTTP}]
status:
  addresses: [{type: IPAddress, value: 192.0.2.1}]`

const appliedGateway = `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec:
  gatewayClassName: gc
  listeners: [{name: web, port: 8080, protocol: HTTP}]`

func route(name, created string) string {
	ts := ""
	if created != "" {
		ts = ", creationTimestamp: " + created
	}
	return "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: " + name + ", namespace: apps" + ts + "}\nspec: {parentRefs: [{name: gw, namespace: infra}]}"
}

func TestOnto(t *testing.T) {
	replacedLive := route("replaced", `"2025-03-01T00:00:00Z"`) + "\nstatus: {parents: [{parentRef: {name: gw, namespace: infra}, controllerName: example.com/gc, conditions: []}]}"
	live := loadYAML(t, liveGateway, route("kept", `"2025-02-01T00:00:00Z"`), replacedLive)
	files := loadYAML(t, appliedGateway, route("replaced", ""), route("added", ""))
	m := apply.Onto(live, files, now)

	t.Run("an applied object replaces the live one, with the live status and creationTimestamp", func(t *testing.T) {
		if len(m.Gateways) != 1 {
			t.Fatalf("%d Gateways, want 1", len(m.Gateways))
		}
		gw := m.Gateways[0].Obj
		if gw.Spec.Listeners[0].Name != "web" {
			t.Errorf("listener %s: the applied spec was not used", gw.Spec.Listeners[0].Name)
		}
		if len(gw.Status.Addresses) != 1 || gw.Status.Addresses[0].Value != "192.0.2.1" {
			t.Errorf("status.addresses %v: apply does not write status, the live one stays", gw.Status.Addresses)
		}
		if !gw.CreationTimestamp.Time.Equal(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("creationTimestamp %s, want the live object's", gw.CreationTimestamp)
		}
	})
	t.Run("a replaced route keeps the status its controllers wrote", func(t *testing.T) {
		if got := m.Routes[1].Status.Parents; len(got) != 1 || got[0].ControllerName != "example.com/gc" {
			t.Errorf("route status parents %v, want the live one's", got)
		}
	})
	t.Run("live objects keep their order, replaced in place, new ones follow", func(t *testing.T) {
		var names []string
		for _, r := range m.Routes {
			names = append(names, r.ObjectMeta.Name+"@"+r.ObjectMeta.CreationTimestamp.UTC().Format("2006-01-02"))
		}
		if got, want := strings.Join(names, " "), "kept@2025-02-01 replaced@2025-03-01 added@2026-01-01"; got != want {
			t.Errorf("routes %s, want %s (a new object is created at now: the newest)", got, want)
		}
	})
	t.Run("neither model is modified", func(t *testing.T) {
		if files.Gateways[0].Obj.Status.Addresses != nil || !files.Routes[1].ObjectMeta.CreationTimestamp.IsZero() {
			t.Error("the files' objects were changed")
		}
		if live.Gateways[0].Obj.Spec.Listeners[0].Name != "http" {
			t.Error("the live Gateway was changed")
		}
	})
}

// diff analyzes the live model and the applied one at once; they share every
// object the files do not replace, so the engine must only read them. Run
// with -race (hack/test.sh does).
func TestAnalysesOfSharedObjectsRunAtOnce(t *testing.T) {
	live := loadYAML(t, liveGateway, route("kept", ""), route("replaced", ""))
	m := apply.Onto(live, loadYAML(t, route("replaced", ""), route("added", "")), now)
	done := make(chan *analyze.Result)
	for _, x := range []*model.Model{live, m} {
		go func() { done <- analyze.Analyze(x, analyze.Options{Now: now}) }()
	}
	a, b := <-done, <-done
	if len(a.Routes)+len(b.Routes) != 5 {
		t.Fatalf("%d and %d routes, want 2 and 3", len(a.Routes), len(b.Routes))
	}
}

// With --now pinned before the live objects were created, a new object is
// still the newest: a second after the newest live object.
func TestOntoNewObjectIsTheNewest(t *testing.T) {
	live := loadYAML(t, route("old", `"2026-06-01T00:00:00Z"`), route("newer", `"2026-07-01T00:00:00Z"`))
	m := apply.Onto(live, loadYAML(t, route("added", "")), now)
	got := m.Routes[2].ObjectMeta.CreationTimestamp.UTC()
	if want := time.Date(2026, 7, 1, 0, 0, 1, 0, time.UTC); !got.Equal(want) {
		t.Errorf("new route created at %s, want %s (after the newest live object, --now being older)", got, want)
	}
}
