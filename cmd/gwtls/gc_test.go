package gwtls

import (
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// TestCollectBeforeAnalysis runs the real collector: a model of 50,000 objects
// or more is collected for, a smaller one is not, and a user's GOGC wins.
func TestCollectBeforeAnalysis(t *testing.T) {
	t.Setenv("GOGC", "") // as when the user leaves it unset
	cycles := func(m *model.Model) (bool, uint32) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		did := collectBeforeAnalysis(m)
		runtime.ReadMemStats(&after)
		return did, after.NumGC - before.NumGC
	}
	objects := func(n int) *model.Model { return &model.Model{Namespaces: make([]*model.Namespace, n)} }
	for _, tc := range []struct {
		name    string
		objects int
		want    bool
	}{
		{"one object", 1, false},
		{"just under the threshold", largeModel - 1, false},
		{"the threshold", largeModel, true},
		{"100k objects", 100_000, true},
	} {
		if did, n := cycles(objects(tc.objects)); did != tc.want || (n > 0) != tc.want {
			t.Errorf("%s: collected %v, %d cycles; want %v", tc.name, did, n, tc.want)
		}
	}
	t.Setenv("GOGC", "off")
	if did, n := cycles(objects(100_000)); did || n != 0 {
		t.Errorf("100k objects with GOGC=off: collected %v, %d cycles; want no collection", did, n)
	}
}

// TestTuneGC: GOGC 300 and the machine's share as the soft limit until the
// input is known, unless the user set either.
func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	defer func(v bool) { limitFollowsInput = v }(limitFollowsInput)
	read := func() (int, int64) {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p, debug.SetMemoryLimit(-1)
	}
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	TuneGC()
	if p, l := read(); p != 300 || l != memoryLimit(0, machineMemory()) || !limitFollowsInput {
		t.Errorf("unset: GOGC %d, limit %d, follows input %v; want 300, %d, true", p, l, limitFollowsInput, memoryLimit(0, machineMemory()))
	}
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
	limitFollowsInput = false
	t.Setenv("GOGC", "100")
	t.Setenv("GOMEMLIMIT", "2GiB")
	TuneGC()
	if p, l := read(); p != 100 || l != math.MaxInt64 || limitFollowsInput {
		t.Errorf("set by the user: GOGC %d, limit %d, follows input %v; want them left alone", p, l, limitFollowsInput)
	}
}

