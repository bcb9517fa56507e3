// Package render turns the engine's Result into what users and machines read:
// computed status, findings as tables, JSON, YAML and CI formats.
package render

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"sync"

	goyaml "go.yaml.in/yaml/v2"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// statusObject is one object of the status output: the object as written and
// the result whose status a conformant controller would write. It holds no
// closure: render status makes one per object of the input.
type statusObject struct {
	meta *model.Meta
	// result is the object's *analyze.GatewayResult, *ListenerSetResult,
	// *RouteResult or *PolicyResult; nil to keep the status the object had.
	// Any other value is the status itself.
	result any
}

// status is the status a conformant controller would write; nil when the
// object keeps its own.
func (o statusObject) status() any {
	switch r := o.result.(type) {
	case *analyze.GatewayResult:
		return r.Status()
	case *analyze.ListenerSetResult:
		return r.Status()
	case *analyze.RouteResult:
		return r.Status()
	case *analyze.PolicyResult:
		return r.Status()
	}
	return o.result
}

// statusObjects lists every Gateway, ListenerSet, route and BackendTLSPolicy of
// the input in output order. Statuses are built when an object is rendered.
func statusObjects(res *analyze.Result) []statusObject {
	objs := make([]statusObject, 0, len(res.Model.Gateways)+len(res.Model.ListenerSets)+len(res.Routes)+len(res.BackendTLSPolicies))
	gateways := make(map[*model.Gateway]*analyze.GatewayResult, len(res.Gateways))
	for _, g := range res.Gateways {
		gateways[g.Gateway] = g
	}
	for _, g := range res.Model.Gateways {
		o := statusObject{meta: &g.Meta}
		if gr := gateways[g]; gr != nil {
			o.result = gr
		}
		objs = append(objs, o)
	}
	sets := make(map[*model.ListenerSet]*analyze.ListenerSetResult, len(res.ListenerSets))
	for _, ls := range res.ListenerSets {
		sets[ls.ListenerSet] = ls
	}
	for _, ls := range res.Model.ListenerSets {
		o := statusObject{meta: &ls.Meta}
		if lr := sets[ls]; lr != nil {
			o.result = lr
		}
		objs = append(objs, o)
	}
	for _, rr := range res.Routes {
		objs = append(objs, statusObject{meta: &rr.Route.Meta, result: rr})
	}
	for _, pr := range res.BackendTLSPolicies {
		objs = append(objs, statusObject{meta: &pr.Policy.Meta, result: pr})
	}
	return objs
}

// item is the object as a generic map, with .status replaced. With numbers, JSON
// numbers are json.Number rather than float64.
func (o statusObject) item(numbers bool) (map[string]any, error) {
	obj, err := decodeMap(o.meta.Raw, numbers)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.meta.Source, err)
	}
	if o.result != nil {
		b, err := json.Marshal(o.status())
		if err != nil {
			return nil, err
		}
		if obj["status"], err = decodeMap(b, numbers); err != nil {
			return nil, err
		}
	}
	return obj, nil
}

func decodeMap(js []byte, numbers bool) (map[string]any, error) {
	m := map[string]any{}
	if !numbers {
		return m, json.Unmarshal(js, &m)
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	return m, dec.Decode(&m)
}

// yamlValues turns the json.Numbers of a decoded object into the int, uint64 or
// float64 that go-yaml's own decoding of the JSON gives, so that go-yaml prints
// the object exactly as sigs.k8s.io/yaml (JSON, then go-yaml's value, then YAML)
// does, without converting it through JSON text and back.
func yamlValues(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = yamlValues(x)
		}
	case []any:
		for i, x := range v {
			v[i] = yamlValues(x)
		}
	case json.Number:
		if i, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return int(i)
		}
		if u, err := strconv.ParseUint(string(v), 10, 64); err == nil {
			return u
		}
		f, _ := v.Float64()
		return f
	}
	return v
}

