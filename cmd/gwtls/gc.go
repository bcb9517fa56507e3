package gwtls

import (
	"bufio"
	"bytes"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// The CLI's garbage collector policy (docs/performance.md, "Where the engine's
// time goes" and "Memory follows the input"). A large input leaves the loader's
// decode garbage (files, YAML converted to JSON, the typed objects the model
// was cut from) on a heap the engine then allocates on, so:
//
//   - collect less often than the default: with GOGC=100 a large analysis
//     spends a third of its CPU collecting garbage it would never reuse, so
//     GOGC is 300, except while admission validates the input, where it is
//     100 (admittingGCPercent);
//   - the soft memory limit follows the input: a run's peak is 9-11 times
//     its input file at 100k and 300k routes without admission and 14-16
//     times with it, so the limit is 16 times the files -f names (twice that
//     when admission validates them) plus the runtime's own base, capped at
//     three quarters of the machine's memory (or the cgroup's). A fixed limit
//     makes every input past a size spend its time collecting (a 768 MiB
//     limit made 300k routes take 4.8 times the time of 100k); a limit the
//     run never reaches costs nothing, and a limit below a run's live heap
//     saves no memory. The limit is a backstop for inputs heavier than the
//     generated ones, not a way to a smaller peak: at the end of a run the
//     model and the result alone are 6-7 times the input, and the heap in
//     use (their spans) 7-8 times without admission and 8-9 times with it
//     (12 before the loader regrouped the objects' maps, load/regroup.go),
//     so a tighter limit only adds collections, each of which marks that
//     heap (0.3-0.4 s of CPU at 100k). Measured at 100k (2026-11-27), in
//     pairs with the limit as it is: 64 MiB + 7.8 bytes per input byte saved
//     2-5% of the peak, 64 MiB + 5.7 to 6.8 saved 5-10% for 1.2-2 times the
//     CPU; with admission, 64 MiB + 12 saved 6% for 7-13% more CPU and
//     64 MiB + 10 saved 12% for 1.6 times the CPU (docs/performance.md,
//     "Peak memory against the input");
//   - collect once between loading and a large analysis: a cycle that starts
//     during the analysis marks the whole model while the engine runs, and
//     without one the engine's allocations take fresh pages instead of the
//     loader's garbage. At 100k routes this saves about a tenth of a second
//     and 20-40 MB end to end; below about 50,000 objects it gains nothing
//     measurable.
//
// A user who sets GOGC or GOMEMLIMIT tunes the collector and is left alone.

// limitFollowsInput is set by TuneGC when the user left GOMEMLIMIT unset:
// the binary's run then sets the limit from its input. Commands run in a
// test leave the test's collector alone.
var limitFollowsInput bool

// TuneGC sets the collector for one run of the CLI; main calls it first. The
// memory limit is the machine's share until the input is known.
func TuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		limitFollowsInput = true
		debug.SetMemoryLimit(memoryLimit(0, machineMemory()))
	}
}

const (
	// limitPerInputByte is the limit's bytes per byte of input: about 1.5
	// times the measured peak without admission (about twice with it, which
	// doubles the limit), so that a run reaches it only on an input heavier
	// than the generated one (docs/performance.md).
	limitPerInputByte = 16
	// limitBase is the memory of the runtime and an empty model, which a
	// small input does not scale.
	limitBase = 64 << 20
)

// memoryLimit is the soft limit for an input of inputBytes (0: unknown before
// reading, as for standard input, kustomize or a cluster) on a machine of
// machine bytes (0: unknown): limitBase plus limitPerInputByte for each byte,
// and never more than three quarters of the machine, so that a run larger
// than the machine collects harder instead of being killed.
func memoryLimit(inputBytes, machine int64) int64 {
	limit := int64(math.MaxInt64)
	if inputBytes > 0 && inputBytes < (math.MaxInt64-limitBase)/limitPerInputByte {
		limit = limitBase + limitPerInputByte*inputBytes
	}
	if machine > 0 {
		limit = min(limit, machine/4*3)
	}
	return limit
}

// admissionMemoryFactor is how much more room a run needs when it validates
// every object as the API server does: each object is also held, while it is
// validated, as the unstructured value the API server's code reads, and the
// validator memoizes values, which about doubles the peak (at 100k routes,
// 480 MB without admission, 770-870 MB with it). At the limit of a run
// without admission, render status spent half its CPU collecting.
const admissionMemoryFactor = 2

