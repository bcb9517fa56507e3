package load

import (
	"reflect"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/fastunstructured"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testinputs"
)

// TestConversionAgreesWithFromUnstructured: every object the loader converts
// from its admitted form (and, with admission off, from the API server's
// defaulting of it) in every input of the repository (each testdata/, the
// examples) and of the conformance corpus beside it is converted to exactly
// the value apimachinery's runtime.DefaultUnstructuredConverter gives,
// compared with reflect.DeepEqual; that the plan converts each of them by
// itself, without falling back to apimachinery (the speed the loader counts
// on); and that every kind that takes that path is among them.
func TestConversionAgreesWithFromUnstructured(t *testing.T) {
	files := repositoryInputs(t)
	var mu sync.Mutex
	converted := map[string]int{} // by kind
	fast := fromUnstructured
	defer func() { fromUnstructured = fast }()
	fromUnstructured = func(u map[string]any, v any) error {
		want := reflect.New(reflect.TypeOf(v).Elem()).Interface()
		wantErr := runtime.DefaultUnstructuredConverter.FromUnstructured(u, want)
		if !reflect.ValueOf(v).Elem().IsZero() {
			t.Errorf("%s %v: the loader converts into a value that is not zero", u["kind"], u["metadata"])
		}
		planned := fastunstructured.Converts(u, reflect.New(reflect.TypeOf(v).Elem()).Interface())
		err := fast(u, v)
		kind, _ := u["kind"].(string)
		mu.Lock()
		defer mu.Unlock()
		switch {
		case wantErr == nil && !planned:
			t.Errorf("%s %v: the plan declined an object FromUnstructured converts: the loader falls back to the slow path", kind, u["metadata"])
		case (err == nil) != (wantErr == nil):
			t.Errorf("%s %v: error %v, FromUnstructured's %v", kind, u["metadata"], err, wantErr)
		case err == nil && !reflect.DeepEqual(v, want):
			t.Errorf("%s %v: converted to\n%#v\nFromUnstructured's\n%#v", kind, u["metadata"], v, want)
		case err == nil:
			converted[kind]++
		}
		return err
	}
	for _, p := range files {
		if _, err := Files(FileOptions{Filenames: []string{p}}); err != nil {
			continue // not an input the loader reads
		}
		func() {
			untypedDefaults = true
			defer func() { untypedDefaults = false }()
			_, _ = Files(FileOptions{Filenames: []string{p}, Admission: Admission{Off: true}})
		}()
	}
	adm, err := builtinAdmitter()
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, k := range kinds {
		covered := false
		for _, v := range k.versions {
			covered = covered || adm.Covers(k.group+"/"+v)
		}
		if covered && converted[k.name] == 0 {
			t.Errorf("no %s converted from its admitted form: the inputs no longer hold what the test is about", k.name)
		}
		total += converted[k.name]
	}
	t.Logf("%d objects of %d files converted: %v", total, len(files), converted)
}

// repositoryInputs lists the YAML and JSON files of every testdata/ directory
// and of examples/, and the conformance corpus's inputs.
func repositoryInputs(t *testing.T) []string {
	t.Helper()
	files, corpus, err := testinputs.Manifests("..", true)
	if err != nil {
		t.Fatal(err)
	}
	if corpus == 0 {
		t.Log("no conformance corpus beside the repository (../shared/conformance)")
	}
	if len(files) < 200 {
		t.Fatalf("only %d inputs found", len(files))
	}
	return files
}
