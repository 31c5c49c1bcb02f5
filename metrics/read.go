package metrics

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
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
// result in file order. A line that is not valid UTF-8, longer than
// MaxResultBytes, not one JSON object, holds a duplicate or unknown key, a
// wrong type, lacks arm, session, question, attempt or kind, or holds a
// value the format does not have (an attempt status, an outcome, a
// verdict missing for its kind or present for the other) is an
// *inputerr.Error with file and line; so is a file with no result
// (ErrNoResults).
func ReadResults(r io.Reader, file string, fn func(*grade.Result) error) error {
	seen := 0
	err := strictjson.EachLine(r, file, strictjson.Limits{MaxLine: MaxResultBytes}, func(n int, line []byte) error {
		res, ferr := decodeResult(line)
		if ferr != nil {
			ferr.File, ferr.Line = file, n
			return ferr
		}
		seen++
		return fn(res)
	})
	if err != nil {
		return err
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
	if k := v.Missing("arm", "session", "question", "attempt", "kind"); k != "" {
		return nil, &inputerr.Error{Field: k, Err: fmt.Errorf("%w: missing", ErrResult)}
	}
	d := resultDecoder{TreeDecoder: strictjson.TreeDecoder{Data: data}}
	var r grade.Result
	d.result(v, &r)
	if path, err := d.fault(); err != nil {
		return nil, &inputerr.Error{Field: path, Err: err}
	}
	if ferr := checkResult(&r); ferr != nil {
		return nil, ferr
	}
	return &r, nil
}

// checkResult refuses values the format does not have, so that no result
// is miscounted: an unknown attempt status would be counted nowhere, an
// unknown outcome as unresolved.
func checkResult(r *grade.Result) *inputerr.Error {
	bad := func(field, format string, args ...any) *inputerr.Error {
		return &inputerr.Error{Field: field, Err: fmt.Errorf("%w: "+format, append([]any{ErrResult}, args...)...)}
	}
	switch r.Kind {
	case grade.KindAnswerable, grade.KindUnknown:
	default:
		return bad("kind", "%q (want answerable or unknown)", r.Kind)
	}
	switch r.Attempt {
	case grade.AttemptOK, grade.AttemptError, grade.AttemptTimeout, grade.AttemptInterrupted,
		grade.AttemptMissing, grade.AttemptDuplicate, grade.AttemptExtra:
	default:
		return bad("attempt", "%q (want ok, error, timeout, interrupted, missing, duplicate or extra)", r.Attempt)
	}
	verdicts := []struct {
		field string
		o     *grade.Outcome
		want  bool // present for this kind; absent (null) otherwise
	}{
		{"factual", r.Factual, r.Kind == grade.KindAnswerable},
		{"supported", r.Supported, r.Kind == grade.KindAnswerable},
		{"abstention", r.Abstention, r.Kind == grade.KindUnknown},
	}
	for _, v := range verdicts {
		switch {
		case v.want && v.o == nil:
			return bad(v.field, "missing: an %s question's result has one", r.Kind)
		case !v.want && v.o != nil:
			return bad(v.field, "%q: an %s question's result has none (null)", *v.o, r.Kind)
		case v.o != nil && !isOutcome(*v.o):
			return bad(v.field, "%q (want pass, fail or unresolved)", *v.o)
		}
	}
	for i, c := range r.Citations {
		k := slices.IndexFunc(grade.Reasons, func(x struct {
			Reason  grade.Reason
			Outcome grade.Outcome
		}) bool {
			return x.Reason == c.Reason
		})
		switch {
		case !isOutcome(c.Verdict):
			return bad(fmt.Sprintf("citations[%d].verdict", i), "%q (want pass, fail or unresolved)", c.Verdict)
		case k < 0:
			return bad(fmt.Sprintf("citations[%d].reason", i), "%q is no citation reason", c.Reason)
		case grade.Reasons[k].Outcome != c.Verdict:
			return bad(fmt.Sprintf("citations[%d]", i), "reason %s goes with verdict %s, not %s", c.Reason, grade.Reasons[k].Outcome, c.Verdict)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(r.Fields)) {
		switch v := r.Fields[name].Verdict; v {
		case grade.Correct, grade.Incorrect, grade.Unresolved:
		default:
			return bad("fields."+name+".verdict", "%q (want correct, incorrect or unresolved)", v)
		}
	}
	return nil
}

func isOutcome(o grade.Outcome) bool {
	return o == grade.Pass || o == grade.Fail || o == grade.Unresolved
}
