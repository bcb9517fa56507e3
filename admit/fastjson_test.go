package admit

import "testing"

// FuzzPlainStr: where plainStr reads a string, str reads the same string and
// stops at the same place; where it does not, it has read nothing.
//
//	go test -fuzz FuzzPlainStr -fuzztime 30s ./admit
func FuzzPlainStr(f *testing.F) {
	for _, s := range []string{`"name"`, ` "sectionName" :`, `"a\"b"`, `"é"`, `"x`, `""`, `"\u0041"`, "\"a\tb\"", `name`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		plain := jsonReader{b: b}
		raw, ok := plain.plainStr()
		if !ok {
			if plain.pos != 0 {
				t.Fatalf("plainStr(%q) failed at %d, not 0", b, plain.pos)
			}
			return
		}
		full := jsonReader{b: b}
		s, fullOK := full.str()
		if !fullOK || s != string(raw) || full.pos != plain.pos {
			t.Fatalf("plainStr(%q) = %q to %d; str = %q, %v to %d", b, raw, plain.pos, s, fullOK, full.pos)
		}
	})
}
