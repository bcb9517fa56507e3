package gwtls

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
)

// TestProfileFlags runs commands with --cpuprofile and --memprofile and reads
// the files back with `go tool pprof`, as a user's recipient would: each must
// be a profile of its kind, written whether the run found problems or not, and
// the heap profile must hold the run's own allocations.
func TestProfileFlags(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("reading a profile needs the go command:", err)
	}
	dir := t.TempDir()
	input := filepath.Join(dir, "1k.yaml")
	b, err := generate.Bytes(generate.Scaled(1, 1000))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(input, b, 0o600); err != nil {
		t.Fatal(err)
	}
	pprof := func(t *testing.T, args ...string) string {
		t.Helper()
		out, err := exec.Command(goTool, append([]string{"tool", "pprof"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("go tool pprof %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"analyze with findings exits 1", []string{"analyze", "-f", input, "-o", "json"}, ExitFindings},
		{"render status", []string{"render", "status", "-f", input, "-o", "yaml"}, ExitClean},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cpu, mem := filepath.Join(t.TempDir(), "cpu.pprof"), filepath.Join(t.TempDir(), "mem.pprof")
			_, stderr, code := run(t, "", append(tc.args, "--now", goldenNow, "--cpuprofile", cpu, "--memprofile", mem)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			if out := pprof(t, "-raw", cpu); !strings.Contains(out, "PeriodType: cpu nanoseconds") {
				t.Errorf("--cpuprofile wrote no CPU profile:\n%s", out)
			}
			out := pprof(t, "-sample_index=alloc_space", "-traces", mem)
			if !strings.Contains(out, "Type: alloc_space") {
				t.Errorf("--memprofile wrote no heap profile:\n%s", out)
			}
			if !strings.Contains(out, "kubectl-gwtls/load.") {
				t.Errorf("the heap profile holds none of the loader's allocations:\n%.2000s", out)
			}
		})
	}
}

// TestProfileFlagUnwritable: a profile that cannot be created is a usage error
// and the command does not run.
func TestProfileFlagUnwritable(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-dir", "cpu.pprof")
	stdout, stderr, code := run(t, "", "analyze", "-f", "../../testdata/golden/drift-clean.yaml", "--cpuprofile", missing)
	if code != ExitError {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, ExitError, stderr)
	}
	if !strings.Contains(stderr, "--cpuprofile") || stdout != "" {
		t.Errorf("want an error naming --cpuprofile and no output; stdout %q stderr %q", stdout, stderr)
	}
}
