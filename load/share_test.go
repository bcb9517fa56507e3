package load

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// sharedBase is a configuration of every kind a diff's base holds: a
// GatewayClass, Namespaces, a Gateway with listeners, a Secret, HTTPRoutes.
func sharedBase(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "diff", "hostname-added-removed", "base.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	docs := strings.Split(string(data), "\n---\n")
	for i, d := range docs {
		docs[i] = strings.TrimRight(d, "\n") + "\n"
	}
	return docs
}

// loadShared loads files in order with one Shared, and each again alone.
func loadShared(t *testing.T, opts FileOptions, files ...string) (shared, alone []*model.Model, errs, aloneErrs []error) {
	t.Helper()
	sh := NewShared()
	for _, f := range files {
		o := opts
		o.Filenames, o.Shared = []string{f}, sh
		m, err := Files(o)
		shared, errs = append(shared, m), append(errs, err)
		o.Shared = nil
		m, err = Files(o)
		alone, aloneErrs = append(alone, m), append(aloneErrs, err)
	}
	return shared, alone, errs, aloneErrs
}

// TestSharedDocumentsAtOtherLines: the head holds the base's documents at
// other lines (comments above them, in another order) and one of them changed
// by one byte. Loaded after the base with one Shared, the head's model is the
// model it loads to alone, file:line of every object and listener included,
// while each document the base holds byte for byte was decoded once: its
// typed contents are the base's.
func TestSharedDocumentsAtOtherLines(t *testing.T) {
	docs := sharedBase(t)
	head := slices.Clone(docs)
	slices.Reverse(head)
	changed := -1
	for i, d := range head {
		if strings.Contains(d, "kind: HTTPRoute") && strings.Contains(d, "www.example.com") {
			head[i] = strings.Replace(d, "www.example.com", "wwx.example.com", 1)
			changed = i
			break
		}
	}
	if changed < 0 {
		t.Fatal("no HTTPRoute for www.example.com in the base")
	}
	dir := t.TempDir()
	basePath, headPath := filepath.Join(dir, "base.yaml"), filepath.Join(dir, "head.yaml")
	writeFile(t, basePath, strings.Join(docs, "---\n"))
	// A comment before a document is its text: the head's are on documents
	// of their own.
	writeFile(t, headPath, "# the head\n#\n---\n"+strings.Join(head, "---\n# moved\n---\n"))
	for _, opts := range []FileOptions{{}, {Admission: Admission{Off: true}}, {WithoutRaw: true}} {
		shared, alone, errs, aloneErrs := loadShared(t, opts, basePath, headPath)
		for i := range errs {
			if errs[i] != nil || aloneErrs[i] != nil {
				t.Fatalf("%+v: load: %v, alone: %v", opts, errs[i], aloneErrs[i])
			}
			if !reflect.DeepEqual(shared[i], alone[i]) {
				t.Errorf("%+v: file %d: the model loaded with a Shared differs from the one loaded alone", opts, i)
			}
		}
		bm, hm := shared[0], shared[1]
		if len(bm.Routes) < 2 || len(hm.Routes) != len(bm.Routes) || len(hm.Gateways) != 1 {
			t.Fatalf("%+v: base has %d routes, head %d and %d Gateways", opts, len(bm.Routes), len(hm.Routes), len(hm.Gateways))
		}
		// The Gateway is the base's, decoded once, at its own lines.
		bg, hg := bm.Gateways[0], hm.Gateways[0]
		if &bg.Obj.Spec.Listeners[0] != &hg.Obj.Spec.Listeners[0] {
			t.Errorf("%+v: the head's Gateway was decoded again", opts)
		}
		if bg.Obj == hg.Obj || bg.Source == hg.Source || slices.Equal(bg.ListenerLines, hg.ListenerLines) || len(hg.ListenerLines) != 2 {
			t.Errorf("%+v: the head's Gateway is at %v, listeners %v; the base's at %v, %v: want objects and lines of its own", opts, hg.Source, hg.ListenerLines, bg.Source, bg.ListenerLines)
		}
		for _, hr := range hm.Routes {
			var br *model.Route
			for _, r := range bm.Routes {
				if r.Key() == hr.Key() {
					br = r
				}
			}
			if br == nil {
				t.Fatalf("%+v: route %s is not in the base", opts, hr.Key())
			}
			same := &br.Hostnames[0] == &hr.Hostnames[0]
			if moved := hr.Hostnames[0] == "wwx.example.com"; same == moved {
				t.Errorf("%+v: route %s (hostnames %v): shared with the base's: %v", opts, hr.Key(), hr.Hostnames, same)
			}
			if br == hr || br.Source == hr.Source {
				t.Errorf("%+v: route %s at %v in the head, %v in the base: want its own object and line", opts, hr.Key(), hr.Source, br.Source)
			}
		}
	}
}

