package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// referrersInput has a refused GatewayClass (its controllerName is no
// domain-prefixed path) and a refused Gateway (two listeners named http), and
// what refers to them: a Gateway's gatewayClassName, the second parentRef of a
// route, a ListenerSet's parentRef.
const referrersInput = `apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: broken
spec:
  controllerName: not-a-domain-path
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: classless
  namespace: infra
spec:
  listeners:
  - name: http
    port: 80
    protocol: HTTP
  gatewayClassName: broken
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: twice
  namespace: infra
spec:
  gatewayClassName: broken
  listeners:
  - name: http
    port: 80
    protocol: HTTP
  - name: http
    port: 8080
    protocol: HTTP
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: two-parents
  namespace: infra
spec:
  parentRefs:
  - name: classless
  - sectionName: http
    name: twice
  rules:
  - backendRefs:
    - name: web
      port: 80
---
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata:
  name: team
  namespace: infra
spec:
  listeners:
  - name: extra
    port: 9080
    protocol: HTTP
  parentRef:
    name: twice
`

// asList writes the objects of a multi-document input as the items of a v1
// List, as kubectl get -o yaml dumps them.
func asList(docs string) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: List\nitems:\n")
	for _, doc := range strings.Split(docs, "---\n") {
		for i, line := range strings.Split(strings.TrimSuffix(doc, "\n"), "\n") {
			if i == 0 {
				b.WriteString("- " + line + "\n")
			} else {
				b.WriteString("  " + line + "\n")
			}
		}
	}
	return b.String()
}

// lineOf is the 1-based line of the n-th (from 1) line of content that is
// exactly want once trimmed.
func lineOf(t *testing.T, content, want string, n int) int {
	t.Helper()
	for i, line := range strings.Split(content, "\n") {
		if strings.TrimSpace(line) == want {
			if n--; n == 0 {
				return i + 1
			}
		}
	}
	t.Fatalf("no line %q (#%d) in the input", want, n)
	return 0
}

// TestRefusedObjectsReferrersAtTheirField: through the built binary, what
// refers to an object the API server refuses says why at the line of the
// referring field (file:line of the parentRefs entry, the parentRef, the
// gatewayClassName), not at the referrer's first line; in a List dump too.
// The findings keep their field (none for the Gateway's and the ListenerSet's,
// whose condition is the object's own), so that baselines still know them.
func TestRefusedObjectsReferrersAtTheirField(t *testing.T) {
	for name, content := range map[string]string{"documents": referrersInput, "List": asList(referrersInput)} {
		t.Run(name, func(t *testing.T) {
			in := writeInput(t, content)
			rep, r := admitAnalyzeJSON(t, "-f", in)
			if r.code != 1 || rep.Admission.Refused != 2 {
				t.Fatalf("exit %d, %d refused; want 1 and 2 (the GatewayClass, Gateway twice)\n%s", r.code, rep.Admission.Refused, r.stderr)
			}
			for _, want := range []struct {
				rule, object, field string
				line                int
				refused             string
			}{
				{"gateway/GatewayClassNotFound", "Gateway/infra/classless", "", lineOf(t, content, "gatewayClassName: broken", 1), "GatewayClass broken is refused by the API server"},
				{"route/Accepted/NoMatchingParent", "HTTPRoute/infra/two-parents", "spec.parentRefs[1]", lineOf(t, content, "- sectionName: http", 1), "Gateway infra/twice is refused by the API server"},
				{"listenerset/Accepted/ParentNotAccepted", "ListenerSet/infra/team", "", lineOf(t, content, "parentRef:", 1), "Gateway infra/twice is refused by the API server"},
			} {
				found := false
				for _, f := range rep.Findings {
					if f.Rule != want.rule || f.Object.Kind+"/"+f.Object.Namespace+"/"+f.Object.Name != want.object {
						continue
					}
					found = true
					if f.Field != want.field || f.Source.File != in || f.Source.Line != want.line || !strings.Contains(f.Message, want.refused) {
						t.Errorf("%s on %s: field %s at %s:%d, %q\nwant field %s at %s:%d, %q", want.rule, want.object,
							f.Field, f.Source.File, f.Source.Line, f.Message, want.field, in, want.line, want.refused)
					}
				}
				if !found {
					t.Errorf("no %s on %s in %+v", want.rule, want.object, rep.Findings)
				}
			}
			// The route's other parentRef, to an admitted Gateway, is not moved.
			for _, f := range rep.Findings {
				if f.Field == "spec.parentRefs[0]" {
					t.Errorf("spec.parentRefs[0] names an admitted Gateway, yet: %+v", f)
				}
			}
			table := gwtls(t, "", nil, "analyze", "-f", in, "--color", "never")
			if at := fmt.Sprintf("%s:%d", in, lineOf(t, content, "- sectionName: http", 1)); !strings.Contains(table.stdout, at) {
				t.Errorf("the table does not point at %s:\n%s", at, table.stdout)
			}
		})
	}
}
