package fastunstructured

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// The test types hold every kind of field FromUnstructured converts, the way
// Kubernetes types hold them.
type (
	name   string
	port   int32
	labels map[name]name

	sample struct {
		metav1.TypeMeta `json:",inline"`
		Meta            metav1.ObjectMeta `json:"metadata,omitempty"`
		Inline          `json:",inline"`
		*InlinePointer  `json:",inline"`
		Untagged
		Tagged `json:"tagged"`

		Str      string   `json:"str"`
		Named    name     `json:"named,omitempty"`
		Bool     bool     `json:"bool"`
		I8       int8     `json:"i8"`
		I16      int16    `json:"i16"`
		I32      int32    `json:"i32"`
		I64      int64    `json:"i64"`
		I        int      `json:"i"`
		U8       uint8    `json:"u8"`
		U16      uint16   `json:"u16"`
		U32      uint32   `json:"u32"`
		U64      uint64   `json:"u64"`
		F32      float32  `json:"f32"`
		F64      float64  `json:"f64"`
		Port     port     `json:"port"`
		PortPtr  *port    `json:"portPtr"`
		StrPtr   *string  `json:"strPtr"`
		BoolPtr  *bool    `json:"boolPtr"`
		Dash     string   `json:"-"`
		NoTag    string   // read by its Go name, as FromUnstructured does
		OnlyOpts string   `json:",omitempty"`
		Bytes    []byte   `json:"bytes"`
		Strs     []string `json:"strs"`
		Names    []name   `json:"names"`
		Nested   [][]int64
		Items    []item            `json:"items"`
		ItemPtrs []*item           `json:"itemPtrs"`
		Labels   map[string]string `json:"labels"`
		Counts   map[string]int32  `json:"counts"`
		Typed    labels            `json:"typed"`
		ByName   map[string]*item  `json:"byName"`
		Lists    map[string][]any  `json:"lists"`
		Any      any               `json:"any"`
		Anys     []any             `json:"anys"`
		AnyMap   map[string]any    `json:"anyMap"`
		Time     metav1.Time       `json:"time"`
		TimePtr  *metav1.Time      `json:"timePtr"`
		Duration metav1.Duration   `json:"duration"`
		IntOrStr intstr.IntOrString
		Quantity *resource.Quantity `json:"quantity"`
		Self     *sample            `json:"self"`
	}
	Inline struct {
		InlineField string `json:"inlineField"`
		Str         string `json:"str"` // also read from the outer struct's key
	}
	InlinePointer struct {
		PointerField *int32 `json:"pointerField"`
	}
	Untagged struct {
		UntaggedField bool `json:"untaggedField"`
	}
	Tagged struct {
		TaggedField string `json:"taggedField"`
	}
	item struct {
		Name   name   `json:"name"`
		Weight *int32 `json:"weight,omitempty"`
		Items  []item `json:"items"`
	}
	// hidden has an unexported field, which FromUnstructured cannot set.
	hidden struct {
		Visible string `json:"visible"`
		secret  string
	}
	withHidden struct {
		Hidden *hidden `json:"hidden"`
	}
)

var _ = hidden{}.secret

