package e2e

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// krewManifest is the part of a krew Plugin manifest the tests read.
type krewManifest struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name string `json:"name"`
	} `json:"metadata"`
	Spec struct {
		Version   string `json:"version"`
		Caveats   string `json:"caveats"`
		Platforms []struct {
			Selector struct {
				MatchLabels map[string]string `json:"matchLabels"`
			} `json:"selector"`
			URI    string `json:"uri"`
			Sha256 string `json:"sha256"`
			Files  []struct {
				From string `json:"from"`
				To   string `json:"to"`
			} `json:"files"`
			Bin string `json:"bin"`
		} `json:"platforms"`
	} `json:"spec"`
}

func readManifest(t *testing.T, path string) krewManifest {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m krewManifest
	if err := yaml.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

// The template in krew/ covers linux, darwin and windows on amd64 and arm64 and
// tells the user which permissions the plugin needs.
func TestKrewManifestTemplate(t *testing.T) {
	m := readManifest(t, "../krew/gwtls.yaml")
	if m.APIVersion != "krew.googlecontainertools.github.com/v1alpha2" || m.Kind != "Plugin" || m.Metadata.Name != "gwtls" {
		t.Errorf("apiVersion/kind/name: %s %s %s", m.APIVersion, m.Kind, m.Metadata.Name)
	}
	var got []string
	for _, p := range m.Spec.Platforms {
		got = append(got, p.Selector.MatchLabels["os"]+"/"+p.Selector.MatchLabels["arch"])
		var from []string
		for _, f := range p.Files {
			from = append(from, f.From)
		}
		if !strings.Contains(strings.Join(from, " "), "LICENSE") || !strings.Contains(strings.Join(from, " "), p.Bin) {
			t.Errorf("%s: files %v must extract the binary %s and LICENSE", got[len(got)-1], from, p.Bin)
		}
	}
	sort.Strings(got)
	if want := "darwin/amd64 darwin/arm64 linux/amd64 linux/arm64 windows/amd64 windows/arm64"; strings.Join(got, " ") != want {
		t.Errorf("platforms %v, want %s", got, want)
	}
	for _, want := range []string{"get, list", "gateway.networking.k8s.io", "services", "namespaces", "configmaps", "secrets (optional)", "skipped"} {
		if !strings.Contains(m.Spec.Caveats, want) {
			t.Errorf("caveats lack %q:\n%s", want, m.Spec.Caveats)
		}
	}
}

// The release path for one platform (PLATFORMS limits it to keep CI fast): the
// archive holds the binary, LICENSE and the completion helper; its sha256 is in
// checksums.txt and in the rendered manifest; the binary reports the version and
// commit given to the build; and krew's own validator accepts the manifest.
func TestDistAndKrewManifest(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skips the release build")
	}
	dist := t.TempDir()
	cmd := exec.Command("bash", "hack/dist.sh")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "PLATFORMS=linux/amd64", "DIST="+dist, "VERSION=v0.9.1", "COMMIT=0123456789abcdef0123456789abcdef01234567", "BUILD_DATE=2026-01-02T03:04:05Z")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hack/dist.sh: %v\n%s", err, out)
	}
	archive := filepath.Join(dist, "kubectl-gwtls_v0.9.1_linux_amd64.tar.gz")
	data, err := os.ReadFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	hexSum := hex.EncodeToString(sum[:])

	sums, err := os.ReadFile(filepath.Join(dist, "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if want := hexSum + "  kubectl-gwtls_v0.9.1_linux_amd64.tar.gz\n"; string(sums) != want {
		t.Errorf("checksums.txt:\n%s\nwant:\n%s", sums, want)
	}

	// The archive's files, as krew would extract them.
	files := untar(t, archive, filepath.Join(dist, "x"))
	for _, want := range []string{"kubectl-gwtls", "LICENSE", "kubectl_complete-gwtls"} {
		if _, ok := files[want]; !ok {
			t.Errorf("archive lacks %s (has %v)", want, files)
		}
	}
	if files["kubectl-gwtls"]&0o111 == 0 || files["kubectl_complete-gwtls"]&0o111 == 0 {
		t.Errorf("binary and helper must be executable: %v", files)
	}
	if lic, _ := os.ReadFile(filepath.Join(dist, "x", "LICENSE")); !strings.Contains(string(lic), "Apache License") {
		t.Error("LICENSE in the archive is not the Apache License")
	}
	out, err := exec.Command(filepath.Join(dist, "x", "kubectl-gwtls"), "version", "-o", "json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var v struct{ Version, Commit, BuildDate, GoVersion string }
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if v.Version != "v0.9.1" || v.Commit != "0123456789abcdef0123456789abcdef01234567" || v.BuildDate != "2026-01-02T03:04:05Z" || v.GoVersion == "" {
		t.Errorf("version -o json = %s", out)
	}

	// The rendered manifest names this archive and its sha256, and every file it
	// extracts is in the archive.
	manifest := filepath.Join(dist, "gwtls.yaml")
	m := readManifest(t, manifest)
	if m.Spec.Version != "v0.9.1" || len(m.Spec.Platforms) != 1 {
		t.Fatalf("rendered manifest: version %q, %d platforms (want v0.9.1, 1: only what was built)", m.Spec.Version, len(m.Spec.Platforms))
	}
	p := m.Spec.Platforms[0]
	if p.Sha256 != hexSum || !strings.HasSuffix(p.URI, "/v0.9.1/kubectl-gwtls_v0.9.1_linux_amd64.tar.gz") {
		t.Errorf("platform uri %s sha256 %s, want the archive's %s", p.URI, p.Sha256, hexSum)
	}
	for _, f := range p.Files {
		if _, ok := files[f.From]; !ok {
			t.Errorf("manifest extracts %s, which the archive lacks", f.From)
		}
	}

	// krew's validation (internal/index/validation) is not importable, and adding
	// sigs.k8s.io/krew to go.mod would pull k8s.io/client-go v11 over v0.36; so run
	// krew's own validate-krew-manifest, built apart from this module. -skip-install:
	// installing needs kubectl-krew and the release URL (the archive checks above
	// stand in for it).
	validate := exec.Command("go", "run", "sigs.k8s.io/krew/cmd/validate-krew-manifest@v0.4.3", "-manifest", manifest, "-skip-install")
	validate.Dir = t.TempDir()
	if out, err := validate.CombinedOutput(); err != nil {
		t.Fatalf("validate-krew-manifest: %v\n%s", err, out)
	} else if !strings.Contains(string(out), "structural validation OK") {
		t.Errorf("validate-krew-manifest said:\n%s", out)
	}
}

// untar extracts a .tar.gz into dir and returns each regular file's mode.
func untar(t *testing.T, archive, dir string) map[string]os.FileMode {
	t.Helper()
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]os.FileMode{}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag != tar.TypeReg || strings.Contains(h.Name, "/") || strings.Contains(h.Name, "..") {
			t.Fatalf("unexpected archive entry %q (want plain files at the top)", h.Name)
		}
		mode := os.FileMode(h.Mode).Perm()
		files[h.Name] = mode
		out, err := os.OpenFile(filepath.Join(dir, h.Name), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(out, tr); err != nil {
			t.Fatal(err)
		}
		out.Close()
	}
	return files
}

