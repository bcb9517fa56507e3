package gwtls

import (
	"errors"
	"fmt"
)

// Exit codes (DESIGN.md "Output contracts").
const (
	ExitClean    = 0
	ExitFindings = 1
	ExitError    = 2
)

type usageError struct{ error }

func usageErrorf(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

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
