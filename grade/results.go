package grade

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/citecheck/citecheck/internal/strictjson"
)

// ResultsFormat names the format of results.jsonl (docs/results.md): what
// WriteResult writes and ReadResults reads. The writer leaves it out of
// the lines, whose bytes it would change; a line may name it in a
// "format" key, and the reader refuses a line that names another.
const ResultsFormat = "citecheck-results/1"

// ResultsFile is the file "citecheck grade" writes in its output folder.
const ResultsFile = "results.jsonl"

// MaxResultBytes caps one line of results.jsonl (a result holds a whole
// response and its citations).
const MaxResultBytes = 32 << 20

// WriteResult writes r as one line of results.jsonl: its keys in the
// order of Result's fields, HTML characters as they are.
func WriteResult(w io.Writer, r *Result) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// ReadResults reads results.jsonl and calls fn with each result and its
// line number, in file order. A line that is not valid UTF-8, longer than
// MaxResultBytes, not one JSON object, holds a duplicate or unknown key, a
// wrong type, lacks arm, session, question, attempt or kind, names another
// format, or holds a value the format does not have (an attempt status,
// an outcome, a verdict missing for its kind or present for the other) is
// an *inputerr.Error with file and line; so is a file with no result
// (ErrNoResults). What WriteResult wrote, ReadResults reads back equal.
func ReadResults(r io.Reader, file string, fn func(line int, res *Result) error) error {
	seen := 0
	err := strictjson.EachLine(r, file, strictjson.Limits{MaxLine: MaxResultBytes}, func(n int, line []byte) error {
		res, ferr := decodeResultLine(line)
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

// ReadResultFiles reads the results of one evaluation from several
// inputs, each a folder holding ResultsFile (as "citecheck grade --out"
// writes it) or a results file, in order, and returns them in that order.
// Every planned attempt (arm, session and question of a result whose
// attempt is not duplicate or extra) must be in one result only: one that
// is in two, in two inputs (the same arm graded twice, in two folders
// reported together) or twice in one, is an *inputerr.Error at the second
// naming the first, wrapping ErrCountedTwice, since counting it twice
// would change every figure without a word.
func ReadResultFiles(paths []string) ([]Result, error) {
	type where struct {
		file string
		line int
	}
	var out []Result
	first := map[slotKey]where{}
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			p = filepath.Join(p, ResultsFile)
		}
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		err = ReadResults(f, p, func(n int, r *Result) error {
			if r.Attempt != AttemptDuplicate && r.Attempt != AttemptExtra {
				k := slotKey{r.Arm, r.Session, r.Question}
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
