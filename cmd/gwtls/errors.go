package gwtls

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/kubectl-gwtls/kubectl-gwtls/render"
)

// Exit codes (DESIGN.md "Output contracts").
const (
	ExitClean    = 0
	ExitFindings = 1
	ExitError    = 2
)

// usageError is a problem with the command line itself: a flag's value, a flag
// combination, an argument. Only these send the user to the command's help;
// every other error says what went wrong while doing the work.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

// usageErrorf formats a usage error; %w keeps the cause in the chain.
func usageErrorf(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// usageArgs makes an argument validator's error a usage error.
func usageArgs(args cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, a []string) error {
		if err := args(cmd, a); err != nil {
			return usageError{err}
		}
		return nil
	}
}

type loadError struct{ error }

func (e loadError) Unwrap() error { return e.error }

// findingsError is returned when findings reach --fail-on; its message is empty
// because the findings were already printed.
type findingsError struct{ count int }

func (e findingsError) Error() string {
	return fmt.Sprintf("%d findings at or above --fail-on", e.count)
}

// ExitCode maps an error from a command to the process exit code.
func ExitCode(err error) int {
	var fe findingsError
	switch {
	case err == nil:
		return ExitClean
	case errors.As(err, &fe):
		return ExitFindings
	default:
		return ExitError
	}
}

// Execute runs the command tree, prints an error the way kubectl does (a usage
// error points at the command's help) and returns the exit code.
func Execute(ctx context.Context, root *cobra.Command, errOut io.Writer) int {
	cmd, err := root.ExecuteContextC(ctx)
	code := ExitCode(err)
	if err == nil || code == ExitFindings {
		return code
	}
	// An error quotes what the user gave (a flag's value, a path), which a
	// terminal would obey.
	fmt.Fprintf(errOut, "error: %s\n", render.TerminalLines(err.Error()))
	if errors.As(err, new(usageError)) && cmd != nil {
		fmt.Fprintf(errOut, "See '%s -h' for help and examples\n", cmd.CommandPath())
	}
	return code
}
