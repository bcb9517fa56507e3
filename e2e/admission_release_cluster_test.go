package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
)

// TestClusterAdmissionNewerRelease holds the offline verdicts under Gateway
// API v1.7.0's standard channel (testdata/crds/gateway-api-v1.7.0, as --crds
// reads it) to a real API server's: the standard-channel API server of
// hack/apiserver.sh is upgraded to v1.7.0's CRDs for the test and given
// v1.6.3's back after it. Every Gateway API object of the test manifests and
// of the conformance corpus, and the edge cases, is sent with server-side
// dry-run; each answer must equal the Admitter's of v1.7.0's CRDs. The tool in
// cluster mode then names the CRDs the cluster serves.
func TestClusterAdmissionNewerRelease(t *testing.T) {
	env := clusterSetup(t)
	standardConfig := filepath.Join(filepath.Dir(env.admin), "standard.kubeconfig")
	crds, err := admit.FromDir(filepath.Join("..", v170Standard))
	if err != nil {
		t.Fatal(err)
	}
	a, err := admit.New(crds)
	if err != nil {
		t.Fatal(err)
	}
	builtin, err := admit.Builtin(admit.Standard)
	if err != nil {
		t.Fatal(err)
	}
	s := newAdmissionServer(t, standardConfig)

	// An HTTPRoute with a retry policy: v1.7.0's standard channel admits it,
	// v1.6.3's refuses it. The API server answers with the new CRDs once it
	// admits it, and with the old ones again once it refuses it.
	probe := admissionObject{source: "retry probe", apiVersion: "gateway.networking.k8s.io/v1", kind: "HTTPRoute",
		raw: []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"release-probe","namespace":"default"},"spec":{"rules":[{"retry":{"attempts":2}}]}}`)}
	start := time.Now()
	s.applyCRDs(t, definitions(t, crds))
	t.Cleanup(func() {
		s.applyCRDs(t, definitions(t, builtin))
		s.waitForVerdict(t, probe, false)
	})
	s.waitForVerdict(t, probe, true)
	t.Logf("v1.7.0's CRDs served after %v", time.Since(start).Round(time.Millisecond))

	corpus := append(manifestObjects(t, a), probe)
	for _, e := range admissionEdgeCases {
		corpus = append(corpus, admissionObject{source: e.name, apiVersion: e.apiVersion, kind: e.kind, raw: []byte(e.json)})
	}
	s.createNamespaces(t, corpus)
	answers := s.answerAll(t, corpus)
	refused := 0
	for i, o := range corpus {
		offline := a.Admit(o.apiVersion, o.kind, o.raw)
		if !offline.Admitted {
			refused++
		}
		if diff := compareVerdicts(a, o, offline, answers[i]); diff != "" {
			t.Errorf("v1.7.0 standard channel, %s (%s %s):\n%s\n  object %.400s", o.source, o.apiVersion, o.kind, diff, o.raw)
		}
	}
	t.Logf("%d objects (%d refused) compared with the API server under Gateway API v1.7.0's standard channel", len(corpus), refused)

	// Cluster mode reads the CRDs the cluster serves, and says which.
	rep, r := analyzeJSON(t, "--kubeconfig", standardConfig, "-A", "--allow-empty")
	if rep.Admission.CRDs != "Gateway API v1.7.0 standard channel, from the cluster" {
		t.Errorf("cluster mode on the upgraded API server: admission %+v\n%s", rep.Admission, r.stderr)
	}
}

// applyCRDs installs or replaces CRDs with server-side apply, as
// hack/apiserver.sh does.
func (s *admissionServer) applyCRDs(t *testing.T, defs []*apiextensionsv1.CustomResourceDefinition) {
	t.Helper()
	for _, def := range defs {
		b, err := json.Marshal(def)
		if err != nil {
			t.Fatal(err)
		}
		var obj map[string]any
		if err := json.Unmarshal(b, &obj); err != nil {
			t.Fatal(err)
		}
		delete(obj, "status") // the API server keeps its own
		obj["apiVersion"], obj["kind"] = "apiextensions.k8s.io/v1", "CustomResourceDefinition"
		body, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		url := s.host + "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + def.Name + "?fieldManager=gwtls-e2e&force=true"
		req, err := http.NewRequestWithContext(context.Background(), http.MethodPatch, url, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/apply-patch+yaml")
		resp, err := s.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			t.Fatalf("applying CRD %s: HTTP %d: %s", def.Name, resp.StatusCode, out)
		}
	}
}

// waitForVerdict waits until the API server admits the object, or refuses
// it: until it validates with the CRDs just applied.
func (s *admissionServer) waitForVerdict(t *testing.T, o admissionObject, admitted bool) {
	t.Helper()
	var last serverAnswer
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		a, err := s.answer(o)
		if err != nil {
			t.Fatal(err)
		}
		if a.admitted == admitted {
			return
		}
		last = a
	}
	t.Fatalf("%s: the API server still answers admitted=%v after 60s: %s", o.source, last.admitted, last.reason)
}