// agreement converts u into a new value of the type newV makes, with
// FromUnstructured and with this package, and says how they differ; fast
// reports whether the plan converted it without FromUnstructured. sameError
// also holds the errors' words to FromUnstructured's, which are only
// FromUnstructured's own every time when u has one error: it converts maps in
// Go's random order and stops at the first.
func agreement(t *testing.T, u map[string]any, newV func() any, sameError bool) (fast bool) {
	t.Helper()
	before := fmt.Sprintf("%#v", u) // sorted keys, and NaN is NaN
	want := newV()
	wantErr := runtime.DefaultUnstructuredConverter.FromUnstructured(u, want)
	planned := newV()
	fast = convert(u, planned)
	switch {
	case fast && wantErr != nil:
		t.Errorf("converted what FromUnstructured refuses: %v", wantErr)
	case fast && !reflect.DeepEqual(planned, want):
		t.Errorf("the plan converted to\n%#v\nFromUnstructured's\n%#v", planned, want)
	case !fast && !reflect.ValueOf(planned).Elem().IsZero():
		t.Errorf("the plan gave up and left %#v", planned)
	}
	got := newV()
	gotErr := FromUnstructured(u, got)
	switch {
	case (gotErr == nil) != (wantErr == nil):
		t.Errorf("error %v, FromUnstructured's %v", gotErr, wantErr)
	case sameError && gotErr != nil && gotErr.Error() != wantErr.Error():
		t.Errorf("error %q, FromUnstructured's %q", gotErr, wantErr)
	case wantErr == nil && !reflect.DeepEqual(got, want):
		// (After an error the value is what FromUnstructured converted
		// before it, which depends on the order of map keys.)
		t.Errorf("converted to\n%#v\nFromUnstructured's\n%#v", got, want)
	}
	if fmt.Sprintf("%#v", u) != before {
		t.Errorf("the source changed")
	}
	return fast
}

func newSample() any { return new(sample) }

