package typeplan

import (
	"reflect"
	"testing"
	"unsafe"
)

// TestZeroMemory: a byte set anywhere, past the first chunk of zeros too,
// makes the memory not zero.
func TestZeroMemory(t *testing.T) {
	b := make([]byte, 3*len(zeros)+5)
	if !ZeroMemory(unsafe.Pointer(&b[0]), uintptr(len(b))) {
		t.Fatal("zero memory reported as not zero")
	}
	for _, i := range []int{0, len(zeros) - 1, len(zeros), 2*len(zeros) + 7, len(b) - 1} {
		b[i] = 1
		if ZeroMemory(unsafe.Pointer(&b[0]), uintptr(len(b))) {
			t.Errorf("byte %d set: reported zero", i)
		}
		b[i] = 0
	}
}

// TestCacheMakesOnce: a type's plan, and those build records for the types it
// holds, are made once and then returned as stored.
func TestCacheMakesOnce(t *testing.T) {
	type plan struct{ name string }
	var c Cache[plan]
	calls := 0
	build := func(t reflect.Type, made map[reflect.Type]*plan) *plan {
		calls++
		made[reflect.TypeFor[int]()] = &plan{"int"}
		p := &plan{t.String()}
		made[t] = p
		return p
	}
	s := reflect.TypeFor[string]()
	first := c.Of(s, build)
	if again := c.Of(s, build); again != first || calls != 1 {
		t.Errorf("second Of: %p against %p, %d builds; want the first plan, 1 build", again, first, calls)
	}
	if p, ok := c.Stored(reflect.TypeFor[int]()); !ok || p.name != "int" {
		t.Errorf("the held type's plan: %v, %v; want it stored", p, ok)
	}
	if _, ok := c.Stored(reflect.TypeFor[bool]()); ok {
		t.Error("a type never met is stored")
	}
}