// StatusItems returns every Gateway, ListenerSet, route and BackendTLSPolicy of the
// input, as written (apiVersion included), with .status replaced by what a
// conformant controller would write. Objects no in-scope controller owns keep the
// status they had. WriteStatusJSON and WriteStatusYAML print the same without
// holding every item.
func StatusItems(res *analyze.Result) ([]map[string]any, error) {
	var items []map[string]any
	for _, o := range statusObjects(res) {
		it, err := o.item(false)
		if err != nil {
			return nil, err
		}
		items = append(items, it)
	}
	return items, nil
}

// statusChunk is how many objects a core renders at a time at most: output
// is written in chunks, in order, as soon as each is rendered and every chunk
// before it is written. statusChunkBytes bounds a chunk's output as
// statusObject.estimate guesses it, so that each slot's buffer stays about
// that size whatever the objects (a Gateway of 20 listeners is about 60 KB of
// JSON, a route about 3 KB).
const (
	statusChunk      = 32
	statusChunkBytes = 128 << 10
)

// statusChunks splits objs into chunks of at most statusChunk objects and,
// past the first object of each, statusChunkBytes of estimated output; it
// returns where each chunk starts, and len(objs) last.
func statusChunks(objs []statusObject) []int {
	bounds := make([]int, 0, len(objs)/statusChunk+2)
	size := 0
	for i, o := range objs {
		if n := o.estimate(); i == 0 || i-bounds[len(bounds)-1] == statusChunk || size+n > statusChunkBytes {
			bounds = append(bounds, i)
			size = n
		} else {
			size += n
		}
	}
	return append(bounds, len(objs))
}

// estimate guesses the bytes of JSON the object is written as: twice its
// text (indentation), and its status: 3 KB a listener of a Gateway or
// ListenerSet, 1.5 KB an ancestor of a BackendTLSPolicy (at 100k a policy
// is 14 KB on average, 30 KB at most), 1 KB a parent of a route. It only
// decides where chunks end.
func (o statusObject) estimate() int {
	n := 2 * len(o.meta.Raw)
	switch r := o.result.(type) {
	case *analyze.GatewayResult:
		n += 3 << 10 * len(r.Listeners)
	case *analyze.ListenerSetResult:
		n += 3 << 10 * len(r.Listeners)
	case *analyze.PolicyResult:
		n += 3 << 9 * len(r.Ancestors)
	case *analyze.RouteResult:
		n += 1 << 10 * len(r.Parents)
	}
	return n
}

// writeStatus renders the objects by encode, a chunk at a time on every core,
// and writes them in order, with sep between two objects, while the next
// chunks are rendered. statusSlots chunks per core are rendered or waiting
// at most: memory stays bounded at any size (a Gateway of 20 listeners is
// about 60 KB of JSON, a route 3 KB). Each core has a tree to parse objects
// into, and each slot a buffer, both reused. A failing object stops the
// output: nothing of it or after it is written, and what is still buffered
// of the objects before it (up to 64 KB) is not flushed, as before.
func writeStatus(w io.Writer, objs []statusObject, encode func(t *statusTree, b []byte, o statusObject) ([]byte, error), sep string) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	workers := max(1, min(runtime.GOMAXPROCS(0), 8))
	bounds := statusChunks(objs)
	chunks := len(bounds) - 1
	slots := make([]statusSlot, statusSlots*workers)
	for i := range slots {
		slots[i].ready = make(chan struct{}, 1)
		slots[i].free = make(chan struct{}, 1)
		slots[i].free <- struct{}{}
	}
	jobs := make(chan int)
	stop := make(chan struct{})
	go func() { // hands out chunks in order, each once its slot is written
		defer close(jobs)
		for c := range chunks {
			s := &slots[c%len(slots)]
			select {
			case <-s.free:
			case <-stop:
				return
			}
			jobs <- c
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			t := &statusTree{}
			for c := range jobs {
				s := &slots[c%len(slots)]
				s.out, s.err = s.out[:0], nil
				for i := bounds[c]; i < bounds[c+1]; i++ {
					end := len(s.out)
					if i > 0 {
						s.out = append(s.out, sep...)
					}
					if s.out, s.err = encode(t, s.out, objs[i]); s.err != nil {
						s.out = s.out[:end]
						break
					}
				}
				s.ready <- struct{}{}
			}
		})
	}
	var err error
	for c := range chunks {
		s := &slots[c%len(slots)]
		<-s.ready
		bw.Write(s.out)
		if err = s.err; err != nil {
			break
		}
		s.free <- struct{}{}
	}
	close(stop)
	wg.Wait()
	if err != nil {
		return err
	}
	return bw.Flush()
}

