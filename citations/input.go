package citations

import (
	"errors"
	"fmt"
	"io"

	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/citecheck/citecheck/internal/strictjson"
)

// InputError is a fault in an input file: File and Line (1-based; 0 for a
// whole-file fault) locate it, Field names the JSON key path at fault
// ("citations[1].page") when there is one.
type InputError = inputerr.Error

// Sentinel errors inside InputError, for callers that branch on the kind.
// All but ErrMissing are internal/strictjson's, so errors.Is finds them
// whichever package's reader refused the input.
var (
	ErrInvalidUTF8  = strictjson.ErrInvalidUTF8
	ErrDuplicateKey = strictjson.ErrDuplicateKey
	ErrUnknownKey   = strictjson.ErrUnknownKey
	ErrTooLarge     = strictjson.ErrTooLarge
	ErrMissing      = errors.New("missing")
	ErrInvalid      = strictjson.ErrValue
)

// MaxLineBytes caps one JSON Lines record: 8 MiB holds a run record with a
// whole long response, its citations and retrieval cards many times over,
// while a longer line is refused before it is decoded (input error naming
// file and line). MaxInputBytes caps a whole input file.
const (
	MaxLineBytes  = 8 << 20
	MaxInputBytes = 1 << 30
)

var lineLimits = strictjson.Limits{MaxBytes: MaxInputBytes, MaxLine: MaxLineBytes}

// eachObject reads JSON Lines strictly and calls fn with each record's
// line number, parsed tree and bytes, in file order. internal/strictjson
// refuses what encoding/json would let through (two equal keys, of which
// it keeps the last; keys equal under case folding, which it binds to one
// field; lone surrogate escapes; trailing data) and every key shape does
// not list (spelled: see strictjson.Shape.Check). A fault is an
// *InputError naming file, line and JSON path.
func eachObject(r io.Reader, file string, shape *strictjson.Shape, spelled map[string]string, fn func(n int, v *strictjson.Value, data []byte) error) error {
	return strictjson.EachLine(r, file, lineLimits, func(n int, data []byte) error {
		v, err := strictjson.Parse(data, "", strictjson.Limits{})
		var se *strictjson.Error
		switch {
		case err == nil:
			err = shape.Check(data, "", v, spelled)
		case errors.As(err, &se) && !errors.Is(se.Err, strictjson.ErrDuplicateKey):
			se.Err = fmt.Errorf("%w: %w", ErrInvalid, se.Err)
		}
		if errors.As(err, &se) {
			return &InputError{File: file, Line: n, Field: se.Path, Err: se.Err}
		}
		if err != nil {
			return &InputError{File: file, Line: n, Err: err}
		}
		return fn(n, v, data)
	})
}
