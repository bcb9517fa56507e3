package load

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestKustomizeRefusesRemote: an offline linter never fetches. A kustomization
// that names a remote base or file, at any depth, is refused before kustomize
// runs: no git (PATH holds none, so a clone would fail with another message)
// and no HTTP request (the server counts them).
func TestKustomizeRefusesRemote(t *testing.T) {
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		_, _ = w.Write([]byte(cm("fetched")))
	}))
	defer srv.Close()
	url := srv.URL + "/cm.yaml"
	t.Setenv("PATH", t.TempDir())

	const head = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
	tests := []struct {
		name  string
		files map[string]string
		want  []string // the error names the file, the field and the entry
	}{
		{
			name:  "a git base in resources",
			files: map[string]string{"kustomization.yaml": head + "resources:\n- github.com/org/repo//deploy?ref=v1\n"},
			want:  []string{"kustomization.yaml: resources entry \"github.com/org/repo//deploy?ref=v1\" is remote"},
		},
		{
			name:  "an https resource",
			files: map[string]string{"kustomization.yaml": head + "resources:\n- " + url + "\n"},
			want:  []string{"resources entry \"" + url + "\" is remote"},
		},
		{
			name:  "an ssh base in the deprecated bases",
			files: map[string]string{"kustomization.yaml": head + "bases:\n- git@github.com:org/repo.git\n"},
			want:  []string{"bases entry \"git@github.com:org/repo.git\""},
		},
		{
			name:  "a go-getter style component",
			files: map[string]string{"kustomization.yaml": head + "components:\n- git::https://example.com/org/repo.git//c\n"},
			want:  []string{"components entry"},
		},
		{
			name:  "a patch file fetched over HTTP",
			files: map[string]string{"kustomization.yaml": head + "patches:\n- path: " + url + "\n  target:\n    kind: ConfigMap\n"},
			want:  []string{"path entry \"" + url + "\""},
		},
		{
			name:  "a generator's file fetched over HTTP",
			files: map[string]string{"kustomization.yaml": head + "configMapGenerator:\n- name: g\n  files:\n  - key=" + url + "\n"},
			want:  []string{"files entry \"key=" + url + "\""},
		},
		{
			name: "a remote base in a local base",
			files: map[string]string{
				"kustomization.yaml":      head + "resources:\n- base\n",
				"base/kustomization.yaml": head + "resources:\n- https://github.com/org/repo/deploy\n",
			},
			want: []string{"base/kustomization.yaml: resources entry"},
		},
		{
			name: "a generator configuration file that fetches",
			files: map[string]string{
				"kustomization.yaml": head + "generators:\n- gen.yaml\n",
				"gen.yaml":           "apiVersion: builtin\nkind: ConfigMapGenerator\nmetadata:\n  name: g\nfiles:\n- " + url + "\n",
			},
			want: []string{"gen.yaml: files entry"},
		},
		{
			name:  "an inline transformer configuration that fetches",
			files: map[string]string{"kustomization.yaml": head + "transformers:\n- |\n  apiVersion: builtin\n  kind: PatchTransformer\n  metadata:\n    name: p\n  path: " + url + "\n"},
			want:  []string{"path entry"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tree(t, tt.files)
			_, err := Files(FileOptions{Kustomize: dir})
			if err == nil {
				t.Fatal("a remote kustomization was built")
			}
			for _, w := range append(tt.want, "kustomize would fetch it over the network", "kustomize build DIR | kubectl gwtls analyze -f -") {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
	for _, root := range []string{"github.com/org/repo//deploy", url} {
		if _, err := Files(FileOptions{Kustomize: root}); err == nil || !strings.Contains(err.Error(), "-k "+root+": a remote kustomization") {
			t.Errorf("-k %s: err = %v", root, err)
		}
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("the linter made %d HTTP requests", n)
	}
}

// TestKustomizeLocalLookalikes: local bases, local files and values that
// merely mention a URL are read as kustomize reads them.
func TestKustomizeLocalLookalikes(t *testing.T) {
	dir := tree(t, map[string]string{
		"kustomization.yaml": "resources:\n- cm.yaml\n- base\ncommonAnnotations:\n  docs: https://example.com/runbook\n" +
			"patches:\n- patch: |\n    apiVersion: v1\n    kind: ConfigMap\n    metadata:\n      name: a\n      annotations:\n        link: https://example.com\n" +
			"configMapGenerator:\n- name: generated\n  files:\n  - key=data.txt\n",
		"cm.yaml":                 cm("a"),
		"data.txt":                "https://example.com\n",
		"base/kustomization.yaml": "resources:\n- cm.yaml\n",
		"base/cm.yaml":            cm("b"),
	})
	m, err := Files(FileOptions{Kustomize: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.ConfigMaps) != 3 {
		t.Errorf("read ConfigMaps %v, want a, b and the generated one", configMapNames(m))
	}
}

// TestKustomizeInputCap: files a kustomization reads count against the cap.
func TestKustomizeInputCap(t *testing.T) {
	dir := tree(t, map[string]string{"kustomization.yaml": "resources:\n- cm.yaml\n", "cm.yaml": cm("a") + strings.Repeat("# padding\n", 1000)})
	_, err := Files(FileOptions{Kustomize: dir, MaxInputBytes: 4096})
	if err == nil || !strings.Contains(err.Error(), "larger than 4 KiB (--max-input-bytes)") {
		t.Errorf("err = %v", err)
	}
}
