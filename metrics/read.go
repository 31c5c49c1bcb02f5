package metrics

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/citecheck/citecheck/internal/strictjson"
)

// MaxResultBytes caps one line of results.jsonl (a result holds a whole
// response and its citations).
const MaxResultBytes = 32 << 20

// Sentinels inside the *inputerr.Error ReadResults returns.
var (
	ErrNoResults = errors.New("no results")
	ErrResult    = errors.New("invalid result")
)

// ReadResults reads results.jsonl (docs/results.md) and calls fn with each
// result in file order. A line that is not valid UTF-8, not one JSON
// object, holds a duplicate or unknown key, a wrong type, or lacks arm,
// session, question, attempt or kind is an *inputerr.Error with file and
// line; so is a file with no result (ErrNoResults).
func ReadResults(r io.Reader, file string, fn func(*grade.Result) error) error {
	br := bufio.NewReaderSize(r, 1<<16)
	n, seen := 0, 0
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			n++
			if len(line) > MaxResultBytes {
				return &inputerr.Error{File: file, Line: n, Err: fmt.Errorf("%w: a line longer than %d bytes", ErrResult, MaxResultBytes)}
			}
			if t := bytes.TrimSpace(line); len(t) > 0 {
				res, ferr := decodeResult(t)
				if ferr != nil {
					ferr.File, ferr.Line = file, n
					return ferr
				}
				seen++
				if err := fn(res); err != nil {
					return err
				}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return &inputerr.Error{File: file, Line: n, Err: err}
		}
	}
	if seen == 0 {
		return &inputerr.Error{File: file, Err: fmt.Errorf("%w in %s", ErrNoResults, file)}
	}
	return nil
}

func decodeResult(data []byte) (*grade.Result, *inputerr.Error) {
	if !utf8.Valid(data) {
		return nil, &inputerr.Error{Err: fmt.Errorf("%w: invalid UTF-8", ErrResult)}
	}
	v, err := strictjson.Parse(data, "", strictjson.Limits{})
	if err != nil {
		var se *strictjson.Error
		if errors.As(err, &se) {
			return nil, &inputerr.Error{Field: se.Path, Err: fmt.Errorf("%w: %w", ErrResult, se.Err)}
		}
		return nil, &inputerr.Error{Err: fmt.Errorf("%w: %w", ErrResult, err)}
	}
	if v.Kind != strictjson.Object {
		return nil, &inputerr.Error{Err: fmt.Errorf("%w: not a JSON object", ErrResult)}
	}
	for _, k := range []string{"arm", "session", "question", "attempt", "kind"} {
		if v.Get(k) == nil {
			return nil, &inputerr.Error{Field: k, Err: fmt.Errorf("%w: missing", ErrResult)}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r grade.Result
	if err := dec.Decode(&r); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, &inputerr.Error{Field: te.Field, Err: fmt.Errorf("%w: expected %s, found JSON %s", ErrResult, te.Type, te.Value)}
		}
		return nil, &inputerr.Error{Err: fmt.Errorf("%w: %s", ErrResult, err)}
	}
	switch r.Kind {
	case grade.KindAnswerable, grade.KindUnknown:
	default:
		return nil, &inputerr.Error{Field: "kind", Err: fmt.Errorf("%w: %q", ErrResult, r.Kind)}
	}
	return &r, nil
}
