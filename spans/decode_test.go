package spans_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/internal/strictjson"
	"github.com/citecheck/citecheck/spans"
)

// refWith returns a reference file with one question whose first span is
// spanJSON, laid out on lines so positions are easy to read: the span
// starts on line 9.
func refWith(spanJSON string) string {
	return `{
  "format": "citecheck-reference/1.5",
  "questions": [
    {"id": "Q01", "question": "When?",
     "required_fields": [{"field": "deadline", "label": "Deadline"}],
     "expected_abstention": false,
     "answer_fields": {"deadline": "10 working days"},
     "essential_claims": [{"field": "deadline", "value": "10 working days", "evidence": [
        ` + spanJSON + `
     ]}]}
  ]
}
`
}

// unknownWith returns a reference file with one unknown question whose
// absence audit ends with members (the audit is on line 3).
func unknownWith(members string) string {
	return `{"format": "citecheck-reference/1.5", "questions": [
  {"id": "U1", "question": "q", "required_fields": [{"field": "f", "label": "F"}], "expected_abstention": true,
   "absence_audit": {"topic": "t", "sources": ["d.pdf"], ` + members + `}}]}
`
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string // the whole message
		is   error
	}{
		{"offset as a string", refWith(`{"document": "a.pdf", "page": 1, "start": "12", "end": 40, "text": "x"}`),
			`refs.json:9:51: questions[0].essential_claims[0].evidence[0].start: wrong type: expected an integer, found string`, strictjson.ErrType},
		{"negative offset", refWith(`{"document": "a.pdf", "page": 1, "start": -1, "end": 40, "text": "x"}`),
			`refs.json:9:51: questions[0].essential_claims[0].evidence[0].start: invalid value: -1 is outside 0..2147483647`, strictjson.ErrValue},
		{"fractional page", refWith(`{"document": "a.pdf", "page": 1.5, "text": "x"}`),
			`refs.json:9:39: questions[0].essential_claims[0].evidence[0].page: wrong type: expected an integer, found 1.5`, strictjson.ErrType},
		{"page zero", refWith(`{"document": "a.pdf", "page": 0, "text": "x"}`),
			`refs.json:9:39: questions[0].essential_claims[0].evidence[0].page: invalid value: 0 is outside 1..2147483647`, strictjson.ErrValue},
		{"unknown field", refWith(`{"document": "a.pdf", "page": 1, "text": "x", "quote": "x"}`),
			`refs.json:9:55: questions[0].essential_claims[0].evidence[0].quote: unknown field "quote" (known fields: document, end, end_page, page, start, text)`, strictjson.ErrUnknownField},
		{"duplicate key", refWith(`{"document": "a.pdf", "page": 1, "page": 2, "text": "x"}`),
			`refs.json:9:42: questions[0].essential_claims[0].evidence[0].page: duplicate key "page"`, strictjson.ErrDuplicateKey},
		{"case-variant key", refWith(`{"document": "a.pdf", "Page": 1, "text": "x"}`),
			"refs.json:9:9: questions[0].essential_claims[0].evidence[0]: missing required field \"page\"\n" +
				`refs.json:9:31: questions[0].essential_claims[0].evidence[0].Page: unknown field "Page" (known fields: document, end, end_page, page, start, text)`, strictjson.ErrUnknownField},
		{"case-variant duplicate", refWith(`{"document": "a.pdf", "page": 1, "PAGE": 1, "text": "x"}`),
			`refs.json:9:42: questions[0].essential_claims[0].evidence[0].PAGE: duplicate key: "PAGE" differs from "page" only in case`, strictjson.ErrDuplicateKey},
		{"missing text", refWith(`{"document": "a.pdf", "page": 1}`),
			`refs.json:9:9: questions[0].essential_claims[0].evidence[0]: missing required field "text"`, strictjson.ErrMissing},
		{"null text", refWith(`{"document": "a.pdf", "page": 1, "text": null}`),
			`refs.json:9:50: questions[0].essential_claims[0].evidence[0].text: wrong type: expected a string, found null`, strictjson.ErrType},
		{"invalid UTF-8", refWith("{\"document\": \"a.pdf\", \"page\": 1, \"text\": \"caf\xe9\"}"),
			`refs.json:9:54: invalid UTF-8: byte 0xe9`, strictjson.ErrInvalidUTF8},
		{"other format", `{"format": "citecheck-reference/1.4", "questions": []}`,
			`refs.json:1:12: format: invalid value: format "citecheck-reference/1.4": this citecheck reads "citecheck-reference/1.5"`, strictjson.ErrValue},
		{"no format", `{"questions": []}`,
			`refs.json:1:1: missing required field "format"`, strictjson.ErrMissing},
		{"expected_abstention missing", `{"format": "citecheck-reference/1.5", "questions": [{"id": "Q1", "question": "q", "required_fields": []}]}`,
			`refs.json:1:53: questions[0]: missing required field "expected_abstention"`, strictjson.ErrMissing},
		{"statements as a string", unknownWith(`"statements": "none"`),
			`refs.json:3:72: questions[0].absence_audit.statements: wrong type: expected an array of strings or an object of arrays of strings, found string`, strictjson.ErrType},
		{"statement list as a string", unknownWith(`"statements": {"f": "none"}`),
			`refs.json:3:78: questions[0].absence_audit.statements.f: wrong type: expected an array, found string`, strictjson.ErrType},
		{"statement not a string", unknownWith(`"statements": {"f": ["a", 1]}`),
			`refs.json:3:84: questions[0].absence_audit.statements.f[1]: wrong type: expected a string, found number`, strictjson.ErrType},
		{"source names as a string", unknownWith(`"statements": [], "source_names": "the d"`),
			`refs.json:3:92: questions[0].absence_audit.source_names: wrong type: expected an array, found string`, strictjson.ErrType},
		{"unknown audit key", unknownWith(`"statements": [], "source_name": ["the d"]`),
			`refs.json:3:76: questions[0].absence_audit.source_name: unknown field "source_name" (known fields: note, source_names, sources, statements, topic)`, strictjson.ErrUnknownField},
		{"syntax", `{"format": "citecheck-reference/1.5", "questions": [}`,
			`refs.json:1:53: questions[0]: invalid JSON: unexpected '}', expected a value`, strictjson.ErrSyntax},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := spans.Decode([]byte(tc.in), "refs.json")
			if err == nil {
				t.Fatal("accepted")
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got %s\nwant %s", err, tc.want)
			}
			if !errors.Is(err, tc.is) {
				t.Errorf("errors.Is(%v) is false", tc.is)
			}
			var de *spans.DecodeError
			var des *spans.DecodeErrors
			if !errors.As(err, &de) && !errors.As(err, &des) {
				t.Errorf("not a *DecodeError: %T", err)
			}
		})
	}
}

