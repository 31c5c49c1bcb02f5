package review_test

import (
	"strings"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/spans"
)

// The tests' evaluation: one document of two pages, an answerable
// question with one claim, one with two claims, an unknown question.
const (
	page1 = "Supplier quality manual\nThe supplier draws 12 samples per batch for dimensional checks.\nRecords are kept for 10 years."
	page2 = "Complaints\nA handling fee of EUR 150 applies per complaint.\nThe fee is waived for the first complaint in a calendar year."
)

// pages is a review.Pages over the two pages.
type pages map[string][]string

func (p pages) Text(doc string, page int) (string, bool) {
	ps, ok := p[doc]
	if !ok || page < 1 || page > len(ps) {
		return "", false
	}
	return ps[page-1], true
}

func corpusPages() pages { return pages{"qa.pdf": {page1, page2}} }

// at returns a sentence's span on its page, in code points (the pages are
// ASCII).
func at(page int, sentence string) citations.Span {
	text := []string{page1, page2}[page-1]
	i := strings.Index(text, sentence)
	if i < 0 {
		panic("not on the page: " + sentence)
	}
	return citations.Span{Page: page, Start: i, End: i + len(sentence)}
}

func evidence(page int, sentence string) spans.Span {
	s := at(page, sentence)
	return spans.Span{Document: "qa.pdf", Page: page, Start: &s.Start, End: &s.End, Text: sentence}
}

const (
	samplesSentence = "The supplier draws 12 samples per batch for dimensional checks."
	feeSentence     = "A handling fee of EUR 150 applies per complaint."
	waiverSentence  = "The fee is waived for the first complaint in a calendar year."
)

func reference() *spans.Reference {
	return &spans.Reference{Questions: []spans.Question{
		{ID: "Q1", Question: "How many samples does the supplier draw?", RequiredFields: []spans.RequiredField{{Field: "samples", Label: "Samples"}},
			AnswerFields:    map[string]string{"samples": "12 samples per batch"},
			EssentialClaims: []spans.Claim{{Field: "samples", Value: "12 samples per batch", Evidence: []spans.Span{evidence(1, samplesSentence)}}}},
		{ID: "Q2", Question: "What fee applies per complaint, and when is it waived?",
			RequiredFields: []spans.RequiredField{{Field: "fee", Label: "Fee"}, {Field: "waiver", Label: "Waiver"}},
			AnswerFields:   map[string]string{"fee": "EUR 150 per complaint", "waiver": "the first complaint in a calendar year"},
			EssentialClaims: []spans.Claim{
				{Field: "fee", Value: "EUR 150 per complaint", Evidence: []spans.Span{evidence(2, feeSentence)}},
				{Field: "waiver", Value: "the first complaint in a calendar year", Evidence: []spans.Span{evidence(2, waiverSentence)}}}},
		{ID: "U1", Question: "What volume discount applies?", RequiredFields: []spans.RequiredField{{Field: "discount", Label: "Discount"}},
			ExpectedAbstention: true, AnswerFields: map[string]string{"discount": "UNKNOWN"}},
	}}
}

func outcome(o grade.Outcome) *grade.Outcome { return &o }

func str(s string) *string { return &s }

func intp(n int) *int { return &n }

// cite is a citation result located at a sentence, its verdict the one
// its reason goes with.
func cite(id string, reason grade.Reason, page int, sentence string, claims ...string) grade.CitationResult {
	verdict := grade.Unresolved
	for _, r := range grade.Reasons {
		if r.Reason == reason {
			verdict = r.Outcome
		}
	}
	return grade.CitationResult{ID: str(id), Verdict: verdict, Reason: reason, Document: "qa.pdf", Cited: "document_index:0",
		Page: intp(page), Quote: str(sentence), Pages: []int{page}, Spans: []citations.Span{at(page, sentence)}, Claims: claims}
}

