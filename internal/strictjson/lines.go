package strictjson

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/citecheck/citecheck/internal/inputerr"
)

// EachLine calls fn with every non-blank line of a JSON Lines input, its
// 1-based number and its bytes without the line ending, in file order; it
// stops at fn's first error and returns it. A line is checked before fn
// sees it: longer than lim.MaxLine bytes (refused as soon as that many are
// read, never held whole), past lim.MaxBytes of input (when not 0), not
// valid UTF-8, or unreadable, it is an *inputerr.Error with file and line
// wrapping ErrTooLarge, ErrInvalidUTF8 or the read error. A leading
// byte-order mark is dropped. An empty input calls fn never and returns
// nil: whether that is an error is the caller's to say. Each line's data
// is a slice of its own, never reused for a later line, so that a record
// may keep bytes of its line (a retrieval card, a vendor's native citation)
// after fn returns. lim.MaxDepth is Parse's, not EachLine's.
func EachLine(r io.Reader, file string, lim Limits, fn func(line int, data []byte) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	total := 0
	for n := 1; ; n++ {
		// A new slice per line: a reused buffer let one record's retained
		// bytes be overwritten by the next line's.
		var line []byte
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			line = append(line, chunk...)
			if len(bytes.TrimRight(line, "\r\n")) > lim.MaxLine {
				return &inputerr.Error{File: file, Line: n, Err: fmt.Errorf("%w: a line longer than %d bytes", ErrTooLarge, lim.MaxLine)}
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
		}
		if total += len(line); lim.MaxBytes > 0 && total > lim.MaxBytes {
			return &inputerr.Error{File: file, Line: n, Err: fmt.Errorf("%w: more than %d bytes", ErrTooLarge, lim.MaxBytes)}
		}
		if err != nil && err != io.EOF {
			return &inputerr.Error{File: file, Line: n, Err: fmt.Errorf("read: %w", err)}
		}
		data := bytes.TrimRight(line, "\r\n")
		if n == 1 {
			data = bytes.TrimPrefix(data, []byte("\uFEFF"))
		}
		if !utf8.Valid(data) {
			return &inputerr.Error{File: file, Line: n, Err: fmt.Errorf("%w at byte %d of the line", ErrInvalidUTF8, inputerr.InvalidUTF8(data)+1)}
		}
		if len(bytes.TrimSpace(data)) > 0 {
			if ferr := fn(n, data); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

// Objects describes a JSON Lines input of objects: the bounds of its lines
// (Limits), the keys its objects may hold (Shape) and, in their free
// values, the one spelling of each key a reader binds without regard to
// case (Spelled, as Shape.Check takes it; may be nil). It is a value so
// that a reader states its format once, apart from the file it reads.
type Objects struct {
	Limits  Limits
	Shape   *Shape
	Spelled map[string]string
	// UserData names the keys, in a free value, whose values are their
	// writer's own and not held to Spelled (Shape.CheckUserData).
	UserData map[string]bool
	// Explain, when set, may replace a line's fault (a parse, shape or fn
	// fault) with one that says more of what the line is: a reader that
	// knows its format can tell a line of another format from a bad one.
	Explain func(data []byte, fault *inputerr.Error) error
}

// Each reads JSON Lines of objects strictly (EachLine's checks, then Parse
// and Shape.Check) and calls fn with each record's line number, parsed
// tree and bytes, in file order. It refuses what encoding/json would let
// through: two equal keys, of which it keeps the last; keys equal under
// case folding, which it binds to one field; lone surrogate escapes;
// trailing data; and every key the shape does not list. A fault is an
// *inputerr.Error naming file, line and JSON path; a parse fault other
// than a duplicate key also wraps ErrValue.
func (o Objects) Each(r io.Reader, file string, fn func(n int, v *Value, data []byte) error) error {
	return EachLine(r, file, o.Limits, func(n int, data []byte) error {
		err := o.line(file, n, data, fn)
		var fault *inputerr.Error
		if err != nil && o.Explain != nil && errors.As(err, &fault) && fault.Line == n {
			return o.Explain(data, fault)
		}
		return err
	})
}

func (o Objects) line(file string, n int, data []byte, fn func(n int, v *Value, data []byte) error) error {
	v, err := Parse(data, "", Limits{})
	var se *Error
	switch {
	case err == nil:
		err = o.Shape.CheckUserData(data, "", v, o.Spelled, o.UserData)
	case errors.As(err, &se) && !errors.Is(se.Err, ErrDuplicateKey):
		se.Err = fmt.Errorf("%w: %w", ErrValue, se.Err)
	}
	if errors.As(err, &se) {
		return &inputerr.Error{File: file, Line: n, Field: se.Path, Err: se.Err}
	}
	if err != nil {
		return &inputerr.Error{File: file, Line: n, Err: err}
	}
	return fn(n, v, data)
}
