package load_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// TestIngressLines: each host rule, path, tls entry and the defaultBackend of
// an Ingress is known by the line it is written on, in a block document, in
// flow style and in an item of a List, so that a migration finding points at
// the host or path it is about; a rule without http has no path lines.
func TestIngressLines(t *testing.T) {
	in := `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: block, namespace: default}
spec:
  defaultBackend:
    service: {name: fallback, port: {number: 80}}
  tls:
  - hosts: [a.example.com]
    secretName: a-tls
  rules:
  - host: a.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend: {service: {name: a, port: {number: 80}}}

      - path: /api
        pathType: Prefix
        backend: {service: {name: api, port: {number: 80}}}
  - host: b.example.com
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: flow, namespace: default}
spec: {tls: [{hosts: [c.example.com]}], rules: [{host: c.example.com, http: {paths: [
  {path: /, pathType: Prefix, backend: {service: {name: c, port: {number: 80}}}}]}}]}
---
apiVersion: v1
kind: List
items:
- apiVersion: networking.k8s.io/v1
  kind: Ingress
  metadata: {name: item, namespace: default}
  spec:
    rules:
    - host: d.example.com
      http:
        paths:
        - {path: /, pathType: Prefix, backend: {service: {name: d, port: {number: 80}}}}
`
	m, err := load.Files(load.FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(in)})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*model.IngressLines{
		"block": {Rules: []int{11, 21}, Paths: [][]int{{14, 18}, nil}, TLS: []int{8}, DefaultBackend: 5},
		"flow":  {Rules: []int{26}, Paths: [][]int{{27}}, TLS: []int{26}},
		"item":  {Rules: []int{37}, Paths: [][]int{{40}}},
	}
	for _, ing := range m.Ingresses {
		if ing.IngressLines == nil {
			t.Errorf("%s: no lines", ing.Obj.Name)
			continue
		}
		if got := ing.IngressLines(); !reflect.DeepEqual(got, want[ing.Obj.Name]) {
			t.Errorf("%s: lines %+v, want %+v", ing.Obj.Name, got, want[ing.Obj.Name])
		}
	}
	if len(m.Ingresses) != 3 {
		t.Errorf("%d Ingresses, want 3", len(m.Ingresses))
	}
}