// TestMemoryLimit: the limit grows with the input, so that three times the
// input gets three times the room, and stops at the machine.
func TestMemoryLimit(t *testing.T) {
	const mb = 1_000_000
	for _, tc := range []struct {
		name           string
		input, machine int64
		want           int64
	}{
		{"100k routes (39.7 MB) on a 24 GiB machine", 39_654_513, 24 << 30, limitBase + 16*39_654_513},
		{"300k routes (120 MB) on a 24 GiB machine", 120_201_779, 24 << 30, limitBase + 16*120_201_779},
		{"300k routes in a 1 GiB cgroup: three quarters of it", 120_201_779, 1 << 30, 768 << 20},
		{"input unknown (stdin, kustomize, cluster): the machine's share", 0, 8 << 30, 6 << 30},
		{"machine unknown: the input's", 40 * mb, 0, limitBase + 16*40*mb},
		{"neither known: no limit", 0, 0, math.MaxInt64},
		{"an input too large to multiply: the machine's share", math.MaxInt64 / 2, 8 << 30, 6 << 30},
	} {
		if got := memoryLimit(tc.input, tc.machine); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestMemoryLimitFollowsInput runs analyze at two sizes, as the binary does, and
// checks the limit each run sets: the part above the base grows with the input
// files, three times the routes giving three times the room (a fixed limit made
// 300k routes collect for most of their run); diff, which holds two
// configurations, gets room for both; admission doubles the room.
func TestMemoryLimitFollowsInput(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	defer func(v bool) { limitFollowsInput = v }(limitFollowsInput)
	limitFollowsInput = true
	machine := machineMemory()
	if machine > 0 && machine/4*3 < limitBase+2*admissionMemoryFactor*limitPerInputByte*4_000_000 {
		t.Skipf("a machine of %d bytes caps the limit below what this test measures", machine)
	}
	dir := t.TempDir()
	limit := func(routes int) (int64, int64) {
		b, err := generate.Bytes(generate.Scaled(1, routes))
		if err != nil {
			t.Fatal(err)
		}
		sub := filepath.Join(dir, strconv.Itoa(routes))
		if err := os.Mkdir(sub, 0o700); err != nil {
			t.Fatal(err)
		}
		// A folder, so that the folder's files are counted, and a file that
		// is not read is not.
		if err := os.WriteFile(filepath.Join(sub, "in.yaml"), b, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, "README.md"), make([]byte, 1<<20), 0o600); err != nil {
			t.Fatal(err)
		}
		debug.SetMemoryLimit(math.MaxInt64)
		if _, stderr, code := run(t, "", "analyze", "-f", sub, "--now", goldenNow, "--fail-on", "none"); code != ExitClean {
			t.Fatalf("analyze %d routes: exit %d\n%s", routes, code, stderr)
		}
		return int64(len(b)), debug.SetMemoryLimit(-1)
	}
	in1, l1 := limit(1000)
	in3, l3 := limit(3000)
	for _, r := range []struct{ input, limit int64 }{{in1, l1}, {in3, l3}} {
		if want := memoryLimit(admissionMemoryFactor*r.input, machine); r.limit != want {
			t.Errorf("input of %d bytes: limit %d, want %d", r.input, r.limit, want)
		}
	}
	if grow, want := float64(l3-limitBase)/float64(l1-limitBase), float64(in3)/float64(in1); grow < want*0.99 || grow > want*1.01 {
		t.Errorf("1k -> 3k routes: the input grew x%.2f, the limit above its base x%.2f", want, grow)
	}
	// diff holds two configurations the size of the -f files at once.
	debug.SetMemoryLimit(math.MaxInt64)
	sub := filepath.Join(dir, "1000")
	if _, stderr, code := run(t, "", "diff", "-f", sub, "--base", sub, "--now", goldenNow); code != ExitClean {
		t.Fatalf("diff: exit %d\n%s", code, stderr)
	}
	if got, want := debug.SetMemoryLimit(-1), memoryLimit(2*admissionMemoryFactor*in1, machine); got != want {
		t.Errorf("diff of %d bytes: limit %d, want %d (two configurations)", in1, got, want)
	}
	// Without admission, the room of the input alone.
	debug.SetMemoryLimit(math.MaxInt64)
	if _, stderr, code := run(t, "", "analyze", "-f", sub, "--admission=false", "--now", goldenNow, "--fail-on", "none"); code != ExitClean {
		t.Fatalf("analyze --admission=false: exit %d\n%s", code, stderr)
	}
	if got, want := debug.SetMemoryLimit(-1), memoryLimit(in1, machine); got != want {
		t.Errorf("analyze --admission=false of %d bytes: limit %d, want %d", in1, got, want)
	}
	if heldConfigurations != 1 {
		t.Errorf("after diff the command holds %d configurations, want 1", heldConfigurations)
	}
}

// TestMemTotal reads /proc/meminfo's format.
func TestMemTotal(t *testing.T) {
	const meminfo = "MemTotal:       24731708 kB\nMemFree:         1664512 kB\n"
	if got, want := memTotal(strings.NewReader(meminfo)), int64(24731708)<<10; got != want {
		t.Errorf("memTotal = %d, want %d", got, want)
	}
	if got := memTotal(strings.NewReader("MemFree: 1 kB\n")); got != 0 {
		t.Errorf("memTotal without MemTotal = %d, want 0", got)
	}
}

// TestCollectsHarderWhileAdmitting: while admission validates the input, GOGC
// is admittingGCPercent, and the run's own from the collection before the
// analysis on, whatever the model's size; without admission, or with GOGC
// set by the user or a test, the load leaves GOGC alone.
func TestCollectsHarderWhileAdmitting(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(gcPercent))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	defer func(v bool) { limitFollowsInput = v }(limitFollowsInput)
	t.Setenv("GOGC", "")
	small := &model.Model{Namespaces: make([]*model.Namespace, 1)}
	for _, tc := range []struct {
		name                 string
		follows, admissionOn bool
		gogc                 string
		during               int
	}{
		{"admission", true, true, "", admittingGCPercent},
		{"admission off", true, false, "", gcPercent},
		{"GOGC set", true, true, "200", gcPercent},
		{"in a test", false, true, "", gcPercent},
	} {
		t.Setenv("GOGC", tc.gogc)
		limitFollowsInput = tc.follows
		debug.SetGCPercent(gcPercent)
		o := &InputOptions{admission: load.Admission{Off: !tc.admissionOn}}
		o.limitMemoryToInput()
		if got := debug.SetGCPercent(-1); got != tc.during {
			t.Errorf("%s: GOGC %d while loading; want %d", tc.name, got, tc.during)
		}
		debug.SetGCPercent(tc.during)
		collectBeforeAnalysis(small)
		if got := debug.SetGCPercent(-1); got != gcPercent {
			t.Errorf("%s: GOGC %d after the load; want %d", tc.name, got, gcPercent)
		}
		debug.SetGCPercent(gcPercent)
	}
}
