package grade

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/internal/testcorpus"

	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/spans"
)

// TestExpectedForFixtureReference classifies, for every declared evidence
// span of the demo reference, the citation that quotes exactly that span
// on its page: each must pass; the same quote with its first digit or
// first word changed must not.
func TestExpectedForFixtureReference(t *testing.T) {
	ref, err := spans.Decode(fixtures.Reference(), fixtures.ReferenceName)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := citations.Build(testcorpus.Memory(t, testcorpus.DemoDocuments()), citations.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for i := range ref.Questions {
		q := &ref.Questions[i]
		exp, err := ExpectedFor(q)
		if err != nil {
			t.Fatalf("%s: %v", q.ID, err)
		}
		if q.ExpectedAbstention {
			if len(exp.Evidence) != 0 || len(exp.CanonicalValues) != 0 {
				t.Errorf("%s: an unknown question has evidence %v and values %q", q.ID, exp.Evidence, exp.CanonicalValues)
			}
			continue
		}
		for _, c := range q.EssentialClaims {
			if !slices.Contains(exp.CanonicalValues, c.Value) {
				t.Errorf("%s: claim value %q not among the canonical values %q", q.ID, c.Value, exp.CanonicalValues)
			}
			for _, s := range c.Evidence {
				v := Classify(ix, citations.Citation{Document: s.Document, Page: s.Page, Quote: s.Text}, nil, exp)
				if v.Outcome != Pass || v.Reason != ReasonDeclaredSpan {
					t.Errorf("%s: quoting the declared span %q: %s %s (%s)", q.ID, s.Text, v.Outcome, v.Reason, v.Detail)
				}
				checked++
				changed := changeFirst(s.Text)
				if v := Classify(ix, citations.Citation{Document: s.Document, Page: s.Page, Quote: changed}, nil, exp); v.Outcome == Pass {
					t.Errorf("%s: the changed quote %q passed", q.ID, changed)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("the demo reference declared no evidence span")
	}
}

// changeFirst changes the first digit of s, or else its first letter.
func changeFirst(s string) string {
	r := []rune(s)
	for i, c := range r {
		if c >= '0' && c <= '8' {
			r[i] = c + 1
			return string(r)
		}
	}
	for i, c := range r {
		if c >= 'a' && c <= 'y' {
			r[i] = c + 1
			return string(r)
		}
	}
	return s + " x"
}

func TestExpectedForMissingOffsets(t *testing.T) {
	q := &spans.Question{ID: "Q9", EssentialClaims: []spans.Claim{{Field: "f", Value: "10 days", Evidence: []spans.Span{{Document: "a.pdf", Page: 2, Text: "within 10 days"}}}}}
	_, err := ExpectedFor(q)
	var mo *MissingOffsetsError
	if !errors.As(err, &mo) || mo.Question != "Q9" || len(mo.Spans) != 1 || !strings.Contains(err.Error(), "a.pdf p2") {
		t.Fatalf("got %v; want a MissingOffsetsError naming Q9's span on a.pdf p2", err)
	}
}

// TestDecisionUnknownQuestionEvidence: abstention evidence is for the
// author's audit, not a supporting span, so a grounded citation on an
// answer to an unknown question fails wrong_fact.
func TestDecisionUnknownQuestionEvidence(t *testing.T) {
	start, end := 0, 15
	q := &spans.Question{ID: "Q5", ExpectedAbstention: true, AnswerFields: map[string]string{"f": spans.Unknown},
		RequiredFields:     []spans.RequiredField{{Field: "f", Label: "F"}},
		AbstentionEvidence: []spans.Span{{Document: "policy.pdf", Page: 1, Start: &start, End: &end, Text: "Delivery terms."}}}
	exp, err := ExpectedFor(q)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := citations.Build(testcorpus.Memory(t, verdictDocuments), citations.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := Classify(ix, citations.Citation{Document: "policy.pdf", Page: 1, Quote: "Delivery terms."}, nil, exp)
	if v.Outcome != Fail || v.Reason != ReasonWrongFact {
		t.Errorf("citing the abstention evidence: %s %s; want fail wrong_fact", v.Outcome, v.Reason)
	}
}

// TestCrossPageEvidence: a declared span across a page break (spans'
// end_page) is contained by a quote across that break, with the page's
// furniture between; not by the part on either page alone.
func TestCrossPageEvidence(t *testing.T) {
	ix, err := citations.Build(testcorpus.Memory(t, verdictDocuments), citations.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p1 := ev(t, "policy.pdf", 1, "Late orders are charged 2.5% per day.")
	p2 := ev(t, "policy.pdf", 2, "Payment terms.")
	span := EvidenceSpan{Document: "policy.pdf", Page: 1, Start: p1.Start, EndPage: 2, End: p2.End}
	exp := Expected{Evidence: []EvidenceSpan{span}}
	tests := []struct {
		quote string
		want  Outcome
		why   string
	}{
		{"Late orders are charged 2.5% per day. Payment terms.", Pass, "the quote crosses the break over the footer"},
		{"charged 2.5% per day. Payment terms. Invoices are paid", Fail, "starts inside the span"},
		{"Late orders are charged 2.5% per day.", Fail, "the first page's part alone"},
		{"Payment terms. Invoices are paid within 45 calendar days", Fail, "the second page's part alone"},
	}
	for _, tt := range tests {
		v := Classify(ix, citations.Citation{Document: "policy.pdf", Quote: tt.quote}, nil, exp)
		if v.Outcome != tt.want {
			t.Errorf("%q: %s %s (%s); want %s: %s", tt.quote, v.Outcome, v.Reason, v.Detail, tt.want, tt.why)
		}
	}
}