func TestAgreesWithFromUnstructured(t *testing.T) {
	full := map[string]any{
		"apiVersion": "example.com/v1", "kind": "Sample",
		"metadata": map[string]any{
			"name": "a", "namespace": "ns", "generation": int64(3),
			"labels":            map[string]any{"app": "web", "empty": nil},
			"annotations":       map[string]any{},
			"creationTimestamp": "2024-05-01T10:00:00Z",
			"deletionTimestamp": "2024-05-01T10:00:00+02:00",
			"ownerReferences":   []any{map[string]any{"apiVersion": "v1", "kind": "A", "name": "b", "uid": "u", "controller": true}},
			"finalizers":        []any{"f"},
			"managedFields": []any{map[string]any{"manager": "m", "operation": "Apply", "time": "2024-05-01T10:00:00Z",
				"fieldsType": "FieldsV1", "fieldsV1": map[string]any{"f:spec": map[string]any{}}}},
		},
		"inlineField": "in", "pointerField": int64(7), "untaggedField": true,
		"tagged": map[string]any{"taggedField": "t"},
		"str":    "s", "named": "n", "bool": true,
		"i8": int64(300), "i16": int64(-70000), "i32": int64(1 << 40), "i64": int64(math.MinInt64), "i": int64(5),
		"u8": int64(-1), "u16": int64(70000), "u32": int64(-5), "u64": int64(math.MaxInt64),
		"f32": float64(1.5), "f64": int64(1 << 60), "port": float64(443), "portPtr": int64(80), "strPtr": "", "boolPtr": false,
		"-": "dash", "NoTag": "no tag", "OnlyOpts": "opts",
		"bytes": "aGVsbG8=", "strs": []any{"a", nil, "c"}, "names": make([]any, 0, 4),
		"Nested": []any{[]any{int64(1), float64(2)}, nil, []any{}},
		"items": []any{
			map[string]any{"name": "x", "weight": int64(1), "items": []any{map[string]any{"name": "y"}}},
			nil,
			map[string]any{},
		},
		"itemPtrs": []any{nil, map[string]any{"name": "p"}, map[string]any(nil)},
		"labels":   map[string]any{"a": "b"},
		"counts":   map[string]any{"a": int64(1), "b": float64(2), "c": nil},
		"typed":    map[string]any{"k": "v"},
		"byName":   map[string]any{"a": map[string]any{"name": "a"}, "b": nil},
		"lists":    map[string]any{"a": []any{int64(1), "x", nil, map[string]any{}}},
		"any":      map[string]any{"deep": []any{int64(1)}},
		"anys":     []any{"x", int64(2), float64(2.5), true, nil, map[string]any{}},
		"anyMap":   map[string]any{"a": nil, "b": []any{}},
		"time":     "2024-05-01T10:00:00.5Z", "timePtr": "2024-05-01T10:00:00Z",
		"duration": "1m30s", "IntOrStr": "50%", "quantity": "100Mi",
		"self": map[string]any{"str": "inner", "self": map[string]any{"i": int64(1)}},
	}
	for _, tc := range []struct {
		name string
		u    map[string]any
		// fast: the plan converts it, without FromUnstructured.
		fast bool
	}{
		{"every kind of field", full, true},
		{"an empty object", map[string]any{}, true},
		{"a nil object", nil, true},
		{"nulls are zero", map[string]any{"str": nil, "metadata": nil, "items": nil, "labels": nil, "self": nil, "time": nil}, true},
		{"a nil map and list are nil, empty ones empty", map[string]any{"labels": map[string]any(nil), "items": []any(nil), "strs": []any{}, "counts": map[string]any{}}, true},
		{"a nil map into a pointer is a zero struct", map[string]any{"self": map[string]any(nil)}, true},
		{"unknown fields are ignored", map[string]any{"unknown": int64(1), "metadata": map[string]any{"other": "x"}}, true},
		{"an int into an int's every size", map[string]any{"i8": int64(-129), "u8": int64(256), "u64": int64(-1), "i": int64(math.MaxInt64)}, true},
		{"a whole float into ints", map[string]any{"i32": float64(1e10), "u32": float64(-1), "i64": math.Copysign(0, -1), "u64": float64(1e300), "i8": math.Inf(1)}, true},
		{"an int into floats", map[string]any{"f32": int64(math.MaxInt64), "f64": int64(-3)}, true},
		{"floats into floats", map[string]any{"f32": float64(1e300), "f64": math.Inf(-1)}, true},
		{"an empty string into bytes", map[string]any{"bytes": ""}, true},
		{"a list of numbers into bytes", map[string]any{"bytes": []any{int64(1), int64(256)}}, true},
		{"an interface keeps any value", map[string]any{"any": "s", "anys": []any{[]any{nil}}}, true},
		{"IntOrString from an int", map[string]any{"IntOrStr": int64(8080)}, true},
		{"a Duration from a number", map[string]any{"duration": int64(10)}, false},

		{"a fraction into an int", map[string]any{"i32": 1.5}, false},
		{"a NaN into an int", map[string]any{"i64": math.NaN()}, false},
		{"a string into an int", map[string]any{"port": "80"}, false},
		{"an int into a string", map[string]any{"str": int64(1)}, false},
		{"a bool into a string", map[string]any{"named": true}, false},
		{"a string into a bool", map[string]any{"bool": "true"}, false},
		{"a string into a list", map[string]any{"strs": "a"}, false},
		{"a map into a list", map[string]any{"items": map[string]any{}}, false},
		{"a list into a struct", map[string]any{"self": []any{}}, false},
		{"a string into a struct", map[string]any{"tagged": "x"}, false},
		{"a list into a map", map[string]any{"labels": []any{}}, false},
		{"a number into a string map", map[string]any{"labels": map[string]any{"a": int64(1)}}, false},
		{"a bad element deep down", map[string]any{"items": []any{map[string]any{"items": []any{map[string]any{"weight": "heavy"}}}}}, false},
		{"a bad inline field", map[string]any{"pointerField": "x"}, false},
		{"bad base64", map[string]any{"bytes": "!!"}, false},
		{"a time that is not RFC 3339", map[string]any{"time": "yesterday"}, false},
		{"a time that is a number", map[string]any{"timePtr": int64(0)}, false},
		{"a time that is not UTF-8", map[string]any{"time": "2024-05-01T10:00:00Z\xff"}, false},
		{"a bad quantity", map[string]any{"quantity": "lots"}, false},
		{"a source value of a Go type JSON does not make", map[string]any{"i32": int32(1)}, false},
		{"a typed map", map[string]any{"labels": map[string]string{"a": "b"}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if fast := agreement(t, tc.u, newSample, true); fast != tc.fast {
				t.Errorf("converted by the plan: %v, want %v", fast, tc.fast)
			}
		})
	}
}