// Run as a kubectl plugin (the binary is named kubectl-gwtls), usage says
// "kubectl gwtls"; completion scripts register the binary, never "kubectl".
func TestPluginUsageAndCompletion(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"analyze", "--help"}, {"render", "graph", "--help"}} {
		r := gwtls(t, "", nil, args...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d %s", args, r.code, r.stderr)
		}
		want := "kubectl gwtls " + strings.Join(args[:len(args)-1], " ")
		if !strings.Contains(r.stdout, "Usage:\n  "+strings.TrimSpace(want)) {
			t.Errorf("%v: usage does not say %q:\n%s", args, want, r.stdout)
		}
	}
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		r := gwtls(t, "", nil, "completion", shell)
		if r.code != 0 || !strings.Contains(r.stdout, "kubectl-gwtls") {
			t.Errorf("completion %s: exit %d, mentions kubectl-gwtls: %v", shell, r.code, strings.Contains(r.stdout, "kubectl-gwtls"))
		}
	}
	if r := gwtls(t, "", nil, "completion", "bash"); !strings.Contains(r.stdout, "complete -o default -F __start_kubectl-gwtls kubectl-gwtls") {
		t.Errorf("bash completion does not register kubectl-gwtls")
	}
	if r := gwtls(t, "", nil, "completion", "--help"); !strings.Contains(r.stdout, "kubectl gwtls") || !strings.Contains(r.stdout, "kubectl_complete-gwtls") {
		t.Errorf("completion --help does not explain plugin completion:\n%s", r.stdout)
	}

	// kubectl >= 1.26 runs kubectl_complete-gwtls for "kubectl gwtls <TAB>".
	helper, err := filepath.Abs("../kubectl_complete-gwtls")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(helper, "render", "")
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("kubectl_complete-gwtls: %v", err)
	}
	for _, want := range []string{"graph\t", "report\t", "status\t", "plan\t", ":4"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("kubectl_complete-gwtls render <TAB> lacks %q:\n%s", want, out)
		}
	}
}

func TestVersion(t *testing.T) {
	r := gwtls(t, "", nil, "version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "kubectl-gwtls ") || !strings.Contains(r.stdout, "go:") || !strings.Contains(r.stdout, "commit:") {
		t.Errorf("version: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = gwtls(t, "", nil, "version", "-o", "json")
	var v map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil || v["version"] == nil || v["goVersion"] == nil {
		t.Errorf("version -o json: %v\n%s", err, r.stdout)
	}
	if r := gwtls(t, "", nil, "version", "-o", "xml"); r.code != 2 {
		t.Errorf("version -o xml: exit %d, want 2", r.code)
	}
}