// heldConfigurations is how many configurations the running command holds
// at once: diff holds two, each about the size of the files -f names.
var heldConfigurations int64 = 1

// holdConfigurations tells the limit that the command holds n configurations
// at once (diff: two), and returns what restores it. Held at the limit for
// one, the collector would run without end while the second is analyzed.
func holdConfigurations(n int) (restore func()) {
	prev := heldConfigurations
	heldConfigurations = int64(n)
	return func() { heldConfigurations = prev }
}

// limitMemoryToInput sets the soft limit from the files the options name,
// before loading them, unless the user set GOMEMLIMIT.
func (o *InputOptions) limitMemoryToInput() {
	if !limitFollowsInput {
		return
	}
	var n int64 // a kustomize build's size is unknown until it is built
	if o.kustomize == "" {
		n = inputBytes(o.filenames, o.recursive)
	}
	held := heldConfigurations
	if !o.admission.Off {
		held *= admissionMemoryFactor
	}
	if n > 0 && n < math.MaxInt64/held {
		n *= held
	}
	debug.SetMemoryLimit(memoryLimit(n, machineMemory()))
	if !o.admission.Off && os.Getenv("GOGC") == "" {
		debug.SetGCPercent(admittingGCPercent)
		collectingWhileAdmitting = true
	}
}

// collectingWhileAdmitting is set while GOGC is admittingGCPercent, until
// collectBeforeAnalysis restores it.
var collectingWhileAdmitting bool

const (
	// gcPercent is GOGC for a run (TuneGC).
	gcPercent = 300
	// admittingGCPercent is GOGC while the loader admits the input, until
	// collectBeforeAnalysis: admission's walk leaves a few KB of garbage per
	// object, so the peak of an admitted load is the heap the last cycle
	// allowed, (1 + GOGC/100) times what it found live. The load's cycles
	// mark a heap that grows, so that more of them cost little: at 100k
	// routes, 100 instead of 300 took the peak from 520-560 MB to 450-457 MB
	// for the same CPU (docs/performance.md, "GOGC while admitting").
	admittingGCPercent = 100
)

// inputBytes is the size of the files -f names, a folder's .json, .yaml and
// .yml files included (and its sub-folders' with -R), as the loader lists
// them; 0 when standard input is among them, whose size is unknown until read.
// A path that cannot be read adds nothing: the loader reports it.
func inputBytes(names []string, recursive bool) int64 {
	var total int64
	for _, name := range names {
		if name == "-" {
			return 0
		}
		fi, err := os.Stat(name)
		if err != nil {
			continue
		}
		if !fi.IsDir() {
			total += fi.Size()
			continue
		}
		filepath.WalkDir(name, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if path != name && !recursive {
					return filepath.SkipDir
				}
				return nil
			}
			switch strings.ToLower(filepath.Ext(path)) {
			case ".yaml", ".yml", ".json":
				if fi, err := os.Stat(path); err == nil {
					total += fi.Size()
				}
			}
			return nil
		})
	}
	return total
}

// machineMemory is the memory this process may use: its cgroup's limit (v2,
// then v1) if one is set, else the machine's; 0 if none can be read.
func machineMemory() int64 {
	for _, f := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		if b, err := os.ReadFile(f); err == nil {
			if n, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64); err == nil && n > 0 && n < 1<<60 {
				return n
			}
		}
	}
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	return memTotal(f)
}

// memTotal reads MemTotal from /proc/meminfo (proc(5): "MemTotal: N kB").
func memTotal(r io.Reader) int64 {
	s := bufio.NewScanner(r)
	for s.Scan() {
		fields := strings.Fields(s.Text())
		if len(fields) == 3 && fields[0] == "MemTotal:" && fields[2] == "kB" {
			if kb, err := strconv.ParseInt(fields[1], 10, 64); err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// largeModel is the number of objects from which a collection before the
// analysis pays.
const largeModel = 50_000

// collectBeforeAnalysis collects the loader's garbage before a large analysis
// and reports whether it did.
func collectBeforeAnalysis(m *model.Model) bool {
	if collectingWhileAdmitting {
		defer func() { // the load is over (limitMemoryToInput)
			debug.SetGCPercent(gcPercent)
			collectingWhileAdmitting = false
		}()
	}
	if os.Getenv("GOGC") != "" || m.Len() < largeModel {
		return false
	}
	runtime.GC()
	return true
}
