package metrics

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
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
	// ErrCountedTwice: one planned attempt in two results (ReadFiles).
	ErrCountedTwice = errors.New("a planned attempt is in two results")
)

// ResultsName is the file "citecheck grade" writes in its output folder.
const ResultsName = "results.jsonl"

// ReadFiles reads the results of one evaluation from several inputs, each
// a folder holding results.jsonl (as "citecheck grade --out" writes it) or
// a results file, in order, and returns them in that order. Every planned
// attempt (arm, session and question of a result whose attempt is not
// duplicate or extra) must be in one result only: one that is in two, in
// two inputs (the same arm graded twice, in two folders reported
// together) or twice in one, is an *inputerr.Error at the second naming
// the first, wrapping ErrCountedTwice, since counting it twice would
// change every figure without a word.
func ReadFiles(paths []string) ([]grade.Result, error) {
	type where struct {
		file string
		line int
	}
	var out []grade.Result
	first := map[planned]where{}
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			p = filepath.Join(p, ResultsName)
		}
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		err = ReadResults(f, p, func(n int, r *grade.Result) error {
			if r.Attempt != grade.AttemptDuplicate && r.Attempt != grade.AttemptExtra {
				k := planned{r.Arm, r.Session, r.Question}
				if w, ok := first[k]; ok {
					return &inputerr.Error{File: p, Line: n, Err: fmt.Errorf("%w: %s/%d/%s is also at %s:%d; grade each arm once (citecheck grade writes the planned attempts of the arms its runs hold) and give each results folder once",
						ErrCountedTwice, r.Arm, r.Session, r.Question, w.file, w.line)}
				}
				first[k] = where{p, n}
			}
			out = append(out, *r)
			return nil
		})
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// planned names one planned attempt.
type planned struct {
	arm      string
	session  int
	question string
}

// ReadResults reads results.jsonl (docs/results.md) and calls fn with each
// result and its line number, in file order. A line that is not valid UTF-8, longer than
// MaxResultBytes, not one JSON object, holds a duplicate or unknown key, a
// wrong type, lacks arm, session, question, attempt or kind, or holds a
// value the format does not have (an attempt status, an outcome, a
// verdict missing for its kind or present for the other) is an
// *inputerr.Error with file and line; so is a file with no result
// (ErrNoResults).
func ReadResults(r io.Reader, file string, fn func(line int, res *grade.Result) error) error {
	seen := 0
	err := strictjson.EachLine(r, file, strictjson.Limits{MaxLine: MaxResultBytes}, func(n int, line []byte) error {
		res, ferr := decodeResult(line)
		if ferr != nil {
			ferr.File, ferr.Line = file, n
			return ferr
		}
		seen++
		return fn(n, res)
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
