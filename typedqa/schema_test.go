package typedqa

import (
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/citecheck/citecheck/internal/schematest"
)

func compileSchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	return schematest.Compile(t, "typed-"+name)
}

func schemaAccepts(t *testing.T, s *jsonschema.Schema, instance string) bool {
	t.Helper()
	return schematest.Validate(t, s, instance) == nil
}

// schemaCase is one instance with the verdict both the schema and the Go
// reader must give; the Go reader may also reject what only it can check,
// but then the case says so with goOnly.
type schemaCase struct {
	name   string
	doc    string
	valid  bool
	goOnly bool // a fault only the Go reader can see: schema accepts, Go rejects
	why    string
}

func TestQuestionsSchema(t *testing.T) {
	s := compileSchema(t, "questions.schema.json")
	cases := []schemaCase{
		{"shipped default", string(DefaultQuestionsJSON()), true, false, "questions-default.json must validate"},
		{"issue example", `{"questions": [
  {"id": "Q1",  "type": "boolean"},
  {"id": "Q2",  "type": "integer", "blank_when": {"question": "Q1", "equals": "N"}},
  {"id": "Q4",  "type": "boolean"},
  {"id": "Q5",  "type": "string",  "blank_when": {"question": "Q4", "equals": "N"}},
  {"id": "Q10", "type": "list", "order": "any", "first_words": 2},
  {"id": "Q17", "type": "paired_integer"},
  {"id": "Q22", "type": "list", "order": "document"}]}`, true, false, "the example in the issue"},
		{"missing questions", `{}`, false, false, "questions is required"},
		{"empty questions", `{"questions": []}`, false, false, "at least one question"},
		{"bad type", `{"questions": [{"id": "Q1", "type": "bool"}]}`, false, false, "type enum"},
		{"bad id", `{"questions": [{"id": "Q 1", "type": "boolean"}]}`, false, false, "id pattern"},
		{"list without order", `{"questions": [{"id": "Q10", "type": "list"}]}`, false, false, "order required for lists"},
		{"order on integer", `{"questions": [{"id": "Q7", "type": "integer", "order": "any"}]}`, false, false, "order only on lists"},
		{"first_words on boolean", `{"questions": [{"id": "Q1", "type": "boolean", "first_words": 2}]}`, false, false, "first_words only on lists"},
		{"first_words zero", `{"questions": [{"id": "Q10", "type": "list", "order": "any", "first_words": 0}]}`, false, false, "minimum 1"},
		{"marker on string", `{"questions": [{"id": "Q5", "type": "string", "partial_credit_marker": "?"}]}`, false, false, "marker only on integers"},
		{"unknown key", `{"questions": [{"id": "Q1", "type": "boolean", "weight": 1}]}`, false, false, "additionalProperties false"},
		{"condition without equals", `{"questions": [{"id": "Q1", "type": "boolean"}, {"id": "Q2", "type": "integer", "blank_when": {"question": "Q1"}}]}`, false, false, "equals required"},
		{"duplicate ids", `{"questions": [{"id": "Q1", "type": "boolean"}, {"id": "Q1", "type": "boolean"}]}`, false, true, "uniqueness across items is a Go check"},
		{"dangling condition", `{"questions": [{"id": "Q2", "type": "integer", "blank_when": {"question": "Q1", "equals": "N"}}]}`, false, true, "references are a Go check"},
	}
	for _, c := range cases {
		wantSchema := c.valid || c.goOnly
		if got := schemaAccepts(t, s, c.doc); got != wantSchema {
			t.Errorf("%s: schema valid=%v, want %v (%s)", c.name, got, wantSchema, c.why)
		}
		_, err := ReadQuestions(strings.NewReader(c.doc), "q.json")
		if (err == nil) != c.valid {
			t.Errorf("%s: ReadQuestions error %v, want valid=%v (%s)", c.name, err, c.valid, c.why)
		}
	}
}

func TestDictionarySchema(t *testing.T) {
	s := compileSchema(t, "dictionary.schema.json")
	cases := []schemaCase{
		{"shipped default", string(DefaultDictionaryJSON()), true, false, "dictionary-default.json must validate"},
		{"empty", `{"classes": []}`, true, false, "an empty dictionary is allowed"},
		{"missing classes", `{}`, false, false, "classes is required"},
		{"two-word form", `{"classes": [{"canonical": "giovanni", "forms": ["gio batta"]}]}`, false, false, "forms are single words"},
		{"pipe in form", `{"classes": [{"canonical": "a", "forms": ["a|b"]}]}`, false, false, "'|' separates list entries, so no word holds one"},
		{"no forms", `{"classes": [{"canonical": "a", "forms": []}]}`, false, false, "minItems 1"},
		{"repeated form", `{"classes": [{"canonical": "a", "forms": ["b", "b"]}]}`, false, false, "uniqueItems"},
		{"unknown key", `{"classes": [{"canonical": "a", "forms": ["b"], "gender": "m"}]}`, false, false, "additionalProperties false"},
		{"form in two classes", `{"classes": [{"canonical": "a", "forms": ["c"]}, {"canonical": "b", "forms": ["c"]}]}`, false, true, "cross-class uniqueness is a Go check"},
	}
	for _, c := range cases {
		wantSchema := c.valid || c.goOnly
		if got := schemaAccepts(t, s, c.doc); got != wantSchema {
			t.Errorf("%s: schema valid=%v, want %v (%s)", c.name, got, wantSchema, c.why)
		}
		_, err := ReadDictionary(strings.NewReader(c.doc), "d.json")
		if (err == nil) != c.valid {
			t.Errorf("%s: ReadDictionary error %v, want valid=%v (%s)", c.name, err, c.valid, c.why)
		}
	}
}

