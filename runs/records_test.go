package runs

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/internal/shareddata"
	"github.com/citecheck/citecheck/internal/strictjson"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadRecords(t *testing.T) {
	good := `{"arm": "A", "session": 1, "question": "q01", "status": "ok", "response": "x", "citations": [{"id": "c1", "document": "a.pdf", "page": 2, "last_page": 3, "quote": "y", "native": {"Type": 1, "type": 2}}], "timing": {"total_ms": 12.5}}`
	_, err := ReadRecords(strings.NewReader(good+"\n"), "run.jsonl")
	require.ErrorIs(t, err, strictjson.ErrDuplicateKey, `"Type" and "type" in native differ only in case: refused even there`)
	good = strings.Replace(good, `"Type": 1, `, "", 1)
	runs, err := ReadRecords(strings.NewReader(good+"\n"), "run.jsonl")
	require.NoError(t, err)
	require.Len(t, runs, 1)
	assert.Equal(t, 1, runs[0].Line)
	bad := []struct{ name, in, field string }{
		{"session 0", `{"arm": "A", "session": 0, "question": "q", "status": "ok", "response": "", "citations": []}`, "session"},
		{"status", `{"arm": "A", "session": 1, "question": "q", "status": "done", "response": "", "citations": []}`, "status"},
		{"no citations key", `{"arm": "A", "session": 1, "question": "q", "status": "ok", "response": ""}`, "citations"},
		{"arm space", `{"arm": " A", "session": 1, "question": "q", "status": "ok", "response": "", "citations": []}`, "arm"},
		{"citation key", `{"arm": "A", "session": 1, "question": "q", "status": "ok", "response": "", "citations": [{"id": "c", "document": "a", "quote": "x", "pg": 1}]}`, "citations[0].pg"},
		{"duplicate id", `{"arm": "A", "session": 1, "question": "q", "status": "ok", "response": "", "citations": [{"id": "c", "document": "a", "quote": "x"}, {"id": "c", "document": "a", "quote": "x"}]}`, "citations[1].id"},
		{"timing key", `{"arm": "A", "session": 1, "question": "q", "status": "ok", "response": "", "citations": [], "timing": {"total": 3}}`, "timing.total"},
		{"retrieval not a list", `{"arm": "A", "session": 1, "question": "q", "status": "ok", "response": "", "citations": [], "retrieval": {"text": "x"}}`, "retrieval"},
		{"retrieval card not an object", `{"arm": "A", "session": 1, "question": "q", "status": "ok", "response": "", "citations": [], "retrieval": [{"text": "x"}, "y"]}`, "retrieval[1]"},
		{"retrieval card case variants", `{"arm": "A", "session": 1, "question": "q", "status": "ok", "response": "", "citations": [], "retrieval": [{"text": "x", "Text": "y"}]}`, "retrieval[0].Text"},
		{"documents empty list", `{"arm": "A", "session": 1, "question": "q", "status": "ok", "response": "", "citations": [], "documents": {"file-1": "a.pdf", "file-2": []}}`, "documents.file-2"},
		{"documents number", `{"arm": "A", "session": 1, "question": "q", "status": "ok", "response": "", "citations": [], "documents": {"file-2": 2}}`, "documents.file-2"},
		{"documents list of numbers", `{"arm": "A", "session": 1, "question": "q", "status": "ok", "response": "", "citations": [], "documents": {"file-2": ["a.pdf", 2]}}`, "documents.file-2"},
		{"documents a list", `{"arm": "A", "session": 1, "question": "q", "status": "ok", "response": "", "citations": [], "documents": ["a.pdf"]}`, "documents"},
	}
	for _, tc := range bad {
		_, err := ReadRecords(strings.NewReader(tc.in), "run.jsonl")
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != tc.field || ie.Line != 1 {
			t.Errorf("%s: %v (want field %q)", tc.name, err, tc.field)
		}
	}
}

