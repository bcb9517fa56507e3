package typedjson

import (
	"fmt"
	"maps"
	"sync"
	"sync/atomic"
	"unsafe"
)

// sharing is what one decoder keeps between the objects it decodes so that
// their small values are allocated together, or once:
//
//   - chunk: the bytes of strings, cut from a few KB at a time, so that a
//     model's strings fill spans of their own rather than sitting one by one
//     among the decode's garbage;
//   - strings: the short strings seen recently, by hash (a later one of the
//     same hash replaces one): a namespace, a Gateway's or a Service's name,
//     a section name is kept once however many objects name it;
//   - pointers: the pointee of a pointer to a scalar seen recently, by plan
//     and value: the *Group, *Kind, *Namespace, *SectionName and *PortNumber
//     of every reference to the same thing are one allocation;
//   - maps: every map[string]string of a short object seen recently, by its
//     JSON text (labels, annotations, a Service's selector, a ConfigMap's
//     data): those that many objects write alike (app: web) are one map. A
//     small Go map takes about 350 bytes (one 8-slot group of 288 and its
//     header) however few its entries. A decoder keeps its last maps
//     (mapSlots of them) while it lives, so a load's objects may share a map
//     with an earlier load's.
//
// Strings are never changed, so sharing them is safe. A shared pointee or
// map is safe only because nothing writes through a pointer or a map of the
// model: the loader's CRD defaults replace absent (nil) pointers and never
// write through one; the engine, the renderers and every command read them.
// WatchShared lets a test check that for every command.
type sharing struct {
	chunk    []byte
	strings  [stringSlots]string
	pointers [pointerSlots]sharedPointer
	maps     [mapSlots]sharedMap
	// generation is the generation of pointers and maps.
	generation uint64
}

const (
	stringSlots  = 1 << 12
	pointerSlots = 1 << 10
	mapSlots     = 1 << 8
	// maxSharedMap is the longest JSON text of a map that is shared.
	maxSharedMap = 256
	// maxShared is the longest string looked up among the shared ones.
	maxShared = 40
	// chunkSize is the size of a chunk of string bytes; a string longer than
	// maxInChunk gets an allocation of its own.
	chunkSize  = 8 << 10
	maxInChunk = 512
)

// sharedMap is a decoded map and the JSON text it was decoded from.
type sharedMap struct {
	text string
	m    map[string]string
}

type sharedPointer struct {
	plan *plan
	s    string
	n    uint64
	ptr  unsafe.Pointer
}

// str reads the string at pos, shared or cut from the chunk.
func (d *decoder) str() (string, bool) {
	b, ok := d.stringBytes()
	if !ok {
		return "", false
	}
	return d.save(b), true
}

// save is b as a string: the shared string of the same bytes, or a new one.
func (d *decoder) save(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > maxShared {
		return d.cut(b)
	}
	slot := &d.strings[hash(b)%stringSlots]
	if *slot != string(b) {
		*slot = d.cut(b)
	}
	return *slot
}

// cut copies b into the chunk and returns it as a string.
func (d *decoder) cut(b []byte) string {
	if len(b) > maxInChunk {
		return string(b)
	}
	if cap(d.chunk)-len(d.chunk) < len(b) {
		d.chunk = make([]byte, 0, chunkSize)
	}
	start := len(d.chunk)
	d.chunk = append(d.chunk, b...)
	return unsafe.String(&d.chunk[start], len(b))
}

