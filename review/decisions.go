package review

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/citecheck/citecheck/internal/strictjson"
	"github.com/zeebo/blake3"
)

// DecisionsFormat names the decisions file: JSON Lines, one Decision per
// line (docs/formats.md#decisions).
const DecisionsFormat = "citecheck-decisions/1"

// The verdicts a decision gives: pass or fail for a citation or an
// abstention, correct or incorrect for a field.
const (
	VerdictPass      = "pass"
	VerdictFail      = "fail"
	VerdictCorrect   = "correct"
	VerdictIncorrect = "incorrect"
)

// Caps of a decisions file.
const (
	MaxDecisionBytes  = 1 << 20   // one line
	MaxDecisionsBytes = 256 << 20 // one file
	MaxReviewerBytes  = 256
)

// Sentinels inside the *inputerr.Error the readers and Apply return.
var (
	ErrNoDecisions = errors.New("no decisions")
	ErrDecision    = errors.New("invalid decision")
	// ErrRefused: a decision the results do not allow: its hash matches no
	// unresolved item, or an item the grader decided.
	ErrRefused = errors.New("decision refused")
)

// Decision is one reviewer's verdict on one item, bound to its content by
// the item's hash. File and Line say where it was read.
type Decision struct {
	Hash     string `json:"hash"`
	Verdict  string `json:"verdict"`
	Reviewer string `json:"reviewer"`
	Note     string `json:"note,omitempty"`
	At       string `json:"at,omitempty"` // RFC 3339, when given
	File     string `json:"-"`
	Line     int    `json:"-"`
}

var (
	decisionShape = &strictjson.Shape{Keys: map[string]*strictjson.Shape{"hash": nil, "verdict": nil, "reviewer": nil, "note": nil, "at": nil}}
	hashRE        = regexp.MustCompile(`^blake3:[0-9a-f]{64}$`)
)

// ReadDecisions reads a decisions file strictly and calls fn with each
// decision, in file order. A line that is not one JSON object, holds a
// duplicate or unknown key (keys matched exactly), a wrong type, lacks
// hash, verdict or reviewer, or holds a hash that is not "blake3:" and 64
// lower-case hex digits, a verdict other than pass, fail, correct or
// incorrect, a reviewer that is empty, padded with white space, holds a
// control character or is longer than MaxReviewerBytes, or an "at" that
// is not an RFC 3339 time, is an *inputerr.Error naming file, line and
// key; so is a file with no decision (ErrNoDecisions). What json.Marshal
// writes of a Decision, ReadDecisions reads back equal.
func ReadDecisions(r io.Reader, file string, fn func(d Decision) error) error {
	seen := 0
	objs := strictjson.Objects{Limits: strictjson.Limits{MaxLine: MaxDecisionBytes, MaxBytes: MaxDecisionsBytes}, Shape: decisionShape}
	err := objs.Each(r, file, func(n int, v *strictjson.Value, data []byte) error {
		d, ferr := decodeDecision(v, data)
		if ferr != nil {
			ferr.File, ferr.Line = file, n
			return ferr
		}
		d.File, d.Line = file, n
		seen++
		return fn(d)
	})
	if err != nil {
		return err
	}
	if seen == 0 {
		return &inputerr.Error{File: file, Err: fmt.Errorf("%w in %s", ErrNoDecisions, file)}
	}
	return nil
}

func decodeDecision(v *strictjson.Value, data []byte) (Decision, *inputerr.Error) {
	invalid := func(path string, err error) *inputerr.Error {
		return &inputerr.Error{Field: path, Err: fmt.Errorf("%w: %w", ErrDecision, err)}
	}
	if v.Kind != strictjson.Object {
		return Decision{}, invalid("", errors.New("not a JSON object"))
	}
	if k := v.Missing("hash", "verdict", "reviewer"); k != "" {
		return Decision{}, invalid(k, strictjson.ErrMissing)
	}
	var d Decision
	td := &strictjson.TreeDecoder{Data: data}
	// Every key is a string (decisionShape lists them).
	into := map[string]*string{"hash": &d.Hash, "verdict": &d.Verdict, "reviewer": &d.Reviewer, "note": &d.Note, "at": &d.At}
	for _, m := range v.Members {
		*into[m.Key] = td.Str(m.Value, m.Key)
	}
	if td.Err != nil {
		// TreeDecoder words it "invalid value: expected string, found
		// JSON number"; a decision's reads "invalid decision: expected ...".
		return Decision{}, invalid(td.Path, errors.New(strings.TrimPrefix(td.Err.Error(), strictjson.ErrValue.Error()+": ")))
	}
	if path, err := checkDecision(&d); err != nil {
		return Decision{}, invalid(path, err)
	}
	return d, nil
}

func checkDecision(d *Decision) (string, error) {
	switch {
	case !hashRE.MatchString(d.Hash):
		return "hash", fmt.Errorf("%q: want \"blake3:\" and 64 lower-case hex digits, as citecheck review lists it", d.Hash)
	case d.Verdict != VerdictPass && d.Verdict != VerdictFail && d.Verdict != VerdictCorrect && d.Verdict != VerdictIncorrect:
		return "verdict", fmt.Errorf("%q: want pass or fail (a citation, an abstention) or correct or incorrect (a field)", d.Verdict)
	case d.Reviewer == "":
		return "reviewer", errors.New("empty: name who decided")
	case strings.TrimSpace(d.Reviewer) != d.Reviewer:
		return "reviewer", fmt.Errorf("%q: white space around the name", d.Reviewer)
	case strings.ContainsFunc(d.Reviewer, unicode.IsControl):
		return "reviewer", fmt.Errorf("%q: a control character", d.Reviewer)
	case len(d.Reviewer) > MaxReviewerBytes:
		return "reviewer", fmt.Errorf("longer than %d bytes", MaxReviewerBytes)
	case !utf8.ValidString(d.Note):
		return "note", errors.New("invalid UTF-8") // cannot pass the parser; kept for callers that build decisions
	}
	if d.At != "" {
		if _, err := time.Parse(time.RFC3339, d.At); err != nil {
			return "at", fmt.Errorf("%q: not an RFC 3339 time (2026-12-02T10:04:05Z)", d.At)
		}
	}
	return "", nil
}

// File is a decisions file as read: its name as given, its BLAKE3 and how
// many decisions it holds.
type File struct {
	Path      string `json:"file"`
	BLAKE3    string `json:"blake3"`
	Decisions int    `json:"decisions"`
}

// ReadDecisionFiles reads decisions files in order (each at most
// MaxDecisionsBytes) and returns every decision and each file, its BLAKE3
// that of the bytes its decisions were read from.
func ReadDecisionFiles(paths []string) ([]Decision, []File, error) {
	var out []Decision
	var files []File
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, nil, err
		}
		// Hashed as read: the hash is of the bytes the decisions came
		// from, whatever happens to the file meanwhile.
		h := blake3.New()
		n := 0
		err = ReadDecisions(io.TeeReader(f, h), p, func(d Decision) error {
			out = append(out, d)
			n++
			return nil
		})
		if err == nil {
			_, err = io.Copy(h, f) // trailing blank lines
		}
		f.Close()
		if err != nil {
			return nil, nil, err
		}
		files = append(files, File{Path: p, BLAKE3: "blake3:" + hex.EncodeToString(h.Sum(nil)), Decisions: n})
	}
	return out, files, nil
}
