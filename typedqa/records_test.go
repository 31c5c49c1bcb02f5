package typedqa

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/citecheck/citecheck/internal/strictjson"
)

const fullTruthCSV = `document,question,value
d,Q1,Y
d,Q2,1767
d,Q4,N
d,Q5,
d,Q19,0
d,Q21,
`

// TestReadTruthErrors pins a reading (docs/typed.md, Question types):
// blank_when is enforced on the ground truth both ways. Where the condition
// holds the value must be blank, and a blank boolean, integer, pair or
// string needs its condition to hold (an empty list needs none). Conditions
// compare canonical values ("0" = "00", "n" = "N";
// TestConditionEqualsCanonical); a blank never satisfies a condition.
// Scoring itself looks only at whether the ground truth is blank, as the
// rules by question type do.
func TestReadTruthErrors(t *testing.T) {
	qs := DefaultQuestions()
	tests := []struct {
		name, input string
		line        int
		want        string
		is          error
	}{
		{"header", "doc,question,value\nd,Q1,Y\n", 1, "want exactly document,question,value", nil},
		{"extra column", "document,question,value\nd,Q1,Y,extra\n", 2, "4 fields, want 3", nil},
		{"unknown question", "document,question,value\nd,Q1,Y\nd,Q99,1\n", 3, `unknown question id "Q99"`, ErrUnknownID},
		{"duplicate", "document,question,value\nd,Q1,Y\nd,Q3,N\nd,Q1,N\n", 4, "is also on line 2", ErrDuplicateRow},
		{"invalid UTF-8", "document,question,value\nd,Q1,Y\nd,Q3,\xc3\n", 3, "invalid UTF-8 at byte 6 of the line", strictjson.ErrInvalidUTF8},
		{"empty document", "document,question,value\n,Q1,Y\n", 2, "document: is empty", nil},
		{"padded document", "document,question,value\n d,Q1,Y\n", 2, "leading or trailing white space", nil},
		{"boolean GT", "document,question,value\nd,Q1,illegible\n", 2, "a boolean ground truth is Y, N or blank", strictjson.ErrValue},
		{"integer GT", "document,question,value\nd,Q7,three\n", 2, "an integer ground truth", strictjson.ErrValue},
		{"pair GT", "document,question,value\nd,Q17,12\n", 2, `"N | N"`, strictjson.ErrValue},
		{"blank unconditional boolean", "document,question,value\nd,Q3,\n", 2, "no blank_when condition", ErrInconsistency},
		{"Q2 year though Q1=N", "document,question,value\nd,Q1,N\nd,Q2,1767\n", 3, "Q2 must be blank because Q1 is \"N\" (line 2)", ErrInconsistency},
		{"Q2 blank though Q1=Y", "document,question,value\nd,Q1,Y\nd,Q2,\n", 3, "Q2 is blank but Q1 is \"Y\"", ErrInconsistency},
		{"Q21 answered though Q19=0", "document,question,value\nd,Q19,0\nd,Q21,Y\n", 3, "must be blank", ErrInconsistency},
		{"condition question missing", "document,question,value\nd,Q5,Santa Croce\n", 2, "Q5 is conditional on Q4, which has no ground truth", ErrInconsistency},
		{"multi-line value keeps line numbers", "document,question,value\nd,Q22,\"a\nb\"\nd,Q9,x\n", 4, "an integer ground truth", strictjson.ErrValue},
		{"bad quote", "document,question,value\nd,Q1,\"Y\n", 2, "quote", nil},
		{"value too large", "document,question,value\nd,Q22," + strings.Repeat("a", MaxValueBytes+1) + "\n", 2, "more than 8192", strictjson.ErrTooLarge},
		{"too many entries", "document,question,value\nd,Q22," + strings.Repeat("a|", MaxListEntries) + "\n", 2, "list entries", strictjson.ErrTooLarge},
		{"empty file", "", 1, "empty file", nil},
		{"jsonl duplicate key", `{"document": "d", "question": "Q1", "value": "Y", "value": "N"}`, 1, `duplicate key "value"`, strictjson.ErrDuplicateKey},
		{"jsonl case-variant key", `{"document": "d", "question": "Q1", "Value": "Y"}`, 1, "unknown key", strictjson.ErrUnknownKey},
		{"jsonl missing key", "\n{\"document\": \"d\", \"question\": \"Q1\"}", 2, "value: missing key", nil},
		{"jsonl nested", `{"document": "d", "question": "Q1", "value": ["Y"]}`, 1, "must be a string, not an array", nil},
		{"jsonl number value", `{"document": "d", "question": "Q7", "value": 3}`, 1, "must be a string", nil},
		{"jsonl two objects", `{"document": "d", "question": "Q1", "value": "Y"} {}`, 1, "data after the top-level value", nil},
		{"jsonl syntax", `{"document": "d", "question": "Q1", "value": "Y"`, 1, "incomplete JSON object", nil},
		{"jsonl bad token", `{"document": "d", "question": "Q1", "value": Y}`, 1, "unexpected 'Y', expected a value", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := "gt.csv"
			if strings.HasPrefix(tc.name, "jsonl") {
				file = "gt.jsonl"
			}
			_, err := ReadTruth(strings.NewReader(tc.input), file, FormatAuto, qs)
			checkInputError(t, err, file, tc.line, tc.want, tc.is)
		})
	}
}

