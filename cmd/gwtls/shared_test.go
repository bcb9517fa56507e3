package gwtls

import (
	"path/filepath"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/typedjson"
)

// TestNothingWritesThroughSharedValues: the loader's decoder (typedjson)
// shares the pointee of equal *Group, *Kind, *Namespace, *SectionName,
// *PortNumber... between objects, which is only right if nothing writes
// through a pointer of the model. Every command that reads files runs on
// every golden input, with admission and without (the CRD defaults are
// applied to the decoded objects then), and no shared value may have changed
// after them; typedjson's TestWatchSharedSeesWrites shows the check sees a
// write. The CRD defaults' scalar pointees, shared by every object defaulted,
// must be as they decoded too.
func TestNothingWritesThroughSharedValues(t *testing.T) {
	t.Chdir("../..")
	inputs, err := filepath.Glob("testdata/golden/*.yaml")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	check := typedjson.WatchShared()
	runs := 0
	for _, in := range inputs {
		for _, admission := range []string{"--admission=true", "--admission=false"} {
			for _, args := range [][]string{
				{"analyze", "-o", "json", "--fail-on", "none"},
				{"render", "status", "-o", "yaml"},
				{"render", "plan", "-o", "json"},
				{"render", "graph"},
				{"render", "report"},
				{"simulate", "--all", "-o", "json"},
				{"diff", "--base", in},
			} {
				run(t, "", append(args, "-f", in, "--now", goldenNow, admission)...)
				runs++
			}
		}
	}
	shared, err := check()
	if err != nil {
		t.Errorf("after %d runs: %v", runs, err)
	}
	// The CRD defaults' scalar pointees are shared by every object defaulted
	// (admit's clone): the cached defaults must be as they decoded.
	if err := admit.TypedDefaultsUnchanged(); err != nil {
		t.Errorf("after %d runs: %v", runs, err)
	}
	if shared < 100 {
		t.Errorf("only %d values shared in %d runs: the check no longer sees the loader's decodes", shared, runs)
	}
	t.Logf("%d runs, %d shared values unchanged", runs, shared)
}
