package gwtls

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// profileOptions are --cpuprofile and --memprofile: a user whose configuration
// is slow to check can send the profile of a run on it without building the
// tool (docs/performance.md, "Profiling your own configuration"). Both files
// are in pprof's format, read with `go tool pprof`.
type profileOptions struct {
	CPU, Memory string
	cpu         *os.File
}

func (p *profileOptions) addFlags(root *cobra.Command) {
	root.PersistentFlags().StringVar(&p.CPU, "cpuprofile", "", "write a CPU profile of the run to this file (read it with go tool pprof)")
	root.PersistentFlags().StringVar(&p.Memory, "memprofile", "", "write a heap profile of the run to this file when it ends: every allocation the run made (go tool pprof -sample_index=alloc_space)")
}

// profiled runs every command of the tree under the profiles the flags ask
// for, ending them whether the command succeeds or fails: a run that reports
// findings (exit 1) is the one a user wants to profile.
func (p *profileOptions) profiled(root *cobra.Command) {
	for _, c := range root.Commands() {
		p.profiled(c)
	}
	run := root.RunE
	if run == nil {
		return
	}
	root.RunE = func(cmd *cobra.Command, args []string) error {
		if err := p.start(); err != nil {
			return err
		}
		err := run(cmd, args)
		if serr := p.stop(); serr != nil {
			return errors.Join(err, serr)
		}
		return err
	}
}

func (p *profileOptions) start() error {
	if p.CPU == "" {
		return nil
	}
	f, err := os.Create(p.CPU)
	if err != nil {
		return usageErrorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("--cpuprofile: %w", err)
	}
	p.cpu = f
	return nil
}

// stop ends the CPU profile and writes the heap profile. The heap profile is
// taken after a collection, so that its counts include every allocation of the
// run (pprof reports them as of the last completed cycle).
func (p *profileOptions) stop() error {
	var errs []error
	if p.cpu != nil {
		pprof.StopCPUProfile()
		if err := p.cpu.Close(); err != nil {
			errs = append(errs, fmt.Errorf("--cpuprofile: %w", err))
		}
		p.cpu = nil
	}
	if p.Memory != "" {
		runtime.GC()
		if err := writeHeapProfile(p.Memory); err != nil {
			errs = append(errs, fmt.Errorf("--memprofile: %w", err))
		}
	}
	return errors.Join(errs...)
}

func writeHeapProfile(name string) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
