package fastunstructured

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// FuzzAgreesWithFromUnstructured builds, from the fuzzer's bytes, unstructured
// objects shaped like a Go type (the test's sample, an HTTPRoute, a Gateway, a
// GRPCRoute) with wrong types, nulls, nil and empty lists and maps, huge and
// fractional numbers, bad times, quantities and base64 anywhere in them, and
// holds the conversion to FromUnstructured's: the same value, or an error too.
//
//	go test -fuzz FuzzAgreesWithFromUnstructured -fuzztime 60s ./internal/fastunstructured
func FuzzAgreesWithFromUnstructured(f *testing.F) {
	targets := []func() any{
		newSample,
		func() any { return new(gwv1.HTTPRoute) },
		func() any { return new(gwv1.Gateway) },
		func() any { return new(gwv1.GRPCRoute) },
	}
	for _, seed := range [][]byte{
		{0}, {1}, {2}, {3},
		{0, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200},
		{1, 0, 7, 3, 9, 200, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
		{2, 255, 254, 253, 252, 251, 250, 249, 248, 247, 246, 245, 244, 243, 242},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 {
			return
		}
		newV := targets[int(b[0])%len(targets)]
		g := &generator{b: b[1:]}
		u, _ := g.value(reflect.TypeOf(newV()).Elem(), 0).(map[string]any)
		agreement(t, u, newV, false)
	})
}

// generator makes unstructured values from bytes; when they run out it makes
// the plainest values of the type.
type generator struct{ b []byte }

func (g *generator) next() int {
	if len(g.b) == 0 {
		return 0
	}
	c := g.b[0]
	g.b = g.b[1:]
	return int(c)
}

var unmarshaler = reflect.TypeFor[json.Unmarshaler]()

// value makes a value meant for a field of type t: mostly one of its shape.
func (g *generator) value(t reflect.Type, depth int) any {
	switch c := g.next(); {
	case c >= 250:
		return nil
	case c >= 235 || depth > 6:
		return g.wrong()
	}
	if t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(unmarshaler) {
		return g.pick("2024-05-01T10:00:00Z", "2024-05-01T10:00:00.123+02:00", "1m30s", "100Mi", "50%", "", "x", int64(8080), float64(1.5))
	}
	switch t.Kind() {
	case reflect.Pointer:
		return g.value(t.Elem(), depth+1)
	case reflect.Struct:
		m := map[string]any{}
		g.fields(t, m, depth)
		if g.next() >= 240 {
			m["unknownField"] = g.wrong()
		}
		return m
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && g.next()%2 == 0 {
			return g.pick("aGVsbG8=", "", "!!", "aGVsbG8")
		}
		n := g.next() % 4
		l := make([]any, n, n+g.next()%3)
		for i := range l {
			l[i] = g.value(t.Elem(), depth+1)
		}
		return l
	case reflect.Map:
		n := g.next() % 3
		m := make(map[string]any, n)
		for i := range n {
			m[string(rune('a'+i))] = g.value(t.Elem(), depth+1)
		}
		return m
	case reflect.Interface:
		return g.wrong()
	case reflect.String:
		return g.pick("", "web", "example.com", "*.example.com", "PathPrefix", "2024-05-01T10:00:00Z", "\xff", "é")
	case reflect.Bool:
		return g.next()%2 == 0
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return g.number(t)
	}
	return nil
}

// fields adds a value for each field of struct t to m, the fields of an
// inline struct among them, as FromUnstructured names them.
func (g *generator) fields(t reflect.Type, m map[string]any, depth int) {
	for i := range t.NumField() {
		f := t.Field(i)
		if g.next()%4 == 0 {
			continue
		}
		name := jsonName(f)
		if name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				g.fields(ft, m, depth+1)
			}
			continue
		}
		m[name] = g.value(f.Type, depth+1)
	}
}

// number makes a number for a numeric field of type t; NaN only for an
// integer, where it is refused (a float field would hold it, and NaN is not
// equal to itself).
func (g *generator) number(t reflect.Type) any {
	values := []any{int64(0), int64(1), int64(-1), int64(80), int64(255), int64(256), int64(65536), int64(1 << 31), int64(-1<<31 - 1),
		int64(math.MaxInt64), int64(math.MinInt64), float64(0), float64(443), float64(1.5), float64(-2.5), float64(1e10), float64(1e300),
		math.Copysign(0, -1), math.Inf(1), math.Inf(-1), float64(1 << 63), float64(-1 << 63)}
	if k := t.Kind(); k != reflect.Float32 && k != reflect.Float64 {
		values = append(values, math.NaN())
	}
	return g.pick(values...)
}

// wrong makes a JSON value of any type, most often not the one a field holds.
func (g *generator) wrong() any {
	return g.pick("80", "", "yes", int64(7), float64(7.25), true, false, map[string]any{}, map[string]any(nil), []any{}, []any(nil),
		map[string]any{"name": "x", "port": int64(80)}, []any{"a", int64(1)}, []any{map[string]any{"name": "y"}})
}

func (g *generator) pick(values ...any) any {
	return values[g.next()%len(values)]
}
