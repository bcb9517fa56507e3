package load

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testinputs"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// TestDirectRoutesAgreeWithTheirViews: HTTP, TLS, TCP and UDP routes decoded
// straight into the model's rules (routeJSON) make the model, and the errors,
// that decoding each into its kind's Go type and viewing it makes: for every
// input of the repository and of the conformance corpus, with admission and
// without, and for routes with fields their kind does not have (which the
// direct decoding must decline), with type errors, and with empty lists.
func TestDirectRoutesAgreeWithTheirViews(t *testing.T) {
	files := repositoryInputs(t)
	dir := t.TempDir()
	const head = "apiVersion: gateway.networking.k8s.io/v1\nmetadata: {name: r, namespace: apps}\n"
	crafted := []struct {
		doc string
		// declined: the direct decoding must hand the route to its kind's type.
		declined bool
	}{
		{head + "kind: TLSRoute\nspec:\n  rules:\n  - matches: [{path: {value: /}}]\n    backendRefs: [{name: s, port: 443}]\n", true},
		{head + "kind: TLSRoute\nspec:\n  rules:\n  - filters: [{type: RequestRedirect, requestRedirect: {scheme: https}}]\n", true},
		{head + "kind: TLSRoute\nspec:\n  rules:\n  - timeouts: {request: 1s}\n    backendRefs: [{name: s, port: 443}]\n", true},
		{head + "kind: TLSRoute\nspec:\n  rules:\n  - retry: {attempts: 2}\n    backendRefs: [{name: s, port: 443}]\n", true},
		{head + "kind: TLSRoute\nspec:\n  rules:\n  - sessionPersistence: {sessionName: x}\n    backendRefs: [{name: s, port: 443}]\n", true},
		{head + "kind: TLSRoute\nspec:\n  rules:\n  - backendRefs: [{name: s, port: 443, filters: [{type: RequestMirror, requestMirror: {backendRef: {name: m, port: 80}}}]}]\n", true},
		{head + "kind: TLSRoute\nspec:\n  rules:\n  - Matches: []\n    backendRefs: [{name: s, port: 443}]\n", true},
		{head + "kind: TLSRoute\nspec:\n  rules:\n  - matches: 5\n    backendRefs: [{name: s, port: 443}]\n", true},
		{head + "kind: TCPRoute\nspec:\n  hostnames: [a.example.com]\n  rules:\n  - backendRefs: [{name: s, port: 5432}]\n", true},
		{head + "kind: UDPRoute\nspec:\n  hostnames: 5\n  rules:\n  - {name: dns, backendRefs: [{name: s, port: 53}]}\n", true},
		{head + "kind: HTTPRoute\nspec:\n  rules:\n  - timeouts: 5\n", true},
		{head + "kind: HTTPRoute\nspec:\n  rules:\n  - name: 5\n", true},
		{head + "kind: TLSRoute\nspec:\n  rules:\n  - backendRefs: [{name: s, port: x}]\n", true},
		{head + "kind: HTTPRoute\nspec:\n  rules:\n  - timeouts: {request: 1s}\n    retry: {attempts: 2}\n    sessionPersistence: {sessionName: x}\n    backendRefs: []\n  - {name: null}\n  - name: b\n    backendRefs: [{name: s, port: 80, filters: []}, {name: t, port: 80, filters: [{type: RequestHeaderModifier, requestHeaderModifier: {set: [{name: a, value: b}]}}]}]\n", false},
		{head + "kind: HTTPRoute\nspec:\n  rules: []\n", false},
		{head + "kind: HTTPRoute\n", false},
		{head + "kind: TLSRoute\nspec:\n  hostnames: []\n  rules:\n  - {name: a, backendRefs: []}\n  - backendRefs: [{name: s, port: 443}]\n", false},
		{head + "kind: TCPRoute\nspec:\n  rules:\n  - backendRefs: [{name: s, port: 5432}]\n", false},
		{"apiVersion: gateway.networking.k8s.io/v1alpha2\nmetadata: {name: r, namespace: apps}\nkind: TLSRoute\nspec:\n  hostnames: [a.example.com]\n  rules:\n  - backendRefs: [{name: s, port: 443}]\n", false},
	}
	declines := map[string]bool{}
	for i, c := range crafted {
		p := filepath.Join(dir, fmt.Sprintf("route-%d.yaml", i))
		if err := os.WriteFile(p, []byte(c.doc), 0o600); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
		declines[p] = c.declined
	}

	// Count what the direct decoding decodes and what it hands on, without
	// admission (typedjson) and with it (fastunstructured).
	var mu sync.Mutex
	direct, typed := 0, 0
	count := func(v any, err error) {
		mu.Lock()
		defer mu.Unlock()
		switch v.(type) {
		case *routeJSON:
			if err == nil {
				direct++
			}
		default:
			typed++
		}
	}
	fastJSON, fastMap := decodeTyped, fromUnstructured
	defer func() { decodeTyped, fromUnstructured = fastJSON, fastMap }()
	decodeTyped = func(js []byte, v any) error { err := fastJSON(js, v); count(v, err); return err }
	fromUnstructured = func(u map[string]any, v any) error { err := fastMap(u, v); count(v, err); return err }

	load := func(p string, adm Admission, view bool) (*model.Model, error) {
		viewRoutesOnly = view
		defer func() { viewRoutesOnly = false }()
		return Files(FileOptions{Filenames: []string{p}, Admission: adm})
	}
	routes := 0
	for _, p := range files {
		for _, adm := range []Admission{{}, {Off: true}} {
			mu.Lock()
			direct, typed = 0, 0
			mu.Unlock()
			got, err := load(p, adm, false)
			mu.Lock()
			gotDirect, gotTyped := direct, typed
			mu.Unlock()
			want, wantErr := load(p, adm, true)
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Errorf("%s (admission off: %v): error\n%v\nthe views'\n%v", p, adm.Off, err, wantErr)
				continue
			}
			if got == nil || want == nil {
				continue
			}
			if !reflect.DeepEqual(got.Routes, want.Routes) {
				for i := range got.Routes {
					if i < len(want.Routes) && !reflect.DeepEqual(got.Routes[i], want.Routes[i]) {
						t.Errorf("%s (admission off: %v): route %d\n%+v\nthe view's\n%+v", p, adm.Off, i, *got.Routes[i], *want.Routes[i])
					}
				}
				if len(got.Routes) != len(want.Routes) {
					t.Errorf("%s (admission off: %v): %d routes, the views' %d", p, adm.Off, len(got.Routes), len(want.Routes))
				}
			}
			if !reflect.DeepEqual(got.Admission, want.Admission) || !reflect.DeepEqual(got.Unreadable, want.Unreadable) {
				t.Errorf("%s (admission off: %v): admission or unreadable differ", p, adm.Off)
			}
			routes += len(got.Routes)
			if d, ok := declines[p]; ok && adm.Off {
				switch {
				case d && gotTyped == 0:
					t.Errorf("%s: decoded directly, want it handed to its kind's Go type", p)
				case !d && gotDirect != 1:
					t.Errorf("%s: %d routes decoded directly, want 1", p, gotDirect)
				}
			}
		}
	}
	// The repository's own inputs hold 440 routes over both admission
	// modes; the conformance corpus, when ../shared holds it, adds more.
	least := 400
	if _, corpus, err := testinputs.Manifests("..", true); err == nil && corpus > 0 {
		least = 500
	}
	if routes < least {
		t.Errorf("%d routes compared: the inputs no longer hold what the test is about", routes)
	}
	t.Logf("%d files, %d routes compared", len(files), routes)
}
