package typedjson

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// The test types hold every kind of field encoding/json decodes, the way
// Kubernetes types hold them.
type (
	name   string
	port   int32
	labels map[name]name

	sample struct {
		metav1.TypeMeta `json:",inline"`
		Meta            metav1.ObjectMeta `json:"metadata,omitempty"`
		Inline          `json:",inline"`
		Untagged
		Tagged `json:"tagged"`

		Str      string            `json:"str"`
		Named    name              `json:"named,omitempty"`
		Bool     bool              `json:"bool"`
		I8       int8              `json:"i8"`
		I16      int16             `json:"i16"`
		I32      int32             `json:"i32"`
		I64      int64             `json:"i64"`
		I        int               `json:"i"`
		U8       uint8             `json:"u8"`
		U16      uint16            `json:"u16"`
		U32      uint32            `json:"u32"`
		U64      uint64            `json:"u64"`
		F32      float32           `json:"f32"`
		F64      float64           `json:"f64"`
		Port     port              `json:"port"`
		PortPtr  *port             `json:"portPtr"`
		StrPtr   *string           `json:"strPtr"`
		NamePtr  *name             `json:"namePtr"`
		BoolPtr  *bool             `json:"boolPtr"`
		Dash     string            `json:"-"`
		NoTag    string            // read by its Go name
		OnlyOpts string            `json:",omitempty"`
		Quoted   int               `json:"quoted,string"`
		Bytes    []byte            `json:"bytes"`
		Strs     []string          `json:"strs"`
		Names    []name            `json:"names"`
		Nested   [][]int64         `json:"nested"`
		Items    []item            `json:"items"`
		ItemPtrs []*item           `json:"itemPtrs"`
		Labels   map[string]string `json:"labels"`
		Counts   map[string]int32  `json:"counts"`
		Typed    labels            `json:"typed"`
		ByName   map[string]*item  `json:"byName"`
		Any      any               `json:"any"`
		Anys     []any             `json:"anys"`
		AnyMap   map[string]any    `json:"anyMap"`
		Time     metav1.Time       `json:"time"`
		TimePtr  *metav1.Time      `json:"timePtr"`
		Duration metav1.Duration   `json:"duration"`
		IntOrStr intstr.IntOrString
		Quantity *resource.Quantity `json:"quantity"`
		Raw      json.RawMessage    `json:"raw"`
		Number   json.Number        `json:"number"`
		Self     *sample            `json:"self"`
		private  string
	}
	Inline struct {
		InlineField string `json:"inlineField"`
		Str         string `json:"str"` // hidden by the outer struct's
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
	// Two embedded structs with a field of the same name at the same depth:
	// encoding/json drops it (or takes the tagged one).
	conflict struct {
		A
		B
	}
	A struct {
		X string
		Y string `json:"y"`
	}
	B struct {
		X string
		Z string `json:"z"`
	}
	// An embedded pointer, which encoding/json allocates.
	embeddedPointer struct {
		*A
		W string `json:"w"`
	}
)

var _ = sample{}.private

const sampleJSON = `{
  "apiVersion": "v1", "kind": "Sample",
  "metadata": {"name": "n", "namespace": "ns", "labels": {"a": "b", "c": ""}, "annotations": {"x": null},
    "creationTimestamp": "2024-05-01T10:00:00Z", "generation": 3, "uid": "u-1",
    "ownerReferences": [{"apiVersion": "v1", "kind": "K", "name": "o", "uid": "x", "controller": true}],
    "managedFields": [{"manager": "m", "operation": "Apply", "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {}}}]},
  "inlineField": "i", "untaggedField": true, "tagged": {"taggedField": "t"},
  "str": "s\u00e9\n\t\"\\\/", "named": "nm", "bool": false, "i8": -128, "i16": 32767, "i32": -5, "i64": 9223372036854775807,
  "i": 0, "u8": 255, "u16": 0, "u32": 4294967295, "u64": 18446744073709551615, "f32": 1.5e3, "f64": -0.25E-2,
  "port": 8443, "portPtr": 443, "strPtr": "p", "namePtr": "", "boolPtr": true,
  "-": "dash", "NoTag": "nt", "OnlyOpts": "oo",
  "bytes": "aGVsbG8=", "strs": ["a", "", "é"], "names": [], "nested": [[1, 2], [], null],
  "items": [{"name": "x", "weight": 1, "items": [{"name": "y"}]}, {}],
  "itemPtrs": [null, {"name": "z", "weight": 0}],
  "counts": {"a": 1, "b": null}, "typed": {"k": "v"}, "byName": {"q": {"name": "q"}, "r": null},
  "any": {"a": [1, "x", true, null, {"b": 2.5}]}, "anys": [], "anyMap": {"k": -1e2},
  "time": "2024-05-01T10:00:00.123+02:00", "timePtr": null, "duration": "1m30s",
  "IntOrStr": "50%", "quantity": "100Mi", "raw": {"any": [1, 2]},
  "self": {"str": "inner", "self": null},
  "unknown": {"deep": [[[{"a": "\ud83d\ude00"}]]], "n": -0.0e+0}
}`

// agreement decodes js into a new value of the type newV makes, with
// encoding/json and with this package, and reports how they differ; fast
// reports whether the plan decoded it without encoding/json.
func agreement(t *testing.T, js []byte, newV func() any) (fast bool) {
	t.Helper()
	want := newV()
	wantErr := json.Unmarshal(js, want)
	planned := newV()
	fast = Decodes(js, planned)
	switch {
	case fast && wantErr != nil:
		t.Errorf("decoded what encoding/json refuses: %v\n%s", wantErr, js)
	case fast && !reflect.DeepEqual(planned, want):
		t.Errorf("the plan decoded\n%s\nto\n%#v\nencoding/json to\n%#v", js, planned, want)
	case !fast && !reflect.ValueOf(planned).Elem().IsZero():
		t.Errorf("the plan gave up and left %#v", planned)
	}
	got := newV()
	gotErr := Unmarshal(js, got)
	switch {
	case (gotErr == nil) != (wantErr == nil):
		t.Errorf("error %v, encoding/json's %v", gotErr, wantErr)
	case gotErr != nil && gotErr.Error() != wantErr.Error():
		t.Errorf("error %q, encoding/json's %q", gotErr, wantErr)
	case !reflect.DeepEqual(got, want):
		t.Errorf("decoded to\n%#v\nencoding/json's\n%#v", got, want)
	}
	return fast
}

func newSample() any { return new(sample) }

func TestSample(t *testing.T) {
	// Without the ",string" field and json.Number, which only encoding/json
	// decodes, the plan decodes all of it.
	if !agreement(t, []byte(sampleJSON), newSample) {
		t.Error("the plan declined the sample")
	}
	s := new(sample)
	if err := Unmarshal([]byte(sampleJSON), s); err != nil {
		t.Fatal(err)
	}
	if s.Names == nil || len(s.Names) != 0 || s.Anys == nil {
		t.Errorf("empty lists decode to nil: %#v %#v", s.Names, s.Anys)
	}
	if cap(s.Strs) != len(s.Strs) || cap(s.Items) != 2 {
		t.Errorf("a slice is not made at its length: cap %d for %d", cap(s.Strs), len(s.Strs))
	}
}

// TestEdgeCases holds each input to encoding/json's answer, and says whether
// the plan decodes it itself (fast) or hands it to encoding/json.
func TestEdgeCases(t *testing.T) {
	for _, c := range []struct {
		js   string
		fast bool
	}{
		{`{}`, true},
		{` {"str": "x"} `, true},
		{`null`, true},
		{`{"str": null, "i32": null, "items": null, "labels": null, "self": null, "time": null, "bytes": null}`, true},
		{`{"names": [], "labels": {}, "counts": {}, "bytes": ""}`, true},
		{`{"unknown": 1, "other": {"a": [true, false, null]}}`, true},
		{`{"str": "a\u0000b\u00e9\u20ac"}`, true},
		{`{"str": "é€"}`, true},
		{`{"i8": -0}`, true},
		{`{"f64": 1e308, "f32": 3.4e38}`, true},
		{`{"any": 1e400}`, false},
		{`{"f32": 3.5e38}`, false},
		{`{"f64": 1e400}`, false},
		{`{"i8": 128}`, false},
		{`{"i8": -129}`, false},
		{`{"u8": 256}`, false},
		{`{"u8": -1}`, false},
		{`{"u64": 18446744073709551616}`, false},
		{`{"i64": 9223372036854775808}`, false},
		{`{"i32": 1.0}`, false},
		{`{"i32": 1e2}`, false},
		{`{"i32": "1"}`, false},
		{`{"str": 1}`, false},
		{`{"str": true}`, false},
		{`{"bool": "true"}`, false},
		{`{"bool": 0}`, false},
		{`{"strs": "a"}`, false},
		{`{"labels": []}`, false},
		{`{"labels": {"a": 1}}`, false},
		{`{"items": {}}`, false},
		{`{"tagged": []}`, false},
		{`{"str": "a", "str": "b"}`, false},
		{`{"labels": {"a": "1", "a": "2"}}`, true},
		{`{"counts": {"a": 1, "a": 2}}`, true},
		{`{"Str": "x"}`, false},
		{`{"STR": "x"}`, false},
		{`{"inlinefield": "x"}`, false},
		{`{"ſtr": "x"}`, false},
		{`{"unknownKeyThatIsVeryLongUnknownKeyThatIsVeryLongUnknownKeyThatIsVeryLong": 1}`, true},
		{`{"str": "\ud83d\ude00"}`, false},
		{`{"str": "\ud83d"}`, false},
		{"{\"str\": \"\xff\"}", false},
		{"{\"str\": \"a\x01\"}", false},
		{`{"str": "\x"}`, false},
		{`{"str": "\u12"}`, false},
		{`{"str": "x"} x`, false},
		{`{"str": "x"`, false},
		{`{"str" "x"}`, false},
		{`{"str": "x",}`, false},
		{`{"strs": ["a",]}`, false},
		{`{"strs": ["a" "b"]}`, false},
		{`{"i32": 01}`, false},
		{`{"i32": -}`, false},
		{`{"i32": 1.}`, false},
		{`{"f64": .5}`, false},
		{`{"f64": 1e}`, false},
		{`{"f64": +1}`, false},
		{`{"bool": tru}`, false},
		{`{"bool": nul}`, false},
		{`{"unknown": [1, 2,]}`, false},
		{`{"unknown": {"a" 1}}`, false},
		{`{"unknown": 01}`, false},
		{`{"unknown": "\q"}`, false},
		{`[]`, false},
		{`"x"`, false},
		{``, false},
		{`{"bytes": "aGVsbG8"}`, false},
		{`{"bytes": "aGVs\r\nbG8="}`, true}, // base64.StdEncoding skips newlines
		{`{"bytes": [104, 105]}`, true},
		{`{"time": "yesterday"}`, false},
		{`{"time": 5}`, false},
		{`{"quantity": "1.5Gi"}`, true},
		{`{"quantity": "many"}`, false},
		{`{"IntOrStr": 8080}`, true},
		{`{"IntOrStr": [1]}`, false},
		{`{"duration": "soon"}`, false},
		{`{"quoted": "5"}`, false},
		{`{"number": 5}`, false},
		{`{"Dash": "x", "dash": "y"}`, true}, // a field tagged "-" is no field
		{`{"-": "x"}`, true},
		{`{"private": "x"}`, true},
		{`{"raw": [1, {"a": "b"}]}`, true},
		{`{"raw": null}`, true},
		{`{"self": {"self": {"self": {"str": "deep"}}}}`, true},
		{`{"nested": [[1], [2, 3], [], null]}`, true},
		{`{"itemPtrs": [null, null]}`, true},
		{`{"anyMap": {"a": {"b": [{}]}, "a": 2}}`, true},
		{`{"any": "\u00e9"}`, true},
		{strings.Repeat(`{"self":`, 1200) + `{}` + strings.Repeat(`}`, 1200), false},
		{`{"unknown": ` + strings.Repeat(`[`, 1200) + strings.Repeat(`]`, 1200) + `}`, false},
	} {
		if fast := agreement(t, []byte(c.js), newSample); fast != c.fast {
			t.Errorf("%.80s: fast %v, want %v", c.js, fast, c.fast)
		}
	}
}

// TestResolvesFieldsAsEncodingJSON: the fields of embedded structs that
// encoding/json resolves otherwise than by the shallowest unique name are
// left to it.
func TestResolvesFieldsAsEncodingJSON(t *testing.T) {
	for _, c := range []struct {
		js   string
		newV func() any
		fast bool
	}{
		{`{"X": "1", "y": "2", "z": "3"}`, func() any { return new(conflict) }, false},
		{`{"y": "2"}`, func() any { return new(conflict) }, false},
		{`{"X": "1", "w": "2"}`, func() any { return new(embeddedPointer) }, false},
		{`{"w": "2"}`, func() any { return new(embeddedPointer) }, false},
		{`{"inlineField": "a", "str": "outer"}`, newSample, true},
	} {
		if fast := agreement(t, []byte(c.js), c.newV); fast != c.fast {
			t.Errorf("%s into %T: fast %v, want %v", c.js, c.newV(), fast, c.fast)
		}
	}
}

// TestDecodesOnlyIntoZero: a value that holds something is decoded by
// encoding/json, which merges into it.
func TestDecodesOnlyIntoZero(t *testing.T) {
	s := &sample{Str: "kept", I32: 7}
	if Decodes([]byte(`{"str": "x"}`), s) {
		t.Error("decoded into a value that is not zero")
	}
	if err := Unmarshal([]byte(`{"str": "x"}`), s); err != nil || s.Str != "x" || s.I32 != 7 {
		t.Errorf("got %v %+v", err, s)
	}
}

const httpRouteJSON = `{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute",
"metadata":{"name":"r","namespace":"app","labels":{"app":"x"}},
"spec":{"parentRefs":[{"group":"gateway.networking.k8s.io","kind":"Gateway","name":"gw","namespace":"infra","sectionName":"https","port":443}],
"hostnames":["a.example.com","*.example.com"],
"rules":[{"name":"r0","matches":[{"path":{"type":"PathPrefix","value":"/api"},"headers":[{"name":"x","value":"y"}],"method":"GET"}],
"filters":[{"type":"RequestHeaderModifier","requestHeaderModifier":{"set":[{"name":"a","value":"b"}],"remove":["c"]}},
{"type":"RequestRedirect","requestRedirect":{"scheme":"https","statusCode":301}}],
"backendRefs":[{"name":"svc","port":8080,"weight":1,"filters":[{"type":"RequestMirror","requestMirror":{"backendRef":{"name":"m","port":80},"percent":10}}]},
{"group":"","kind":"Service","name":"svc2","namespace":"other","port":8080}],
"timeouts":{"request":"10s"}}]},
"status":{"parents":[{"parentRef":{"name":"gw"},"controllerName":"example.com/c","conditions":[{"type":"Accepted","status":"True","reason":"Accepted","message":"","lastTransitionTime":"2024-05-01T10:00:00Z","observedGeneration":1}]}]}}`

const gatewayJSON = `{"apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway",
"metadata":{"name":"gw","namespace":"infra","annotations":{"a":"b"}},
"spec":{"gatewayClassName":"c","addresses":[{"type":"IPAddress","value":"10.0.0.1"}],
"listeners":[{"name":"https","hostname":"*.example.com","port":443,"protocol":"HTTPS",
"tls":{"mode":"Terminate","certificateRefs":[{"kind":"Secret","group":"","name":"cert"}],"options":{"k":"v"}},
"allowedRoutes":{"namespaces":{"from":"Selector","selector":{"matchLabels":{"a":"b"},"matchExpressions":[{"key":"k","operator":"In","values":["v"]}]}},"kinds":[{"kind":"HTTPRoute"}]}},
{"name":"http","port":80,"protocol":"HTTP"}],
"infrastructure":{"labels":{"a":"b"}}}}`

func TestGatewayAPIObjects(t *testing.T) {
	for _, c := range []struct {
		js   string
		newV func() any
	}{
		{httpRouteJSON, func() any { return new(gwv1.HTTPRoute) }},
		{gatewayJSON, func() any { return new(gwv1.Gateway) }},
	} {
		if !agreement(t, []byte(c.js), c.newV) {
			t.Errorf("the plan declined %.60s", c.js)
		}
	}
}

// TestSharesSmallValues: the pointees of equal scalars, and equal short
// strings, are one allocation across the objects one decoder decodes.
func TestSharesSmallValues(t *testing.T) {
	var a, b gwv1.HTTPRoute
	d := new(decoder)
	for _, r := range []*gwv1.HTTPRoute{&a, &b} {
		d.data, d.pos = []byte(httpRouteJSON), 0
		if !d.top(planOf(reflect.TypeFor[gwv1.HTTPRoute]()), unsafePointer(r)) {
			t.Fatal("declined")
		}
	}
	pa, pb := a.Spec.ParentRefs[0], b.Spec.ParentRefs[0]
	if pa.Group != pb.Group || pa.Kind != pb.Kind || pa.Namespace != pb.Namespace || pa.SectionName != pb.SectionName || pa.Port != pb.Port {
		t.Error("the pointees of equal parentRef fields are not shared")
	}
	if a.Spec.Rules[0].BackendRefs[0].Weight != b.Spec.Rules[0].BackendRefs[0].Weight {
		t.Error("equal weights are not shared")
	}
	if unsafeStringData(a.Namespace) != unsafeStringData(b.Namespace) {
		t.Error("equal namespaces are not shared")
	}
	if pa.Group == a.Spec.Rules[0].BackendRefs[1].Group {
		t.Error("group \"gateway.networking.k8s.io\" and group \"\" share a pointee")
	}
}

// TestWatchSharedSeesWrites: a write through a shared pointer is reported,
// so that the check of every command (cmd/gwtls) can fail.
func TestWatchSharedSeesWrites(t *testing.T) {
	check := WatchShared()
	var r gwv1.HTTPRoute
	if err := Unmarshal([]byte(httpRouteJSON), &r); err != nil {
		t.Fatal(err)
	}
	if n, err := check(); err != nil || n == 0 {
		t.Fatalf("nothing written, yet: %d shared, %v", n, err)
	}
	check = WatchShared()
	r = gwv1.HTTPRoute{}
	if err := Unmarshal([]byte(httpRouteJSON), &r); err != nil {
		t.Fatal(err)
	}
	*r.Spec.ParentRefs[0].Port = 8443
	_, err := check()
	*r.Spec.ParentRefs[0].Port = 443
	if err == nil || !strings.Contains(err.Error(), "443") {
		t.Errorf("a write through a shared *PortNumber was not seen: %v", err)
	}
}

func unsafePointer(r *gwv1.HTTPRoute) unsafe.Pointer { return unsafe.Pointer(r) }

func unsafeStringData(s string) *byte { return unsafe.StringData(s) }

// TestSharesShortMaps: the maps of equal short objects (labels, annotations)
// are one map across the objects one decoder decodes, as encoding/json would
// decode each; a different text, or one past maxSharedMap, gets a map of its
// own.
func TestSharesShortMaps(t *testing.T) {
	long := strings.Repeat("x", maxSharedMap)
	texts := []string{
		`{"metadata":{"name":"a","labels":{"app":"web","tier":null},"annotations":{}}}`,
		`{"metadata":{"name":"b","labels":{"app":"web","tier":null},"annotations":{}}}`,
		`{"metadata":{"name":"c","labels":{"app":"api"},"annotations":{"note":"` + long + `"}}}`,
		`{"metadata":{"name":"d","labels":{"app":"api"},"annotations":{"note":"` + long + `"}}}`,
	}
	d := new(decoder)
	got := make([]gwv1.HTTPRoute, len(texts))
	for i, text := range texts {
		d.data, d.pos = []byte(text), 0
		if !d.top(planOf(reflect.TypeFor[gwv1.HTTPRoute]()), unsafePointer(&got[i])) {
			t.Fatalf("%s: declined", text)
		}
		var want gwv1.HTTPRoute
		if err := json.Unmarshal([]byte(text), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got[i], want) {
			t.Errorf("%s: decoded %+v, encoding/json %+v", text, got[i].ObjectMeta, want.ObjectMeta)
		}
	}
	same := func(a, b map[string]string) bool {
		return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
	}
	if !same(got[0].Labels, got[1].Labels) || !same(got[0].Annotations, got[1].Annotations) {
		t.Error("equal labels or annotations are not one map")
	}
	if same(got[0].Labels, got[2].Labels) {
		t.Error("different labels are one map")
	}
	if !same(got[2].Labels, got[3].Labels) {
		t.Error("equal labels beside a long annotation are not one map")
	}
	if same(got[2].Annotations, got[3].Annotations) {
		t.Errorf("maps of more than %d bytes of text are shared", maxSharedMap)
	}
}

// TestWatchSharedSeesMapWrites: a write to a shared map is reported.
func TestWatchSharedSeesMapWrites(t *testing.T) {
	check := WatchShared()
	var r gwv1.HTTPRoute
	if err := Unmarshal([]byte(`{"metadata":{"labels":{"app":"web"}}}`), &r); err != nil {
		t.Fatal(err)
	}
	r.Labels["app"] = "api"
	_, err := check()
	if err == nil || !strings.Contains(err.Error(), "map") {
		t.Errorf("a write to a shared labels map was not seen: %v", err)
	}
}