// statusSlots is how many chunks per core may be rendered ahead of the one
// being written.
const statusSlots = 4

// statusSlot is a chunk's rendered text, and err if one of its objects failed
// (out then ends before it); ready is signalled when it is rendered, free when
// it is written.
type statusSlot struct {
	out         []byte
	err         error
	ready, free chan struct{}
}

// parsed is the object's members, with .status replaced, parsed into t; ok
// is false when the fast writers cannot read it and the object is written
// from the maps item decodes, which say what is wrong.
func (o statusObject) parsed(t *statusTree) ([]member, bool) {
	var status []byte
	switch rr := o.result.(type) {
	case nil:
	case *analyze.RouteResult:
		t.status = appendRouteResultStatusJSON(t.status[:0], rr)
		status = t.status
	case *analyze.GatewayResult:
		t.status = appendGatewayResultStatusJSON(t.status[:0], rr)
		status = t.status
	case *analyze.PolicyResult:
		t.status = appendPolicyResultStatusJSON(t.status[:0], rr)
		status = t.status
	default:
		b, err := json.Marshal(o.status())
		if err != nil {
			return nil, false
		}
		status = b
	}
	return t.parse(o.meta.Raw, status)
}

// itemIndent is the indentation of an item inside the List StatusJSON writes.
const itemIndent = "        "

// StatusJSON writes the items as a v1 List, indented as kubectl does.
func StatusJSON(w io.Writer, items []map[string]any) error {
	if items == nil {
		items = []map[string]any{}
	}
	list := map[string]any{"apiVersion": "v1", "kind": "List", "items": items}
	b, err := json.MarshalIndent(list, "", "    ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// WriteStatusJSON writes the computed status of every object as StatusJSON does,
// byte for byte, rendering objects on every core and streaming them.
func WriteStatusJSON(w io.Writer, res *analyze.Result) error {
	objs := statusObjects(res)
	if len(objs) == 0 {
		return StatusJSON(w, nil)
	}
	if _, err := io.WriteString(w, "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n"+itemIndent); err != nil {
		return err
	}
	err := writeStatus(w, objs, func(t *statusTree, b []byte, o statusObject) ([]byte, error) {
		if ms, ok := o.parsed(t); ok {
			if out, ok := t.appendJSON(b, ms, itemIndent, "    ", 0); ok {
				return out, nil
			}
		}
		it, err := o.item(false)
		if err != nil {
			return b, err
		}
		if out, ok := appendIndentedJSON(b, it, itemIndent, "    ", 0); ok {
			return out, nil
		}
		js, err := json.MarshalIndent(it, itemIndent, "    ")
		return append(b, js...), err
	}, ",\n"+itemIndent)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, "\n    ],\n    \"kind\": \"List\"\n}\n")
	return err
}

// StatusYAML writes the items as multi-document YAML.
func StatusYAML(w io.Writer, items []map[string]any) error {
	for i, it := range items {
		b, err := yaml.Marshal(it)
		if err != nil {
			return err
		}
		if i > 0 {
			if _, err := io.WriteString(w, "---\n"); err != nil {
				return err
			}
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// WriteStatusYAML writes the computed status of every object as StatusYAML does,
// byte for byte, rendering objects on every core and streaming them.
func WriteStatusYAML(w io.Writer, res *analyze.Result) error {
	return writeStatus(w, statusObjects(res), func(t *statusTree, b []byte, o statusObject) ([]byte, error) {
		if ms, ok := o.parsed(t); ok {
			if out, ok := t.appendYAML(b, ms); ok {
				return out, nil
			}
		}
		it, err := o.item(true)
		if err != nil {
			return b, err
		}
		y, err := goyaml.Marshal(yamlValues(it))
		return append(b, y...), err
	}, "---\n")
}
