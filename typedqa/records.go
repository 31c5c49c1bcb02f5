package typedqa

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/citecheck/citecheck/internal/strictjson"
)

// Format is the encoding of a ground-truth or responses file.
type Format int

const (
	// FormatAuto picks JSON Lines for names ending in .jsonl or .ndjson,
	// CSV for .csv, and otherwise JSON Lines when the first non-blank
	// byte is '{', CSV when not.
	FormatAuto Format = iota
	FormatCSV
	FormatJSONL
)

// TruthColumns and ResponseColumns are the CSV headers, exactly, and the
// keys of a JSON Lines record.
var (
	TruthColumns    = []string{"document", "question", "value"}
	ResponseColumns = []string{"model", "condition", "run", "document", "question", "value"}
)

// TruthRow is one ground-truth value; an empty Value is a blank ground
// truth. Line is where the row starts in its file.
type TruthRow struct {
	Document, Question, Value string
	Line                      int
}

// Truth is a validated ground-truth file.
type Truth struct {
	File  string
	rows  []TruthRow
	index map[truthKey]int
}

type truthKey struct{ document, question string }

// Rows returns the rows in file order.
func (t *Truth) Rows() []TruthRow { return append([]TruthRow(nil), t.rows...) }

func (t *Truth) lookup(document, question string) (TruthRow, bool) {
	i, ok := t.index[truthKey{document, question}]
	if !ok {
		return TruthRow{}, false
	}
	return t.rows[i], true
}

// Response is one answer: model, condition and run say who answered under
// which prompt, document and question what was asked. An empty Value is a
// blank answer.
type Response struct {
	Model, Condition, Run, Document, Question, Value string
	Line                                             int
}

// Responses is a validated responses file.
type Responses struct {
	File string
	rows []Response
}

// Rows returns the rows in file order.
func (r *Responses) Rows() []Response { return append([]Response(nil), r.rows...) }

type responseKey struct{ model, condition, run, document, question string }

