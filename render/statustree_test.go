package render

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	goyaml "go.yaml.in/yaml/v2"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// statusTreeSeeds are objects and statuses whose writing takes each rule of
// the fast writers: key order and duplicate keys, numbers a float64 or an int
// holds differently, escapes, every scalar style and folding at 80 columns.
var statusTreeSeeds = []struct{ raw, status string }{
	{`{"a":1,"b":-0,"c":1.5,"d":1e3,"e":1.0,"f":12345678901234567890,"g":1e21,"h":-9223372036854775808,"i":0.000001,"j":1e-7,"k":123456789012345}`, ``},
	{`{"metadata":{"name":"x","labels":{"a10":"1","a2":"true","z":"null","a01":"","a1":"~"}},"spec":{"port":443,"list":[1,"2",true,null,{"k":"2026-01-01T00:00:00Z"}]}}`, `{"conditions":[{"type":"Accepted","status":"True"}]}`},
	{`{"s":"multi\nline","t":"","u":"  lead","v":"- dash","w":": colon","x":"#hash","y":"yes","z":"0x1F","q":"it's","dq":"say \"hi\"","bs":"a\\b"}`, `{}`},
	{`{"deep":{"a":[[[]]],"b":{},"c":[{"x":[{"y":1}]},[1,[2]],{}]},"status":{"old":true}}`, `{"new":[{"a":"b"}]}`},
	{`{"dup":1,"dup":2,"a\u0062":3,"ab":4,"html":"<a href=\"x\">&amp;</a>","u":"\u2028 \ud800 caf\u00e9","status":1}`, ``},
	{`{"message":"the route is accepted by listener https-2 of Gateway infra-0/gw-0 because its hostnames intersect: app2.g0.example.com, app3.g0.example.com and more words"}`, `{"m":"  two  spaces and a very long message that goes on and on past the eightieth column of the line: ok","k":"a: b"}`},
	{`{"long":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","q":"' a long single quoted string that has to fold past the eightieth column somewhere here ok"}`, ``},
	{`{"n":["true","1.5","1_000","0b101","-0b1","0x1F","0o17",".5","+1","1:20","2026-1-2","--- x","... y","-","?","key: v","a #b","a#b","@x","%y"]}`, ``},
}

// TestStatusTreeWritesWhatMapsWrite: for each seed, the fast writers print the
// object with its status replaced exactly as the maps item decodes print it
// (appendIndentedJSON, json.MarshalIndent and go-yaml).
func TestStatusTreeWritesWhatMapsWrite(t *testing.T) {
	for _, s := range statusTreeSeeds {
		checkStatusTree(t, []byte(s.raw), []byte(s.status))
	}
}

func FuzzStatusTree(f *testing.F) {
	for _, s := range statusTreeSeeds {
		f.Add(s.raw, s.status)
	}
	f.Fuzz(func(t *testing.T, raw, status string) {
		checkStatusTree(t, []byte(raw), []byte(status))
	})
}

func checkStatusTree(t *testing.T, raw, status []byte) {
	t.Helper()
	o := statusObject{meta: &model.Meta{Raw: raw}}
	if len(status) > 0 {
		o.result = json.RawMessage(status)
	}
	var tree statusTree
	for _, numbers := range []bool{false, true} {
		it, err := o.item(numbers)
		ms, ok := o.parsed(&tree)
		if err != nil || !json.Valid(raw) {
			continue // the maps say what is wrong
		}
		if !ok {
			if isObject(raw) && (status == nil || isObject(status)) {
				t.Fatalf("parse refused the objects %s and %s", raw, status)
			}
			continue
		}
		if !numbers {
			want, err := json.MarshalIndent(it, itemIndent, "    ")
			if err != nil {
				continue
			}
			got, ok := tree.appendJSON(nil, ms, itemIndent, "    ", 0)
			if !ok || string(got) != string(want) {
				t.Fatalf("JSON %s status %s\ntree (ok %v):\n%s\nmaps:\n%s", raw, status, ok, got, want)
			}
			continue
		}
		want, err := goyaml.Marshal(yamlValues(it))
		if err != nil {
			continue
		}
		got, ok := tree.appendYAML(nil, ms)
		if !ok {
			if yamlWriterCovers(it) {
				t.Fatalf("YAML %s status %s: the tree refused a value it covers", raw, status)
			}
			continue
		}
		if string(got) != string(want) {
			t.Fatalf("YAML %s status %s\ntree:\n%s\ngo-yaml:\n%s", raw, status, got, want)
		}
	}
}

func isObject(js []byte) bool {
	var m map[string]any
	return json.Unmarshal(js, &m) == nil && strings.HasPrefix(strings.TrimSpace(string(js)), "{")
}

