package load_test

import (
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// TestLoadsAfterARelease: each load releases the Admitter it used once every
// object is admitted (admit.Admitter.Hold); a second load with the same
// Admitter, after the first or beside it (diff loads both sides at once),
// builds the same model, its refusals included.
func TestLoadsAfterARelease(t *testing.T) {
	data, err := generate.Bytes(generate.Scaled(1, 300))
	if err != nil {
		t.Fatal(err)
	}
	// Objects the CRDs refuse, so that refusals are compared too.
	data = append(data, `
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: refused
  namespace: Upper
spec: {}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: refused
  namespace: infra
spec:
  gatewayClassName: example
  listeners:
  - name: a
    port: 80
    protocol: HTTP
  - name: a
    port: 81
    protocol: HTTP
`...)
	p := filepath.Join(t.TempDir(), "in.yaml")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	crds, err := admit.Builtin(admit.Experimental)
	if err != nil {
		t.Fatal(err)
	}
	a, err := admit.New(crds)
	if err != nil {
		t.Fatal(err)
	}
	loadOnce := func() *model.Model {
		m, err := load.Files(load.FileOptions{Filenames: []string{p}, Admission: load.Admission{Admitter: a}})
		if err != nil {
			t.Error(err)
		}
		return m
	}
	first := loadOnce()
	if first == nil {
		t.FailNow()
	}
	if first.Len() < 300 || first.Admission == nil || len(first.Admission.Refused) == 0 {
		t.Fatalf("the first load has %d objects and admission %+v: want the generated routes and the refused objects", first.Len(), first.Admission)
	}
	if got := loadOnce(); !reflect.DeepEqual(got, first) {
		t.Error("a second load with the released Admitter builds another model")
	}
	var wg sync.WaitGroup
	got := make([]*model.Model, 3)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = loadOnce()
		}()
	}
	wg.Wait()
	for i, m := range got {
		if !reflect.DeepEqual(m, first) {
			t.Errorf("concurrent load %d builds another model", i)
		}
	}
}
