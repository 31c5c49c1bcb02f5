// Package inputerr is the error of a fault in a user's input file (a run,
// a question bank, a reference): where it is, by file, 1-based line and the
// field or JSON key path at fault, and what it is, a wrapped cause that
// callers test with errors.Is. Line 0 means a fault of the whole file or of
// no single line; an empty Field means no field is at fault.
//
// List carries every fault one pass found, so that a user fixes a file in
// one round rather than one error per run; each message stays on its own
// line.
//
// ErrInput is the one kind of input fault. A located fault is one by its
// type: an *Error, and the located types of other packages, whose Is
// method reports ErrInput (strictjson.Error, ingest.ImportError); the
// causes inside them are plain sentinels. A sentinel a package returns
// outside a located fault (a folder that is no corpus, an arm the plan
// lacks) is made with New, and is one too. A caller that asks whether a
// fault is the user's (the CLI, for exit status 2) tests errors.Is(err,
// ErrInput) and needs to know no package's names. The package never
// prints.
package inputerr