// yamlWriterCovers reports whether every string and key of v is in the
// subset the YAML tree writer writes.
func yamlWriterCovers(v any) bool {
	switch v := v.(type) {
	case string:
		return printableASCII([]byte(v))
	case []any:
		for _, x := range v {
			if !yamlWriterCovers(x) {
				return false
			}
		}
	case map[string]any:
		for k, x := range v {
			if len(k) > 128 || !printableASCII([]byte(k)) || !yamlWriterCovers(x) {
				return false
			}
		}
	}
	return true
}

// TestStatusTreeRandomObjects writes random objects made of the strings that
// decide YAML's scalar styles and folding (indicators, spaces, quotes,
// numbers, words past 80 columns) and compares them with the maps' output.
func TestStatusTreeRandomObjects(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "Z", "0", "1", "10", "01", " ", "  ", ":", ": ", "#", " #", "-", "- ", "'", `"`, `\`, "?", ",", "[", "{", "}", "@", "`", "!", "&", "*", "|", ">", "%",
		".", "...", "---", "true", "null", "~", "y", "1.5", "1e3", "0x1F", "0b1", "1:20", "2026-01-02", "_", "<", ">", "&", "é", "\u2028", "\n", "\t",
		"yes", "no", "on", "off", "Off", "NO", "False", "Null", "NULL", "<<", ".inf", "-.Inf", ".NaN", "+1", "-1", "0o17", "1_000", "0b101", "-0b1",
		"2026-01-01T00:00:00Z", "2026-1-2 3:4:5", "1:2:3.5", "12:30", "1e", "1.", "-", ".", "...",
		"word", "hostname.example.com", "listener is not accepted because", "a long run of words for folding past the eightieth column of a line"}
	str := func() string {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	var value func(depth int) any
	value = func(depth int) any {
		switch k := rng.IntN(10); {
		case depth > 4 || k < 4:
			return str()
		case k == 4:
			return []any{nil, true, false, 1.5, math.Copysign(0, -1), 12345678901234567890.0, 1e21, 7.0}[rng.IntN(8)]
		case k < 7:
			l := make([]any, rng.IntN(4))
			for i := range l {
				l[i] = value(depth + 1)
			}
			return l
		default:
			m := map[string]any{}
			for range rng.IntN(5) {
				m[str()] = value(depth + 1)
			}
			return m
		}
	}
	for range 3000 {
		obj := map[string]any{}
		for range rng.IntN(6) + 1 {
			obj[str()] = value(1)
		}
		raw, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		var status []byte
		if rng.IntN(2) == 0 {
			if status, err = json.Marshal(map[string]any{"conditions": value(2), str(): value(2)}); err != nil {
				t.Fatal(err)
			}
		}
		checkStatusTree(t, raw, status)
	}
}

// TestStringStyleShortcuts: stringStyle's shortcuts (the first character, the
// length of YAML's words) and its memory of styles answer what go-yaml's
// resolution (yamlResolvesToString, isBase60Float) answers, for every string
// of up to three characters of an alphabet that takes each rule, and for
// YAML's words, numbers and timestamps, each asked twice of one memory.
func TestStringStyleShortcuts(t *testing.T) {
	want := func(s string) yamlStyle {
		if yamlResolvesToString(s) && !isBase60Float(s) {
			return yamlPlain
		}
		return yamlDoubleQuoted
	}
	alphabet := "yYnNtTfFoO~.+-0159:_eEx abl"
	strs := []string{""}
	for _, a := range alphabet {
		strs = append(strs, string(a))
		for _, b := range alphabet {
			strs = append(strs, string(a)+string(b))
			for _, c := range alphabet {
				strs = append(strs, string(a)+string(b)+string(c))
			}
		}
	}
	for w := range yamlResolveMap {
		strs = append(strs, w, w+"x", w+" ", "x"+w)
	}
	strs = append(strs, "2026-01-01T00:00:00Z", "2026-1-2", "2026-01-01 10:00:00", "1:20", "190:20:30.15", "0x1F", "0b101", "-0b101",
		"1_000", "1e3", "6.8523015e+5", "685_230.15", "Yes please", "nullable", "offset", "truer", "False!")
	styles := map[string]yamlStyle{}
	for range 2 {
		for _, s := range strs {
			w := want(s)
			if got := stringStyle([]byte(s), nil); got != w {
				t.Fatalf("stringStyle(%q) = %v, go-yaml's resolution says %v", s, got, w)
			}
			if got := stringStyle([]byte(s), styles); got != w {
				t.Fatalf("stringStyle(%q) with memory = %v, go-yaml's resolution says %v", s, got, w)
			}
		}
	}
}
