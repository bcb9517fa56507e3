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

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// statusObject is one object of the status output: the object as written and the
// status a conformant controller would write (nil: keep the status it had).
type statusObject struct {
	meta   model.Meta
	status func() any
}

// statusObjects lists every Gateway, ListenerSet, route and BackendTLSPolicy of
// the input in output order. Statuses are built when an object is rendered.
func statusObjects(res *analyze.Result) []statusObject {
	var objs []statusObject
	gateways := make(map[*model.Gateway]*analyze.GatewayResult, len(res.Gateways))
	for _, g := range res.Gateways {
		gateways[g.Gateway] = g
	}
	for _, g := range res.Model.Gateways {
		o := statusObject{meta: g.Meta}
		if gr := gateways[g]; gr != nil {
			o.status = func() any { return gr.Status() }
		}
		objs = append(objs, o)
	}
	sets := map[*model.ListenerSet]*analyze.ListenerSetResult{}
	for _, ls := range res.ListenerSets {
		sets[ls.ListenerSet] = ls
	}
	for _, ls := range res.Model.ListenerSets {
		o := statusObject{meta: ls.Meta}
		if lr := sets[ls]; lr != nil {
			o.status = func() any { return lr.Status() }
		}
		objs = append(objs, o)
	}
	for _, rr := range res.Routes {
		objs = append(objs, statusObject{meta: rr.Route.Meta, status: func() any { return rr.Status() }})
	}
	for _, pr := range res.BackendTLSPolicies {
		objs = append(objs, statusObject{meta: pr.Policy.Meta, status: func() any { return pr.Status() }})
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
	if o.status != nil {
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

// statusBatch is how many objects are rendered (on every core) before they are
// written: output starts early and memory stays bounded at any size.
const statusBatch = 512

// writeStatus renders the objects in batches, each object by encode on any core,
// and writes them in order, with sep between two objects. Each core has a
// tree to parse objects into and a buffer it appends their text to, both
// reused from batch to batch.
func writeStatus(w io.Writer, objs []statusObject, encode func(t *statusTree, b []byte, o statusObject) ([]byte, error), sep string) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	type span struct {
		worker, start, end int
		err                error
	}
	spans := make([]span, statusBatch)
	workers := max(1, min(runtime.GOMAXPROCS(0), 8))
	trees := make([]statusTree, workers)
	for lo := 0; lo < len(objs); lo += statusBatch {
		batch := objs[lo:min(lo+statusBatch, len(objs))]
		var wg sync.WaitGroup
		for k := 0; k < workers; k++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				t := &trees[k]
				t.out = t.out[:0]
				for i := k; i < len(batch); i += workers {
					start := len(t.out)
					var err error
					t.out, err = encode(t, t.out, batch[i])
					spans[i] = span{k, start, len(t.out), err}
				}
			}()
		}
		wg.Wait()
		for i := range batch {
			sp := spans[i]
			if sp.err != nil {
				return sp.err
			}
			if lo+i > 0 {
				bw.WriteString(sep)
			}
			bw.Write(trees[sp.worker].out[sp.start:sp.end])
		}
	}
	return bw.Flush()
}

// parsed is the object's members, with .status replaced, parsed into t; ok
// is false when the fast writers cannot read it and the object is written
// from the maps item decodes, which say what is wrong.
func (o statusObject) parsed(t *statusTree) ([]member, bool) {
	var status []byte
	if o.status != nil {
		switch st := o.status().(type) {
		case gwv1.RouteStatus:
			t.status = appendRouteStatusJSON(t.status[:0], st)
			status = t.status
		default:
			b, err := json.Marshal(st)
			if err != nil {
				return nil, false
			}
			status = b
		}
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
