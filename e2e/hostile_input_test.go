//go:build linux

package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/fakecluster"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
)

// runEndless runs the binary with an endless stream of pattern on stdin
// (nil: none) and returns its result and its peak resident memory in MiB
// (getrusage's ru_maxrss, which Linux counts in KiB).
func runEndless(t *testing.T, pattern []byte, args ...string) (result, int64) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = ".."
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if pattern != nil {
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		chunk := bytes.Repeat(pattern, 64<<10/len(pattern))
		go func() {
			defer stdin.Close()
			for {
				if _, err := stdin.Write(chunk); err != nil {
					return // the process stopped reading
				}
			}
		}()
	}
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss >> 10
	return result{out.String(), errOut.String(), cmd.ProcessState.ExitCode()}, rss
}

// TestEndlessInputInBoundedMemory: an input without end, piped or a device,
// is refused with exit 2 and a message naming the limit, after a bounded read:
// the peak memory stays near the limit that applies (yes 'a: b' | ... once
// reached 6.2 GB in 8 s).
func TestEndlessInputInBoundedMemory(t *testing.T) {
	for _, tt := range []struct {
		name    string
		pattern []byte
		args    []string
		want    string
		mostMiB int64
	}{
		{"one endless document on stdin", []byte("a: b\n"), []string{"analyze", "-f", "-"}, "<stdin>:1: input too large: a document longer than 16 MiB", 256},
		{"endless small documents on stdin", []byte("a: b\n---\n"), []string{"analyze", "-f", "-", "--max-input-bytes", "64Mi"}, "<stdin>: input too large: the input is larger than 64 MiB (--max-input-bytes)", 512},
		{"/dev/zero", nil, []string{"analyze", "-f", "/dev/zero"}, "/dev/zero:1: input too large", 256},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, rss := runEndless(t, tt.pattern, tt.args...)
			if r.code != 2 || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", r.code, r.stderr, tt.want)
			}
			noStackTrace(t, r)
			t.Logf("peak memory %d MiB", rss)
			if rss > tt.mostMiB {
				t.Errorf("peak memory %d MiB, want at most %d MiB", rss, tt.mostMiB)
			}
		})
	}
}

// TestEndlessClusterListInBoundedMemory: a server that streams a list without
// end is cut off at --max-input-bytes, in bounded memory (such a server once
// drove the tool to 22.5 GB).
func TestEndlessClusterListInBoundedMemory(t *testing.T) {
	srv := fakecluster.New(t, map[string]http.HandlerFunc{"httproutes": fakecluster.Endless})
	r, rss := runEndless(t, nil, "analyze", "-A", "--kubeconfig", srv.Kubeconfig(t, t.TempDir()), "--max-input-bytes", "64Mi")
	if r.code != 2 || !strings.Contains(r.stderr, "listing httproutes: ") || !strings.Contains(r.stderr, "larger than 64 MiB (--max-input-bytes)") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	t.Logf("peak memory %d MiB", rss)
	if rss > 512 {
		t.Errorf("peak memory %d MiB, want at most 512 MiB", rss)
	}
}

// TestCrossedRoutesInBoundedMemory: 10,000 routes that each name a Gateway of
// 10,000 listeners (a 3.7 MB file, 100 million route and listener pairs) once
// grew past 6 GB over minutes. The engine attaches routes up to its bound
// (--max-attachment-checks, 4 million by default), leaves the rest out with an
// analysis/WorkBounded finding each and a warning, and stays within about the
// memory of the 100,000-route benchmark.
func TestCrossedRoutesInBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("analyzes 10,000 listeners x 10,000 routes")
	}
	path := filepath.Join(t.TempDir(), "crossed.yaml")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := generate.WriteCrossing(f, generate.Crossing{Gateways: 1, ListenersPerGateway: 10000, Routes: 10000, ParentRefs: 1, Hostnames: 1}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	// The Gateway's 10,000 listeners are past its CRD's 64: read as written.
	r, rss := runEndless(t, nil, "analyze", "-f", path, "-o", "json", "--admission=false")
	noStackTrace(t, r)
	t.Logf("peak memory %d MiB", rss)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (findings); stderr:\n%s", r.code, r.stderr)
	}
	if want := "warning: 9600 of 10000 routes were not attached: the input needs 100000000 attachment checks, past --max-attachment-checks 4000000"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr %q does not say %q", r.stderr, want)
	}
	var report struct {
		Findings []struct {
			Rule string `json:"rule"`
			Fix  string `json:"fix"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &report); err != nil {
		t.Fatal(err)
	}
	bounded := 0
	for _, f := range report.Findings {
		if f.Rule == "analysis/WorkBounded" && strings.Contains(f.Fix, "raise --max-attachment-checks to 100000000") {
			bounded++
		}
	}
	if bounded != 9600 {
		t.Errorf("%d analysis/WorkBounded findings naming the bound to raise, want one per route left out (9600)", bounded)
	}
	if rss > 1024 {
		t.Errorf("peak memory %d MiB, want at most 1024 MiB", rss)
	}
}
