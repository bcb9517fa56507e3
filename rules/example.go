package rules

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"
)

// examples holds a minimal failing manifest per rule, named after the rule's
// anchor (examples/certificate-weakkey.yaml), and the files their flags name.
//
//go:embed examples
var examples embed.FS

// ExampleNow is the analysis time of every example (--now): their
// certificates are made to be expired, not yet valid or close to expiry then.
const ExampleNow = "2026-01-01T00:00:00Z"

// Example is a minimal manifest that makes a rule fire: the catalog prints it
// with what analyze reports on it, and a test runs each one through the engine
// and checks that it fires its rule and no other.
type Example struct {
	// Name is the example's file name in rules/examples.
	Name string
	// Manifest is its YAML, comments included.
	Manifest string
	// Flags are the analyze flags it needs besides -f and --now, from a
	// leading "# flags:" comment line.
	Flags []string
	// Files are the files beside it that Flags name (a --ca-bundle), by name.
	Files map[string][]byte
	// AlsoFires are the rules the example cannot help firing too, from its
	// "# also fires: RULE reason" comment lines: a condition that follows from
	// another finding (a Gateway is not accepted for its listeners only when
	// each listener has its own finding).
	AlsoFires []AlsoFires
}

// AlsoFires is a rule an example fires besides its own, and why it must.
type AlsoFires struct {
	Rule ID
	Why  string
}

// withoutExample are the rules no manifest can fire, and why.
var withoutExample = map[ID]string{
	"load/Unreadable": "It is raised only when reading a cluster, for a kind the identity may not list; no manifest raises it.",
	"annotation/wrong-kind": "The annotation sets the tool embeds document every key for every kind they cover (Gwin's: TLSRoute), " +
		"so no manifest reaches it today; it fires for a set whose keys apply to some of its kinds only.",
}

// Base is the file an example's --base flag names: a migration rule's example
// is the Gateway API head of `diff`, and this file beside it the Ingress base.
func (ex Example) Base() (string, bool) {
	for i, f := range ex.Flags {
		if f == "--base" && i+1 < len(ex.Flags) {
			return ex.Flags[i+1], true
		}
	}
	return "", false
}

// Example is the rule's minimal failing manifest. A rule without one (see
// WithoutExample) returns false.
func (r *Rule) Example() (Example, bool) {
	name := r.Anchor() + ".yaml"
	data, err := examples.ReadFile("examples/" + name)
	if err != nil {
		return Example{}, false
	}
	ex := Example{Name: name, Manifest: string(data)}
	for _, line := range strings.Split(ex.Manifest, "\n") {
		if !strings.HasPrefix(line, "#") {
			break
		}
		if rest, ok := strings.CutPrefix(line, "# flags:"); ok {
			ex.Flags = strings.Fields(rest)
		}
		if rest, ok := strings.CutPrefix(line, "# also fires:"); ok {
			id, why, _ := strings.Cut(strings.TrimSpace(rest), " ")
			ex.AlsoFires = append(ex.AlsoFires, AlsoFires{Rule: ID(id), Why: strings.TrimSpace(why)})
		}
	}
	for _, f := range ex.Flags {
		if file, err := examples.ReadFile("examples/" + f); err == nil {
			if ex.Files == nil {
				ex.Files = map[string][]byte{}
			}
			ex.Files[f] = file
		}
	}
	return ex, true
}

// WithoutExample says why the rule has no example; "" when it has one.
func (r *Rule) WithoutExample() string { return withoutExample[r.ID] }

// exampleNames lists the example files, for the test that each one belongs
// to a rule.
func exampleNames() ([]string, error) {
	entries, err := fs.ReadDir(examples, "examples")
	if err != nil {
		return nil, fmt.Errorf("rule examples: %w", err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out, nil
}
