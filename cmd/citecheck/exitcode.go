package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/freeze"
	"github.com/citecheck/citecheck/internal/inputerr"
)

// Exit codes of the CLI contract, the same for every verb (docs/cli.md).
const (
	exitOK        = 0 // ran, and every check passed
	exitFailed    = 1 // ran, and something failed or is unresolved
	exitUsage     = 2 // usage or input error: the message names the flag or the file
	exitIntegrity = 3 // integrity refusal: what was pinned or hashed changed
	exitInternal  = 4 // internal error: a bug in citecheck
)

// Outcomes a verb returns once it has said everything itself: exitCode
// prints nothing for them.
var (
	// errHelp: --help was printed; not an error for the user (exit 0).
	errHelp = errors.New("help shown")
	// errChecksFailed: the verb ran to the end and reported what failed or
	// is unresolved (exit 1).
	errChecksFailed = errors.New("some checks failed")
	// errRefused: the verb printed a verification report naming every
	// pinned input that changed (exit 3).
	errRefused = errors.New("integrity refusal")
)

// usageError is bad usage, or bad input, that the CLI itself finds: a
// missing or unknown flag, a wrong number of arguments, flags that do not
// go together, a document or page a corpus does not have. It is an input
// fault (inputerr.ErrInput), as the packages' are.
type usageError struct{ msg string }

func (e *usageError) Error() string        { return e.msg }
func (e *usageError) Is(target error) bool { return target == inputerr.ErrInput }

func usageErrorf(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// noRecordsError is an input that holds no records (nothing, or blank
// lines only, or a header without rows): grading or locating nothing is
// not "every check passed".
type noRecordsError struct{ file string }

func (e *noRecordsError) Error() string        { return "no records in " + e.file }
func (e *noRecordsError) Is(target error) bool { return target == inputerr.ErrInput }

// noRecords returns the error for the input file (stdin for "-") that
// holds no records.
func noRecords(file string) error {
	if file == "-" {
		file = "stdin"
	}
	return &noRecordsError{file: file}
}

// childExit is the exit code of the hidden extraction child
// (pdftext.ChildMain), which has written its own answer.
type childExit int

func (c childExit) Error() string { return fmt.Sprintf("extraction child exited %d", int(c)) }

// integrityErrors are the sentinels of an integrity refusal (exit 3):
// something pinned by a lock or hashed in a corpus manifest no longer
// matches. They are checked before the input errors, since a changed
// input often also carries the file error that revealed it (a missing
// page text is corpus.ErrIntegrity and fs.ErrNotExist).
var integrityErrors = []error{
	errRefused,
	corpus.ErrIntegrity,   // a stored page text, alternative text or glyph-box file changed or vanished
	freeze.ErrChanged,     // a pinned input changed since freeze
	freeze.ErrMalformed,   // the lock was damaged or edited
	freeze.ErrStaleCorpus, // freeze: the corpus no longer matches its PDFs or page folders
}

// fileErrors are the sentinels of a file operation on a path the user
// named (missing, unreadable, in the way of one to create) and of an
// interruption (Ctrl-C): usage or input errors (exit 2) that no package
// of the project makes.
var fileErrors = []error{fs.ErrNotExist, fs.ErrPermission, fs.ErrExist, context.Canceled}

// exitCodeOf is the one map from what a verb returned to the exit status
// (docs/cli.md); verbs return errors and never choose a code. In order:
//
//   - nil, or errHelp: 0.
//   - childExit: its own code (the hidden extraction child).
//   - errChecksFailed, freeze.ErrReferenceInvalid: 1, the verb ran and
//     reported what failed.
//   - integrityErrors (errRefused, corpus.ErrIntegrity, freeze.ErrChanged,
//     freeze.ErrMalformed, freeze.ErrStaleCorpus): 3.
//   - an input fault (isInputFault): 2.
//   - anything else: 4, a bug in citecheck.
func exitCodeOf(err error) int {
	var child childExit
	switch {
	case err == nil, errors.Is(err, errHelp):
		return exitOK
	case errors.As(err, &child):
		return int(child)
	case errors.Is(err, errChecksFailed), errors.Is(err, freeze.ErrReferenceInvalid):
		return exitFailed
	case isAny(err, integrityErrors):
		return exitIntegrity
	case isInputFault(err):
		return exitUsage
	}
	return exitInternal
}

// isInputFault reports whether err is a fault of the user's usage or
// inputs rather than of citecheck: one kind, inputerr.ErrInput, which the
// packages' located errors and input sentinels and the CLI's own usage
// errors are; or a file operation that failed on a path the user named
// (fileErrors, *fs.PathError, *os.LinkError, *os.SyscallError: missing,
// unreadable, a folder where a file is wanted or the reverse, no space
// left).
func isInputFault(err error) bool {
	var (
		path    *fs.PathError
		link    *os.LinkError
		syscall *os.SyscallError
	)
	return errors.Is(err, inputerr.ErrInput) || isAny(err, fileErrors) ||
		errors.As(err, &path) || errors.As(err, &link) || errors.As(err, &syscall)
}

func isAny(err error, targets []error) bool {
	for _, t := range targets {
		if errors.Is(err, t) {
			return true
		}
	}
	return false
}

// said reports whether the verb has already told the user everything err
// stands for.
func said(err error) bool {
	var child childExit
	return errors.Is(err, errHelp) || errors.Is(err, errChecksFailed) || errors.Is(err, errRefused) || errors.As(err, &child)
}

// exitCode prints err to stderr (unless the verb has said it) and returns
// the exit status exitCodeOf gives.
func exitCode(stderr io.Writer, err error) int {
	code := exitCodeOf(err)
	switch {
	case err == nil || said(err) || code == exitOK:
	case code == exitInternal:
		fmt.Fprintf(stderr, "citecheck: internal error: %v\n", err)
	default:
		fmt.Fprintf(stderr, "citecheck: %v\n", err)
	}
	return code
}
