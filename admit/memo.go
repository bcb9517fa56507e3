package admit

import (
	"hash/maphash"
	"sync/atomic"
)

// memo remembers, for one schema node, what the shortcut found for the JSON
// texts of its values: the defaulted value (shared, never changed) and the CEL
// cost of its rules. A text is remembered the second time it is seen, so that
// values met once (names, hostnames) cost no memory; what it keeps is bounded,
// and forgotten when full.
//
// It is direct-mapped: a text's hash picks one slot, which holds at most one
// entry and the hash of the last text seen once there. A lookup is one load
// and no lock, and a text that collides with another only goes unremembered
// (or replaces it): what is forgotten is computed again, never answered
// otherwise.
//
// It only ever holds values the shortcut showed valid (a value it gave up on is
// not remembered), so a hit can only prove admission, as the reading it stands
// for; TestShortcutKeepsTheCostBudget holds the costs it replays to the API
// server's budget.
type memo struct {
	// table is made on the first text remembered, and made anew when the
	// text it keeps would pass memoBytes.
	table atomic.Pointer[memoTable]
	// off: the node's texts so rarely repeat that looking them up costs more
	// than it saves (useful); the node is then read without its memo.
	off atomic.Bool
	// lookups and hits count the first memoSampleLookups lookups, for useful.
	lookups, hits atomic.Int32
}

const (
	// memoSlots is the number of entries a node keeps at most (a power of
	// two).
	memoSlots = 1 << 11
	// memoBytes bounds the text a node keeps (its values are a few times as
	// large).
	memoBytes = 16 << 20
	// After memoSampleLookups lookups, a node that found fewer than one text
	// in memoMinHitRate turns its memo off: a miss costs scanning the text for
	// its extent, hashing it and noting it seen, and a node whose values
	// rarely repeat (a route's spec, parentRefs or hostnames, which name its
	// Gateway and listener) pays that on nearly every read.
	memoSampleLookups = 1 << 12
	memoMinHitRate    = 16
)

// memoTable is a memo's slots. A text is looked up by its hash, computed once
// for both the lookup and the remembering (hashing the texts of every node of
// an object is much of what a miss costs); an entry keeps its text, and a hit
// is one whose text is equal, so that two texts of the same hash are never
// taken for each other.
type memoTable struct {
	entries [memoSlots]atomic.Pointer[memoEntry]
	// seen holds, by slot, the hash of the last text seen once.
	seen  [memoSlots]atomic.Uint64
	bytes atomic.Int64
}

type memoEntry struct {
	hash  uint64
	text  string
	value any
	cost  int64
}

var memoSeed = maphash.MakeSeed()

func newMemo() *memo { return &memo{} }

// forget drops what the memo remembers and what it learned of its node's
// texts: it starts again as newMemo's, and what it forgot is computed again.
func (m *memo) forget() {
	m.table.Store(nil)
	m.lookups.Store(0)
	m.hits.Store(0)
	m.off.Store(false)
}

// memoHash is the hash of text the memo looks it up by.
func memoHash(text []byte) uint64 { return maphash.Bytes(memoSeed, text) }

// useful reports whether the node's values are worth looking up. Whether
// they are changes only what is computed again, never an answer: a value
// read without the memo is the value the memo would have given.
func (m *memo) useful() bool { return !m.off.Load() }

// get returns the entry of text, whose memoHash is h.
func (m *memo) get(h uint64, text []byte) (memoEntry, bool) {
	var e *memoEntry
	if t := m.table.Load(); t != nil {
		e = t.entries[h%memoSlots].Load()
	}
	hit := e != nil && e.hash == h && e.text == string(text)
	if m.lookups.Load() < memoSampleLookups {
		if hit {
			m.hits.Add(1)
		}
		if n := m.lookups.Add(1); n == memoSampleLookups && m.hits.Load()*memoMinHitRate < n {
			m.off.Store(true)
		}
	}
	if !hit {
		return memoEntry{}, false
	}
	return *e, true
}

// put remembers e for text, whose memoHash is h, if text was seen before;
// own says e's value may change after (the caller hands it out to be
// changed), so the memo keeps a copy. An entry of another text in the same
// slot is replaced.
func (m *memo) put(h uint64, text []byte, e memoEntry, own bool) {
	t := m.table.Load()
	if t == nil {
		t = new(memoTable)
		if !m.table.CompareAndSwap(nil, t) {
			t = m.table.Load()
		}
	}
	slot := h % memoSlots
	if t.seen[slot].Swap(h) != h {
		return // seen once
	}
	if t.bytes.Load()+int64(len(text)) > memoBytes {
		// Forget everything, and start again from this text.
		fresh := new(memoTable)
		fresh.seen[slot].Store(h)
		if !m.table.CompareAndSwap(t, fresh) {
			return
		}
		t = fresh
	}
	if own {
		e.value = deepCopyJSON(e.value)
	}
	e.hash, e.text = h, string(text)
	// A new entry only here: a text seen once (most texts) allocates none.
	kept := new(memoEntry)
	*kept = e
	if old := t.entries[slot].Swap(kept); old != nil {
		t.bytes.Add(-int64(len(old.text)))
	}
	t.bytes.Add(int64(len(text)))
}
