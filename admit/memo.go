package admit

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
)

// memo remembers, for one schema node, what the shortcut found for the JSON
// texts of its values: the defaulted value (shared, never changed) and the CEL
// cost of its rules. A text is remembered the second time it is seen, so that
// values met once (names, hostnames) cost no memory; what it keeps is bounded,
// and forgotten shard by shard when full.
//
// It only ever holds values the shortcut showed valid (a value it gave up on is
// not remembered), so a hit can only prove admission, as the reading it stands
// for; TestShortcutKeepsTheCostBudget holds the costs it replays to the API
// server's budget.
type memo struct {
	shards [memoShards]memoShard
	// off: the node's texts so rarely repeat that looking them up costs more
	// than it saves (useful); the node is then read without its memo.
	off atomic.Bool
}

const (
	memoShards = 16
	// memoShardBytes bounds the text a shard keeps (its values are a few times
	// as large): a node keeps at most 16 MiB of text.
	memoShardBytes = 1 << 20
	// memoShardSeen bounds the texts a shard has seen once.
	memoShardSeen = 1 << 15
	// A shard that has looked up memoSampleLookups texts and found fewer
	// than one in memoMinHitRate turns its memo off: a miss costs scanning
	// the text for its extent, hashing it and noting it seen, and a node
	// whose values rarely repeat (a route's spec, parentRefs or hostnames,
	// which name its Gateway and listener) pays that on nearly every read.
	memoSampleLookups = 256
	memoMinHitRate    = 16
)

// A text is looked up by its hash, computed once for both the lookup and the
// remembering (hashing the texts of every node of an object is much of what a
// miss costs); an entry keeps its text, and a hit is one whose text is equal,
// so that two texts of the same hash are never taken for each other.
type memoShard struct {
	mu      sync.RWMutex
	entries map[uint64]memoEntry
	seen    map[uint64]struct{}
	bytes   int
	// lookups and hits count the shard's lookups, for useful.
	lookups, hits atomic.Int32
	_             [24]byte // keep shards off each other's cache lines
}

type memoEntry struct {
	text  string
	value any
	cost  int64
}

var memoSeed = maphash.MakeSeed()

func newMemo() *memo { return &memo{} }

// memoHash is the hash of text the memo looks it up by.
func memoHash(text []byte) uint64 { return maphash.Bytes(memoSeed, text) }

// useful reports whether the node's values are worth looking up. Whether
// they are changes only what is computed again, never an answer: a value
// read without the memo is the value the memo would have given.
func (m *memo) useful() bool { return !m.off.Load() }

// get returns the entry of text, whose memoHash is h.
func (m *memo) get(h uint64, text []byte) (memoEntry, bool) {
	s := &m.shards[h%memoShards]
	s.mu.RLock()
	e, ok := s.entries[h]
	s.mu.RUnlock()
	hit := ok && e.text == string(text)
	if hit {
		s.hits.Add(1)
	}
	if n := s.lookups.Add(1); n == memoSampleLookups && s.hits.Load()*memoMinHitRate < n {
		m.off.Store(true)
	}
	if !hit {
		return memoEntry{}, false
	}
	return e, true
}

// put remembers e for text, whose memoHash is h; own says e's value may
// change after (the caller hands it out to be changed), so the memo keeps a
// copy. An entry of another text with the same hash is replaced.
func (m *memo) put(h uint64, text []byte, e memoEntry, own bool) {
	s := &m.shards[h%memoShards]
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, twice := s.seen[h]; !twice {
		if len(s.seen) >= memoShardSeen || s.seen == nil {
			s.seen = make(map[uint64]struct{})
		}
		s.seen[h] = struct{}{}
		return
	}
	if s.bytes+len(text) > memoShardBytes || s.entries == nil {
		s.entries = make(map[uint64]memoEntry)
		s.bytes = 0
	}
	if own {
		e.value = deepCopyJSON(e.value)
	}
	if old, ok := s.entries[h]; ok {
		s.bytes -= len(old.text)
	}
	e.text = string(text)
	s.entries[h] = e
	s.bytes += len(text)
}
