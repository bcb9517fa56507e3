package load_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// TestWithoutRawSharesNothing: without the objects' text, the loader converts
// every document into one buffer per worker and reuses it for the next
// document (FileOptions.WithoutRaw). Were any part of the model left pointing
// into it, a later document would overwrite an earlier object: so the model
// of a few thousand generated documents, and of a List, loaded with and
// without the text, admitted and not, differ in nothing but the Raw that
// WithoutRaw drops.
func TestWithoutRawSharesNothing(t *testing.T) {
	path, _, err := generate.WriteFile(t.TempDir(), "2k", generate.Scaled(1, 2000))
	if err != nil {
		t.Fatal(err)
	}
	gateways, meshes := 0, 0
	for _, file := range []string{path, "../testdata/golden/drift-list-dump.yaml", "../testdata/golden/ocg-mesh.yaml"} {
		for _, off := range []bool{false, true} {
			opts := load.FileOptions{Filenames: []string{file}, Admission: load.Admission{Off: off}}
			with, err := load.Files(opts)
			if err != nil {
				t.Fatal(err)
			}
			opts.WithoutRaw = true
			without, err := load.Files(opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(without.Routes) == 0 {
				t.Fatalf("%s, admission off %v: no routes", file, off)
			}
			gateways, meshes = gateways+len(without.Gateways), meshes+len(without.Meshes)
			for i, g := range without.Gateways {
				if len(g.Raw) == 0 || !bytes.Equal(g.Raw, with.Gateways[i].Raw) {
					t.Errorf("%s, admission off %v: Gateway %s: Raw %.80q, want %.80q", file, off, g.Obj.Name, g.Raw, with.Gateways[i].Raw)
				}
			}
			for i, m := range without.Meshes {
				if len(m.Raw) == 0 || !bytes.Equal(m.Raw, with.Meshes[i].Raw) {
					t.Errorf("%s, admission off %v: Mesh %s: Raw %.80q, want %.80q", file, off, m.ObjectMeta.Name, m.Raw, with.Meshes[i].Raw)
				}
			}
			dropRaw(with)
			if !reflect.DeepEqual(with, without) {
				t.Errorf("%s, admission off %v: WithoutRaw changed more than Raw", file, off)
			}
		}
	}
	if gateways < 40 || meshes == 0 {
		t.Errorf("%d Gateways and %d Meshes kept their text: the inputs no longer hold what the test is about", gateways, meshes)
	}
}

// dropRaw clears the Raw WithoutRaw does not keep.
func dropRaw(m *model.Model) {
	for _, r := range m.Routes {
		r.Raw = nil
	}
	for _, l := range [][]*model.Meta{metas(m.GatewayClasses), metas(m.ListenerSets), metas(m.ReferenceGrants), metas(m.BackendTLSPolicies),
		metas(m.Secrets), metas(m.ConfigMaps), metas(m.Services), metas(m.Namespaces), metas(m.Ingresses), metas(m.IngressClasses)} {
		for _, meta := range l {
			meta.Raw = nil
		}
	}
	for _, s := range m.ServiceImports {
		s.Raw = nil
	}
}

func metas[T any](objs []*model.Object[T]) []*model.Meta {
	out := make([]*model.Meta, len(objs))
	for i, o := range objs {
		out[i] = &o.Meta
	}
	return out
}
