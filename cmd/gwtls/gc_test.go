package gwtls

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"

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

// TestTuneGC: GOGC 300 and a 768 MiB soft limit, unless the user set either.
func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	read := func() (int, int64) {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p, debug.SetMemoryLimit(-1)
	}
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	TuneGC()
	if p, l := read(); p != 300 || l != 768<<20 {
		t.Errorf("unset: GOGC %d, limit %d; want 300, %d", p, l, 768<<20)
	}
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
	t.Setenv("GOGC", "100")
	t.Setenv("GOMEMLIMIT", "2GiB")
	TuneGC()
	if p, l := read(); p != 100 || l != math.MaxInt64 {
		t.Errorf("set by the user: GOGC %d, limit %d; want them left alone", p, l)
	}
}
