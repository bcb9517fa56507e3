package render

import (
	"bytes"
	"encoding/json"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/simulate"
)

// outcomeVariant is the i-th of a set of outcomes in which every field of an
// outcome is set and unset, empty and not, with text encoding/json escapes.
func outcomeVariant(i int) simulate.Outcome {
	text := []string{"shop.example.com", "<a&b>", "é\u2028\u2029", "bad\xffutf8", "tab\tquote\"back\\", ""}
	s := func(k int) string { return text[(i+k)%len(text)] }
	o := simulate.Outcome{
		Outcome: []string{simulate.Routed, simulate.Refused}[i%2],
		Request: simulate.Request{SNI: s(0), Port: int32(i % 3 * 443), Host: s(1), Gateway: s(2)},
		Gateway: s(3), Listener: s(4), Mode: s(5), IntersectedHostname: s(1), Reason: s(2),
	}
	if i%4 == 1 {
		o.ListenerOwner = &model.Ref{Kind: "ListenerSet", Namespace: s(0), Name: s(1)}
	}
	if i%3 != 2 {
		o.Route = &model.Ref{Kind: "HTTPRoute", Namespace: s(2), Name: s(3)}
	}
	switch i % 5 {
	case 1:
		o.Certificate = &simulate.Certificate{Secret: s(1), DNSNames: []string{s(0), s(2)}, VerifiesForSNI: true}
	case 2:
		o.Certificate = &simulate.Certificate{Secret: s(1), DNSNames: []string{}, External: true}
	case 3:
		o.Certificate = &simulate.Certificate{Secret: s(3)} // DNSNames nil: null
	}
	backend := func(k int) simulate.Backend {
		b := simulate.Backend{Kind: s(k), Namespace: s(k + 1), Name: s(k + 2), Port: int32((i + k) % 2 * 8080), Weight: int32(k - 1), Rule: k, Resolved: k%2 == 0}
		if (i+k)%3 == 0 {
			b.BackendTLS = &simulate.BackendTLS{Policy: s(k), Hostname: s(k + 1), CA: s(k + 2)}
			if k%2 == 1 {
				b.BackendTLS.SubjectAltNames = []string{s(k), "spiffe://x/y"}
			}
		}
		return b
	}
	for k := range i % 4 {
		o.Backends = append(o.Backends, backend(k))
	}
	if i%7 == 3 {
		o.Backends = []simulate.Backend{} // empty: omitted, as nil
	}
	if i%6 == 5 {
		o.Mirrors = []simulate.Backend{backend(4)}
		o.Mirrors[0].Weight = 0
	}
	if i%8 == 7 {
		o.AlsoServedBy = []string{s(0), s(5)}
	}
	return o
}

// TestSimulationJSONIsMarshalIndent: SimulationJSON writes outcomes byte for
// byte as json.MarshalIndent(outs, "", "  ") and a newline do, on one core
// and on every core.
func TestSimulationJSONIsMarshalIndent(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 4} {
		runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, 2, 120, 2*coreShare + 3*lineBatchItems + 5} {
			outs := make([]simulate.Outcome, n)
			for i := range outs {
				outs[i] = outcomeVariant(i)
			}
			want, err := json.MarshalIndent(outs, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				want = []byte("[]") // the command writes an empty list, not null
			}
			var out bytes.Buffer
			if err := SimulationJSON(&out, outs); err != nil {
				t.Fatal(err)
			}
			if got := out.String(); got != string(want)+"\n" {
				at := 0
				for at < min(len(got), len(want)) && got[at] == want[at] {
					at++
				}
				t.Fatalf("procs %d, %d outcomes: differs from MarshalIndent at byte %d:\n%s\nwant\n%s", procs, n, at,
					got[max(0, at-200):min(len(got), at+100)], want[max(0, at-200):min(len(want), at+100)])
			}
		}
	}
}

// TestSimulationJSONKnowsEveryField: the fields SimulationJSON writes are
// every field of the types it writes, with their names, omitempty and types, so a
// field added to one of them fails here until the writer writes it.
func TestSimulationJSONKnowsEveryField(t *testing.T) {
	for _, c := range []struct {
		v    any
		tags []string
	}{
		{simulate.Outcome{}, []string{"outcome string", "request simulate.Request", "gateway,omitempty string", "listener,omitempty string",
			"listenerOwner,omitempty *model.Ref", "mode,omitempty string", "route,omitempty *model.Ref", "intersectedHostname,omitempty string",
			"certificate,omitempty *simulate.Certificate", "backends,omitempty []simulate.Backend", "mirrors,omitempty []simulate.Backend",
			"reason,omitempty string", "alsoServedBy,omitempty []string"}},
		{simulate.Request{}, []string{"sni,omitempty string", "port int32", "host,omitempty string", "gateway,omitempty string"}},
		{model.Ref{}, []string{"kind string", "namespace,omitempty string", "name string"}},
		{simulate.Certificate{}, []string{"secret string", "dnsNames []string", "verifiesForSNI bool", "external,omitempty bool"}},
		{simulate.Backend{}, []string{"kind,omitempty string", "namespace string", "name string", "port,omitempty int32", "weight int32",
			"rule int", "resolved bool", "backendTLS,omitempty *simulate.BackendTLS"}},
		{simulate.BackendTLS{}, []string{"policy string", "hostname string", "ca string", "subjectAltNames,omitempty []string"}},
	} {
		typ := reflect.TypeOf(c.v)
		var tags []string
		for f := range typ.Fields() {
			tags = append(tags, f.Tag.Get("json")+" "+f.Type.String())
			if _, ok := reflect.New(f.Type).Interface().(json.Marshaler); ok {
				t.Errorf("%s.%s marshals itself", typ, f.Name)
			}
		}
		if !slices.Equal(tags, c.tags) {
			t.Errorf("%s's fields are %q, SimulationJSON writes %q", typ, tags, c.tags)
		}
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[simulate.Outcome](), reflect.TypeFor[simulate.Request](), reflect.TypeFor[model.Ref](),
		reflect.TypeFor[simulate.Certificate](), reflect.TypeFor[simulate.Backend](), reflect.TypeFor[simulate.BackendTLS]()} {
		if _, ok := reflect.New(typ).Interface().(json.Marshaler); ok {
			t.Errorf("%s marshals itself", typ)
		}
	}
}
