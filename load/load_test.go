package load

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

func cm(name string) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n"
}

// tree writes files (path -> content) under a fresh folder and returns it.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func configMapNames(m *model.Model) []string {
	var names []string
	for _, c := range m.ConfigMaps {
		names = append(names, c.Obj.Name)
	}
	return names
}

func TestFolders(t *testing.T) {
	dir := tree(t, map[string]string{
		"b.yaml":            cm("b"),
		"a.yml":             cm("a"),
		"c.json":            `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}`,
		"D.YAML":            cm("upper"),
		"notes.txt":         "not: [yaml",
		"README.md":         "# readme",
		"kustomization.bak": "x: [",
		"sub/z.yaml":        cm("sub-z"),
		"sub/deeper/y.yaml": cm("sub-deeper-y"),
		"sub/skip.txt":      "junk: [",
		"e.yaml.d/in.yaml":  cm("dir-with-yaml-name"),
	})
	t.Run("top level only", func(t *testing.T) {
		m, err := Files(FileOptions{Filenames: []string{dir}})
		if err != nil {
			t.Fatal(err)
		}
		// Sorted by path: D.YAML < a.yml < b.yaml < c.json.
		if got := strings.Join(configMapNames(m), ","); got != "upper,a,b,c" {
			t.Errorf("ConfigMaps = %s, want upper,a,b,c", got)
		}
		if src := m.ConfigMaps[1].Source; src != (model.Source{File: filepath.Join(dir, "a.yml"), Line: 1}) {
			t.Errorf("Source = %v", src)
		}
	})
	t.Run("recursive", func(t *testing.T) {
		m, err := Files(FileOptions{Filenames: []string{dir}, Recursive: true})
		if err != nil {
			t.Fatal(err)
		}
		want := "upper,a,b,c,dir-with-yaml-name,sub-deeper-y,sub-z"
		if got := strings.Join(configMapNames(m), ","); got != want {
			t.Errorf("ConfigMaps = %s, want %s", got, want)
		}
		for _, c := range m.ConfigMaps {
			if c.Source.Line != 1 || !strings.HasPrefix(c.Source.File, dir) {
				t.Errorf("%s: Source = %v", c.Obj.Name, c.Source)
			}
		}
	})
	t.Run("trailing slash", func(t *testing.T) {
		m, err := Files(FileOptions{Filenames: []string{dir + string(filepath.Separator)}})
		if err != nil {
			t.Fatal(err)
		}
		if len(m.ConfigMaps) != 4 {
			t.Errorf("ConfigMaps = %v", configMapNames(m))
		}
	})
	t.Run("a file given directly is read whatever its extension", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "manifest.txt")
		if err := os.WriteFile(p, []byte(cm("txt")), 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := Files(FileOptions{Filenames: []string{p}})
		if err != nil || len(m.ConfigMaps) != 1 {
			t.Errorf("err %v, model %v", err, m)
		}
	})
	t.Run("empty folder", func(t *testing.T) {
		m, err := Files(FileOptions{Filenames: []string{t.TempDir()}})
		if err != nil || m.Len() != 0 {
			t.Errorf("err %v, model %v", err, m)
		}
	})
	t.Run("error in a sub-folder file names that file", func(t *testing.T) {
		d := tree(t, map[string]string{"ok.yaml": cm("ok"), "sub/bad.yaml": cm("x") + "---\nkind: Gateway\n"})
		_, err := Files(FileOptions{Filenames: []string{d}, Recursive: true})
		var le *Error
		if !errors.As(err, &le) || le.Source != (model.Source{File: filepath.Join(d, "sub", "bad.yaml"), Line: 6}) {
			t.Errorf("err = %v, want a *load.Error at sub/bad.yaml:6", err)
		}
	})
}

