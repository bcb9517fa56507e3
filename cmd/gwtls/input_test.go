package gwtls

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/fakecluster"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
)

// TestEmptyInputIsAnError: a run that analyzed no Gateway API object says so
// and exits 2, in every command that reads input, unless --allow-empty says an
// empty input is expected.
func TestEmptyInputIsAnError(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.yaml")
	separators := filepath.Join(dir, "separators.yaml")
	folder := filepath.Join(dir, "folder")
	for p, content := range map[string]string{empty: "", separators: "---\n---\n"} {
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"analyze an empty file", []string{"analyze", "-f", empty}},
		{"analyze a file of separators as JSON", []string{"analyze", "-f", separators, "-o", "json"}},
		{"analyze an empty folder", []string{"analyze", "-f", folder, "-R"}},
		{"render status of an empty file", []string{"render", "status", "-f", empty}},
		{"simulate an empty file", []string{"simulate", "--all", "-f", empty}},
	} {
		args := tt.args
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, "", args...)
			if code != ExitError {
				t.Errorf("exit %d, want %d\n%s%s", code, ExitError, out, errOut)
			}
			for _, w := range []string{"no Gateway API object to analyze", "pass --allow-empty"} {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr %q does not contain %q", errOut, w)
				}
			}
			out, errOut, code = run(t, "", append(args, "--allow-empty")...)
			if code != ExitClean || !strings.Contains(errOut, "warning: ") || !strings.Contains(errOut, "(--allow-empty)") {
				t.Errorf("--allow-empty: exit %d, stderr %q\n%s", code, errOut, out)
			}
		})
	}
	_, errOut, code := run(t, "", "analyze", "-f", "-")
	if code != ExitError || !strings.Contains(errOut, "error: <stdin>: no Gateway API object") {
		t.Errorf("empty stdin: exit %d, stderr %q", code, errOut)
	}
}

// TestInputFlagsRefuseNonsense: flag values and combinations that cannot
// work are usage errors.
func TestInputFlagsRefuseNonsense(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"analyze", "-k", dir, "-R"}, "-R applies to folders given with -f"},
		{[]string{"analyze", "-f", dir, "--max-input-bytes", "-5"}, `--max-input-bytes "-5": want a positive size`},
		{[]string{"analyze", "-f", dir, "--max-input-bytes", "lots"}, `--max-input-bytes "lots"`},
	} {
		_, errOut, code := run(t, "", tt.args...)
		if code != ExitError || !strings.Contains(errOut, tt.want) || !strings.Contains(errOut, "-h' for help") {
			t.Errorf("%v: exit %d, stderr %q", tt.args, code, errOut)
		}
	}
}

// TestMaxInputBytes: the flag takes a quantity and bounds the run.
func TestMaxInputBytes(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.yaml")
	content := "apiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\nmetadata:\n  name: c\nspec:\n  controllerName: example.com/c\n" + strings.Repeat("# padding\n", 200)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := run(t, "", "analyze", "-f", p, "--max-input-bytes", "1Ki")
	if code != ExitError || !strings.Contains(errOut, "larger than 1 KiB (--max-input-bytes)") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if _, errOut, code := run(t, "", "analyze", "-f", p, "--max-input-bytes", "4Ki"); code != ExitClean {
		t.Errorf("within the limit: exit %d, stderr %q", code, errOut)
	}
}

// TestClusterDeadlineAndPermissions: each request has a deadline by default
// (kubectl's has none), --request-timeout overrides it, and a cluster where
// every kind is forbidden is an empty input, while one forbidden kind is a
// warning.
func TestClusterDeadlineAndPermissions(t *testing.T) {
	root := NewRootCmd(genericiooptions.NewTestIOStreamsDiscard())
	if f := root.PersistentFlags().Lookup("request-timeout"); f == nil || f.DefValue != load.DefaultRequestTimeout.String() {
		t.Errorf("--request-timeout default %v, want %s", f, load.DefaultRequestTimeout)
	}

	never := fakecluster.New(t, map[string]http.HandlerFunc{"gateways": fakecluster.Never})
	start := time.Now()
	_, errOut, code := run(t, "", "analyze", "-A", "--kubeconfig", never.Kubeconfig(t, t.TempDir()), "--request-timeout", "1s")
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("--request-timeout 1s: gave up after %s", took)
	}
	if code != ExitError || !strings.Contains(errOut, "did not answer within 1s (--request-timeout)") {
		t.Errorf("a server that never answers: exit %d, stderr %q", code, errOut)
	}

	all := map[string]http.HandlerFunc{}
	for _, resources := range fakecluster.Resources {
		for _, r := range resources {
			all[r] = fakecluster.Forbidden
		}
	}
	forbidden := fakecluster.New(t, all).Kubeconfig(t, t.TempDir())
	_, errOut, code = run(t, "", "analyze", "-A", "--kubeconfig", forbidden)
	if code != ExitError || !strings.Contains(errOut, "the cluster, every namespace: no Gateway API object to analyze") || !strings.Contains(errOut, "the identity may not list") {
		t.Errorf("every kind forbidden: exit %d, stderr %q", code, errOut)
	}
	if _, errOut, code := run(t, "", "analyze", "-A", "--kubeconfig", forbidden, "--allow-empty"); code != ExitClean {
		t.Errorf("every kind forbidden, --allow-empty: exit %d, stderr %q", code, errOut)
	}

	secretsForbidden := fakecluster.New(t, map[string]http.HandlerFunc{
		"secrets":        fakecluster.Forbidden,
		"gatewayclasses": fakecluster.Items(`{"metadata":{"name":"c"},"spec":{"controllerName":"example.com/c"}}`),
	}).Kubeconfig(t, t.TempDir())
	out, errOut, code := run(t, "", "analyze", "-A", "--kubeconfig", secretsForbidden)
	if code == ExitError || !strings.Contains(out, "load/Unreadable") {
		t.Errorf("Secrets forbidden: exit %d, want a warning\n%s%s", code, out, errOut)
	}
}
