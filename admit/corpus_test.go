package admit_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/celrules"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testinputs"
)

// manifestObjects reads the Gateway API objects of every test manifest of the
// repository (testdata/) and of the conformance corpus beside it
// (../shared/conformance), as e2e's differential test sends them.
func manifestObjects(tb testing.TB, a *admit.Admitter) []object {
	tb.Helper()
	files, _, err := testinputs.Manifests("..", false)
	if err != nil {
		tb.Fatal(err)
	}
	var out []object
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
		for {
			body, err := r.Read()
			if err != nil {
				break // the end, or a malformed file of a load test
			}
			js, err := yaml.YAMLToJSON(body)
			if err != nil {
				continue
			}
			for _, item := range listItems(js) {
				var head struct {
					APIVersion string `json:"apiVersion"`
					Kind       string `json:"kind"`
				}
				if json.Unmarshal(item, &head) != nil || !a.Covers(head.APIVersion) {
					continue
				}
				out = append(out, object{head.APIVersion, head.Kind, item})
			}
		}
	}
	return out
}

// listItems returns the items of a List, or the object itself.
func listItems(js []byte) [][]byte {
	var l struct {
		Kind  string            `json:"kind"`
		Items []json.RawMessage `json:"items"`
	}
	if json.Unmarshal(js, &l) == nil && strings.HasSuffix(l.Kind, "List") && l.Items != nil {
		out := make([][]byte, len(l.Items))
		for i, it := range l.Items {
			out[i] = it
		}
		return out
	}
	return [][]byte{js}
}

// celRuleObjects are, for every reachable CEL rule of the CRDs, an object
// that breaks it and one that keeps it.
func celRuleObjects(tb testing.TB, crds admit.CRDs) []object {
	tb.Helper()
	var out []object
	for i, r := range celrules.Rules(definitions(tb, crds)) {
		if r.Unreachable() != "" {
			continue
		}
		bad, good, err := celrules.Objects(r, fmt.Sprintf("cel-%d", i))
		if err != nil {
			continue // a kind the tool does not load, without cases
		}
		out = append(out, object{r.APIVersion, r.Kind, bad}, object{r.APIVersion, r.Kind, good})
	}
	return out
}

// generatedObjects are the Gateway API objects of a generated configuration.
func generatedObjects(tb testing.TB, a *admit.Admitter, c generate.Config) []object {
	tb.Helper()
	data, err := generate.Bytes(c)
	if err != nil {
		tb.Fatal(err)
	}
	return gatewayObjects(tb, a, data)
}

// unrepeated rewrites objects so that no two share a value of any list or
// object of their spec: every name, sectionName and path value gets the
// object's number. It is the worst case of memoization: nothing repeats.
func unrepeated(tb testing.TB, objs []object) []object {
	tb.Helper()
	out := make([]object, len(objs))
	for i, o := range objs {
		var m map[string]any
		if err := json.Unmarshal(o.raw, &m); err != nil {
			tb.Fatal(err)
		}
		suffix := fmt.Sprintf("u%d", i)
		if spec, ok := m["spec"]; ok {
			m["spec"] = uniquify(spec, "", suffix)
		}
		raw, err := json.Marshal(m)
		if err != nil {
			tb.Fatal(err)
		}
		out[i] = object{o.apiVersion, o.kind, raw}
	}
	return out
}

func uniquify(v any, key, suffix string) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if k == "path" {
				if p, ok := x.(map[string]any); ok {
					if s, ok := p["value"].(string); ok {
						p["value"] = strings.TrimSuffix(s, "/") + "/" + suffix
					}
					continue
				}
			}
			v[k] = uniquify(x, k, suffix)
		}
	case []any:
		for i, x := range v {
			v[i] = uniquify(x, key, suffix)
		}
	case string:
		if key == "name" || key == "sectionName" {
			return v + "-" + suffix
		}
	}
	return v
}

