package typedqa

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/internal/strictjson"
)

// TestDefaultQuestions checks questions-default.json against the
// assignment of Q1–Q22 in docs/typed.md, Question types.
func TestDefaultQuestions(t *testing.T) {
	qs := DefaultQuestions()
	want := map[string]Type{}
	for _, id := range strings.Fields("Q1 Q3 Q4 Q6 Q21") {
		want[id] = TypeBoolean
	}
	for _, id := range strings.Fields("Q2 Q7 Q8 Q9 Q11 Q13 Q14 Q15 Q16 Q18 Q19") {
		want[id] = TypeInteger
	}
	want["Q17"], want["Q20"] = TypePairedInteger, TypePairedInteger
	want["Q5"] = TypeString
	want["Q10"], want["Q12"], want["Q22"] = TypeList, TypeList, TypeList
	all := qs.All()
	if len(all) != 22 {
		t.Fatalf("%d questions, want 22", len(all))
	}
	for i, q := range all {
		if wantID := "Q" + strconv.Itoa(i+1); q.ID != wantID {
			t.Errorf("question %d is %s, want %s (file order is output order)", i, q.ID, wantID)
		}
		if q.Type != want[q.ID] {
			t.Errorf("%s: type %s, want %s", q.ID, q.Type, want[q.ID])
		}
	}
	conds := map[string]Condition{"Q2": {"Q1", "N"}, "Q5": {"Q4", "N"}, "Q21": {"Q19", "0"}}
	for _, q := range all {
		c, ok := conds[q.ID]
		switch {
		case ok && (q.BlankWhen == nil || *q.BlankWhen != c):
			t.Errorf("%s: blank_when %v, want %v", q.ID, q.BlankWhen, c)
		case !ok && q.BlankWhen != nil:
			t.Errorf("%s: unexpected blank_when %v", q.ID, q.BlankWhen)
		}
	}
	for _, id := range []string{"Q10", "Q12"} {
		q, _ := qs.Lookup(id)
		if q.Order != OrderAny || q.FirstWords == nil || *q.FirstWords != 2 {
			t.Errorf("%s: order %q first_words %v, want any and 2", id, q.Order, q.FirstWords)
		}
	}
	if q, _ := qs.Lookup("Q22"); q.Order != OrderDocument || q.FirstWords != nil {
		t.Errorf("Q22: order %q first_words %v, want document and all words", q.Order, q.FirstWords)
	}
	for _, q := range all {
		if (q.PartialCreditMarker != "") != (q.ID == "Q2") || (q.ID == "Q2" && q.PartialCreditMarker != "?") {
			t.Errorf("%s: partial_credit_marker %q; only Q2 has \"?\"", q.ID, q.PartialCreditMarker)
		}
	}
}

