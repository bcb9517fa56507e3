package analyze

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/hostname"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// planOneByOne is Plan as it was written before Gateways were planned on
// every core: one Gateway after the other, appending to the plan's slices.
// It is the oracle TestPlanIsPlanOneByOne holds Plan to.
func planOneByOne(r *Result) Plan {
	p := Plan{DNS: []DNSRecord{}, Certificates: []CertificatePlan{}}
	for _, g := range r.Gateways {
		if !IsTrue(g.Conditions, string(gwv1.GatewayConditionAccepted)) {
			continue
		}
		gwName := model.NameOf(g.Gateway.Obj).String()
		addrs, typ := gatewayAddresses(g)
		byHost := map[string][]string{}
		var hosts []string
		for _, rl := range mergedListeners(g) {
			l := rl.l
			if !l.Accepted || !carriesHostnames(l) {
				continue
			}
			var intersected []string
			for _, a := range l.Attachments {
				if a.Parent.Accepted() {
					intersected = append(intersected, a.Hostnames...)
				}
			}
			names, _ := hostname.DNSRecordNames(intersected)
			for _, n := range names {
				if _, ok := byHost[n]; !ok {
					hosts = append(hosts, n)
				}
				byHost[n] = appendUnique(byHost[n], l.Name())
			}
			if l.TLSMode() == gwv1.TLSModeTerminate && len(intersected) > 0 {
				p.Certificates = append(p.Certificates, certificatePlan(gwName, l, intersected))
			}
		}
		hostname.SortBySpecificity(hosts)
		for _, h := range hosts {
			for _, t := range typ {
				p.DNS = append(p.DNS, DNSRecord{Hostname: h, Gateway: gwName, Listeners: byHost[h], Addresses: addrs[t], Type: t})
			}
		}
	}
	return p
}

// TestPlanIsPlanOneByOne holds Plan to planOneByOne, field for field (nil and
// empty slices told apart), on every input under testdata/ and examples/ that
// loads, with and without admission, and on the 1k generated configuration
// (50 Gateways: more than one part per core).
func TestPlanIsPlanOneByOne(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var inputs []string
	for _, root := range []string{"../testdata", "../examples"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
				inputs = append(inputs, path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	in, err := generate.Load(t.TempDir(), "1k", generate.Sizes[0].Config)
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, m *model.Model) {
		t.Helper()
		res := Analyze(m, Options{Now: now})
		got, want := res.Plan(), planOneByOne(res)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Plan differs from planning one Gateway after the other:\n got %+v\nwant %+v", name, got, want)
		}
	}
	check("generated 1k", in.Model)
	planned := 0
	for _, path := range inputs {
		for _, off := range []bool{false, true} {
			m, err := load.Files(load.FileOptions{Filenames: []string{path}, Admission: load.Admission{Off: off}})
			if err != nil || m.Len() == 0 {
				continue
			}
			check(path, m)
			planned++
		}
	}
	if planned < 100 {
		t.Fatalf("only %d inputs loaded: the oracle saw too little", planned)
	}
	if _, err := os.Stat("../testdata/golden"); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkPlan plans a generated configuration of every size
// (docs/performance.md, "diff: a plan made once, on every core"):
//
//	go test -run '^$' -bench 'Plan/100k' -benchmem ./analyze
func BenchmarkPlan(b *testing.B) {
	dir := b.TempDir()
	for _, size := range generate.Sizes {
		b.Run(size.Name, func(b *testing.B) {
			if why := generate.SkipReason(size); why != "" {
				b.Skip(why)
			}
			in, err := generate.Load(dir, size.Name, size.Config)
			if err != nil {
				b.Fatal(err)
			}
			res := Analyze(in.Model, Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				res.Plan()
			}
		})
	}
}
