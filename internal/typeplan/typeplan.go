// Package typeplan holds what the plan-per-type converters
// (internal/fastunstructured, internal/typedjson) share: a cache of one plan
// per Go type, made once, and the check that a destination is its type's
// zero value.
package typeplan

import (
	"bytes"
	"reflect"
	"sync"
	"unsafe"
)

// Cache holds the plan of each type met, made once. Plans are never changed
// once stored, so every core reads them without a lock.
type Cache[P any] struct {
	plans sync.Map // reflect.Type -> *P
	// planning serializes the making of plans, so that a type's plan and
	// those of the types it holds (possibly itself) are stored together.
	planning sync.Mutex
}

// Of returns the plan of t, made by build the first time: build records in
// made the plan of t and of every type it holds that had none.
func (c *Cache[P]) Of(t reflect.Type, build func(t reflect.Type, made map[reflect.Type]*P) *P) *P {
	if p, ok := c.plans.Load(t); ok {
		return p.(*P)
	}
	c.planning.Lock()
	defer c.planning.Unlock()
	if p, ok := c.plans.Load(t); ok {
		return p.(*P)
	}
	made := map[reflect.Type]*P{}
	p := build(t, made)
	for t, p := range made {
		c.plans.Store(t, p)
	}
	return p
}

// Stored returns the plan of t if it is made; a build function reads it for
// the types t holds.
func (c *Cache[P]) Stored(t reflect.Type) (*P, bool) {
	p, ok := c.plans.Load(t)
	if !ok {
		return nil, false
	}
	return p.(*P), true
}

// zeros is zero memory to compare a destination with.
var zeros [4096]byte

// ZeroMemory reports whether the n bytes at p are all zero.
func ZeroMemory(p unsafe.Pointer, n uintptr) bool {
	b := unsafe.Slice((*byte)(p), n)
	for len(b) > 0 {
		chunk := min(len(b), len(zeros))
		if !bytes.Equal(b[:chunk], zeros[:chunk]) {
			return false
		}
		b = b[chunk:]
	}
	return true
}