// TestDocumentsFaultIsStable: a documents object with several values at
// fault is refused naming the same one every time, the first key in
// sorted order (as Validate checks documents), not whichever a map's
// iteration met first: the same file gives the same error (found by
// FuzzRecordsApart, reading a record once in its file and once alone).
func TestDocumentsFaultIsStable(t *testing.T) {
	in := `{"arm": "A", "session": 1, "question": "q", "status": "ok", "response": "", "citations": [], "documents": {"d": 2, "c": {}, "b": ["x.pdf", 2], "e": [1]}}`
	seen := map[string]bool{}
	for range 50 {
		_, err := ReadRecords(strings.NewReader(in), "run.jsonl")
		require.Error(t, err)
		seen[err.Error()] = true
	}
	assert.Equal(t, map[string]bool{"run.jsonl:1: documents.b: invalid value: expected string, found JSON array of non-strings": true}, seen)
}

// TestDocumentsNullIsNoName: a documents value of null names no document;
// encoding/json would read it as the name "".
func TestDocumentsNullIsNoName(t *testing.T) {
	in := `{"arm": "A", "session": 1, "question": "q", "status": "ok", "response": "", "citations": [], "documents": {"file-1": null}}`
	_, err := ReadRecords(strings.NewReader(in), "run.jsonl")
	require.Error(t, err)
	assert.Equal(t, "run.jsonl:1: documents.file-1: invalid value: expected string, found JSON null", err.Error())
}