// A struct with an unexported field is left to FromUnstructured, which cannot
// set the field (it panics), and converted when it is not reached.
func TestUnexportedFieldsAreFromUnstructureds(t *testing.T) {
	if !convert(map[string]any{"other": int64(1)}, new(withHidden)) {
		t.Error("a struct with an unexported field, not reached, is not converted")
	}
	if convert(map[string]any{"hidden": map[string]any{"visible": "x"}}, new(withHidden)) {
		t.Error("a struct with an unexported field is converted")
	}
}

// Only into a zero value: FromUnstructured keeps some of what a
// json.Unmarshaler's value held.
func TestOnlyIntoAZeroValue(t *testing.T) {
	v := &sample{IntOrStr: intstr.FromInt32(5)}
	if convert(map[string]any{"IntOrStr": "a"}, v) {
		t.Fatal("converted into a value that is not zero")
	}
	if err := FromUnstructured(map[string]any{"IntOrStr": "a"}, v); err != nil {
		t.Fatal(err)
	}
	if v.IntOrStr.IntVal != 5 || v.IntOrStr.StrVal != "a" {
		t.Errorf("IntOrString %+v: FromUnstructured keeps IntVal 5", v.IntOrStr)
	}
	if err := FromUnstructured(map[string]any{}, sample{}); err == nil {
		t.Error("converted into a value, not a pointer")
	}
	if err := FromUnstructured(map[string]any{}, (*sample)(nil)); err == nil {
		t.Error("converted into a nil pointer")
	}
}

// The realistic objects are converted by the plan.
func TestGatewayAPIObjects(t *testing.T) {
	for _, tc := range []struct {
		name string
		js   string
		newV func() any
	}{
		{"HTTPRoute", httpRouteJSON, func() any { return new(gwv1.HTTPRoute) }},
		{"Gateway", gatewayJSON, func() any { return new(gwv1.Gateway) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := unstructured(t, tc.js)
			if !agreement(t, u, tc.newV, true) {
				t.Error("left to FromUnstructured")
			}
		})
	}
}

// unstructured decodes js as the API server's decoder does: integers as int64.
func unstructured(tb testing.TB, js string) map[string]any {
	tb.Helper()
	var u map[string]any
	if err := utiljson.Unmarshal([]byte(js), &u); err != nil {
		tb.Fatal(err)
	}
	return u
}

// httpRouteJSON and gatewayJSON are objects as the loader gets them from
// admission: defaulted, with a status.
var httpRouteJSON = strings.TrimSpace(`
{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute",
 "metadata":{"name":"web","namespace":"team-a","labels":{"app":"web","tier":"frontend"},
  "annotations":{"example.com/owner":"team-a"},"creationTimestamp":"2026-01-01T00:00:00Z","generation":2},
 "spec":{"parentRefs":[{"group":"gateway.networking.k8s.io","kind":"Gateway","name":"shared","namespace":"infra","sectionName":"https"}],
  "hostnames":["web.example.com","www.example.com"],
  "rules":[
   {"matches":[{"path":{"type":"PathPrefix","value":"/api"},"headers":[{"type":"Exact","name":"x-env","value":"prod"}]}],
    "filters":[{"type":"RequestHeaderModifier","requestHeaderModifier":{"set":[{"name":"x-a","value":"b"}],"remove":["x-c"]}}],
    "backendRefs":[{"group":"","kind":"Service","name":"api","port":8080,"weight":1},{"group":"","kind":"Service","name":"api-canary","port":8080,"weight":10}],
    "timeouts":{"request":"10s"}},
   {"matches":[{"path":{"type":"PathPrefix","value":"/"}}],
    "backendRefs":[{"group":"","kind":"Service","name":"web","port":80,"weight":1,
     "filters":[{"type":"ResponseHeaderModifier","responseHeaderModifier":{"add":[{"name":"x-b","value":"c"}]}}]}]}]},
 "status":{"parents":[{"parentRef":{"group":"gateway.networking.k8s.io","kind":"Gateway","name":"shared","namespace":"infra","sectionName":"https"},
  "controllerName":"example.com/gateway-controller",
  "conditions":[{"type":"Accepted","status":"True","reason":"Accepted","message":"","observedGeneration":2,"lastTransitionTime":"2026-01-01T00:00:00Z"},
   {"type":"ResolvedRefs","status":"True","reason":"ResolvedRefs","message":"","observedGeneration":2,"lastTransitionTime":"2026-01-01T00:00:00Z"}]}]}}`)

