package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// diff without a base compares the cluster with the cluster as the files
// would leave it. The cluster holds the shop team's Gateway and route
// (testdata/diff/takeover/base.yaml); the files hold only the promo team's
// new route and Service, as a team's deploy/ folder does. The takeover is
// found though the files do not name the route it takes from: the head is the
// cluster with the files applied.
func TestClusterDiff(t *testing.T) {
	env := clusterSetup(t)
	env.apply(t, readManifests(t, "testdata/diff/takeover/base.yaml"))

	var promo []string
	for _, doc := range strings.Split(readFile(t, "../testdata/diff/takeover/head.yaml"), "\n---\n") {
		if strings.Contains(doc, "namespace: promo") {
			promo = append(promo, doc)
		}
	}
	if len(promo) != 2 {
		t.Fatalf("%d promo documents in the takeover case, want the route and the Service", len(promo))
	}
	files := filepath.Join(t.TempDir(), "promo.yaml")
	if err := os.WriteFile(files, []byte(strings.Join(promo, "\n---\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	r := gwtls(t, "", nil, "diff", "-f", files, "--kubeconfig", env.admin, "--now", clusterNow, "-o", "json")
	noStackTrace(t, r)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (a takeover)\n%s%s", r.code, r.stdout, r.stderr)
	}
	var rep struct {
		Base, Head struct {
			From      string
			Admission struct{ CRDs string }
		}
		Summary   struct{ Kinds map[string]int }
		Hostnames []struct {
			Hostname string
			Port     int
			Changes  []struct {
				Kind   string
				Source struct{ File string }
				Side   string
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.stdout)
	}
	if rep.Base.From != "cluster" || rep.Head.From != "cluster+files" {
		t.Errorf("base from %q, head from %q; want cluster, cluster+files", rep.Base.From, rep.Head.From)
	}
	// Each side names the CRDs it was held to: the base's are the cluster's,
	// the files' the built-in ones.
	if !strings.HasSuffix(rep.Base.Admission.CRDs, ", from the cluster") || !strings.HasSuffix(rep.Head.Admission.CRDs, ", built in") {
		t.Errorf("base admission %q, head admission %q; want the cluster's CRDs and the built-in ones", rep.Base.Admission.CRDs, rep.Head.Admission.CRDs)
	}
	// What the golden case finds comparing the two files.
	want := map[string]int{"Takeover": 2, "BackendsChanged": 2, "RouteAccepted": 1, "DNSRecordAdded": 1, "CertificateNameAdded": 1}
	if got, w := mustJSON(t, rep.Summary.Kinds), mustJSON(t, want); got != w {
		t.Errorf("kinds %s, want %s", got, w)
	}
	for _, h := range rep.Hostnames {
		c := h.Changes[0]
		if h.Hostname != "www.shop.example.com" || c.Kind != "Takeover" || c.Source.File != files || c.Side != "head" {
			t.Errorf("%s:%d %s at %s (%s), want the takeover of www.shop.example.com at %s", h.Hostname, h.Port, c.Kind, c.Source.File, c.Side, files)
		}
	}

	// The cluster compared with the objects it already holds: nothing changes.
	same := gwtls(t, "", nil, "diff", "-f", "testdata/diff/takeover/base.yaml", "--kubeconfig", env.admin, "--now", clusterNow)
	if same.code != 0 || !strings.Contains(same.stdout, "No change in what is served") {
		t.Errorf("applying what the cluster holds: exit %d, want 0 and no change\n%s%s", same.code, same.stdout, same.stderr)
	}
	// Other CRDs on each side: the table names each side's.
	if !strings.Contains(same.stdout, "\nbase admission: "+rep.Base.Admission.CRDs+"; 0 objects refused\nhead admission: "+rep.Head.Admission.CRDs+"; 0 objects refused\n") {
		t.Errorf("the table does not name each side's CRDs:\n%s", same.stdout)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