// TestRecordRetrievalAndCandidates: a run record's retrieval cards are
// kept verbatim and shown with the record, never as citations; a documents
// value may list several candidate names.
func TestRecordRetrievalAndCandidates(t *testing.T) {
	in := `{"arm": "A", "session": 1, "question": "q", "status": "ok", "response": "x", "citations": [], ` +
		`"retrieval": [{"title": "price-list.pdf", "text": "Prices valid until 31 December 2024.", "score": 0.82, "extra": {"k": [1, 2.50]}}], ` +
		`"documents": {"file-1": "a.pdf", "file-2": ["warehouse-sop.pdf", "price-list.pdf"], "file-3": ["b.pdf"]}}`
	runs, err := ReadRecords(strings.NewReader(in), "run.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	r := runs[0]
	if len(r.Citations) != 0 || len(r.Retrieval) != 1 {
		t.Fatalf("retrieval cards are not citations: %+v", r)
	}
	if want := `{"title": "price-list.pdf", "text": "Prices valid until 31 December 2024.", "score": 0.82, "extra": {"k": [1, 2.50]}}`; string(r.Retrieval[0]) != want {
		t.Errorf("the card is not kept verbatim: %s", r.Retrieval[0])
	}
	if !slices.Equal(r.Documents["file-2"], []string{"warehouse-sop.pdf", "price-list.pdf"}) || !slices.Equal(r.Documents["file-3"], []string{"b.pdf"}) {
		t.Errorf("documents %v", r.Documents)
	}
	out, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"retrieval":[{"title":"price-list.pdf","text":"Prices valid until 31 December 2024.","score":0.82,"extra":{"k":[1,2.50]}}]`,
		`"documents":{"file-1":"a.pdf","file-2":["warehouse-sop.pdf","price-list.pdf"],"file-3":"b.pdf"}`,
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the record shows\n%s\nwithout\n%s", out, want)
		}
	}
	back, err := ReadRecords(bytes.NewReader(out), "again.jsonl")
	require.NoError(t, err, "a written record reads back")
	require.Len(t, back, 1)
	assert.Len(t, back[0].Retrieval, 1)
	assert.Equal(t, r.Documents["file-2"], back[0].Documents["file-2"])
}

// TestSharedGradingRuns: the grading examples' run records
// (../shared/grading/runs.jsonl, one with a list of candidate documents)
// read without error.
func TestSharedGradingRuns(t *testing.T) {
	f, err := os.Open(shareddata.Path(t, "grading/runs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	runs, err := ReadRecords(f, "runs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 64 {
		t.Errorf("%d records, want 64", len(runs))
	}
	lists := 0
	for _, r := range runs {
		for _, names := range r.Documents {
			if len(names) > 1 {
				lists++
			}
		}
	}
	if lists == 0 {
		t.Error("no record maps a document to several candidates any more: this test reads that form")
	}
}

// TestLongLineRefused: a run record line over MaxLineBytes (10 MB here) is
// an input error naming the file and line, found before the line is held
// whole; the test streams the line rather than building it.
func TestLongLineRefused(t *testing.T) {
	if MaxLineBytes != 8<<20 {
		t.Fatalf("MaxLineBytes is %d", MaxLineBytes)
	}
	good := `{"arm": "A", "session": 1, "question": "q", "status": "ok", "response": "x", "citations": []}` + "\n"
	long := io.MultiReader(
		strings.NewReader(good),
		strings.NewReader(`{"arm": "A", "session": 1, "question": "q", "status": "ok", "citations": [], "response": "`),
		io.LimitReader(repeatReader('a'), 10_000_000),
		strings.NewReader(`"}`+"\n"),
	)
	_, err := ReadRecords(long, "big.jsonl")
	var ie *InputError
	if !errors.As(err, &ie) || !errors.Is(err, strictjson.ErrTooLarge) || ie.File != "big.jsonl" || ie.Line != 2 {
		t.Fatalf("a 10 MB line: %v, want strictjson.ErrTooLarge at big.jsonl:2", err)
	}
	if !strings.HasPrefix(err.Error(), "big.jsonl:2: ") {
		t.Errorf("message %q does not start with file:line", err)
	}
	// Native formats share the limit.
	_, err = ReadRuns(io.LimitReader(repeatReader(' '), 10_000_000), "big.jsonl", "gemini")
	if !errors.As(err, &ie) || !errors.Is(err, strictjson.ErrTooLarge) || ie.Line != 1 {
		t.Errorf("native format: %v", err)
	}
}

// repeatReader is an endless stream of one byte.
type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// TestRunDecoderAgreesWithEncodingJSON: the tree decoder of run records
// gives what encoding/json gives, value for value, and refuses what it
// refuses, with the field at fault.
func TestRunDecoderAgreesWithEncodingJSON(t *testing.T) {
	tests := []struct {
		line, field string
		why         string
	}{
		{`{"arm": "A", "session": 2, "question": "q1", "status": "ok", "response": "r", "citations": [{"id": "c1", "document": "a.pdf", "page": 2, "last_page": 3, "page_label": "ii", "quote": "x", "claim": "c", "native": {"k": [1, 2]}}], "fields": {"f": "v"}, "stop_reason": "eos", "format": "run", "retrieval": [{"t": 1}], "documents": {"k": "a.pdf", "l": ["a.pdf", "b.pdf"]}, "timing": {"retrieval_ms": 1.5, "embedding_ms": 2, "prompt_ms": 3e2, "generation_ms": 4, "total_ms": 5, "cold_start_ms": 6, "indexing_ms": 7}}`, "", "every field"},
		{`{"arm": null, "session": null, "question": "q1", "status": "ok", "response": null, "citations": [{"id": "c1", "document": "a.pdf", "quote": null, "page": null}], "fields": null, "timing": null, "retrieval": null, "documents": null}`, "", "nulls leave zero values"},
		{`{"arm": "A", "session": "1", "question": "q1", "status": "ok", "response": "r", "citations": []}`, "session", "a string for an int"},
		{`{"arm": "A", "session": 1.5, "question": "q1", "status": "ok", "response": "r", "citations": []}`, "session", "a fraction for an int"},
		{`{"arm": "A", "session": 1, "question": "q1", "status": "ok", "response": 5, "citations": []}`, "response", "a number for a string"},
		{`{"arm": "A", "session": 1, "question": "q1", "status": "ok", "response": "r", "citations": [{"id": "c1", "document": "a.pdf", "page": "2"}]}`, "citations[0].page", "a nested type fault"},
		{`{"arm": "A", "session": 1, "question": "q1", "status": "ok", "response": "r", "citations": [], "timing": {"total_ms": "x"}}`, "timing.total_ms", "a string for a float"},
		{`{"arm": "A", "session": 1, "question": "q1", "status": "ok", "response": "r", "citations": [], "fields": {"f": 1}}`, "fields.f", "a number in the fields map"},
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			data := []byte(tt.line)
			v, err := parseRunLine(data)
			if err != nil {
				t.Fatal(err)
			}
			var got Record
			field, err := decodeRunRecord(v, data, &got)
			var want Record
			jerr := json.Unmarshal(data, &want)
			if (err == nil) != (jerr == nil) {
				t.Fatalf("tree decoder: %v; encoding/json: %v", err, jerr)
			}
			if err != nil {
				if field != tt.field {
					t.Errorf("field %q, want %q (%v)", field, tt.field, err)
				}
				return
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("tree decoder:\n%+v\nencoding/json:\n%+v", got, want)
			}
		})
	}
}

