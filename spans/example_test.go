package spans_test

import (
	"fmt"
	"log"

	"github.com/citecheck/citecheck/internal/testcorpus"
	"github.com/citecheck/citecheck/spans"
)

// Validate checks every evidence span of a reference against the corpus's
// stored page text: the document, the page, the text at the offsets. With
// Fill, a span given without offsets whose text occurs once on its page is
// filled (spans.Fix writes the filled reference).
func ExampleValidate() {
	store, remove, err := testcorpus.Import(map[string][]string{"policy.pdf": {"Orders are delivered within 10 working days."}})
	if err != nil {
		log.Fatal(err)
	}
	defer remove()
	ref, err := spans.Decode([]byte(`{"format": "citecheck-reference/1.5", "questions": [
  {"id": "Q01", "question": "When are orders delivered?",
   "required_fields": [{"field": "deadline", "label": "Deadline"}], "expected_abstention": false,
   "answer_fields": {"deadline": "10 working days"},
   "essential_claims": [{"field": "deadline", "value": "10 working days", "evidence": [
     {"document": "policy.pdf", "page": 1, "text": "within 10 working days"}]}]}]}`), "reference.json")
	if err != nil {
		log.Fatal(err) // a *spans.DecodeError with file:line:col and JSON path
	}

	rep, err := spans.Validate(ref, store, spans.Options{Fill: true})
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range rep.Problems {
		fmt.Println(p.Severity, p.Code)
	}
	for _, f := range rep.Fills {
		fmt.Printf("%s: [%d,%d)\n", f.Path, f.Start, f.End)
	}
	fmt.Println("errors:", rep.HasErrors())
	// Output:
	// info offsets_filled
	// questions[0].essential_claims[0].evidence[0]: [21,43)
	// errors: false
}
