package spans_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/spans"
)

// TestFixKeepsLayout: Fix inserts the offsets after "page", inline in a
// one-line object and on lines of their own, indented like "page", in a
// multi-line one; every other byte is kept.
func TestFixKeepsLayout(t *testing.T) {
	in := `{"format": "citecheck-reference/1.5", "questions": [
  {"id": "Q01", "question": "When?",
   "required_fields": [{"field": "deadline", "label": "Deadline"}],
   "expected_abstention": false,
   "answer_fields": {"deadline": "10 working days"},
   "essential_claims": [{"field": "deadline", "value": "10 working days", "evidence": [
     {"document": "supplier-policy.pdf", "page": 1, "text": "` + orders + `"},
     {
       "document": "supplier-policy.pdf",
       "page": 2,
       "text": "Invoices are paid within 45 calendar days"
     }
   ]}]},
  {"id": "U01", "question": "Footer?",
   "required_fields": [{"field": "x", "label": "X"}],
   "expected_abstention": true,
   "abstention_evidence": [{"document": "supplier-policy.pdf", "page": 1, "text": "Page 1\n3. Inspection"}]}
]}
`
	ref, err := spans.Decode([]byte(in), "refs.json")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := spans.Validate(ref, demoCorpus(t), spans.Options{Fill: true})
	if err != nil {
		t.Fatal(err)
	}
	got, err := spans.Fix(ref, rep)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer(
		`"page": 1, "text": "Orders`, `"page": 1, "start": 243, "end": 318, "text": "Orders`,
		"\"page\": 2,\n", "\"page\": 2,\n       \"start\": 223,\n       \"end\": 264,\n",
		`"page": 1, "text": "Page 1`, `"page": 1, "start": 481, "end": 13, "end_page": 2, "text": "Page 1`,
	).Replace(in)
	if string(got) != want {
		t.Errorf("Fix output:\n%s\nwant:\n%s", got, want)
	}
	if _, after := validate(t, got, spans.Options{}); after.HasErrors() || len(after.Fills) != 0 {
		t.Errorf("after Fix no error remains:\n%s", problems(after))
	}
}

// TestFixtureHasOffsets: the shipped reference holds every offset (it was
// completed by --fix; TestSoundReferenceHasNoProblems checks them).
func TestFixtureHasOffsets(t *testing.T) {
	ref, err := spans.Decode(fixtures.Reference(), "reference.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range ref.Questions {
		all := q.AbstentionEvidence
		for _, c := range q.EssentialClaims {
			all = append(all, c.Evidence...)
		}
		for _, s := range all {
			if _, _, ok := s.Offsets(); !ok {
				t.Errorf("%s: span %q has no offsets", q.ID, s.Text)
			}
		}
	}
}

func TestFixNeedsAFile(t *testing.T) {
	_, err := spans.Fix(&spans.Reference{Format: spans.Format}, &spans.Report{})
	if !errors.Is(err, spans.ErrNotFromFile) {
		t.Errorf("got %v", err)
	}
}
