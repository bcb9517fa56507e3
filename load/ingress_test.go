package load

import (
	"strings"
	"testing"
)

// TestIngressFromFiles: a networking.k8s.io/v1 Ingress and IngressClass are
// read with where they came from, for an Ingress migration's base; the
// v1beta1 shapes, which Kubernetes 1.22 removed, are skipped as kinds the
// tool does not read.
func TestIngressFromFiles(t *testing.T) {
	const in = `apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata:
  name: nginx
spec:
  controller: k8s.io/ingress-nginx
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
spec:
  ingressClassName: nginx
  rules:
  - host: web.example.com
---
apiVersion: networking.k8s.io/v1beta1
kind: Ingress
metadata:
  name: old
`
	m, err := Files(FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(in)})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.IngressClasses) != 1 || m.IngressClasses[0].Obj.Spec.Controller != "k8s.io/ingress-nginx" {
		t.Errorf("IngressClasses = %+v", m.IngressClasses)
	}
	if len(m.Ingresses) != 1 {
		t.Fatalf("%d Ingresses, want 1", len(m.Ingresses))
	}
	ing := m.Ingresses[0]
	if ing.Obj.Namespace != "default" || ing.Source.Line != 8 || ing.Obj.Spec.Rules[0].Host != "web.example.com" {
		t.Errorf("Ingress %s/%s at %s, host %q; want default/web at line 8", ing.Obj.Namespace, ing.Obj.Name, ing.Source, ing.Obj.Spec.Rules[0].Host)
	}
	if m.Skipped["networking.k8s.io/v1beta1/Ingress"] != 1 {
		t.Errorf("Skipped = %v, want the v1beta1 Ingress", m.Skipped)
	}
}
