package e2e

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// An Ingress migration whose base is the cluster: `diff --from-ingress -f
// gateway/` reads the cluster's networking.k8s.io/v1 Ingresses and
// IngressClasses, and gives the verdict the same comparison gives from files
// (`diff --base ingress.yaml -f gateway.yaml`): the same migration/* findings
// on the same Ingress paths, the same sentence, the same exit code. Only the
// Ingress side's source differs (the cluster, not a file:line).
//
// The pairs are testdata/diff's canary cases, moved into namespaces and an
// IngressClass of their own so that they share the API server with the other
// cluster tests without reading or touching their objects.
func TestClusterIngressMigration(t *testing.T) {
	env := clusterSetup(t)
	pairs := []struct {
		name, pair, ns string
		code           int
		verdict        string
		migration      []string // the migration/* findings, as findingKeys
	}{
		{"faithful translation", "migration-nginx-canary", "gwtls-ingress-same", 0,
			"every host and path is served the same way (2 Ingresses, 1 host, 1 path, 4 requests compared)", []string{}},
		{"canary lost in translation", "migration-nginx-canary-lost", "gwtls-ingress-gap", 1,
			"1 difference where a host or path is not served the same way (2 Ingresses, 1 host, 1 path, 4 requests compared)",
			[]string{"error migration/BackendChanged Ingress/gwtls-ingress-gap/shop spec.rules[0].http.paths[0]"}},
	}
	heads := map[string]string{}
	for _, p := range pairs {
		class := p.ns + "-nginx"
		baseObjs, base := relocatedPairSide(t, p.pair, "base.yaml", p.ns, class)
		_, head := relocatedPairSide(t, p.pair, "head.yaml", p.ns, class)
		heads[p.ns] = head
		namespace := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": p.ns}}}
		env.apply(t, append([]*unstructured.Unstructured{namespace}, baseObjs...))

		t.Run(p.name, func(t *testing.T) {
			files, rf := migrationDiffJSON(t, "--base", base, "-f", head)
			cluster, rc := migrationDiffJSON(t, "--from-ingress", "-f", head, "--kubeconfig", env.admin, "-n", p.ns)
			if files.Base.From != "files" || cluster.Base.From != "cluster" {
				t.Errorf("base from %q and %q, want files and cluster", files.Base.From, cluster.Base.From)
			}
			// The files' verdict is the golden case's: the pair moved into
			// its namespace is the same pair.
			if rf.code != p.code || files.Migration == nil || files.Migration.Verdict != p.verdict {
				t.Fatalf("from files: exit %d, migration %+v; want exit %d and %q\n%s", rf.code, files.Migration, p.code, p.verdict, rf.stderr)
			}
			migration := []string{}
			for _, k := range files.findingKeys() {
				if strings.Contains(k, " migration/") {
					migration = append(migration, k)
				}
			}
			sameStrings(t, "the golden case's migration findings", migration, p.migration)
			if rc.code != rf.code {
				t.Errorf("exit %d from the cluster, %d from files\n%s%s", rc.code, rf.code, rc.stdout, rc.stderr)
			}
			if cluster.Migration == nil || *cluster.Migration != *files.Migration {
				t.Errorf("migration from the cluster %+v, from files %+v", cluster.Migration, *files.Migration)
			}
			sameStrings(t, "findings", cluster.findingKeys(), files.findingKeys())
			// Each migration finding is placed on its Ingress: in the base
			// file, or in the cluster.
			for _, side := range []struct {
				d    migrationDiff
				from string
			}{{files, base}, {cluster, "cluster"}} {
				for _, f := range side.d.Findings {
					if strings.HasPrefix(f.Finding.Rule, "migration/") && (f.Finding.Object.Kind != "Ingress" || f.Finding.Source.File != side.from) {
						t.Errorf("%s on %s/%s placed at %+v, want %s", f.Finding.Rule, f.Finding.Object.Kind, f.Finding.Object.Name, f.Finding.Source, side.from)
					}
				}
			}
		})
	}

	// The faithful pair read by an identity that may list everything the
	// migration reads in its namespace but Ingresses. The admin impersonates
	// a user of this test's own, whom no other cluster test grants anything
	// (they grant restricted.kubeconfig's user cluster-wide Roles).
	t.Run("identity that may not list Ingresses", func(t *testing.T) {
		const ns, user = "gwtls-ingress-same", "gwtls-ingress-reader"
		env.apply(t, parseObjects(t, strings.ReplaceAll(strings.ReplaceAll(ingressReaderRBAC, "NAMESPACE", ns), "USER", user)))
		as := []string{"--kubeconfig", env.admin, "--as", user, "-n", ns}
		deadline := time.Now().Add(10 * time.Second)
		for { // the RBAC authorizer's informer picks up the RoleBinding asynchronously
			rep, _ := analyzeJSON(t, append([]string{"--allow-empty"}, as...)...)
			if unreadable(rep, "Gateway") == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the Role does not let %s list Gateways in %s: %+v", user, ns, rep.Unreadable)
			}
			time.Sleep(200 * time.Millisecond)
		}
		// Compared with no Ingress, the translation would pass: the run
		// fails instead, says which Ingresses it could not read and what
		// to do, and prints no verdict.
		for _, format := range []string{"table", "json", "markdown", "github"} {
			r := gwtls(t, "", nil, append([]string{"diff", "--from-ingress", "-f", heads[ns], "--now", clusterNow, "-o", format}, as...)...)
			noStackTrace(t, r)
			if r.code != 2 || r.stdout != "" {
				t.Errorf("-o %s: exit %d, want 2 and no report\n%s%s", format, r.code, r.stdout, r.stderr)
			}
			for _, want := range []string{"Ingress migration needs the cluster's Ingresses", "in namespace " + ns, "may not list ingresses", "--base"} {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("-o %s: no %q in stderr %q", format, want, r.stderr)
				}
			}
		}
	})
}

