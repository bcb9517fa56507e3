package render

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
)

// crdSchema compiles the openAPIV3Schema of a published CRD kept in testdata/crd
// (see its README for where each comes from). OpenAPI v3.0 schemas are draft-4
// JSON Schema plus keywords (x-kubernetes-*, nullable) that the compiler ignores,
// so required, type, enum, pattern and the rest are enforced as the API server
// does; CEL rules (x-kubernetes-validations) are not checked. An object field
// with properties and neither additionalProperties nor
// x-kubernetes-preserve-unknown-fields gets additionalProperties: false, so an
// unknown field fails as under kubectl apply's strict field validation instead
// of being pruned silently.
func crdSchema(t *testing.T, file string) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "crd", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	forbidUnknownFields(doc)
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft4)
	if err := c.AddResource(file, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(file)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func forbidUnknownFields(n any) {
	switch n := n.(type) {
	case map[string]any:
		props, ok := n["properties"].(map[string]any)
		if ok {
			_, has := n["additionalProperties"]
			preserve, _ := n["x-kubernetes-preserve-unknown-fields"].(bool)
			if !has && !preserve {
				n["additionalProperties"] = false
			}
			for _, p := range props {
				forbidUnknownFields(p)
			}
		}
		for _, k := range []string{"items", "additionalProperties"} {
			forbidUnknownFields(n[k])
		}
		for _, k := range []string{"allOf", "anyOf", "oneOf"} {
			if xs, ok := n[k].([]any); ok {
				for _, x := range xs {
					forbidUnknownFields(x)
				}
			}
		}
	}
}

// yamlDocs splits a multi-document YAML stream and returns each document as a
// JSON value for the validator.
func yamlDocs(t *testing.T, out []byte) []any {
	t.Helper()
	var docs []any
	for _, d := range strings.Split("\n"+string(out), "\n---\n") {
		if strings.TrimSpace(d) == "" {
			continue
		}
		j, err := yaml.YAMLToJSON([]byte(d))
		if err != nil {
			t.Fatalf("document is not YAML: %v\n%s", err, d)
		}
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, v)
	}
	return docs
}

func jsonDoc(t *testing.T, s string) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestPlanManifestsValidateAgainstCRDSchemas(t *testing.T) {
	m, err := load.Files(load.FileOptions{Filenames: []string{"../testdata/golden/plan-addresses.yaml"}})
	if err != nil {
		t.Fatal(err)
	}
	res := analyze.Analyze(m, analyze.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	plan := res.Plan()

	var certs, dns bytes.Buffer
	if err := Certificates(&certs, plan, "ClusterIssuer", "letsencrypt"); err != nil {
		t.Fatal(err)
	}
	if _, err := DNSEndpoints(&dns, plan, 300); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name, schema, apiVersion, kind string
		out                            []byte
		want                           int
		broken                         map[string]string // what must be rejected
	}{
		{
			name: "Certificate", schema: "certificates.cert-manager.io.v1.json",
			apiVersion: "cert-manager.io/v1", kind: "Certificate", out: certs.Bytes(), want: 1,
			broken: map[string]string{
				"no secretName": `{"apiVersion":"cert-manager.io/v1","kind":"Certificate","metadata":{"name":"a"},
					"spec":{"dnsNames":["a.example.com"],"issuerRef":{"kind":"ClusterIssuer","name":"x"}}}`,
				"issuerRef without name": `{"apiVersion":"cert-manager.io/v1","kind":"Certificate","metadata":{"name":"a"},
					"spec":{"secretName":"a","issuerRef":{"kind":"ClusterIssuer"}}}`,
				"dnsNames not a list": `{"apiVersion":"cert-manager.io/v1","kind":"Certificate","metadata":{"name":"a"},
					"spec":{"secretName":"a","dnsNames":"a.example.com","issuerRef":{"name":"x"}}}`,
				"algorithm not in enum": `{"apiVersion":"cert-manager.io/v1","kind":"Certificate","metadata":{"name":"a"},
					"spec":{"secretName":"a","issuerRef":{"name":"x"},"privateKey":{"algorithm":"DSA"}}}`,
				"windowDuration not matching pattern": `{"apiVersion":"cert-manager.io/v1","kind":"Certificate","metadata":{"name":"a"},
					"spec":{"secretName":"a","issuerRef":{"name":"x"},"renewal":{"windows":[{"cron":"0 0 * * *","windowDuration":"1 day"}]}}}`,
				"unknown field": `{"apiVersion":"cert-manager.io/v1","kind":"Certificate","metadata":{"name":"a"},
					"spec":{"secretName":"a","issuerRef":{"name":"x"},"dnsName":["a.example.com"]}}`,
			},
		},
		{
			name: "DNSEndpoint", schema: "dnsendpoints.externaldns.k8s.io.v1alpha1.json",
			apiVersion: "externaldns.k8s.io/v1alpha1", kind: "DNSEndpoint", out: dns.Bytes(), want: 2,
			broken: map[string]string{
				"recordTTL as a string": `{"apiVersion":"externaldns.k8s.io/v1alpha1","kind":"DNSEndpoint","metadata":{"name":"a"},
					"spec":{"endpoints":[{"dnsName":"a.example.com","recordType":"A","recordTTL":"300","targets":["192.0.2.1"]}]}}`,
				"targets not a list": `{"apiVersion":"externaldns.k8s.io/v1alpha1","kind":"DNSEndpoint","metadata":{"name":"a"},
					"spec":{"endpoints":[{"dnsName":"a.example.com","recordType":"A","targets":"192.0.2.1"}]}}`,
				"unknown field": `{"apiVersion":"externaldns.k8s.io/v1alpha1","kind":"DNSEndpoint","metadata":{"name":"a"},
					"spec":{"endpoints":[{"dnsName":"a.example.com","type":"A","targets":["192.0.2.1"]}]}}`,
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sch := crdSchema(t, tc.schema)
			docs := yamlDocs(t, tc.out)
			if len(docs) != tc.want {
				t.Fatalf("got %d %s documents, want %d:\n%s", len(docs), tc.kind, tc.want, tc.out)
			}
			for i, d := range docs {
				obj, _ := d.(map[string]any)
				if obj["apiVersion"] != tc.apiVersion || obj["kind"] != tc.kind {
					t.Errorf("document %d is %v %v, want %s %s", i, obj["apiVersion"], obj["kind"], tc.apiVersion, tc.kind)
				}
				if err := sch.Validate(d); err != nil {
					t.Errorf("document %d does not validate against the %s CRD schema: %v\n%s", i, tc.kind, err, tc.out)
				}
			}
			// The validator does reject what the schema forbids, so the check above means something.
			for name, s := range tc.broken {
				if err := sch.Validate(jsonDoc(t, s)); err == nil {
					t.Errorf("%s: a %s with %s validated", tc.kind, tc.kind, name)
				} else {
					t.Logf("%s rejected: %v", name, err)
				}
			}
		})
	}
}