func TestSeveralFilenamesKeepOrder(t *testing.T) {
	dir := tree(t, map[string]string{"one.yaml": cm("one") + "---\n" + cm("two"), "folder/x.yaml": cm("three")})
	m, err := Files(FileOptions{Filenames: []string{filepath.Join(dir, "folder"), filepath.Join(dir, "one.yaml")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(configMapNames(m), ","); got != "three,one,two" {
		t.Errorf("ConfigMaps = %s, want three,one,two (the order given)", got)
	}
	if m.ConfigMaps[2].Source.Line != 6 {
		t.Errorf("second document line = %d, want 6", m.ConfigMaps[2].Source.Line)
	}
}

func TestStdin(t *testing.T) {
	in := "# from a pipe\n" + cm("a") + "---\n" + cm("b")
	m, err := Files(FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(in)})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(configMapNames(m), ","); got != "a,b" {
		t.Fatalf("ConfigMaps = %s", got)
	}
	if src := m.ConfigMaps[1].Source; src != (model.Source{File: "<stdin>", Line: 7}) {
		t.Errorf("Source = %v, want <stdin>:7", src)
	}

	// Stdin beside a file.
	p := filepath.Join(t.TempDir(), "f.yaml")
	if err := os.WriteFile(p, []byte(cm("file")), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err = Files(FileOptions{Filenames: []string{p, "-"}, Stdin: strings.NewReader(cm("piped"))})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(configMapNames(m), ","); got != "file,piped" {
		t.Errorf("ConfigMaps = %s", got)
	}

	// An error on stdin names <stdin>:line.
	_, err = Files(FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(cm("a") + "---\nkind: Service\n")})
	var le *Error
	if !errors.As(err, &le) || !strings.HasPrefix(err.Error(), "<stdin>:6: ") {
		t.Errorf("err = %v, want <stdin>:6: ...", err)
	}

	// A failing reader.
	_, err = Files(FileOptions{Filenames: []string{"-"}, Stdin: errReader{}})
	if err == nil || !strings.Contains(err.Error(), "standard input") {
		t.Errorf("err = %v", err)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("boom") }

func TestKustomize(t *testing.T) {
	dir := filepath.Join("testdata", "kustomize")
	m, err := Files(FileOptions{Kustomize: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Gateways) != 1 || len(m.Routes) != 1 || len(m.Services) != 1 || m.Len() != 3 {
		t.Fatalf("model = %d gateways, %d routes, %d services (%d objects), want 1 each", len(m.Gateways), len(m.Routes), len(m.Services), m.Len())
	}
	g := m.Gateways[0]
	if g.Obj.Namespace != "shop" || g.Obj.Name != "web" {
		t.Errorf("Gateway = %s/%s, want shop/web (kustomization namespace)", g.Obj.Namespace, g.Obj.Name)
	}
	if r := m.Routes[0]; r.Key() != (model.NamespacedName{Namespace: "shop", Name: "shop"}) || len(r.Hostnames) != 1 {
		t.Errorf("route = %v hostnames %v", r.Key(), r.Hostnames)
	}
	seen := map[int]bool{}
	for _, src := range []model.Source{g.Source, m.Routes[0].Source, m.Services[0].Source} {
		if src.File != dir+" (kustomize)" || src.Line < 1 || seen[src.Line] {
			t.Errorf("Source = %v, want %q with a distinct line", src, dir+" (kustomize)")
		}
		seen[src.Line] = true
	}

	// Kustomize and -f together.
	m, err = Files(FileOptions{Kustomize: dir, Filenames: []string{"-"}, Stdin: strings.NewReader(cm("extra"))})
	if err != nil || m.Len() != 4 {
		t.Errorf("err %v, %d objects, want 4", err, m.Len())
	}
}

func TestDeterministic(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 300; i++ {
		b.WriteString(cm("cm-" + strconv.Itoa(i)))
		b.WriteString("---\n")
		b.WriteString("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n---\n")
	}
	m, p := mustLoad(t, b.String())
	if len(m.ConfigMaps) != 300 || m.Skipped["apps/v1/Deployment"] != 300 {
		t.Fatalf("%d configmaps, skipped %v", len(m.ConfigMaps), m.Skipped)
	}
	for i, c := range m.ConfigMaps {
		if c.Obj.Name != "cm-"+strconv.Itoa(i) || c.Source != (model.Source{File: p, Line: 1 + 10*i}) {
			t.Fatalf("ConfigMaps[%d] = %s at %v", i, c.Obj.Name, c.Source)
		}
	}
}

// FuzzLoad feeds arbitrary bytes through the public path (-f - with Stdin): it must
// never panic, and returns either a model or a *load.Error that names <stdin>:line.
func FuzzLoad(f *testing.F) {
	seeds := []string{
		cm("a"),
		cm("a") + "---\n" + cm("b"),
		"apiVersion: v1\nkind: List\nitems:\n- " + strings.ReplaceAll(strings.TrimSpace(cm("x")), "\n", "\n  ") + "\n",
		routeYAML(gwGroup+"/v1", "HTTPRoute", true),
		routeYAML(gwGroup+"/v1alpha2", "TLSRoute", true),
		routeYAML(gwGroup+"/v1alpha2", "TCPRoute", false),
		"apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: g\nspec:\n  listeners:\n  - name: h\n    port: 443\n    protocol: HTTPS\n    tls:\n      certificateRefs:\n      - name: c\n",
		"apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  a: YQ==\nstringData:\n  b: c\n",
		`{"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},"spec":{"ports":[{"port":80}]}}`,
		"--- # c\r\n...\r\n- a\n",
		"kind: X\n",
		"a: &a [1]\nb: [*a, *a]\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Files(FileOptions{Filenames: []string{"-"}, Stdin: bytes.NewReader(data)})
		if err == nil {
			if m == nil {
				t.Fatal("nil model and nil error")
			}
			total := 1 + bytes.Count(data, []byte("\n"))
			for _, r := range m.Routes {
				if r.Source.File != "<stdin>" || r.Source.Line < 1 || r.Source.Line > total {
					t.Fatalf("route Source %v outside the input (%d lines)", r.Source, total)
				}
			}
			return
		}
		if m != nil {
			t.Fatal("model returned beside an error")
		}
		var le *Error
		if !errors.As(err, &le) {
			t.Fatalf("error %q is a %T, want *load.Error", err, err)
		}
		if le.Source.File != "<stdin>" || le.Source.Line < 1 || le.Source.Line > 1+bytes.Count(data, []byte("\n")) {
			t.Fatalf("error Source %v outside the input: %v", le.Source, err)
		}
	})
}

// TestWithoutRawKeepsWhatTheEngineReads: WithoutRaw lets go of every object's
// text but a Gateway's and a Mesh's, whose provisional GEP-3792 fields the
// engine reads from it (ocg-mesh.yaml holds both, routes and Secrets, with
// admission off as its golden runs), and changes nothing else.
func TestWithoutRawKeepsWhatTheEngineReads(t *testing.T) {
	path := "../testdata/golden/ocg-mesh.yaml"
	with, err := Files(FileOptions{Filenames: []string{path}, Admission: Admission{Off: true}})
	if err != nil {
		t.Fatal(err)
	}
	without, err := Files(FileOptions{Filenames: []string{path}, Admission: Admission{Off: true}, WithoutRaw: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(without.Gateways) == 0 || len(without.Meshes) == 0 || len(without.Routes) == 0 || len(without.Secrets) == 0 {
		t.Fatalf("%s no longer holds Gateways, Meshes, routes and Secrets: %d, %d, %d, %d", path, len(without.Gateways), len(without.Meshes), len(without.Routes), len(without.Secrets))
	}
	for i, g := range without.Gateways {
		if !bytes.Equal(g.Raw, with.Gateways[i].Raw) || len(g.Raw) == 0 {
			t.Errorf("Gateway %s: Raw %q, want %q", g.Obj.Name, g.Raw, with.Gateways[i].Raw)
		}
	}
	for i, m := range without.Meshes {
		if !bytes.Equal(m.Raw, with.Meshes[i].Raw) || len(m.Raw) == 0 {
			t.Errorf("Mesh %s: Raw %q, want %q", m.ObjectMeta.Name, m.Raw, with.Meshes[i].Raw)
		}
	}
	for i, r := range without.Routes {
		if r.Raw != nil {
			t.Errorf("route %s kept its Raw", r.ObjectMeta.Name)
		}
		with.Routes[i].Raw = nil
	}
	for i, s := range without.Secrets {
		if s.Raw != nil {
			t.Errorf("Secret %s kept its Raw", s.Obj.Name)
		}
		with.Secrets[i].Raw = nil
	}
	if !reflect.DeepEqual(with.Routes, without.Routes) || !reflect.DeepEqual(with.Secrets, without.Secrets) {
		t.Error("WithoutRaw changed more than Raw")
	}
}
