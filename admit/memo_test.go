package admit

import (
	"fmt"
	"testing"
)

// TestMemoTellsTextsOfOneHashApart: the memo looks texts up by their hash,
// and a text whose hash is another's must not get the other's entry.
func TestMemoTellsTextsOfOneHashApart(t *testing.T) {
	m := newMemo()
	a, b := []byte(`{"name":"a"}`), []byte(`{"name":"b"}`)
	const h = 42 // both texts given the same hash
	m.put(h, a, memoEntry{value: "A", cost: 1}, false)
	if _, hit := m.get(h, a); hit {
		t.Fatal("a text seen once is remembered")
	}
	m.put(h, a, memoEntry{value: "A", cost: 1}, false)
	if e, hit := m.get(h, a); !hit || e.value != "A" || e.cost != 1 {
		t.Fatalf("get(a) = %+v, %v; want A's entry", e, hit)
	}
	if e, hit := m.get(h, b); hit {
		t.Fatalf("get(b) = %+v: the entry of a text of the same hash", e)
	}
	m.put(h, b, memoEntry{value: "B", cost: 2}, false)
	if e, hit := m.get(h, b); !hit || e.value != "B" {
		t.Fatalf("get(b) = %+v, %v after put(b); want B's entry", e, hit)
	}
	if e, hit := m.get(h, a); hit {
		t.Fatalf("get(a) = %+v: b replaced it", e)
	}
	if got, want := m.table.Load().bytes.Load(), int64(len(b)); got != want {
		t.Errorf("the memo counts %d bytes of text, want %d (the replaced entry's uncounted)", got, want)
	}
}

// TestMemoCopiesWhatTheCallerOwns: put keeps a copy of a value the caller
// may change, and the value itself when the caller only reads it.
func TestMemoCopiesWhatTheCallerOwns(t *testing.T) {
	for _, own := range []bool{true, false} {
		m := newMemo()
		text := []byte(`{"a":"x"}`)
		v := map[string]any{"a": "x"}
		m.put(1, text, memoEntry{value: v}, own)
		m.put(1, text, memoEntry{value: v}, own)
		e, hit := m.get(1, text)
		if !hit {
			t.Fatalf("own=%v: no entry", own)
		}
		v["a"] = "changed"
		if got := e.value.(map[string]any)["a"]; (got == "x") != own {
			t.Errorf("own=%v: the memo's value reads %q after the caller changed its own", own, got)
		}
	}
}

// TestMemoTurnsOffWhenTextsDoNotRepeat: a memo whose texts rarely repeat
// stops being looked up, and one whose texts repeat stays on.
func TestMemoTurnsOffWhenTextsDoNotRepeat(t *testing.T) {
	for _, tc := range []struct {
		name    string
		repeats bool
		useful  bool
	}{{"distinct texts", false, false}, {"repeated texts", true, true}} {
		m := newMemo()
		for i := range 2 * memoSampleLookups {
			text := []byte(fmt.Sprint(i))
			if tc.repeats {
				text = []byte(fmt.Sprint(i % 7))
			}
			h := memoHash(text)
			if _, hit := m.get(h, text); !hit {
				m.put(h, text, memoEntry{value: string(text)}, false)
			}
		}
		if got := m.useful(); got != tc.useful {
			t.Errorf("%s: useful() = %v, want %v", tc.name, got, tc.useful)
		}
	}
}

// TestMemoForgetsWhenFull: the text a memo keeps stays within memoBytes.
func TestMemoForgetsWhenFull(t *testing.T) {
	m := newMemo()
	big := make([]byte, memoBytes/8)
	for i := range 64 {
		text := append([]byte(fmt.Sprint(i)), big...)
		h := memoHash(text)
		m.put(h, text, memoEntry{value: i}, false)
		m.put(h, text, memoEntry{value: i}, false)
		if e, hit := m.get(h, text); !hit || e.value != i {
			t.Fatalf("text %d: get = %+v, %v right after it was remembered", i, e, hit)
		}
		if got := m.table.Load().bytes.Load(); got > memoBytes {
			t.Fatalf("text %d: the memo keeps %d bytes of text, more than %d", i, got, memoBytes)
		}
	}
}

// TestForgottenMemoStartsAgain: a memo forgotten is newMemo's again, its
// sampling included, and remembers again.
func TestForgottenMemoStartsAgain(t *testing.T) {
	m := newMemo()
	text := []byte(`{"a":"x"}`)
	for range memoSampleLookups {
		m.get(7, []byte(`{"never":"put"}`))
	}
	m.put(1, text, memoEntry{value: "x"}, false)
	m.put(1, text, memoEntry{value: "x"}, false)
	if m.useful() || m.table.Load() == nil {
		t.Fatalf("before forget: useful %v, table %v; want off, with an entry", m.useful(), m.table.Load() != nil)
	}
	m.forget()
	if !m.useful() || m.table.Load() != nil || m.lookups.Load() != 0 || m.hits.Load() != 0 {
		t.Fatalf("after forget: useful %v, table %v, lookups %d, hits %d; want a new memo's", m.useful(), m.table.Load() != nil, m.lookups.Load(), m.hits.Load())
	}
	if _, hit := m.get(1, text); hit {
		t.Fatal("a forgotten text is still remembered")
	}
	m.put(1, text, memoEntry{value: "x"}, false)
	m.put(1, text, memoEntry{value: "x"}, false)
	if e, hit := m.get(1, text); !hit || e.value != "x" {
		t.Fatalf("get after forget and two puts = %+v, %v; want x's entry", e, hit)
	}
}