// samplesResult is an answer to Q1: its value per lot is open
// (unregistered_equivalent), its citation holds the fact in other words
// (alternate_evidence, here the declared sentence's first half).
func samplesResult(arm string, session, position int) grade.Result {
	return grade.Result{Arm: arm, Session: session, Question: "Q1", Position: position, Attempt: grade.AttemptOK, Kind: grade.KindAnswerable,
		Fields: map[string]grade.FieldVerdict{"samples": {Verdict: grade.Unresolved, Reasons: []grade.FieldReason{"unregistered_equivalent"},
			Value: "12 samples per lot", Target: "12 samples per batch", Details: []string{"'lot' for 'batch'"}}},
		Citations: []grade.CitationResult{cite("c1", grade.ReasonAlternateEvidence, 1, "The supplier draws 12 samples per batch")},
		Factual:   outcome(grade.Unresolved), Supported: outcome(grade.Unresolved),
		Claims:   []grade.ClaimResult{{Field: "samples", Supported: grade.Unresolved}},
		Response: "Samples: 12 samples per lot", Frozen: true, StopReason: "end_turn",
		Source: &grade.Source{File: "runs/" + arm + ".jsonl", Line: position}}
}

// feeResult is an answer to Q2: the fee is correct and cited by a declared
// span; the waiver's citation was found only with spaces ignored.
func feeResult(arm string, session, position int) grade.Result {
	return grade.Result{Arm: arm, Session: session, Question: "Q2", Position: position, Attempt: grade.AttemptOK, Kind: grade.KindAnswerable,
		Fields: map[string]grade.FieldVerdict{
			"fee":    {Verdict: grade.Correct, Reasons: []grade.FieldReason{"exact"}, Value: "EUR 150 per complaint", Target: "EUR 150 per complaint"},
			"waiver": {Verdict: grade.Correct, Reasons: []grade.FieldReason{"exact"}, Value: "the first complaint in a calendar year", Target: "the first complaint in a calendar year"}},
		Citations: []grade.CitationResult{
			cite("c1", grade.ReasonDeclaredSpan, 2, feeSentence, "fee"),
			cite("c2", grade.ReasonJoinedWords, 2, waiverSentence, "waiver"),
			{ID: str("c3"), Verdict: grade.Unresolved, Reason: grade.ReasonExternalSource, Cited: "https://example.com/fees", Quote: str("Fees apply.")}},
		Factual: outcome(grade.Pass), Supported: outcome(grade.Unresolved),
		Claims:   []grade.ClaimResult{{Field: "fee", Supported: grade.Pass}, {Field: "waiver", Supported: grade.Unresolved}},
		Response: "Fee: EUR 150 per complaint\nWaiver: the first complaint in a calendar year", Frozen: true}
}

// declineResult is an answer to U1, response as given.
func declineResult(arm string, session, position int, response string, o grade.Outcome) grade.Result {
	return grade.Result{Arm: arm, Session: session, Question: "U1", Position: position, Attempt: grade.AttemptOK, Kind: grade.KindUnknown,
		Fields: map[string]grade.FieldVerdict{}, Citations: []grade.CitationResult{}, Abstention: outcome(o),
		AbstentionReasons: []string{"other_decline"}, Response: response, Frozen: true}
}

// evaluation is two arms' results: the same open answers in both, one
// missing attempt, one clean decline.
func evaluation() []grade.Result {
	return []grade.Result{
		samplesResult("A", 1, 1), feeResult("A", 1, 2), declineResult("A", 1, 3, "I don't know.", grade.Unresolved),
		samplesResult("B", 1, 2), feeResult("B", 1, 1), declineResult("B", 1, 3, "UNKNOWN", grade.Pass),
		{Arm: "B", Session: 2, Question: "Q1", Position: 1, Attempt: grade.AttemptMissing, Kind: grade.KindAnswerable,
			Fields:    map[string]grade.FieldVerdict{"samples": {Verdict: grade.Incorrect, Reasons: []grade.FieldReason{"attempt_missing"}}},
			Citations: []grade.CitationResult{}, Factual: outcome(grade.Fail), Supported: outcome(grade.Fail)},
	}
}
