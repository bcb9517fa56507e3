package admit

import (
	"hash/maphash"
	"sync"
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
}

const (
	memoShards = 16
	// memoShardBytes bounds the text a shard keeps (its values are a few times
	// as large): a node keeps at most 16 MiB of text.
	memoShardBytes = 1 << 20
	// memoShardSeen bounds the texts a shard has seen once.
	memoShardSeen = 1 << 15
)

type memoShard struct {
	mu      sync.RWMutex
	entries map[string]memoEntry
	seen    map[uint64]struct{}
	bytes   int
	_       [32]byte // keep shards off each other's cache lines
}

type memoEntry struct {
	value any
	cost  int64
}

var memoSeed = maphash.MakeSeed()

func newMemo() *memo { return &memo{} }

func (m *memo) get(text []byte) (memoEntry, bool) {
	s := &m.shards[shardOf(text)]
	s.mu.RLock()
	e, ok := s.entries[string(text)]
	s.mu.RUnlock()
	return e, ok
}

func (m *memo) put(text []byte, e memoEntry) {
	h := maphash.Bytes(memoSeed, text)
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
		s.entries = make(map[string]memoEntry)
		s.bytes = 0
	}
	// The caller keeps the value it read; the memo keeps its own.
	e.value = deepCopyJSON(e.value)
	s.entries[string(text)] = e
	s.bytes += len(text)
}

func shardOf(text []byte) uint64 {
	return maphash.Bytes(memoSeed, text) % memoShards
}
