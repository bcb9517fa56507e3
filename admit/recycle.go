package admit

import "sync"

// An admitted object's top level and its metadata (the maps of metadata,
// labels and annotations) are maps of a few entries each that no memo and no
// other object shares: the walk makes them for this object alone. Once the
// object is read (the loader converts it to its Go type: Verdict.Done), or
// once it is known to be thrown away (the standard channel's walk, whose
// object nobody reads), they are cleared and given to the next object's walk,
// instead of being left to the collector: at 100k routes about 100 MB of
// garbage of the 288-byte size class per run (docs/performance.md,
// "Admission's own maps given back").

// smallMaps are cleared maps of at most smallMapEntries entries, ready for
// reuse. A map that held no more than that many entries is one group of
// slots (Go's maps keep up to eight entries in one group), which clear keeps
// and the next use fills again without allocating.
var smallMaps sync.Pool

const smallMapEntries = 8

// newSmallMap returns an empty map for at most a few entries: a recycled one
// when there is one.
func newSmallMap() map[string]any {
	if m, ok := smallMaps.Get().(map[string]any); ok {
		return m
	}
	return make(map[string]any, smallMapEntries)
}

// recycleMap clears m and keeps it for newSmallMap; a map that grew past
// smallMapEntries is left to the collector. m must not be used after.
func recycleMap(m map[string]any) {
	if m == nil || len(m) > smallMapEntries {
		return
	}
	clear(m)
	smallMaps.Put(m)
}

// recycleObject gives back the top level and the metadata maps of obj, an
// object made for one caller (by a shortcut's walk, or createSlowly's
// decoding), which is read no more. Only these maps: the values under spec
// and status may be a memo's or a default's.
func recycleObject(obj map[string]any) {
	if obj == nil {
		return
	}
	if md, ok := obj["metadata"].(map[string]any); ok {
		// The metadata maps are the object's own: plain metadata's (readMeta),
		// or the API server's ObjectMeta read back (decodeMeta, and the
		// coercion of createSlowly), never shared.
		for _, k := range [...]string{"labels", "annotations"} {
			if m, ok := md[k].(map[string]any); ok {
				recycleMap(m)
			}
		}
		recycleMap(md)
	}
	recycleMap(obj)
}

// Done says the caller has read the verdict's Object and will not read it,
// or anything it took from it without copying, again (the loader converts it
// to its Go type, which copies its maps): the memory of the maps that are
// the object's own (its top level and metadata) goes to the next objects
// admitted. Object is nil after; no copy of the verdict may be read after.
func (v *Verdict) Done() {
	recycleObject(v.Object)
	v.Object = nil
}