// oddObjects are objects whose JSON the shortcut must read exactly as the
// strict decoder does, or leave to it.
var oddObjects = []object{
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"esc","namespace":"app"},"spec":{"hostnames":["a\u002eexample.com"],"rules":[{"matches":[{"path":{"type":"RegularExpression","value":"/a\\.b"}}]}]}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"nul","namespace":"app","labels":null},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"nul"},"spec":{"hostnames":null}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"num"},"spec":{"rules":[{"backendRefs":[{"name":"a","port":80.0}]}]}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"num"},"spec":{"rules":[{"backendRefs":[{"name":"a","port":8e1}]}]}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"num"},"spec":{"rules":[{"backendRefs":[{"name":"a","port":-0}]}]}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"big"},"spec":{"rules":[{"backendRefs":[{"name":"a","port":80,"weight":99999999999}]}]}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"ws"} , "spec" : { "rules" : [ ] } } ` + "\n")},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"trail"},"spec":{}} x`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"dup","name":"dup"},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"dup","labels":{"a":"1","a":"2"}},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","kind":"HTTPRoute","metadata":{"name":"dup"},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","Kind":"HTTPRoute","kind":"HTTPRoute","metadata":{"name":"case"},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"Name":"case"},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"empty","namespace":"","labels":{},"annotations":{"a":""}},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"ts","creationTimestamp":null,"resourceVersion":"7","generation":4,"uid":"x"},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"ts","creationTimestamp":"2025-01-01T00:00:00Z","finalizers":["a/b"],"ownerReferences":[]},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"generateName":"gen-"},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"a","labels":{"bad key!":"x"}},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"a","annotations":{"a":"` + strings.Repeat("x", 300000) + `"}},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"utf8-\u00e9"},"spec":{}}`)},
	{v1, "HTTPRoute", []byte("{\"apiVersion\":\"gateway.networking.k8s.io/v1\",\"kind\":\"HTTPRoute\",\"metadata\":{\"name\":\"a\",\"annotations\":{\"a\":\"\xff\"}},\"spec\":{}}")},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"a","annotations":{"a":"\ud800"}},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"s"},"spec":{},"status":{"parents":[]}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"ns","namespace":"app.x"},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"nospec"}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1beta1","kind":"HTTPRoute","metadata":{"name":"gv"},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway","metadata":{"name":"kind"},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"types"},"spec":{"hostnames":"a.example.com"}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"types"},"spec":{"rules":[{"backendRefs":[{"name":"a","port":"80"}]}]}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"bool"},"spec":{"rules":[{"sessionPersistence":{"type":"Cookie","cookieConfig":{"lifetimeType":"Session"}}}]}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"dupkey"},"spec":{"parentRefs":[{"name":"gw"},{"name":"gw"}]}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"set"},"spec":{"hostnames":["a.example.com","a.example.com"]}}`)},
	{v1, "Gateway", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway","metadata":{"name":"addr"},"spec":{"gatewayClassName":"x","addresses":[{"type":"IPAddress","value":"10.0.0.1"},{"value":"10.0.0.300"}],"listeners":[{"name":"a","port":80,"protocol":"HTTP"}]}}`)},
	{v1, "Gateway", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway","metadata":{"name":"addr"},"spec":{"gatewayClassName":"x","addresses":[{"type":"IPAddress","value":"::1"},{"type":"Hostname","value":"a.example.com"}],"listeners":[{"name":"a","port":80,"protocol":"HTTP"}]}}`)},
	{v1, "Gateway", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway","metadata":{"name":"port"},"spec":{"gatewayClassName":"x","listeners":[{"name":"a","port":0,"protocol":"HTTP"},{"name":"b","port":65536,"protocol":"HTTP"}]}}`)},
	{v1, "Gateway", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway","metadata":{"name":"port"},"spec":{"gatewayClassName":"x","listeners":[{"name":"a","port":65535,"protocol":"HTTP"},{"name":"b","port":1,"protocol":"HTTP"}]}}`)},
	{v1, "Gateway", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway","metadata":{"name":"infra"},"spec":{"gatewayClassName":"x","infrastructure":{"labels":{"a":"b"},"annotations":{"c/d":"e"}},"listeners":[{"name":"a","port":80,"protocol":"HTTP"}]}}`)},
	{v1, "Gateway", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway","metadata":{"name":"infra"},"spec":{"gatewayClassName":"x","infrastructure":{"labels":{"a":"b c"}},"listeners":[{"name":"a","port":80,"protocol":"HTTP"}]}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"generateName":"Bad_"},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"generateName":"` + strings.Repeat("g", 300) + `"},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"a","generateName":"b-"},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"` + strings.Repeat("n", 254) + `"},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"a","labels":{"app":"` + strings.Repeat("v", 64) + `"}},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"a","labels":{"example.com/app":"web","b":""}},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"a","annotations":{"Example.COM/Note":"x","b/c/d":"y"}},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"a","namespace":"` + strings.Repeat("s", 64) + `"},"spec":{}}`)},
	{v1, "HTTPRoute", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"a","namespace":"Upper"},"spec":{}}`)},
	{v1, "GatewayClass", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"GatewayClass","metadata":{"name":"a","namespace":"ns"},"spec":{"controllerName":"example.com/c"}}`)},
	{v1, "GatewayClass", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"GatewayClass","metadata":{"name":"a.b"},"spec":{"controllerName":"example.com/c"}}`)},
	{"gateway.networking.k8s.io/v1beta1", "ReferenceGrant", []byte(`{"apiVersion":"gateway.networking.k8s.io/v1beta1","kind":"ReferenceGrant","metadata":{"name":"g","namespace":"a"},"spec":{"from":[{"group":"gateway.networking.k8s.io","kind":"HTTPRoute","namespace":"b"}],"to":[{"group":"","kind":"Service"}]}}`)},
}

// shortcutCorpus is every object the oracle tests compare on: the manifests,
// the CEL rules' cases of both channels, a generated configuration and its
// unrepeated form, and the odd objects above.
func shortcutCorpus(tb testing.TB) []object {
	tb.Helper()
	a := builtin(tb, admit.Experimental)
	corpus := manifestObjects(tb, a)
	for _, ch := range []admit.Channel{admit.Standard, admit.Experimental} {
		crds, err := admit.Builtin(ch)
		if err != nil {
			tb.Fatal(err)
		}
		corpus = append(corpus, celRuleObjects(tb, crds)...)
	}
	gen := generatedObjects(tb, a, generate.Sizes[0].Config)
	corpus = append(corpus, gen...)
	corpus = append(corpus, unrepeated(tb, gen)...)
	corpus = append(corpus, oddObjects...)
	if os.Getenv("GWTLS_ORACLE_LARGE") == "1" {
		for _, size := range generate.Sizes[1:] {
			gen := generatedObjects(tb, a, size.Config)
			corpus = append(corpus, gen...)
			corpus = append(corpus, unrepeated(tb, gen)...)
		}
	}
	return corpus
}
