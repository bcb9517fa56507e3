package load_test

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
)

// TestLoadedLabelsAreOneMapPerContents: the routes and Services of a
// generated configuration that are labelled alike hold one labels map, with
// admission and without (a Service's selector is shared by each decoding
// worker only: not checked here), so that the model's maps grow with the label sets,
// not with the objects (a small map costs about 350 bytes: 10 MB of the 100k
// model before, docs/performance.md "one map per label set").
func TestLoadedLabelsAreOneMapPerContents(t *testing.T) {
	path, _, err := generate.WriteFile(t.TempDir(), "2k", generate.Scaled(1, 2000))
	if err != nil {
		t.Fatal(err)
	}
	for _, off := range []bool{false, true} {
		m, err := load.Files(load.FileOptions{Filenames: []string{path}, Admission: load.Admission{Off: off}, WithoutRaw: true})
		if err != nil {
			t.Fatal(err)
		}
		labelled := 0
		contents := map[string]bool{}
		held := map[uintptr]bool{}
		add := func(l map[string]string) {
			if len(l) == 0 {
				return
			}
			labelled++
			keys := slices.Sorted(maps.Keys(l))
			contents[fmt.Sprint(keys, l)] = true
			held[reflect.ValueOf(l).Pointer()] = true
		}
		for _, r := range m.Routes {
			add(r.ObjectMeta.Labels)
		}
		for _, s := range m.Services {
			add(s.Obj.Labels)
		}
		if labelled < 100 || len(contents) >= labelled/4 {
			t.Fatalf("admission off %v: %d labelled objects, %d label sets: the input no longer repeats its labels", off, labelled, len(contents))
		}
		if len(held) != len(contents) {
			t.Errorf("admission off %v: %d labelled objects with %d label sets hold %d maps", off, labelled, len(contents), len(held))
		}
	}
}