// TestSharedDocumentTwiceInOneFile: the same text twice in one file is
// decoded once, and still the same object defined twice, with the error it
// has without sharing; so is a file of it loaded after another that holds it.
func TestSharedDocumentTwiceInOneFile(t *testing.T) {
	dir := t.TempDir()
	one, twice := filepath.Join(dir, "one.yaml"), filepath.Join(dir, "twice.yaml")
	writeFile(t, one, cm("a"))
	writeFile(t, twice, cm("b")+"---\n"+cm("a")+"---\n# again\n"+cm("a"))
	_, _, errs, aloneErrs := loadShared(t, FileOptions{}, one, twice, twice)
	for i, err := range errs[1:] {
		if err == nil || aloneErrs[i+1] == nil || err.Error() != aloneErrs[i+1].Error() {
			t.Errorf("load %d: %v, alone: %v", i+2, err, aloneErrs[i+1])
		}
		if want := "twice.yaml:12: ConfigMap \"default/a\" is defined twice: first at " + twice + ":6"; err == nil || !strings.HasSuffix(strings.SplitN(err.Error(), ", again here", 2)[0], want) {
			t.Errorf("load %d: %v, want it to end %q", i+2, err, want)
		}
	}
}

// TestSharedDocumentOneByteApart: documents one byte apart share nothing;
// the head's object is what its text says.
func TestSharedDocumentOneByteApart(t *testing.T) {
	route := func(host string) string {
		return "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: r\n  namespace: apps\nspec:\n  hostnames:\n  - " + host + "\n"
	}
	dir := t.TempDir()
	base, head := filepath.Join(dir, "base.yaml"), filepath.Join(dir, "head.yaml")
	writeFile(t, base, route("a.example.com"))
	writeFile(t, head, route("b.example.com"))
	shared, alone, errs, _ := loadShared(t, FileOptions{}, base, head)
	if errs[0] != nil || errs[1] != nil {
		t.Fatal(errs)
	}
	if got := shared[1].Routes[0].Hostnames; !slices.Equal(got, alone[1].Routes[0].Hostnames) || got[0] != "b.example.com" {
		t.Errorf("head's hostnames %v, want [b.example.com]", got)
	}
}

// TestSharedAcrossOptions: a load that decodes otherwise than the first of
// its Shared (another default namespace) shares none of its documents.
func TestSharedAcrossOptions(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "cm.yaml")
	writeFile(t, f, cm("a"))
	sh := NewShared()
	if _, err := Files(FileOptions{Filenames: []string{f}, Shared: sh}); err != nil {
		t.Fatal(err)
	}
	m, err := Files(FileOptions{Filenames: []string{f}, Shared: sh, DefaultNamespace: "other"})
	if err != nil {
		t.Fatal(err)
	}
	if ns := m.ConfigMaps[0].Obj.Namespace; ns != "other" {
		t.Errorf("namespace %q, want other", ns)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestEveryKindRelocates: every kind the loader decodes, but Ingress (whose
// lines are found by reading its document again), can be shared between
// loads, and its copy for a document further down is its own object, at its
// own file and lines, over the same typed contents.
func TestEveryKindRelocates(t *testing.T) {
	for i := range kinds {
		k := &kinds[i]
		obj, _, meta, err := k.decode(source{js: []byte(`{"metadata":{"name":"x","namespace":"ns"}}`)})
		if err != nil {
			t.Fatalf("%s: %v", k.name, err)
		}
		if k.name == "Ingress" {
			if relocatable(obj) {
				t.Errorf("Ingress is shared: its IngressLines read its own document")
			}
			continue
		}
		if !relocatable(obj) {
			t.Errorf("%s/%s is decoded again in every load: add it to relocators", k.group, k.name)
			continue
		}
		*meta = model.Meta{Kind: k.name, Source: model.Source{File: "base.yaml", Line: 3}, ListenerLines: []int{5, 9}}
		c, cmeta := relocated(obj, "head.yaml", 10)
		if c == obj || reflect.TypeOf(c) != reflect.TypeOf(obj) {
			t.Errorf("%s: the copy is %T %p, the object %T %p", k.name, c, c, obj, obj)
		}
		// A model.Object's top-level struct is its own too: the load's later
		// passes (shareMetadata) assign its ObjectMeta's fields.
		if inner := reflect.ValueOf(obj).Elem().FieldByName("Obj"); inner.IsValid() {
			if reflect.ValueOf(c).Elem().FieldByName("Obj").Pointer() == inner.Pointer() {
				t.Errorf("%s: the copy shares its top-level struct with the object", k.name)
			}
		}
		if want := (model.Source{File: "head.yaml", Line: 13}); cmeta.Source != want || !slices.Equal(cmeta.ListenerLines, []int{15, 19}) {
			t.Errorf("%s: the copy is at %+v, listeners %v; want %+v, [15 19]", k.name, cmeta.Source, cmeta.ListenerLines, want)
		}
		if meta.Source.Line != 3 || !slices.Equal(meta.ListenerLines, []int{5, 9}) {
			t.Errorf("%s: relocating moved the object shared: %+v %v", k.name, meta.Source, meta.ListenerLines)
		}
	}
}