var gatewayJSON = strings.TrimSpace(`
{"apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway",
 "metadata":{"name":"shared","namespace":"infra","labels":{"tier":"infra"}},
 "spec":{"gatewayClassName":"gwtls-bench",
  "infrastructure":{"labels":{"a":"b"},"annotations":{"c":"d"}},
  "listeners":[
   {"name":"http","port":80,"protocol":"HTTP","allowedRoutes":{"namespaces":{"from":"Same"}}},
   {"name":"https","hostname":"*.example.com","port":443,"protocol":"HTTPS",
    "tls":{"mode":"Terminate","certificateRefs":[{"group":"","kind":"Secret","name":"wildcard"}],"options":{"example.com/x":"y"}},
    "allowedRoutes":{"namespaces":{"from":"Selector","selector":{"matchLabels":{"shared":"true"},
     "matchExpressions":[{"key":"env","operator":"In","values":["prod","staging"]}]}},
     "kinds":[{"group":"gateway.networking.k8s.io","kind":"HTTPRoute"}]}},
   {"name":"tls","hostname":"db.example.com","port":5432,"protocol":"TLS","tls":{"mode":"Passthrough"},
    "allowedRoutes":{"namespaces":{"from":"All"}}}]},
 "status":{"addresses":[{"type":"IPAddress","value":"10.0.0.1"}],
  "conditions":[{"type":"Programmed","status":"True","reason":"Programmed","message":"","observedGeneration":1,"lastTransitionTime":"2026-01-01T00:00:00Z"}],
  "listeners":[{"name":"https","supportedKinds":[{"group":"gateway.networking.k8s.io","kind":"HTTPRoute"}],"attachedRoutes":3,
   "conditions":[{"type":"Accepted","status":"True","reason":"Accepted","message":"","observedGeneration":1,"lastTransitionTime":"2026-01-01T00:00:00Z"}]}]}}`)

// TestSlicesAtTheirLength: a slice is made at its list's length, whatever
// room the list has (an admitted list is grown from a capacity of 2), and an
// empty list is an empty slice, not nil.
func TestSlicesAtTheirLength(t *testing.T) {
	type lists struct {
		One   []gwv1.Hostname        `json:"one"`
		Three []gwv1.ParentReference `json:"three"`
		Empty []string               `json:"empty"`
	}
	one := append(make([]any, 0, 2), "a.example.com")
	three := append(make([]any, 0, 4), map[string]any{"name": "a"}, map[string]any{"name": "b"}, map[string]any{"name": "c"})
	var got lists
	if err := FromUnstructured(map[string]any{"one": one, "three": three, "empty": make([]any, 0, 2)}, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.One) != 1 || cap(got.One) != 1 || got.One[0] != "a.example.com" {
		t.Errorf("one: %v, len %d cap %d; want [a.example.com] at capacity 1", got.One, len(got.One), cap(got.One))
	}
	if len(got.Three) != 3 || cap(got.Three) != 3 || got.Three[2].Name != "c" {
		t.Errorf("three: %v, len %d cap %d; want a, b, c at capacity 3", got.Three, len(got.Three), cap(got.Three))
	}
	if got.Empty == nil || len(got.Empty) != 0 {
		t.Errorf("empty: %#v, want an empty slice", got.Empty)
	}
}
