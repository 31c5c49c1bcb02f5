package typedqa

import (
	"errors"
	"fmt"

	"github.com/citecheck/citecheck/internal/inputerr"
)

// InputError is a fault in one of the user's input files. Line is 1-based
// and 0 when the fault is not on one line (a missing row, a whole-file
// problem); Field names the column or JSON key when one is at fault.
type InputError = inputerr.Error

// InputErrors is every fault found in one pass over an input, in file order,
// so that a user fixes a file in one round rather than one error per run.
// At most maxReportedErrors are kept; Omitted counts the rest.
type InputErrors = inputerr.List[*InputError]

// maxReportedErrors bounds the error list: a wholly wrong file would
// otherwise produce one message per row.
const maxReportedErrors = 20

// errorList collects InputErrors in the order they are found.
type errorList struct {
	errs    []*InputError
	omitted int
}

func (l *errorList) add(file string, line int, field string, err error) {
	if len(l.errs) >= maxReportedErrors {
		l.omitted++
		return
	}
	l.errs = append(l.errs, &InputError{File: file, Line: line, Field: field, Err: err})
}

func (l *errorList) addf(file string, line int, field, format string, args ...any) {
	l.add(file, line, field, fmt.Errorf(format, args...))
}

func (l *errorList) full() bool { return len(l.errs) >= maxReportedErrors }

func (l *errorList) err() error {
	if len(l.errs) == 0 {
		return nil
	}
	if len(l.errs) == 1 && l.omitted == 0 {
		return l.errs[0]
	}
	return &InputErrors{Errs: l.errs, Omitted: l.omitted}
}

// Sentinel causes of the faults the typed inputs have beside those of
// the strict-JSON layer (internal/strictjson's, which every reader shares).
var (
	ErrDuplicateRow  = errors.New("duplicate row")
	ErrUnknownID     = errors.New("unknown question id")
	ErrMissingRow    = errors.New("missing row")
	ErrInconsistency = errors.New("inconsistent ground truth")
)