// ingressReaderRBAC lets USER list, in NAMESPACE, everything a migration's
// head reads (Gateway API objects, Services, Secrets, ConfigMaps) but not
// Ingresses.
const ingressReaderRBAC = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: gwtls-ingress-reader
  namespace: NAMESPACE
rules:
- apiGroups: ["gateway.networking.k8s.io"]
  resources: ["*"]
  verbs: ["list"]
- apiGroups: [""]
  resources: ["services", "secrets", "configmaps"]
  verbs: ["list"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: gwtls-ingress-reader
  namespace: NAMESPACE
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: gwtls-ingress-reader
subjects:
- apiGroup: rbac.authorization.k8s.io
  kind: User
  name: USER
`

// migrationDiff is what the test reads of diff -o json.
type migrationDiff struct {
	Base struct {
		From string
	}
	Migration *struct {
		Ingresses, Hosts, Paths, Requests, Findings int
		Same                                        bool
		Verdict                                     string
	}
	Findings []struct {
		Finding struct {
			Rule, Severity, Field string
			Object                struct{ Kind, Namespace, Name string }
			Source                struct {
				File string
				Line int
			}
		}
	}
}

// findingKeys are the findings by rule, severity, object and field, sorted:
// their sources differ between the cluster and the files.
func (d migrationDiff) findingKeys() []string {
	keys := []string{}
	for _, f := range d.Findings {
		o := f.Finding.Object
		keys = append(keys, fmt.Sprintf("%s %s %s/%s/%s %s", f.Finding.Severity, f.Finding.Rule, o.Kind, o.Namespace, o.Name, f.Finding.Field))
	}
	sort.Strings(keys)
	return keys
}

// migrationDiffJSON runs diff -o json; a run that could not compare (exit 2)
// ends the test.
func migrationDiffJSON(t *testing.T, args ...string) (migrationDiff, result) {
	t.Helper()
	r := gwtls(t, "", nil, append([]string{"diff", "-o", "json", "--now", clusterNow}, args...)...)
	noStackTrace(t, r)
	if r.code != 0 && r.code != 1 {
		t.Fatalf("diff %v: exit %d\n%s", args, r.code, r.stderr)
	}
	var d migrationDiff
	if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
		t.Fatalf("diff %v: not JSON: %v\n%s", args, err, r.stdout)
	}
	return d, r
}

// relocatedPairSide reads one side of a testdata/diff pair, moves its
// namespaced objects into ns and renames its IngressClass to class (and the
// Ingresses' ingressClassName with it), and writes it to a file of its own.
func relocatedPairSide(t *testing.T, pair, side, ns, class string) ([]*unstructured.Unstructured, string) {
	t.Helper()
	objs := readManifests(t, "testdata/diff/"+pair+"/"+side)
	for _, u := range objs {
		kr, ok := kindResources[u.GetKind()]
		if !ok {
			t.Fatalf("%s %s: no resource known for kind %s", pair, side, u.GetKind())
		}
		if kr.namespaced {
			u.SetNamespace(ns)
		}
		switch u.GetKind() {
		case "IngressClass":
			u.SetName(class)
		case "Ingress":
			if _, set, _ := unstructured.NestedString(u.Object, "spec", "ingressClassName"); set {
				if err := unstructured.SetNestedField(u.Object, class, "spec", "ingressClassName"); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return objs, writeManifests(t, objs)
}