// ReadTruth reads a ground-truth file (CSV with header
// document,question,value, or JSON Lines with those keys) and checks it
// against qs: known question ids, no duplicate (document, question), values
// valid for their type, blanks only where allowed, and every blank_when
// condition consistent with the document's other values.
func ReadTruth(r io.Reader, file string, format Format, qs *Questions) (*Truth, error) {
	recs, err := readRecords(r, file, format, TruthColumns)
	if err != nil {
		return nil, err
	}
	t := &Truth{File: file, index: map[truthKey]int{}}
	var errs errorList
	for _, rec := range recs {
		row := TruthRow{Document: rec.vals[0], Question: rec.vals[1], Value: rec.vals[2], Line: rec.line}
		if !checkRowFields(&errs, file, rec, TruthColumns[:2]) {
			continue
		}
		q := qs.lookup(row.Question)
		if q == nil {
			errs.add(file, row.Line, "question", fmt.Errorf("%w %q", ErrUnknownID, row.Question))
			continue
		}
		k := truthKey{row.Document, row.Question}
		if i, dup := t.index[k]; dup {
			errs.add(file, row.Line, "", fmt.Errorf("%w: document %q question %s is also on line %d", ErrDuplicateRow, row.Document, row.Question, t.rows[i].Line))
			continue
		}
		if err := checkTruthValue(q, row.Value); err != nil {
			errs.add(file, row.Line, "value", err)
		}
		t.index[k] = len(t.rows)
		t.rows = append(t.rows, row)
	}
	if errs.full() {
		return nil, errs.err()
	}
	for _, row := range t.rows {
		if err := t.checkCondition(qs, row); err != nil {
			errs.add(file, row.Line, "value", err)
		}
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	return t, nil
}

// checkTruthValue checks a ground-truth value against its question's type.
// Answers are never checked this way: any answer text is scorable.
func checkTruthValue(q *Question, v string) error {
	switch q.Type {
	case TypeBoolean:
		if n := normalize(v, true); n != "" && n != "y" && n != "n" {
			return fmt.Errorf("%w: a boolean ground truth is Y, N or blank, not %q", strictjson.ErrValue, v)
		}
	case TypeInteger:
		if n := normalize(v, true); n != "" {
			if _, ok := parseInteger(n); !ok {
				return fmt.Errorf("%w: an integer ground truth is a non-negative integer or blank, not %q", strictjson.ErrValue, v)
			}
		}
	case TypePairedInteger:
		if normalize(v, true) != "" {
			if _, ok := parsePair(v, true); !ok {
				return fmt.Errorf("%w: a paired-integer ground truth is \"N | N\" or blank, not %q", strictjson.ErrValue, v)
			}
		}
	case TypeList:
		if n := strings.Count(v, "|") + 1; n > MaxListEntries {
			return fmt.Errorf("%w: %d list entries, more than %d", strictjson.ErrTooLarge, n, MaxListEntries)
		}
	}
	return nil
}

// checkCondition enforces the questions file's blank_when on one document:
// where the condition holds the value must be blank, and a blank value of
// any type but a list (an empty list is a real answer) needs the condition
// to hold.
func (t *Truth) checkCondition(qs *Questions, row TruthRow) error {
	q := qs.lookup(row.Question)
	blank := normalize(row.Value, true) == ""
	if q.BlankWhen == nil {
		if blank && q.Type != TypeList {
			return fmt.Errorf("%w: blank %s ground truth for %s, which has no blank_when condition", ErrInconsistency, q.Type, q.ID)
		}
		return nil
	}
	c := q.BlankWhen
	ref, ok := t.lookup(row.Document, c.Question)
	if !ok {
		return fmt.Errorf("%w: %s is conditional on %s, which has no ground truth for document %q", ErrInconsistency, q.ID, c.Question, row.Document)
	}
	holds := conditionHolds(qs, q, ref.Value)
	switch {
	case holds && !blank:
		return fmt.Errorf("%w: %s must be blank because %s is %q (line %d)", ErrInconsistency, q.ID, c.Question, ref.Value, ref.Line)
	case !holds && blank && q.Type != TypeList:
		return fmt.Errorf("%w: %s is blank but %s is %q, not %q (line %d)", ErrInconsistency, q.ID, c.Question, ref.Value, c.Equals, ref.Line)
	}
	return nil
}

// conditionHolds says whether refValue, the ground truth of q's condition
// question, equals the condition's value. A blank never equals it.
func conditionHolds(qs *Questions, q *Question, refValue string) bool {
	ref := qs.lookup(q.BlankWhen.Question)
	if normalize(refValue, true) == "" {
		return false
	}
	key, err := conditionKey(ref.Type, refValue)
	return err == nil && key == q.equalsKey
}

// ReadResponses reads a responses file (CSV with header
// model,condition,run,document,question,value, or JSON Lines with those
// keys) and checks each row: identifiers, known question ids, no duplicate
// (model, condition, run, document, question), bounded values. Whether a
// row has a ground truth is checked by Score.
func ReadResponses(r io.Reader, file string, format Format, qs *Questions) (*Responses, error) {
	recs, err := readRecords(r, file, format, ResponseColumns)
	if err != nil {
		return nil, err
	}
	out := &Responses{File: file}
	seen := map[responseKey]int{}
	var errs errorList
	for _, rec := range recs {
		row := Response{Model: rec.vals[0], Condition: rec.vals[1], Run: rec.vals[2], Document: rec.vals[3], Question: rec.vals[4], Value: rec.vals[5], Line: rec.line}
		if !checkRowFields(&errs, file, rec, ResponseColumns[:5]) {
			continue
		}
		q := qs.lookup(row.Question)
		if q == nil {
			errs.add(file, row.Line, "question", fmt.Errorf("%w %q", ErrUnknownID, row.Question))
			continue
		}
		k := responseKey{row.Model, row.Condition, row.Run, row.Document, row.Question}
		if line, dup := seen[k]; dup {
			errs.add(file, row.Line, "", fmt.Errorf("%w: model %q condition %q run %q document %q question %s is also on line %d", ErrDuplicateRow, row.Model, row.Condition, row.Run, row.Document, row.Question, line))
			continue
		}
		if q.Type == TypeList {
			if n := strings.Count(row.Value, "|") + 1; n > MaxListEntries {
				errs.add(file, row.Line, "value", fmt.Errorf("%w: %d list entries, more than %d", strictjson.ErrTooLarge, n, MaxListEntries))
				continue
			}
		}
		seen[k] = row.Line
		out.rows = append(out.rows, row)
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	return out, nil
}

// checkRowFields checks the identifier columns of a record and the value's
// size; it reports into errs and says whether the row is usable.
func checkRowFields(errs *errorList, file string, rec record, idColumns []string) bool {
	ok := true
	for i, col := range idColumns {
		if err := checkIdentifier(rec.vals[i]); err != nil {
			errs.add(file, rec.line, col, err)
			ok = false
		}
	}
	if v := rec.vals[len(rec.vals)-1]; len(v) > MaxValueBytes {
		errs.add(file, rec.line, "value", fmt.Errorf("%w: %d bytes, more than %d", strictjson.ErrTooLarge, len(v), MaxValueBytes))
		ok = false
	}
	return ok
}

// record is one row of either encoding, values in column order.
type record struct {
	vals []string
	line int
}

func readRecords(r io.Reader, file string, format Format, columns []string) ([]record, error) {
	data, err := readAll(r, file, MaxDataFileBytes)
	if err != nil {
		return nil, err
	}
	if format == FormatAuto {
		format = detectFormat(file, data)
	}
	if format == FormatJSONL {
		return readJSONL(data, file, columns)
	}
	return readCSV(data, file, columns)
}

func detectFormat(file string, data []byte) Format {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".jsonl", ".ndjson":
		return FormatJSONL
	case ".csv":
		return FormatCSV
	}
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		return FormatJSONL
	}
	return FormatCSV
}

