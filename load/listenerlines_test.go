package load_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/load"
)

// TestListenerLines: each listener of a Gateway or ListenerSet is known by the
// line its item starts on, in a plain document, in a flow sequence, in an
// item of a List, and in a document the fast reader converts (fastyaml places
// the listeners on its way; the others are parsed again), so that what is
// said about a listener points at it.
func TestListenerLines(t *testing.T) {
	in := `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: block, namespace: default}
spec:
  gatewayClassName: gc
  listeners:
  - name: a
    port: 80
    protocol: HTTP

  - name: b
    port: 81
    protocol: HTTP
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: flow, namespace: default}
spec:
  gatewayClassName: gc
  listeners: [{name: a, port: 80, protocol: HTTP},
    {name: b, port: 81, protocol: HTTP}]
---
apiVersion: v1
kind: List
items:
- apiVersion: gateway.networking.k8s.io/v1
  kind: ListenerSet
  metadata: {name: set, namespace: default}
  spec:
    parentRef: {name: block}
    listeners:
    - {name: c, port: 82, protocol: HTTP}
    - name: d
      port: 83
      protocol: HTTP
---
# The fast reader's subset: block style only.
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: fast
  namespace: default
spec:
  gatewayClassName: gc
  listeners:
  - name: a
    port: 80
    protocol: HTTP
  # a comment

  -
    name: b # yaml.v3 places an item on its first token
    port: 81
    protocol: HTTP
`
	m, err := load.Files(load.FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(in)})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]int{}
	for _, g := range m.Gateways {
		got[g.Obj.Name] = g.ListenerLines
	}
	for _, s := range m.ListenerSets {
		got[s.Obj.Name] = s.ListenerLines
	}
	for name, want := range map[string][]int{"block": {7, 11}, "flow": {20, 21}, "set": {32, 33}, "fast": {46, 52}} {
		if !slices.Equal(got[name], want) {
			t.Errorf("%s: listener lines %v, want %v", name, got[name], want)
		}
	}
}