func TestDecodeCollectsSeveralFaults(t *testing.T) {
	in := refWith(`{"document": 1, "page": "1", "text": "x"}`)
	_, err := spans.Decode([]byte(in), "refs.json")
	var errs *spans.DecodeErrors
	if !errors.As(err, &errs) || len(errs.Errs) != 2 {
		t.Fatalf("want 2 faults in one *DecodeErrors, got %v", err)
	}
}

func TestDecodeTooLarge(t *testing.T) {
	big := make([]byte, spans.MaxReferenceBytes+1)
	if _, err := spans.Decode(big, "big.json"); !errors.Is(err, strictjson.ErrTooLarge) {
		t.Errorf("got %v, want ErrTooLarge", err)
	}
	// ReadFile reads one byte past the cap, never the whole of a huge file.
	path := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(path, append(big, big...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := spans.ReadFile(path); !errors.Is(err, strictjson.ErrTooLarge) {
		t.Errorf("ReadFile: got %v, want ErrTooLarge", err)
	}
}

// TestDecodeRoundTrip: a reference with every field set survives
// Canonical and Decode unchanged, which ties the decoder's key names to the
// Go types' JSON tags.
func TestDecodeRoundTrip(t *testing.T) {
	ref, err := spans.Decode(fixtures.Reference(), "reference.json")
	if err != nil {
		t.Fatal(err)
	}
	start, end := 3, 9
	full := spans.Question{
		ID: "Q9", Question: "q", ExpectedAbstention: true,
		RequiredFields:       []spans.RequiredField{{Field: "f", Label: "F"}},
		AnswerFields:         map[string]string{"f": "UNKNOWN"},
		EssentialClaims:      []spans.Claim{{Field: "f", Value: "v", AcceptedValues: []string{"w"}, Evidence: []spans.Span{{Document: "d.pdf", Page: 1, Start: &start, End: &end, EndPage: 2, Text: "t"}}}},
		AcceptedAlternatives: map[string][]string{"f": {"a", "b"}},
		AbstentionEvidence:   []spans.Span{{Document: "d.pdf", Page: 2, Text: "u"}},
		AbsenceAudit:         &spans.AbsenceAudit{Topic: "t", Sources: []string{"d.pdf"}, SourceNames: []string{"the d", "d.pdf"}, Statements: spans.AbsenceStatements{List: []string{"s"}}, Note: "n"},
	}
	byField := full
	byField.ID = "Q10"
	byField.AbsenceAudit = &spans.AbsenceAudit{Topic: "t", Sources: []string{"d.pdf"}, Statements: spans.AbsenceStatements{ByField: map[string][]string{"f": {"s <&>"}, "g": nil}}}
	ref.Questions = append(ref.Questions, full, byField)
	back, err := spans.Decode(ref.Canonical(), "canonical.json")
	if err != nil {
		t.Fatalf("the canonical encoding does not decode: %v", err)
	}
	if !reflect.DeepEqual(back.Questions, ref.Questions) {
		t.Errorf("round trip changed the questions")
	}
	if string(back.Canonical()) != string(ref.Canonical()) {
		t.Errorf("canonical encoding is not stable")
	}
}

// TestCanonicalIgnoresLayout: white space, key order and escapes do not
// change the canonical encoding; content does.
func TestCanonicalIgnoresLayout(t *testing.T) {
	a := `{"format": "citecheck-reference/1.5", "questions": [{"id": "Q1", "question": "q\u00e9", "required_fields": [{"field": "f", "label": "F"}], "expected_abstention": true}]}`
	b := "{\n\"questions\":[{\"expected_abstention\":true,\"required_fields\":[{\"label\":\"F\",\"field\":\"f\"}],\"question\":\"q\u00e9\",\"id\":\"Q1\"}],\n\"format\":\"citecheck-reference/1.5\"}"
	c := strings.Replace(a, `"F"`, `"G"`, 1)
	ra, _ := spans.Decode([]byte(a), "a")
	rb, _ := spans.Decode([]byte(b), "b")
	rc, _ := spans.Decode([]byte(c), "c")
	if string(ra.Canonical()) != string(rb.Canonical()) {
		t.Errorf("layout changed the canonical encoding:\n%s\n%s", ra.Canonical(), rb.Canonical())
	}
	if string(ra.Canonical()) == string(rc.Canonical()) {
		t.Errorf("a changed label did not change the canonical encoding")
	}
}

// TestDecisionByteOrderMark: a reference saved with a byte-order mark (as
// some editors save UTF-8) is read as without it, canonical form included:
// the mark is no part of what the author wrote.
func TestDecisionByteOrderMark(t *testing.T) {
	a := `{"format": "citecheck-reference/1.5", "questions": [{"id": "Q1", "question": "q", "required_fields": [{"field": "f", "label": "F"}], "expected_abstention": true}]}`
	ra, err := spans.Decode([]byte(a), "a")
	if err != nil {
		t.Fatal(err)
	}
	rb, err := spans.Decode([]byte("\uFEFF"+a), "b")
	if err != nil {
		t.Fatalf("a reference with a byte-order mark: %v", err)
	}
	if string(ra.Canonical()) != string(rb.Canonical()) {
		t.Errorf("the mark changed the canonical encoding")
	}
}

// TestStatementsKeepTheirForm: the statements' list form encodes as a list
// and the object form as an object, so a file in either form keeps its
// canonical encoding (and freeze's locks); For reads both.
func TestStatementsKeepTheirForm(t *testing.T) {
	for _, tc := range []struct {
		name, members, canonical string
		forF, forG               []string
	}{
		{"list", `"statements": ["S1", "S2"]`, `"statements":["S1","S2"]`, []string{"S1", "S2"}, []string{"S1", "S2"}},
		{"empty list", `"statements": []`, `"statements":[]`, nil, nil},
		{"object", `"statements": {"g": [], "f": ["S1"]}`, `"statements":{"f":["S1"],"g":[]}`, []string{"S1"}, nil},
		{"empty object", `"statements": {}`, `"statements":{}`, nil, nil},
		{"source names", `"source_names": ["the d", "d.pdf"], "statements": ["a & b"]`, `"source_names":["the d","d.pdf"],"statements":["a & b"]`, []string{"a & b"}, []string{"a & b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ref, err := spans.Decode([]byte(unknownWith(tc.members)), "r.json")
			if err != nil {
				t.Fatal(err)
			}
			canon := string(ref.Canonical())
			want := `"absence_audit":{"topic":"t","sources":["d.pdf"],` + tc.canonical + `}`
			if !strings.Contains(canon, want) {
				t.Errorf("canonical encoding\n got %s\nwant it to hold %s", canon, want)
			}
			back, err := spans.Decode([]byte(canon), "c.json")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back.Questions, ref.Questions) || string(back.Canonical()) != canon {
				t.Errorf("the canonical encoding does not decode to the same reference")
			}
			if part := string(spans.QuestionParts(&ref.Questions[0])["absence_audit"]); !strings.Contains(want, part) {
				t.Errorf("QuestionParts absence_audit %s", part)
			}
			a := ref.Questions[0].AbsenceAudit
			if got := a.Statements.For("f"); !slices.Equal(got, tc.forF) {
				t.Errorf("For(f) = %q, want %q", got, tc.forF)
			}
			if got := a.Statements.For("g"); !slices.Equal(got, tc.forG) {
				t.Errorf("For(g) = %q, want %q", got, tc.forG)
			}
			// encoding/json reads the form back too.
			var viaJSON spans.Reference
			if err := json.Unmarshal([]byte(canon), &viaJSON); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(viaJSON.Questions[0].AbsenceAudit.Statements.All(), a.Statements.All()) {
				t.Errorf("encoding/json read %+v", viaJSON.Questions[0].AbsenceAudit.Statements)
			}
		})
	}
}
