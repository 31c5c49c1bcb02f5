// Package strictjson parses untrusted JSON documents (the reference, the
// plan) into a tree that remembers where every value starts, and decodes
// that tree into Go values with errors that name the file, line, column and
// JSON path of the fault:
//
//	refs.json:41:17: questions[3].essential_claims[0].evidence[1].start: expected a non-negative integer, found string
//
// # Why not encoding/json alone
//
// encoding/json keeps the last of two duplicate keys, matches struct fields
// case-insensitively, replaces invalid UTF-8 and lone surrogate escapes with
// U+FFFD, and reports positions only as byte offsets without a path. Each of
// those would let a hand-edited gold file mean something other than what its
// author sees. Parse refuses them all: the input must be valid UTF-8 (a
// leading byte-order mark is skipped), an object may not hold two keys that
// are equal or equal under Unicode case folding, a \u escape must not be a
// lone surrogate, and the document must be exactly one JSON value (RFC 8259
// grammar) no deeper than Limits.MaxDepth and no longer than
// Limits.MaxBytes.
//
// # Units
//
// Offsets are byte offsets into the input. Lines are 1-based; columns are
// 1-based and count Unicode code points from the start of the line, the
// unit citecheck uses for every offset it reports, so a column matches
// what an editor shows for non-ASCII text. Paths are written key.key[index]
// from the root; the root itself has the empty path.
//
// # Failure classes
//
// Every fault is an *Error carrying File, Line, Col, Offset and Path, an
// input fault (inputerr.ErrInput); its Err wraps one of the sentinels
// (ErrSyntax, ErrInvalidUTF8, ErrDuplicateKey, ErrTooLarge, ErrTooDeep,
// ErrUnknownField, ErrUnknownKey, ErrType, ErrMissing, ErrValue) so callers
// can branch with errors.Is. They are the module's one set of JSON faults:
// the readers built on this package wrap them, and re-export none. Parse
// stops at the first fault; a Decoder collects up to MaxErrors faults so an
// author fixes a file in one round.
//
// # JSON Lines and hand-decoded records
//
// EachLine reads JSON Lines (runs, locate requests, results, typed
// answers) a bounded line at a time. Readers that fill their structs from
// the tree rather than through a Decoder (packages runs, citations,
// typedqa, and grade's results) list each object's keys in a Shape, whose
// Check refuses any other (ErrUnknownKey; a map's keys are data, its
// values of one Shape), read the lines with Objects.Each, test required
// keys with Value.Missing, and decode with a TreeDecoder, which words a
// type fault as encoding/json does.
//
// The package does not know any document format: the callers describe
// their fields to a Decoder or a Shape. It never prints.
package strictjson