// readCSV reads RFC 4180 CSV whose first record is exactly columns.
// Quoted fields may span lines; a row's line is where it starts. A
// malformed quote stops the read (the rest cannot be trusted); a row with
// the wrong number of fields is reported and the read goes on.
func readCSV(data []byte, file string, columns []string) ([]record, error) {
	rd := csv.NewReader(bytes.NewReader(data))
	rd.FieldsPerRecord = -1
	header, err := rd.Read()
	if err == io.EOF {
		return nil, &InputError{File: file, Line: 1, Err: fmt.Errorf("empty file: expected the header %s", strings.Join(columns, ","))}
	}
	if err != nil {
		return nil, csvError(file, err)
	}
	if !slices.Equal(header, columns) {
		return nil, &InputError{File: file, Line: 1, Err: fmt.Errorf("header is %q, want exactly %s", strings.Join(header, ","), strings.Join(columns, ","))}
	}
	var out []record
	var errs errorList
	for {
		vals, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			errs.errs = append(errs.errs, csvError(file, err).(*InputError))
			return nil, errs.err()
		}
		line, _ := rd.FieldPos(0)
		if len(vals) != len(columns) {
			errs.addf(file, line, "", "%d fields, want %d (%s)", len(vals), len(columns), strings.Join(columns, ","))
			continue
		}
		out = append(out, record{vals: vals, line: line})
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	return out, nil
}

func csvError(file string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &InputError{File: file, Line: pe.Line, Err: pe.Err}
	}
	return &InputError{File: file, Err: err}
}

// readJSONL reads one flat JSON object per line with exactly the keys in
// columns. Values are strings; "value" may also be null (a blank) and
// "run" a non-negative integer. Lines holding only white space are
// skipped.
func readJSONL(data []byte, file string, columns []string) ([]record, error) {
	var out []record
	var errs errorList
	// data is whole, bounded and valid UTF-8 already (readAll).
	err := strictjson.EachLine(bytes.NewReader(data), file, strictjson.Limits{MaxLine: len(data)}, func(n int, line []byte) error {
		vals, field, err := parseJSONLRecord(line, columns)
		if err != nil {
			errs.add(file, n, field, err)
			return nil
		}
		out = append(out, record{vals: vals, line: n})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	return out, nil
}

// parseJSONLRecord parses one line with internal/strictjson, which refuses
// duplicate and case-variant keys, lone surrogate escapes and trailing data
// (encoding/json would keep the last duplicate and bind a case variant).
func parseJSONLRecord(line []byte, columns []string) (vals []string, field string, err error) {
	v, err := strictjson.Parse(line, "", strictjson.Limits{})
	if err != nil {
		var se *strictjson.Error
		if !errors.As(err, &se) {
			return nil, "", err
		}
		if errors.Is(se.Err, strictjson.ErrSyntax) && se.Offset >= len(bytes.TrimRight(line, " \t\r")) {
			return nil, se.Path, errors.New("incomplete JSON object (a record must fit on one line)")
		}
		return nil, se.Path, se.Err
	}
	if v.Kind != strictjson.Object {
		return nil, "", errors.New("expected a JSON object")
	}
	vals = make([]string, len(columns))
	for _, m := range v.Members {
		key := m.Key
		idx := slices.Index(columns, key)
		if idx < 0 {
			return nil, key, fmt.Errorf("%w (want %s)", strictjson.ErrUnknownKey, strings.Join(columns, ", "))
		}
		switch m.Value.Kind {
		case strictjson.String:
			vals[idx] = m.Value.Str
		case strictjson.Number:
			if _, ok := parseInteger(m.Value.Str); !ok || key != "run" {
				return nil, key, errors.New("must be a string (only run may be a non-negative integer)")
			}
			vals[idx] = m.Value.Str
		case strictjson.Null:
			if key != "value" {
				return nil, key, errors.New("must be a string (only value may be null)")
			}
		default:
			return nil, key, fmt.Errorf("must be a string, not %s", jsonKind(m.Value.Kind))
		}
	}
	if k := v.Missing(columns...); k != "" {
		return nil, k, errors.New("missing key")
	}
	return vals, "", nil
}

func jsonKind(k strictjson.Kind) string {
	switch k {
	case strictjson.Object:
		return "an object"
	case strictjson.Array:
		return "an array"
	}
	return "a " + k.String()
}
