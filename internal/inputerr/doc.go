// Package inputerr is the error of a fault in a user's input file (a run,
// a question bank, a reference): where it is, by file, 1-based line and the
// field or JSON key path at fault, and what it is, a wrapped cause that
// callers test with errors.Is. Line 0 means a fault of the whole file or of
// no single line; an empty Field means no field is at fault.
//
// List carries every fault one pass found, so that a user fixes a file in
// one round rather than one error per run; each message stays on its own
// line. The package never prints.
package inputerr
