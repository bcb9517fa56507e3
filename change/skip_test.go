package change_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/change"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
)

// Compare decides only the requests whose inputs differ between the sides
// (serving.SameDecision); CompareAll decides every one. These tests hold the
// first to the second: a skipped request whose inputs did change would lose
// its change, and the two diffs would differ.

// sameAsAll fails the test when Compare and CompareAll differ on two Results,
// and returns how many hostname entries the diff has.
func sameAsAll(t *testing.T, what string, base, head *analyze.Result) int {
	t.Helper()
	return len(sameDiffAsAll(t, what, base, head).Hostnames)
}

// sameDiffAsAll is sameAsAll returning Compare's diff.
func sameDiffAsAll(t *testing.T, what string, base, head *analyze.Result) *change.Diff {
	t.Helper()
	opts := change.Options{Now: now, WarnExpiry: warnExpiry}
	all, err := json.Marshal(change.CompareAll(base, head, opts))
	if err != nil {
		t.Fatal(err)
	}
	d := change.Compare(base, head, opts)
	got, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, all) {
		t.Errorf("%s: Compare differs from CompareAll:\n  Compare:    %.2000s\n  CompareAll: %.2000s", what, got, all)
	}
	return d
}

// analyzeYAML loads and analyzes a configuration, nil when it does not load.
func analyzeYAML(t *testing.T, dir string, data []byte, shared *load.Shared) *analyze.Result {
	t.Helper()
	f, err := os.CreateTemp(dir, "*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	m, err := load.Files(load.FileOptions{Filenames: []string{f.Name()}, Shared: shared})
	if err != nil {
		return nil
	}
	return analyze.Analyze(m, analyze.Options{Now: now})
}

// diffCases are the base and head files of every case of testdata/diff.
func diffCases(t *testing.T) (names []string, bases, heads [][]byte) {
	t.Helper()
	dirs, err := filepath.Glob("../testdata/diff/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		b, errB := os.ReadFile(filepath.Join(d, "base.yaml"))
		h, errH := os.ReadFile(filepath.Join(d, "head.yaml"))
		if errB != nil || errH != nil {
			continue
		}
		names, bases, heads = append(names, filepath.Base(d)), append(bases, b), append(heads, h)
	}
	if len(names) < 40 {
		t.Fatalf("%d diff cases, want the 45 of testdata/diff", len(names))
	}
	return names, bases, heads
}

// Every case of testdata/diff, each side against itself, and pairs of
// unrelated cases, loaded with one load.Shared as diff loads them: Compare is
// CompareAll.
func TestCompareSkipsOnlyWhatCannotDiffer(t *testing.T) {
	dir := t.TempDir()
	names, bases, heads := diffCases(t)
	changed := 0
	for i, name := range names {
		shared := load.NewShared()
		base, head := analyzeYAML(t, dir, bases[i], shared), analyzeYAML(t, dir, heads[i], shared)
		if base == nil || head == nil {
			continue
		}
		if sameAsAll(t, name, base, head) > 0 {
			changed++
		}
		sameAsAll(t, name+" base against itself", base, base)
		sameAsAll(t, name+" head against base", head, base)
	}
	if changed < 10 {
		t.Fatalf("only %d cases have hostname changes: the test proves little", changed)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 40 {
		i, j := r.IntN(len(names)), r.IntN(len(names))
		base, head := analyzeYAML(t, dir, bases[i], nil), analyzeYAML(t, dir, heads[j], nil)
		if base != nil && head != nil {
			sameAsAll(t, names[i]+" base against "+names[j]+" head", base, head)
		}
	}
}

// A mutation rewrites one input that a request's decision reads.
type mutation struct {
	name string
	re   *regexp.Regexp
	with func(m []string) string
}

var mutations = []mutation{
	{"listener hostname", regexp.MustCompile(`(\n    hostname: "?)([^"\n]+)`), func(m []string) string { return m[1] + "x" + m[2] }},
	{"listener hostname removed", regexp.MustCompile(`\n    hostname: [^\n]+`), func([]string) string { return "" }},
	{"listener port", regexp.MustCompile(`(\n    port: )(\d+)`), func(m []string) string { return m[1] + "1" + m[2] }},
	{"listener protocol HTTPS to TLS", regexp.MustCompile(`(protocol: )HTTPS`), func(m []string) string { return m[1] + "TLS" }},
	{"listener protocol HTTP to HTTPS", regexp.MustCompile(`(protocol: )HTTP\n`), func(m []string) string { return m[1] + "HTTPS\n" }},
	{"TLS mode", regexp.MustCompile(`(mode: )(Terminate|Passthrough)`), func(m []string) string {
		if m[2] == "Terminate" {
			return m[1] + "Passthrough"
		}
		return m[1] + "Terminate"
	}},
	{"certificate ref", regexp.MustCompile(`(certificateRefs:\n\s+- name: )(\S+)`), func(m []string) string { return m[1] + m[2] + "-other" }},
	{"listener name", regexp.MustCompile(`(\n  - name: )(\S+)(\n    port:)`), func(m []string) string { return m[1] + m[2] + "x" + m[3] }},
	{"route hostname", regexp.MustCompile(`(hostnames:\n  - "?)`), func(m []string) string { return m[1] + "moved-" }},
	{"route hostname wildcard", regexp.MustCompile(`(hostnames:\n  - )"?[a-z0-9-]+\.([^"\n]+)"?`), func(m []string) string { return m[1] + `"*.` + m[2] + `"` }},
	{"route hostnames removed", regexp.MustCompile(`\n  hostnames:\n(  - [^\n]+\n)+`), func([]string) string { return "\n" }},
	{"parentRef name", regexp.MustCompile(`(parentRefs:\n  - name: )(\S+)`), func(m []string) string { return m[1] + m[2] + "x" }},
	{"parentRef sectionName", regexp.MustCompile(`(\n    sectionName: )(\S+)`), func(m []string) string { return m[1] + m[2] + "x" }},
	{"backend port", regexp.MustCompile(`(\n      port: )(\d+)`), func(m []string) string { return m[1] + "1" + m[2] }},
	{"backend name", regexp.MustCompile(`(backendRefs:\n    - name: )(\S+)`), func(m []string) string { return m[1] + m[2] + "x" }},
	{"backend weight", regexp.MustCompile(`(\n      port: \d+)`), func(m []string) string { return m[1] + "\n      weight: 7" }},
	{"backend weight changed", regexp.MustCompile(`(weight: )(\d+)`), func(m []string) string {
		n, _ := strconv.Atoi(m[2])
		return m[1] + strconv.Itoa(n+1)
	}},
	{"Service port", regexp.MustCompile(`(\n  - port: )(\d+)`), func(m []string) string { return m[1] + "2" + m[2] }},
	{"ReferenceGrant from namespace", regexp.MustCompile(`(kind: ReferenceGrant[\s\S]*?from:[\s\S]*?namespace: )(\S+)`), func(m []string) string { return m[1] + m[2] + "x" }},
	{"BackendTLSPolicy hostname", regexp.MustCompile(`(kind: BackendTLSPolicy[\s\S]*?\n    hostname: )(\S+)`), func(m []string) string { return m[1] + "z" + m[2] }},
	{"BackendTLSPolicy target", regexp.MustCompile(`(kind: BackendTLSPolicy[\s\S]*?targetRefs:[\s\S]*?name: )(\S+)`), func(m []string) string { return m[1] + m[2] + "x" }},
	{"creation timestamp", regexp.MustCompile(`(\nmetadata:\n)`), func(m []string) string { return m[1] + "  creationTimestamp: \"2020-01-01T00:00:00Z\"\n" }},
	{"route creation timestamp", regexp.MustCompile(`(\nkind: (?:HTTP|GRPC|TLS)Route\nmetadata:\n)`), func(m []string) string { return m[1] + "  creationTimestamp: \"2020-01-01T00:00:00Z\"\n" }},
	{"gatewayClassName", regexp.MustCompile(`(gatewayClassName: )(\S+)`), func(m []string) string { return m[1] + m[2] + "x" }},
	{"Secret data", regexp.MustCompile(`(tls.crt: )(\S+)`), func(m []string) string { return m[1] + "bm90IGEgY2VydGlmaWNhdGU=" }},
	{"allowedRoutes", regexp.MustCompile(`(from: )All`), func(m []string) string { return m[1] + "Same" }},
	{"Gateway address", regexp.MustCompile(`(\n    value: \d+\.\d+\.\d+\.)(\d+)`), func(m []string) string { return m[1] + "1" + m[2] }},
	{"Gateway address type", regexp.MustCompile(`(- type: )IPAddress`), func(m []string) string { return m[1] + "Hostname" }},
}

// planMutations are the mutations that must change the DNS or certificate
// plan somewhere, so that the plans' comparison is held to CompareAll's too.
var planMutations = []string{"listener hostname", "route hostname", "route hostnames removed", "certificate ref", "listener name", "Gateway address", "Gateway address type"}

// mutate applies a mutation to its nth match in data; false when there is none.
func mutate(data []byte, mu mutation, n int) ([]byte, bool) {
	locs := mu.re.FindAllSubmatchIndex(data, -1)
	if n >= len(locs) {
		return nil, false
	}
	loc := locs[n]
	groups := make([]string, len(loc)/2)
	for i := range groups {
		if loc[2*i] >= 0 {
			groups[i] = string(data[loc[2*i]:loc[2*i+1]])
		}
	}
	out := append([]byte{}, data[:loc[0]]...)
	out = append(out, mu.with(groups)...)
	return append(out, data[loc[1]:]...), true
}

// Each kind of input a request's decision reads, changed in turn at each of
// its first places in every case of testdata/diff and the golden inputs that
// hold ReferenceGrants, BackendTLSPolicies, ListenerSets, TLSRoutes and
// GRPCRoutes (and each document removed in turn), compared both ways with the
// unchanged file: Compare is CompareAll, and every kind of change shows in the
// hostnames of some diff, so that a change the skipping hid would show as a
// difference.
func TestCompareSkipsNoMutatedInput(t *testing.T) {
	dir := t.TempDir()
	names, bases, heads := diffCases(t)
	inputs := map[string][][]byte{}
	for i, name := range names {
		inputs[name] = [][]byte{bases[i], heads[i]}
	}
	golden, err := filepath.Glob("../testdata/golden/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	kinds := regexp.MustCompile(`\nkind: (ReferenceGrant|BackendTLSPolicy|X?ListenerSet|TLSRoute|GRPCRoute)\n`)
	for _, g := range golden {
		data, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		if kinds.Match(data) {
			name := "golden/" + filepath.Base(g)
			names, inputs[name] = append(names, name), [][]byte{data}
		}
	}
	seen, seenPlan := map[string]bool{}, map[string]bool{}
	for _, name := range names {
		for _, orig := range inputs[name] {
			shared := load.NewShared()
			o := analyzeYAML(t, dir, orig, shared)
			if o == nil {
				continue
			}
			check := func(what string, mutated []byte) {
				m := analyzeYAML(t, dir, mutated, shared)
				if m == nil {
					return
				}
				what = fmt.Sprintf("%s: %s", name, what)
				d, r := sameDiffAsAll(t, what, o, m), sameDiffAsAll(t, what+" (reversed)", m, o)
				if len(d.Hostnames)+len(r.Hostnames) > 0 {
					seen[what[len(name)+2:]] = true
				}
				if len(d.DNS)+len(d.Certificates)+len(r.DNS)+len(r.Certificates) > 0 {
					seenPlan[what[len(name)+2:]] = true
				}
			}
			for _, mu := range mutations {
				for n := range 3 {
					mutated, ok := mutate(orig, mu, n)
					if !ok {
						break
					}
					check(mu.name+" #"+strconv.Itoa(n), mutated)
				}
			}
			docs := bytes.Split(orig, []byte("\n---\n"))
			for k := range docs {
				rest := append(append([][]byte{}, docs[:k]...), docs[k+1:]...)
				check("document removed", bytes.Join(rest, []byte("\n---\n")))
			}
		}
	}
	// The kinds of input that must change some hostname's serving somewhere.
	for _, mu := range mutations {
		if mu.name == "allowedRoutes" || mu.name == "creation timestamp" || mu.name == "gatewayClassName" {
			continue // may change none in these cases; compared all the same
		}
		if mu.name == "Gateway address" || mu.name == "Gateway address type" {
			continue // the plans' records (planMutations), not a request's serving
		}
		if !seen[mu.name+" #0"] && !seen[mu.name+" #1"] && !seen[mu.name+" #2"] {
			t.Errorf("mutation %q changed no hostname's serving in any case: it tests nothing", mu.name)
		}
	}
	for _, mu := range planMutations {
		if !seenPlan[mu+" #0"] && !seenPlan[mu+" #1"] && !seenPlan[mu+" #2"] {
			t.Errorf("mutation %q changed no DNS record or certificate name in any case: the plans' comparison is not tested by it", mu)
		}
	}
	if !seen["document removed"] {
		t.Error("removing a document changed no hostname's serving in any case")
	}
}

// The generated configuration against its mutated copy (generate.Mutated),
// loaded with one load.Shared as diff loads them, and against itself
// analyzed again: Compare is CompareAll.
func TestCompareSkipsGenerated(t *testing.T) {
	base, head := generated(t)
	if sameAsAll(t, "1k against its mutated copy", base, head) == 0 {
		t.Fatal("the mutated copy changes no hostname: the test proves nothing")
	}
	sameAsAll(t, "1k mutated copy against the 1k", head, base)
	again := analyze.Analyze(base.Model, analyze.Options{Now: now})
	sameAsAll(t, "1k against itself", base, again)
}
