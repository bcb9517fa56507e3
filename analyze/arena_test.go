package analyze

import (
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/load"
)

// TestArenaIsPlainAllocation checks the arena against what it replaces, one
// make per result: every block it hands out is zeroed, has its length as its
// capacity, and keeps what is written to it whatever is handed out after it or
// appended to its neighbours, across block boundaries and for requests larger
// than a block.
func TestArenaIsPlainAllocation(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var a arena
	type handed struct {
		parents []*ParentResult
		want    []int // the Index written into each, as plain allocation would keep it
	}
	var all []handed
	next := 0
	for range 2000 {
		n := r.IntN(8)
		if r.IntN(100) == 0 {
			n = arenaBlock + r.IntN(arenaBlock) // larger than a block
		}
		ps := a.parentResults(n)
		if len(ps) != n || cap(ps) != n {
			t.Fatalf("asked for %d, got len %d cap %d", n, len(ps), cap(ps))
		}
		h := handed{parents: ps}
		for _, p := range ps {
			if p.Index != 0 || p.Route != nil || p.Attachments != nil {
				t.Fatalf("a handed-out result is not zeroed: %+v", p)
			}
			next++
			p.Index = int32(next)
			h.want = append(h.want, next)
		}
		all = append(all, h)
	}
	// Appending to a handed-out slice must not reach the one after it.
	for _, h := range all {
		_ = append(h.parents, &ParentResult{Index: -1})
	}
	seen := map[*ParentResult]bool{}
	for _, h := range all {
		for i, p := range h.parents {
			if seen[p] {
				t.Fatalf("result %p handed out twice", p)
			}
			seen[p] = true
			if int(p.Index) != h.want[i] {
				t.Fatalf("result %d holds %d: a later block overwrote it", h.want[i], p.Index)
			}
		}
	}
	if rr := a.route(); rr.Route != nil || rr.Parents != nil {
		t.Fatalf("a handed-out route is not zeroed: %+v", rr)
	}
}

// TestArenaTextIsACopy checks the arena's text against the strings it copies:
// each copy equals its original and stays so as the blocks fill, keys copy
// both parts, and a reserved batch is one allocation.
func TestArenaTextIsACopy(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var a arena
	var orig, copies []string
	for range 20000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte('a' + r.IntN(26))
		}
		if r.IntN(5000) == 0 {
			b = make([]byte, textBlock+r.IntN(1000)) // larger than a block
		}
		orig = append(orig, string(b))
		copies = append(copies, a.str(string(b)))
	}
	for i := range orig {
		if copies[i] != orig[i] {
			t.Fatalf("copy %d is %q, want %q", i, copies[i], orig[i])
		}
	}
	keys := []nn{{Namespace: "apps", Name: "web"}, {Name: "cluster-scoped"}, {Namespace: "infra", Name: ""}}
	got := a.keys(len(keys), func(i int) nn { return keys[i] })
	for i := range keys {
		if got[i] != keys[i] {
			t.Errorf("key %d is %+v, want %+v", i, got[i], keys[i])
		}
	}
	var fresh arena
	if n := testing.AllocsPerRun(1, func() {
		fresh = arena{}
		fresh.reserveText(3 * 10)
		for range 3 {
			fresh.str("0123456789")
		}
	}); n > 1 {
		t.Errorf("a reserved batch took %v allocations, want 1", n)
	}
}

// TestArenaPorts: numbers taken after reservePorts come from one block and
// keep what is written to them.
func TestArenaPorts(t *testing.T) {
	var a arena
	a.reservePorts(6)
	p1, p2 := a.ports(2), a.ports(4)
	copy(p1, []int32{80, 443})
	copy(p2, []int32{8080, 8443, 9090, 9443})
	_ = append(p1, 1)
	if p1[0] != 80 || p1[1] != 443 || p2[0] != 8080 || p2[3] != 9443 || cap(p1) != 2 {
		t.Fatalf("ports %v %v", p1, p2)
	}
	if &a.portBlock[0] != &p1[0] || &a.portBlock[2] != &p2[0] {
		t.Errorf("reserved ports are not side by side in one block")
	}
}

// TestViewsAreTheirListeners: a listener's view (what deciding a parentRef
// reads, its strings copied into an arena) says what the listener says, for
// every listener of every golden input.
func TestViewsAreTheirListeners(t *testing.T) {
	inputs, err := filepath.Glob("../testdata/golden/*.yaml")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	checked := 0
	for _, in := range inputs {
		m, err := load.Files(load.FileOptions{Filenames: []string{in}})
		if err != nil {
			t.Fatal(err)
		}
		res := Analyze(m, Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
		check := func(vs []listenerView, ls []*ListenerResult) {
			if len(vs) != len(ls) {
				t.Fatalf("%s: %d views for %d listeners", in, len(vs), len(ls))
			}
			for i, v := range vs {
				l := ls[i]
				configured := l.state != nil && l.state.notAccepted == nil && !l.state.unsupportedMix
				if v.l != l || v.name != l.Name() || v.hostname != l.Hostname() || v.port != l.Listener.Port ||
					v.accepted != l.Accepted || v.hostnames != carriesHostnames(l) || v.configured != configured {
					t.Errorf("%s: listener %s: view %+v", in, l.Name(), v)
				}
				if configured && (v.kinds != l.state.kinds || v.ns.from != l.routeNamespaces().from || v.ns.ownerNS != l.Owner().Namespace) {
					t.Errorf("%s: listener %s: view's kinds or namespaces differ from the listener's", in, l.Name())
				}
				checked++
			}
		}
		for _, g := range res.Gateways {
			check(g.views, g.Listeners)
			for _, ls := range g.ListenerSets {
				if ls.Allowed {
					check(ls.views, ls.Listeners)
				}
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d listeners checked", checked)
	}
}
