package load

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/typedjson"
)

// TestTypedDecodeAgreesWithEncodingJSON: every object the loader decodes from
// its JSON in every input of the repository (each testdata/, the examples)
// and of the conformance corpus beside it, with admission and without, is
// decoded to exactly encoding/json's value, or gives exactly its error; the
// plan decodes each object encoding/json accepts by itself, without falling
// back (the speed the loader counts on); and routes and Gateways are among
// them.
func TestTypedDecodeAgreesWithEncodingJSON(t *testing.T) {
	files := repositoryInputs(t)
	var mu sync.Mutex
	decoded := map[string]int{} // by Go type
	refused := 0
	fast := decodeTyped
	defer func() { decodeTyped = fast }()
	decodeTyped = func(js []byte, v any) error {
		typ := reflect.TypeOf(v).Elem()
		want := reflect.New(typ).Interface()
		wantErr := json.Unmarshal(js, want)
		if !reflect.ValueOf(v).Elem().IsZero() {
			t.Errorf("%s: the loader decodes into a value that is not zero", typ)
		}
		planned := typedjson.Decodes(js, reflect.New(typ).Interface())
		err := fast(js, v)
		mu.Lock()
		defer mu.Unlock()
		switch {
		case wantErr == nil && !planned:
			t.Errorf("%s %.200s: the plan declined an object encoding/json decodes: the loader falls back to the slow path", typ, js)
		case (err == nil) != (wantErr == nil):
			t.Errorf("%s %.200s: error %v, encoding/json's %v", typ, js, err, wantErr)
		case err != nil && err.Error() != wantErr.Error():
			t.Errorf("%s %.200s: error %q, encoding/json's %q", typ, js, err, wantErr)
		case err == nil && !reflect.DeepEqual(v, want):
			t.Errorf("%s %.200s: decoded to\n%#v\nencoding/json's\n%#v", typ, js, v, want)
		case err == nil:
			decoded[typ.String()]++
		default:
			refused++
		}
		return err
	}
	for _, p := range files {
		_, _ = Files(FileOptions{Filenames: []string{p}})
		_, _ = Files(FileOptions{Filenames: []string{p}, Admission: Admission{Off: true}})
	}
	// Objects encoding/json refuses, each in a file of its own: their
	// errors, and the messages made of them, are encoding/json's.
	dir := t.TempDir()
	for i, doc := range []string{
		"apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: g}\nspec:\n  gatewayClassName: c\n  listeners:\n  - {name: a, port: https, protocol: HTTPS}\n",
		"apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: r}\nspec:\n  hostnames: 5\n",
		"apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: r}\nspec:\n  parentRefs:\n  - {name: g, port: 70000}\n",
		"apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: r}\nspec:\n  rules:\n  - backendRefs:\n    - {name: s, port: 80.5}\n",
		"apiVersion: gateway.networking.k8s.io/v1\nkind: GRPCRoute\nmetadata: {name: r, labels: [a]}\n",
		"apiVersion: gateway.networking.k8s.io/v1\nkind: TLSRoute\nmetadata: {name: r}\nspec: {parentRefs: {name: g}}\n",
		"apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {tls.crt: '!!'}\n",
		"apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  ports:\n  - {port: -1}\n",
	} {
		p := filepath.Join(dir, fmt.Sprintf("bad-%d.yaml", i))
		if err := os.WriteFile(p, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	for _, p := range files[len(files)-8:] {
		_, _ = Files(FileOptions{Filenames: []string{p}, Admission: Admission{Off: true}})
	}
	// HTTP, TLS, TCP and UDP routes decode as a routeJSON, and as their
	// kind's Go type only where it declines one (a type error: the error is
	// then the Go type's), which TestDirectRoutesAgreeWithTheirViews holds.
	for _, typ := range []string{"load.routeJSON", "v1.GRPCRoute", "v1.Gateway", "v1.Service", "v1.Secret"} {
		if decoded[typ] == 0 {
			t.Errorf("no %s decoded: the inputs no longer hold what the test is about", typ)
		}
	}
	// Six of the eight: a port of 70000 or -1 fits the Go types' int32.
	if refused < 6 {
		t.Errorf("%d objects refused: the inputs no longer hold the errors the test holds to encoding/json's", refused)
	}
	t.Logf("%d files; decoded %v; %d refused, as encoding/json refuses them", len(files), decoded, refused)
}
