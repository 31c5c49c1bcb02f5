package citations

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/internal/strictjson"
	"github.com/citecheck/citecheck/runs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadLocateRequests(t *testing.T) {
	in := "\uFEFF{\"id\": \"q1\", \"document\": \"a.pdf\", \"quote\": \"x y\", \"page\": 2}\n\n{\"id\": \"q2\", \"document\": \"a.pdf\", \"quote\": \"z\", \"page_label\": \"iv\"}"
	reqs, err := ReadLocateRequests(strings.NewReader(in), "q.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	require.Len(t, reqs, 2)
	assert.Equal(t, Query{Document: "a.pdf", Quote: "x y", Page: 2}, reqs[0].Query())
	assert.Equal(t, Query{Document: "a.pdf", Quote: "z", PageLabel: "iv"}, reqs[1].Query())
	bad := []struct {
		name, in string
		line     int
		field    string
		err      error
	}{
		{"unknown key", `{"id": "q", "document": "a", "quote": "x", "pages": 2}`, 1, "pages", strictjson.ErrUnknownKey},
		{"case variant", `{"id": "q", "document": "a", "Quote": "x"}`, 1, "Quote", strictjson.ErrUnknownKey},
		{"duplicate", `{"id": "q", "document": "a", "quote": "x", "quote": "y"}`, 1, "quote", strictjson.ErrDuplicateKey},
		{"duplicate in case", `{"id": "q", "document": "a", "quote": "x", "QUOTE": "y"}`, 1, "QUOTE", strictjson.ErrDuplicateKey},
		{"missing quote", `{"id": "q", "document": "a"}`, 1, "quote", strictjson.ErrMissing},
		{"empty quote", `{"id": "q", "document": "a", "quote": "  "}`, 1, "quote", strictjson.ErrValue},
		{"quote too long", `{"id": "q", "document": "a", "quote": "` + strings.Repeat("x", MaxQuoteBytes+1) + `"}`, 1, "quote", strictjson.ErrTooLarge},
		{"missing id", `{"document": "a", "quote": "x"}`, 1, "id", strictjson.ErrMissing},
		{"page zero", `{"id": "q", "document": "a", "quote": "x", "page": 0}`, 1, "page", strictjson.ErrValue},
		{"page type", `{"id": "q", "document": "a", "quote": "x", "page": "3"}`, 1, "page", strictjson.ErrValue},
		{"second line", "{\"id\": \"q\", \"document\": \"a\", \"quote\": \"x\"}\n{\"id\": 5}", 2, "id", strictjson.ErrValue},
		{"syntax", `{"id": "q", "document": "a", "quote": "x"`, 1, "", strictjson.ErrValue},
		{"trailing data", `{"id": "q", "document": "a", "quote": "x"} {}`, 1, "", nil},
		{"invalid utf-8", "{\"id\": \"q\", \"document\": \"a\", \"quote\": \"\xff\"}", 1, "", strictjson.ErrInvalidUTF8},
		{"not an object", `["q"]`, 1, "", strictjson.ErrValue},
	}
	for _, tc := range bad {
		_, err := ReadLocateRequests(strings.NewReader(tc.in), "q.jsonl")
		var ie *runs.InputError
		if !errors.As(err, &ie) || ie.File != "q.jsonl" || ie.Line != tc.line || ie.Field != tc.field || (tc.err != nil && !errors.Is(err, tc.err)) {
			t.Errorf("%s: %v (want line %d field %q %v)", tc.name, err, tc.line, tc.field, tc.err)
		}
	}
	// A quote of exactly MaxQuoteBytes is searched; one byte more is not.
	longest := `{"id": "q", "document": "a", "quote": "` + strings.Repeat("é", MaxQuoteBytes/2) + `"}`
	if reqs, err := ReadLocateRequests(strings.NewReader(longest), "q.jsonl"); err != nil || len(reqs) != 1 {
		t.Errorf("a quote of MaxQuoteBytes: %v", err)
	}
	_, err = ReadLocateRequests(strings.NewReader(`{"id": "q", "document": "a", "quote": "x", "page": 0}`), "q.jsonl")
	if err == nil || err.Error() != "q.jsonl:1: page: invalid value: 0 (pages are 1-based)" {
		t.Errorf("message: %v", err)
	}
}

func TestLocateRecordShape(t *testing.T) {
	ix := testIndex(t)
	rec := NewLocateRecord("q1", ix.Locate(Query{Document: "supplier-policy.pdf", Quote: "per working day. 3. Inspection"}))
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"q1","status":"unique","pages":[1,2],"spans":[{"page":1,"start":444,"end":460},{"page":2,"start":0,"end":13}],"match":"whitespace","crosses_page":true,"document":"supplier-policy.pdf","occurrences":1}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	rec = NewLocateRecord("q2", ix.Locate(Query{Document: "supplier-policy.pdf", Quote: "no such words anywhere at all"}))
	b, _ = json.Marshal(rec)
	if want := `{"id":"q2","status":"not_found","pages":[],"spans":[],"match":null,"document":"supplier-policy.pdf"}`; string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}