// sharedPointer decodes a non-null value into the pointer at dst of plan p,
// whose element is a scalar: the pointer to the same value decoded last, or
// a new one.
func (d *decoder) sharedPointer(p *plan, dst unsafe.Pointer) bool {
	s, n, ok := d.scalar(p.elem)
	if !ok {
		return false
	}
	// Two slots a value may be in: the one it hashes to, where a new value
	// goes, and its neighbour, where the value it displaces goes.
	h := (hash(s) ^ n*0x9e3779b97f4a7c15 ^ uint64(uintptr(unsafe.Pointer(p)))) % pointerSlots
	for _, e := range []*sharedPointer{&d.pointers[h], &d.pointers[h^1]} {
		if e.plan == p && e.s == s && e.n == n {
			*(*unsafe.Pointer)(dst) = e.ptr
			return true
		}
	}
	ptr := unsafe_New(p.elem.rtype)
	store(p.elem, ptr, s, n)
	d.pointers[h^1] = d.pointers[h]
	d.pointers[h] = sharedPointer{plan: p, s: s, n: n, ptr: ptr}
	if watching.Load() {
		watch(d.pointers[h])
	}
	*(*unsafe.Pointer)(dst) = ptr
	return true
}

// hash is FNV-1a of a short string: the same from run to run, so that what
// is shared is too.
func hash[S string | []byte](s S) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h
}

// generation changes when decoders must forget the pointees they share.
var generation atomic.Uint64

// forget drops the shared pointees of an earlier generation.
func (d *decoder) forget() {
	if g := generation.Load(); d.generation != g {
		d.pointers = [pointerSlots]sharedPointer{}
		d.maps = [mapSlots]sharedMap{}
		d.generation = g
	}
}

var (
	// watching: the shared pointees made are recorded in watched.
	watching atomic.Bool
	watchMu  sync.Mutex
	watched  []sharedPointer
	// watchedMaps are the shared maps made, each with a copy of what it held.
	watchedMaps []watchedMap
)

type watchedMap struct {
	m, was map[string]string
}

func watch(e sharedPointer) {
	watchMu.Lock()
	watched = append(watched, e)
	watchMu.Unlock()
}

func watchMap(e sharedMap) {
	watchMu.Lock()
	watchedMaps = append(watchedMaps, watchedMap{e.m, maps.Clone(e.m)})
	watchMu.Unlock()
}

// WatchShared records every pointee that decodes share from now on, until
// check is called; check says how many were shared and reports those whose
// value is no longer the one decoded, which something wrote through a
// pointer the model shares. For tests: one watch at a time.
func WatchShared() (check func() (shared int, err error)) {
	watchMu.Lock()
	watched, watchedMaps = nil, nil
	watchMu.Unlock()
	// Pointees shared before the watch are not recorded: decoders forget
	// them.
	generation.Add(1)
	watching.Store(true)
	return func() (int, error) {
		watching.Store(false)
		// A pointee written through is not shared again.
		generation.Add(1)
		watchMu.Lock()
		defer watchMu.Unlock()
		defer func() { watched, watchedMaps = nil, nil }()
		n := 0
		var first error
		for _, e := range watched {
			s, v := loadScalar(e.plan.elem, e.ptr)
			if s != e.s || v != e.n {
				if first == nil {
					first = fmt.Errorf("a shared %s decoded as %q/%d is now %q/%d: something writes through a pointer of the model", e.plan.elem.typ, e.s, e.n, s, v)
				}
				n++
			}
		}
		for _, e := range watchedMaps {
			if !maps.Equal(e.m, e.was) {
				if first == nil {
					first = fmt.Errorf("a shared map decoded as %v is now %v: something writes to a map of the model", e.was, e.m)
				}
				n++
			}
		}
		all := len(watched) + len(watchedMaps)
		if first != nil {
			return all, fmt.Errorf("%d of %d shared values changed; first: %w", n, all, first)
		}
		return all, nil
	}
}

// loadScalar reads back what store wrote.
func loadScalar(p *plan, ptr unsafe.Pointer) (string, uint64) {
	switch {
	case p.kind == stringKind:
		return *(*string)(ptr), 0
	case p.size == 1:
		return "", uint64(*(*uint8)(ptr))
	case p.size == 2:
		return "", uint64(*(*uint16)(ptr))
	case p.size == 4:
		return "", uint64(*(*uint32)(ptr))
	default:
		return "", *(*uint64)(ptr)
	}
}
