package e2e

import (
	"strings"
	"testing"
)

// Every command's default (styled) output: ANSI colour with --color always, none
// with --color never, none with NO_COLOR=1 (auto), and none when stdout is not a
// terminal (auto, as here: the test captures stdout through a pipe).
func TestColorEveryCommand(t *testing.T) {
	const ansi = "\x1b["
	now := []string{"--now", "2026-01-01T00:00:00Z"}
	commands := map[string][]string{
		"analyze table":     {"analyze", "-f", "testdata/examples/shop"},
		"explain tree":      {"explain", "httproute/apex", "-n", "shop", "-f", "testdata/examples/shop"},
		"simulate table":    {"simulate", "-f", "testdata/examples/shop", "--all"},
		"render plan table": {"render", "plan", "-f", "testdata/examples/shop"},
		"diff table":        {"diff", "--base", "testdata/diff/takeover/base.yaml", "-f", "testdata/diff/takeover/head.yaml"},
	}
	for name, args := range commands {
		args := append(append([]string{}, args...), now...)
		t.Run(name, func(t *testing.T) {
			plain := gwtls(t, "", nil, args...)
			if plain.stdout == "" {
				t.Fatalf("no output: exit %d %s", plain.code, plain.stderr)
			}
			always := gwtls(t, "", nil, append(args, "--color", "always")...)
			if !strings.Contains(always.stdout, ansi) {
				t.Errorf("--color always: no ANSI escapes:\n%s", always.stdout)
			}
			if always.code != plain.code {
				t.Errorf("--color always changed the exit code: %d vs %d", always.code, plain.code)
			}
			for label, r := range map[string]result{
				"--color never":              gwtls(t, "", nil, append(args, "--color", "never")...),
				"NO_COLOR=1":                 gwtls(t, "", []string{"NO_COLOR=1"}, args...),
				"not a terminal (auto)":      plain,
				"NO_COLOR=1 --color never":   gwtls(t, "", []string{"NO_COLOR=1"}, append(args, "--color", "never")...),
				"--color=never (flag=value)": gwtls(t, "", nil, append(args, "--color=never")...),
			} {
				if strings.Contains(r.stdout, ansi) || strings.Contains(r.stderr, ansi) {
					t.Errorf("%s: ANSI escapes in output:\n%q", label, r.stdout)
				}
				if r.stdout != plain.stdout {
					t.Errorf("%s: output differs from the uncoloured default", label)
				}
			}
			if bad := gwtls(t, "", nil, append(args, "--color", "sometimes")...); bad.code != 2 {
				t.Errorf("--color sometimes: exit %d, want 2", bad.code)
			}
		})
	}
}
