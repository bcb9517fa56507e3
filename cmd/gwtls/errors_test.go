package gwtls

import (
	"bytes"
	"errors"
	"io/fs"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// execute runs the command tree in-process and returns its error.
func execute(args ...string) error {
	var out bytes.Buffer
	root := NewRootCmd(genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &out})
	root.SetArgs(args)
	root.SetOut(&out)
	root.SetErr(&out)
	return root.Execute()
}

// TestUsageErrorsAreFlagProblems: a flag or argument the command cannot use is a
// usage error (exit 2, pointing at the command's help); a failure while doing
// the work is not, and keeps its cause in the chain.
func TestUsageErrorsAreFlagProblems(t *testing.T) {
	const shop = "../../testdata/examples/shop"
	for _, c := range []struct {
		name  string
		args  []string
		usage bool
		cause error
	}{
		{"an unknown flag", []string{"analyze", "--bogus"}, true, nil},
		{"an unknown output format", []string{"analyze", "-f", shop, "-o", "bogus"}, true, nil},
		{"an argument where none is taken", []string{"simulate", "extra", "-f", shop, "--all"}, true, nil},
		{"explain without KIND/NAME", []string{"explain", "-f", shop}, true, nil},
		{"explain with an unknown kind", []string{"explain", "pod/x", "-f", shop}, true, nil},
		{"a --ca-bundle that does not exist", []string{"analyze", "-f", shop, "--ca-bundle", "/nonexistent/ca.pem"}, true, fs.ErrNotExist},
		{"a completion for an unknown shell", []string{"completion", "tcsh"}, true, nil},
		{"a file that does not exist", []string{"analyze", "-f", "/nonexistent/manifests.yaml"}, false, fs.ErrNotExist},
		{"an object that is not in the input", []string{"explain", "httproute/nope", "-n", "shop", "-f", shop}, false, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := execute(c.args...)
			if ExitCode(err) != ExitError {
				t.Fatalf("exit %d (%v), want %d", ExitCode(err), err, ExitError)
			}
			if got := errors.As(err, new(usageError)); got != c.usage {
				t.Errorf("usage error = %v, want %v: %v", got, c.usage, err)
			}
			if c.cause != nil && !errors.Is(err, c.cause) {
				t.Errorf("%v does not wrap %v", err, c.cause)
			}
		})
	}
}

// TestUsageErrorPointsAtHelp: as kubectl does, a usage error is followed by
// where to read the command's help; other errors are not.
func TestUsageErrorPointsAtHelp(t *testing.T) {
	_, stderr, code := run(t, "", "analyze", "-o", "bogus")
	if code != ExitError || !strings.Contains(stderr, `error: --output "bogus"`) || !strings.Contains(stderr, " analyze -h' for help and examples") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = run(t, "", "analyze", "-f", "/nonexistent/manifests.yaml")
	if code != ExitError || strings.Contains(stderr, "for help") {
		t.Errorf("a load error points at the help: exit %d, stderr %q", code, stderr)
	}
}