// TestReadQuestionsErrors: every fault names the file, the line and what
// is wrong.
func TestReadQuestionsErrors(t *testing.T) {
	tests := []struct {
		name, input string
		line        int
		want        string
		is          error
	}{
		{"duplicate id", `{"questions": [
{"id": "Q1", "type": "boolean"},
{"id": "Q1", "type": "integer"}]}`, 3, `"Q1" is declared twice (also on line 2)`, nil},
		{"bad type", `{"questions": [{"id": "Q1", "type": "bool"}]}`, 1, `"bool" is not one of`, nil},
		{"bad id", `{"questions": [{"id": "Q 1", "type": "boolean"}]}`, 1, "is not a question id", nil},
		{"unknown condition question", `{"questions": [
{"id": "Q2", "type": "integer", "blank_when": {"question": "Q1", "equals": "N"}}]}`, 2, `unknown question "Q1"`, nil},
		{"self condition", `{"questions": [{"id": "Q1", "type": "boolean", "blank_when": {"question": "Q1", "equals": "N"}}]}`, 1, "the question itself", nil},
		{"cycle", `{"questions": [
{"id": "Q1", "type": "boolean", "blank_when": {"question": "Q2", "equals": "N"}},
{"id": "Q2", "type": "boolean", "blank_when": {"question": "Q1", "equals": "N"}}]}`, 2, "cycle", nil},
		{"boolean condition value", `{"questions": [{"id": "Q1", "type": "boolean"},
{"id": "Q2", "type": "integer", "blank_when": {"question": "Q1", "equals": "no"}}]}`, 2, "a boolean condition is Y or N", nil},
		{"integer condition value", `{"questions": [{"id": "Q19", "type": "integer"},
{"id": "Q21", "type": "boolean", "blank_when": {"question": "Q19", "equals": "zero"}}]}`, 2, "non-negative integer", nil},
		{"condition on a list", `{"questions": [{"id": "Q10", "type": "list", "order": "any"},
{"id": "Q11", "type": "integer", "blank_when": {"question": "Q10", "equals": "x"}}]}`, 2, "not to a list", nil},
		{"order on integer", `{"questions": [{"id": "Q7", "type": "integer", "order": "any"}]}`, 1, "applies to lists only", nil},
		{"list without order", `{"questions": [{"id": "Q10", "type": "list"}]}`, 1, "a list needs order", nil},
		{"first_words zero", `{"questions": [{"id": "Q10", "type": "list", "order": "any", "first_words": 0}]}`, 1, "at least 1", nil},
		{"first_words fraction", `{"questions": [{"id": "Q10", "type": "list", "order": "any", "first_words": 1.5}]}`, 1, "first_words", nil},
		{"marker on string", `{"questions": [{"id": "Q5", "type": "string", "partial_credit_marker": "?"}]}`, 1, "applies to integers only", nil},
		{"digit marker", `{"questions": [{"id": "Q2", "type": "integer", "partial_credit_marker": "1"}]}`, 1, "no white space, digit", nil},
		{"unknown key", `{"questions": [{"id": "Q1", "type": "boolean", "weight": 2}]}`, 1, "unknown key", strictjson.ErrUnknownKey},
		{"known key at wrong level", `{"questions": [{"id": "Q1", "type": "boolean", "equals": "Y"}]}`, 1, "unknown key", strictjson.ErrUnknownKey},
		{"case-variant key", `{"questions": [{"ID": "Q1", "type": "boolean"}]}`, 1, "unknown key", strictjson.ErrUnknownKey},
		{"duplicate key", `{"questions": [{"id": "Q1", "id": "Q2", "type": "boolean"}]}`, 1, `duplicate key "id"`, strictjson.ErrDuplicateKey},
		{"case-variant duplicate", `{"questions": [{"type": "boolean", "Type": "integer", "id": "Q1"}]}`, 1, "only in case", strictjson.ErrDuplicateKey},
		{"invalid UTF-8", "{\"questions\": [\n{\"id\": \"Q1\", \"type\": \"bo\xffolean\"}]}", 2, "invalid UTF-8", strictjson.ErrInvalidUTF8},
		{"trailing data", `{"questions": [{"id": "Q1", "type": "boolean"}]} {}`, 1, "data after the top-level value", nil},
		{"empty", ``, 1, "empty input", nil},
		{"no questions", `{"questions": []}`, 1, "no questions", nil},
		{"missing questions", `{}`, 1, "missing", nil},
		{"syntax", "{\"questions\": [\n{\"id\": \"Q1\",}]}", 2, "invalid JSON: unexpected '}'", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadQuestions(strings.NewReader(tc.input), "q.json")
			checkInputError(t, err, "q.json", tc.line, tc.want, tc.is)
		})
	}
}

// checkInputError asserts err is (or holds first) an InputError for file
// at line whose message contains want.
func checkInputError(t *testing.T, err error, file string, line int, want string, is error) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %q", want)
	}
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Fatalf("error %v (%T) is not an InputError", err, err)
	}
	if ie.File != file || ie.Line != line {
		t.Errorf("error at %s:%d, want %s:%d (%v)", ie.File, ie.Line, file, line, err)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not say %q", err, want)
	}
	if is != nil && !errors.Is(err, is) {
		t.Errorf("error %v is not %v", err, is)
	}
}

func TestReadQuestionsTooLarge(t *testing.T) {
	big := strings.NewReader(`{"questions": [` + strings.Repeat(" ", MaxConfigFileBytes) + `]}`)
	_, err := ReadQuestions(big, "big.json")
	if !errors.Is(err, strictjson.ErrTooLarge) {
		t.Fatalf("error %v, want strictjson.ErrTooLarge", err)
	}
}

// TestConditionEqualsCanonical: a condition compares canonical values, so
// "0" matches a ground truth of "00" and "n" matches "N".
func TestConditionEqualsCanonical(t *testing.T) {
	qs, err := ReadQuestions(strings.NewReader(`{"questions": [
{"id": "A", "type": "boolean"}, {"id": "B", "type": "integer", "blank_when": {"question": "A", "equals": "n"}},
{"id": "C", "type": "integer"}, {"id": "D", "type": "boolean", "blank_when": {"question": "C", "equals": "0"}}]}`), "q.json")
	if err != nil {
		t.Fatal(err)
	}
	truth := "document,question,value\nd,A,N\nd,B,\nd,C,00\nd,D,\n"
	if _, err := ReadTruth(strings.NewReader(truth), "t.csv", FormatCSV, qs); err != nil {
		t.Errorf("canonical condition values not matched: %v", err)
	}
}
