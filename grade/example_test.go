package grade_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/runs"
	"github.com/citecheck/citecheck/spans"
)

// A harness grades one answer in process: a Grader over the corpus's
// index and the reference, then Grade on one run record. The record here
// is read from a line of JSON; a harness may fill a runs.Record itself.
// The first citation contains the declared span and passes; the second
// is a part of it, which may support the fact but needs review.
func ExampleGrader_Grade() {
	page := "Orders must be delivered within 10 working days of the purchase order date.\npolicy.pdf Page 1"
	texts, err := corpus.MemoryOf(map[string][]string{"policy.pdf": {page}})
	if err != nil {
		log.Fatal(err)
	}
	ix, err := citations.Build(texts, citations.Options{})
	if err != nil {
		log.Fatal(err)
	}
	ref, err := spans.Decode([]byte(`{"format": "citecheck-reference/1.5", "questions": [{
		"id": "Q01", "question": "Within how many days must suppliers deliver an order?",
		"required_fields": [{"field": "deadline", "label": "Delivery deadline"}], "expected_abstention": false,
		"answer_fields": {"deadline": "10 working days of the purchase order date"},
		"essential_claims": [{"field": "deadline", "value": "10 working days of the purchase order date",
			"evidence": [{"document": "policy.pdf", "page": 1, "start": 0, "end": 75,
				"text": "Orders must be delivered within 10 working days of the purchase order date."}]}]}]}`), "reference.json")
	if err != nil {
		log.Fatal(err)
	}
	g, err := grade.New(ix, ref, false)
	if err != nil {
		log.Fatal(err)
	}
	line := `{"arm": "A", "session": 1, "question": "Q01", "status": "ok", ` +
		`"response": "Delivery deadline: 10 working days of the purchase order date", ` +
		`"citations": [{"id": "c1", "document": "policy.pdf", "page": 1, "quote": "Orders must be delivered within 10 working days of the purchase order date."}, ` +
		`{"id": "c2", "document": "policy.pdf", "quote": "delivered within 10 working days of the purchase order date"}]}`
	recs, err := runs.ReadRecords(strings.NewReader(line+"\n"), "run.jsonl")
	if err != nil {
		log.Fatal(err)
	}
	r := g.Grade(&recs[0], "run.jsonl", grade.AttemptOK, 1)
	fmt.Println("deadline:", r.Fields["deadline"].Verdict, r.Fields["deadline"].Reasons)
	for _, c := range r.Citations {
		fmt.Println("citation", *c.ID+":", c.Verdict, c.Reason)
	}
	fmt.Println("factual:", *r.Factual, "supported:", *r.Supported)
	// Output:
	// deadline: correct [exact]
	// citation c1: pass declared_span
	// citation c2: unresolved alternate_evidence
	// factual: pass supported: pass
}
