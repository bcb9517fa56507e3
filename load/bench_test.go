package load_test

import (
	"syscall"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
)

// BenchmarkLoad measures loading alone: splitting a generated file into
// documents and decoding them into the model (docs/performance.md), with the
// Gateway API objects admitted as the CLI does (admission), and with
// admission off, which still applies the CRDs' defaults (off).
//
//	go test -run '^$' -bench 'Load/1k' -benchmem ./load
func BenchmarkLoad(b *testing.B) {
	dir := b.TempDir()
	for _, size := range generate.Sizes {
		b.Run(size.Name, func(b *testing.B) {
			if why := generate.SkipReason(size); why != "" {
				b.Skip(why)
			}
			path, data, err := generate.WriteFile(dir, size.Name, size.Config)
			if err != nil {
				b.Fatal(err)
			}
			for _, adm := range []struct {
				name string
				off  bool
			}{{"admission", false}, {"off", true}} {
				b.Run(adm.name, func(b *testing.B) {
					opts := load.FileOptions{Filenames: []string{path}, Admission: load.Admission{Off: adm.off}}
					b.SetBytes(int64(len(data)))
					b.ReportAllocs()
					objects := 0
					cpu0 := cpuTime()
					for b.Loop() {
						m, err := load.Files(opts)
						if err != nil {
							b.Fatal(err)
						}
						objects = m.Len()
					}
					// CPU time as well as wall time: on a shared machine the wall
					// time says more about the neighbours than about the loader.
					b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N)/float64(objects), "cpu-ns/object")
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(objects), "ns/object")
				})
			}
		})
	}
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