func TestReadTruthAccepts(t *testing.T) {
	qs := DefaultQuestions()
	tests := []struct{ name, file, input, why string }{
		{"full", "gt.csv", fullTruthCSV, "every condition satisfied"},
		{"BOM", "gt.csv", "\uFEFF" + fullTruthCSV, "a spreadsheet's byte-order mark is ignored"},
		{"CRLF", "gt.csv", strings.ReplaceAll(fullTruthCSV, "\n", "\r\n"), "CRLF line ends"},
		{"empty list", "gt.csv", "document,question,value\nd,Q12,\n", "an empty list needs no condition"},
		{"jsonl null", "gt.jsonl", "{\"document\": \"d\", \"question\": \"Q12\", \"value\": null}\n\n", "null is a blank; blank lines are skipped"},
		{"sniffed jsonl", "gt.txt", ` {"document": "d", "question": "Q12", "value": ""}`, "no extension: the first byte decides"},
		{"GT year with ?", "gt.csv", "document,question,value\nd,Q1,Y\nd,Q2,1767?\n", "a trailing ? in a GT integer is stripped"},
	}
	for _, tc := range tests {
		if _, err := ReadTruth(strings.NewReader(tc.input), tc.file, FormatAuto, qs); err != nil {
			t.Errorf("%s: %v (%s)", tc.name, err, tc.why)
		}
	}
}

func TestReadResponsesErrors(t *testing.T) {
	qs := DefaultQuestions()
	const h = "model,condition,run,document,question,value\n"
	tests := []struct {
		name, input string
		line        int
		want        string
		is          error
	}{
		{"header order", "model,condition,document,run,question,value\n", 1, "want exactly model,condition,run,document,question,value", nil},
		{"short row", h + "m,c,1,d,Q1\n", 2, "5 fields, want 6", nil},
		{"unknown question", h + "m,c,1,d,Q1,Y\nm,c,1,d,q1,Y\n", 3, `unknown question id "q1"`, ErrUnknownID},
		{"duplicate", h + "m,c,1,d,Q1,Y\nm,c,2,d,Q1,Y\nm,c,1,d,Q1,N\n", 4, `model "m" condition "c" run "1" document "d" question Q1 is also on line 2`, ErrDuplicateRow},
		{"control character", h + "m\x01,c,1,d,Q1,Y\n", 2, "control character", nil},
		{"empty run", h + "m,c,,d,Q1,Y\n", 2, "run: is empty", nil},
		{"invalid UTF-8 in value", h + "m,c,1,d,Q5,Santa \xe0 Croce\n", 2, "invalid UTF-8", strictjson.ErrInvalidUTF8},
		{"too many entries", h + "m,c,1,d,Q10," + strings.Repeat("x|", MaxListEntries) + "\n", 2, "list entries", strictjson.ErrTooLarge},
		{"jsonl run float", `{"model": "m", "condition": "c", "run": 1.5, "document": "d", "question": "Q1", "value": "Y"}`, 1, "only run may be a non-negative integer", nil},
		{"jsonl run negative", `{"model": "m", "condition": "c", "run": -1, "document": "d", "question": "Q1", "value": "Y"}`, 1, "only run may be", nil},
		{"jsonl unknown key", `{"model": "m", "condition": "c", "run": "1", "document": "d", "question": "Q1", "value": "Y", "score": 1}`, 1, "unknown key", strictjson.ErrUnknownKey},
		{"jsonl null model", `{"model": null, "condition": "c", "run": "1", "document": "d", "question": "Q1", "value": "Y"}`, 1, "only value may be null", nil},
		{"jsonl bool", `{"model": "m", "condition": "c", "run": "1", "document": "d", "question": "Q1", "value": true}`, 1, "not a boolean", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := "r.csv"
			if strings.HasPrefix(tc.name, "jsonl") {
				file = "r.jsonl"
			}
			_, err := ReadResponses(strings.NewReader(tc.input), file, FormatAuto, qs)
			checkInputError(t, err, file, tc.line, tc.want, tc.is)
		})
	}
}

