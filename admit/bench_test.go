package admit_test

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
)

// object is one Gateway API object of a generated configuration, as JSON.
type object struct {
	apiVersion, kind string
	raw              []byte
}

// gatewayObjects splits a generated configuration into documents and keeps the
// objects a has CRDs for, as the loader will hand them over.
func gatewayObjects(tb testing.TB, a *admit.Admitter, data []byte) []object {
	tb.Helper()
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var out []object
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			tb.Fatal(err)
		}
		js, err := yaml.YAMLToJSON(doc)
		if err != nil {
			tb.Fatal(err)
		}
		var head struct{ APIVersion, Kind string }
		if err := yaml.Unmarshal(js, &head); err != nil {
			tb.Fatal(err)
		}
		if a.Covers(head.APIVersion) {
			out = append(out, object{head.APIVersion, head.Kind, js})
		}
	}
}

// admitAll admits every object on GOMAXPROCS goroutines, as the loader decodes
// (AdmitReadOnly, as the loader calls it), and returns how many were admitted
// and how many warned about.
func admitAll(a *admit.Admitter, objs []object) (admitted, warned int64) {
	var next atomic.Int64
	var wg sync.WaitGroup
	var nAdmitted, nWarned atomic.Int64
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(objs) {
					return
				}
				v := a.AdmitReadOnly(objs[i].apiVersion, objs[i].kind, objs[i].raw)
				if v.Admitted {
					nAdmitted.Add(1)
				}
				if v.Standard != nil {
					nWarned.Add(1)
				}
			}
		})
	}
	wg.Wait()
	return nAdmitted.Load(), nWarned.Load()
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkAdmit validates every Gateway API object of the generated
// configurations (docs/performance.md), on every core. The experimental case is
// what file mode runs: the built-in experimental channel, each admitted object
// checked against the standard channel too for the warning.
//
// Each size runs on the generated configuration and on its unrepeated form,
// in which no two objects share a list or object value (the shortcut's worst
// case).
//
//	go test -run '^$' -bench 'Admit/experimental/1k' ./admit
//	GWTLS_BENCH_LARGE=1 go test -run '^$' -bench 'Admit/.*/100k' -benchtime 1x ./admit
func BenchmarkAdmit(b *testing.B) {
	for _, variant := range []struct {
		name string
		crds func() (admit.CRDs, error)
	}{
		{"experimental", func() (admit.CRDs, error) { return admit.Builtin(admit.Experimental) }},
		// The experimental channel alone: what the standard-channel warning costs.
		{"experimental-alone", func() (admit.CRDs, error) {
			crds, err := admit.Builtin(admit.Experimental)
			if err != nil {
				return crds, err
			}
			defs, err := crds.Definitions()
			return admit.FromObjects("built in", deref(defs)), err
		}},
		{"standard", func() (admit.CRDs, error) { return admit.Builtin(admit.Standard) }},
	} {
		b.Run(variant.name, func(b *testing.B) {
			for _, size := range generate.Sizes {
				for _, input := range []struct {
					name    string
					rewrite func(testing.TB, []object) []object
				}{
					{size.Name, func(_ testing.TB, objs []object) []object { return objs }},
					// Nothing repeats: the worst case of the shortcut's memos.
					{size.Name + "-unrepeated", unrepeated},
				} {
					b.Run(input.name, func(b *testing.B) {
						benchmarkAdmit(b, size, variant.crds, input.rewrite)
					})
				}
			}
		})
	}
}

func benchmarkAdmit(b *testing.B, size generate.Size, crds func() (admit.CRDs, error), rewrite func(testing.TB, []object) []object) {
	if why := generate.SkipReason(size); why != "" {
		b.Skip(why)
	}
	c, err := crds()
	if err != nil {
		b.Fatal(err)
	}
	a, err := admit.New(c)
	if err != nil {
		b.Fatal(err)
	}
	data, err := generate.Bytes(size.Config)
	if err != nil {
		b.Fatal(err)
	}
	objs := rewrite(b, gatewayObjects(b, a, data))
	// As the CLI runs (cmd/kubectl-gwtls/main.go).
	defer debug.SetGCPercent(debug.SetGCPercent(300))
	admitAll(a, objs[:min(len(objs), 200)]) // compile the versions the objects use
	admit.ForgetMemos(a)
	b.ReportAllocs()
	b.ResetTimer()
	var admitted, warned int64
	cpu0 := cpuTime()
	for b.Loop() {
		// Each run starts with nothing memoized, as the CLI does.
		admit.ForgetMemos(a)
		admitted, warned = admitAll(a, objs)
	}
	// CPU time as well as wall time: on a shared machine the wall time
	// says more about the neighbours than about the validator.
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N)/float64(len(objs)), "cpu-ns/object")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(objs)), "ns/object")
	b.ReportMetric(float64(len(objs)-int(admitted)), "refused")
	b.ReportMetric(float64(warned), "warned")
}

func deref(defs []*apiextensionsv1.CustomResourceDefinition) []apiextensionsv1.CustomResourceDefinition {
	out := make([]apiextensionsv1.CustomResourceDefinition, len(defs))
	for i, d := range defs {
		out[i] = *d
	}
	return out
}
