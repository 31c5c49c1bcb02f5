package spans_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/spans"
	"github.com/stretchr/testify/require"
)

// FuzzDecodeReference feeds arbitrary bytes to the decoder and whatever it
// accepts to Validate (over an in-memory corpus) and Fix. Nothing may
// panic; every refusal is a *DecodeError; an accepted reference survives
// its canonical encoding; Fix's output decodes and leaves nothing to fill.
func FuzzDecodeReference(f *testing.F) {
	f.Add(fixtures.Reference())
	f.Add([]byte(refWith(`{"document": "a.pdf", "page": 1, "text": "x"}`)))
	f.Add([]byte(refWith(`{"document": "a.pdf", "page": 1, "start": 0, "end": 3, "end_page": 2, "text": "abc"}`)))
	f.Add([]byte(`{"format": "citecheck-reference/1.5", "questions": [{"id": "U", "question": "q", "required_fields": [{"field": "f", "label": "F"}], "expected_abstention": true, "absence_audit": {"topic": "t", "sources": ["a.pdf"], "statements": []}, "abstention_evidence": [{"document": "a.pdf", "page": 2, "text": "d\nx"}]}]}`))
	f.Add([]byte(`{"format": "citecheck-reference/1.5", "questions": [{"id": "U", "question": "q", "required_fields": [{"field": "f", "label": "F"}, {"field": "g", "label": "G"}], "expected_abstention": true, "absence_audit": {"topic": "t", "sources": ["a.pdf"], "source_names": ["the a", " "], "statements": {"f": ["s"], "g": [], "h": [""]}}}]}`))
	texts, err := corpus.MemoryOf(map[string][]string{
		"a.pdf": {"x abc x 10 days", "day 2 text\nmore"},
		"b.pdf": {"x"},
	})
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, data []byte) {
		ref, err := spans.Decode(data, "f.json")
		if err != nil {
			var de *spans.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("refusal is not a *DecodeError: %T %v", err, err)
			}
			return
		}
		back, err := spans.Decode(ref.Canonical(), "c.json")
		if err != nil {
			t.Fatalf("canonical encoding does not decode: %v", err)
		}
		if !reflect.DeepEqual(back.Questions, ref.Questions) {
			t.Fatalf("canonical round trip changed the questions")
		}
		rep, err := spans.Validate(ref, texts, spans.Options{Fill: true})
		if err != nil {
			t.Fatalf("validate: %v", err)
		}
		for _, p := range rep.Problems {
			_ = p.String()
		}
		fixed, err := spans.Fix(ref, rep)
		if err != nil {
			t.Fatalf("fix: %v", err)
		}
		ref2, err := spans.Decode(fixed, "f.json")
		if err != nil {
			t.Fatalf("fixed file does not decode: %v", err)
		}
		rep2, err := spans.Validate(ref2, texts, spans.Options{Fill: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep2.Fills) != 0 {
			t.Fatalf("after Fix, %d spans still to fill", len(rep2.Fills))
		}
	})
}