// TestReadResponsesJSONL: integer runs and null values are read as the
// strings "1" and "".
func TestReadResponsesJSONL(t *testing.T) {
	in := `{"model": "m", "condition": "c", "run": 1, "document": "d", "question": "Q21", "value": null}` + "\n"
	r, err := ReadResponses(strings.NewReader(in), "r.jsonl", FormatAuto, DefaultQuestions())
	if err != nil {
		t.Fatal(err)
	}
	rows := r.Rows()
	require.Len(t, rows, 1)
	assert.Equal(t, "1", rows[0].Run)
	assert.Empty(t, rows[0].Value)
	assert.Equal(t, 1, rows[0].Line)
}

// TestManyErrorsCollected: one pass reports every faulty row, up to the
// cap, in file order.
func TestManyErrorsCollected(t *testing.T) {
	var b strings.Builder
	b.WriteString("document,question,value\n")
	for i := 0; i < 30; i++ {
		b.WriteString("d,Q99,1\n")
	}
	_, err := ReadTruth(strings.NewReader(b.String()), "gt.csv", FormatCSV, DefaultQuestions())
	var list *InputErrors
	if !errors.As(err, &list) {
		t.Fatalf("error %v is not an InputErrors", err)
	}
	if len(list.Errs) != maxReportedErrors || list.Omitted != 30-maxReportedErrors {
		t.Errorf("%d errors shown, %d omitted; want %d and %d", len(list.Errs), list.Omitted, maxReportedErrors, 30-maxReportedErrors)
	}
	if list.Errs[0].Line != 2 || list.Errs[1].Line != 3 {
		t.Errorf("errors not in file order: lines %d, %d", list.Errs[0].Line, list.Errs[1].Line)
	}
	if !strings.Contains(err.Error(), "(10 more errors not shown)") {
		t.Errorf("message does not count the omitted errors: %v", err)
	}
}

// TestScoreCrossFileErrors pins a reading (docs/typed.md, Pooling): a
// missing response row is an error, not a blank answer; each (model,
// condition, run) present must answer every ground-truth row, with an
// empty value for a blank (missing_answer).
func TestScoreCrossFileErrors(t *testing.T) {
	qs := DefaultQuestions()
	truth, err := ReadTruth(strings.NewReader("document,question,value\nd,Q1,Y\nd,Q3,N\n"), "gt.csv", FormatCSV, qs)
	if err != nil {
		t.Fatal(err)
	}
	const h = "model,condition,run,document,question,value\n"
	tests := []struct {
		name, input string
		line        int
		want        string
		is          error
	}{
		{"unknown document", h + "m,c,1,d,Q1,Y\nm,c,1,d,Q3,N\nm,c,1,e,Q1,Y\n", 4, `document "e" has no ground truth in gt.csv`, nil},
		{"question without truth", h + "m,c,1,d,Q1,Y\nm,c,1,d,Q3,N\nm,c,1,d,Q4,Y\n", 4, `question Q4 of document "d" has no ground truth`, nil},
		{"questions mismatch", h + "m,c,1,d,Q1,Y\nm,c,1,d,Q3,N\nm,c,1,d,Q9,1\n", 4, `unknown question id "Q9"`, ErrUnknownID},
		{"missing answer", h + "m,c,1,d,Q1,Y\nm,c,1,d,Q3,N\nm,c,2,d,Q3,N\n", 0, `model "m" condition "c" run "2" has no answer for document "d" question Q1`, ErrMissingRow},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := ReadResponses(strings.NewReader(tc.input), "r.csv", FormatCSV, qs)
			if err != nil {
				t.Fatal(err)
			}
			scoreWith := qs
			if tc.name == "questions mismatch" {
				// Responses read against one questions file, scored with
				// another that lacks Q9.
				scoreWith, err = ReadQuestions(strings.NewReader(`{"questions": [{"id": "Q1", "type": "boolean"}, {"id": "Q3", "type": "boolean"}]}`), "q.json")
				if err != nil {
					t.Fatal(err)
				}
			}
			_, err = Score(scoreWith, nil, truth, resp)
			checkInputError(t, err, "r.csv", tc.line, tc.want, tc.is)
		})
	}
}
