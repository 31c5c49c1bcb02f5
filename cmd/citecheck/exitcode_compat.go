package main

// Deprecated: the verb-chosen exit codes below predate exitCodeOf, which
// decides every code from the error itself (package sentinels and typed
// errors). They remain only for verbs not yet moved to it; exitCodeOf
// honours them. A verb returns the package's error (wrapped with %w) or
// usageErrorf instead. Delete this file once nothing uses it.

// exitError carries the exit code a verb chose.
//
// Deprecated: return the error; exitCodeOf decides.
type exitError struct {
	code   int
	err    error
	silent bool // the verb has already said what went wrong
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// inputError marks err as a fault in the user's input (exit 2).
//
// Deprecated: return err; exitCodeOf classifies the packages' input
// errors, and usageErrorf reports one the CLI finds itself.
func inputError(err error) error {
	return &exitError{code: exitUsage, err: err}
}