func TestRecordSchemas(t *testing.T) {
	truthSchema := compileSchema(t, "truth-record.schema.json")
	respSchema := compileSchema(t, "response-record.schema.json")
	qs := DefaultQuestions()
	// Every fixture row, as JSON Lines, must validate.
	for _, line := range strings.Split(strings.TrimSpace(string(csvToJSONL(t, readFixture(t, "truth.csv")))), "\n") {
		if !schemaAccepts(t, truthSchema, line) {
			t.Fatalf("fixture truth record rejected: %s", line)
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(string(csvToJSONL(t, readFixture(t, "responses.csv")))), "\n") {
		if !schemaAccepts(t, respSchema, line) {
			t.Fatalf("fixture response record rejected: %s", line)
		}
	}
	truthCases := []schemaCase{
		{"plain", `{"document": "d", "question": "Q12", "value": "a | b"}`, true, false, "a list value"},
		{"null", `{"document": "d", "question": "Q12", "value": null}`, true, false, "null is a blank"},
		{"missing value", `{"document": "d", "question": "Q12"}`, false, false, "all keys required"},
		{"extra key", `{"document": "d", "question": "Q12", "value": "", "note": ""}`, false, false, "no other keys"},
		{"padded document", `{"document": " d", "question": "Q12", "value": ""}`, false, false, "no surrounding white space"},
		{"number value", `{"document": "d", "question": "Q7", "value": 3}`, false, false, "values are strings"},
	}
	for _, c := range truthCases {
		if got := schemaAccepts(t, truthSchema, c.doc); got != c.valid {
			t.Errorf("truth %s: schema valid=%v, want %v (%s)", c.name, got, c.valid, c.why)
		}
		_, err := ReadTruth(strings.NewReader(c.doc), "t.jsonl", FormatJSONL, qs)
		if (err == nil) != c.valid {
			t.Errorf("truth %s: ReadTruth error %v, want valid=%v (%s)", c.name, err, c.valid, c.why)
		}
	}
	respCases := []schemaCase{
		{"string run", `{"model": "m", "condition": "c", "run": "r1", "document": "d", "question": "Q1", "value": "Y"}`, true, false, "run as a label"},
		{"integer run", `{"model": "m", "condition": "c", "run": 2, "document": "d", "question": "Q1", "value": "Y"}`, true, false, "run as a number"},
		{"negative run", `{"model": "m", "condition": "c", "run": -2, "document": "d", "question": "Q1", "value": "Y"}`, false, false, "runs are non-negative"},
		{"fractional run", `{"model": "m", "condition": "c", "run": 1.5, "document": "d", "question": "Q1", "value": "Y"}`, false, false, "runs are integers"},
		{"empty model", `{"model": "", "condition": "c", "run": 1, "document": "d", "question": "Q1", "value": "Y"}`, false, false, "identifiers are not empty"},
		{"tab in condition", "{\"model\": \"m\", \"condition\": \"a\\tb\", \"run\": 1, \"document\": \"d\", \"question\": \"Q1\", \"value\": \"Y\"}", false, false, "no control characters"},
		{"bad question id", `{"model": "m", "condition": "c", "run": 1, "document": "d", "question": "Q 1", "value": "Y"}`, false, false, "id pattern"},
		{"unknown question id", `{"model": "m", "condition": "c", "run": 1, "document": "d", "question": "Q99", "value": "Y"}`, false, true, "known ids are a Go check"},
	}
	for _, c := range respCases {
		wantSchema := c.valid || c.goOnly
		if got := schemaAccepts(t, respSchema, c.doc); got != wantSchema {
			t.Errorf("response %s: schema valid=%v, want %v (%s)", c.name, got, wantSchema, c.why)
		}
		_, err := ReadResponses(strings.NewReader(c.doc), "r.jsonl", FormatJSONL, qs)
		if (err == nil) != c.valid {
			t.Errorf("response %s: ReadResponses error %v, want valid=%v (%s)", c.name, err, c.valid, c.why)
		}
	}
}