// TestUnknownKeySaysWhatWasMeant: a misspelt key of a run record names the
// key it probably stands for and every key a record may hold.
func TestUnknownKeySaysWhatWasMeant(t *testing.T) {
	in := `{"arm": "A", "session": 1, "question_id": "q", "status": "ok", "response": "", "citations": []}`
	_, err := ReadRecords(strings.NewReader(in), "run.jsonl")
	require.ErrorIs(t, err, strictjson.ErrUnknownKey)
	assert.Equal(t, `run.jsonl:1: question_id: unknown key (did you mean "question"?); the keys it may hold: arm, citations, documents, fields, format, question, response, retrieval, session, status, stop_reason, timing, unread`, err.Error())
}

// TestDecisionMalformedCitationIsKept: a citation whose own values cannot
// be read as given (a page below 1, a range that ends before it starts, no
// document named) is kept with its fault, and the record is read: a run is
// evidence of what the system did, and one bad citation must not refuse
// the whole file. A record that is no run record stays an input error.
func TestDecisionMalformedCitationIsKept(t *testing.T) {
	rec := func(cite string) string {
		return `{"arm": "A", "session": 1, "question": "q", "status": "ok", "response": "x", "citations": [` + cite + `, {"id": "ok", "document": "a.pdf", "quote": "x"}]}`
	}
	lm := func(page string) string {
		return `{"arm": "B", "session": 1, "question": "q", "response": {"role": "assistant", "content": [{"type": "citation", "citedText": "x", "fileName": "a.pdf", "pageNumber": ` + page + `}, {"type": "citation", "citedText": "y", "fileName": "a.pdf", "pageNumber": 2}]}}`
	}
	for _, tc := range []struct {
		format, in, fault, why string
	}{
		{"run", rec(`{"id": "c", "document": "a.pdf", "quote": "x", "page": 0}`), "page 0: pages are 1-based", "a 0-based page"},
		{"run", rec(`{"id": "c", "document": "a.pdf", "quote": "x", "last_page": 2}`), "last_page 2 without a page", "a range without its start"},
		{"run", rec(`{"id": "c", "document": "a.pdf", "quote": "x", "page": 3, "last_page": 2}`), "pages 3 to 2: the range ends before it starts", "a range backwards"},
		{"run", rec(`{"id": "c", "document": " ", "quote": "x"}`), "it names no document", "no document"},
		{"lmstudio", lm(`0`), "pageNumber 0: 0 (LM Studio page numbers are read as 1-based)", "LM Studio's page 0"},
		{"lmstudio", lm(`[2, 1]`), "pageNumber [2,1]: [2, 1] (want 1 <= start <= end; pages are read as 1-based)", "a range that ends before it starts"},
		{"lmstudio", lm(`[3]`), "pageNumber [3]: want a page number or a [start, end] pair", "a range of one number"},
	} {
		recs, err := ReadRuns(strings.NewReader(tc.in+"\n"), "r.jsonl", tc.format)
		require.NoError(t, err, tc.why)
		require.Len(t, recs, 1, tc.why)
		require.Len(t, recs[0].Citations, 2, "%s: every citation kept", tc.why)
		assert.Equal(t, tc.fault, recs[0].Citations[0].Fault, tc.why)
		assert.Empty(t, recs[0].Citations[1].Fault, "%s: the other citation is not at fault", tc.why)
	}
	_, err := ReadRuns(strings.NewReader(`{"arm": "A", "session": 1, "question": "q", "status": "ok", "response": "x", "citations": [{"id": "c", "document": "a.pdf", "quote": "x", "page": "3"}]}`+"\n"), "r.jsonl", "run")
	assert.ErrorIs(t, err, strictjson.ErrValue, "a page that is not a number is no run record: the file is refused")
}
