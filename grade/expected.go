package grade

import (
	"fmt"
	"slices"
	"strings"

	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/citecheck/citecheck/spans"
)

// MissingOffsetsError reports declared evidence spans whose offsets are not
// yet known: the classifier compares offsets, so the reference must first
// go through "citecheck spans --fix" (which fills them where the text
// occurs once).
type MissingOffsetsError struct {
	Question string
	Spans    []string // "claim FIELD evidence #N (DOC p PAGE)"
}

// Is makes the error an input fault (inputerr.ErrInput): the reference
// is to be fixed.
func (e *MissingOffsetsError) Is(target error) bool { return target == inputerr.ErrInput }

func (e *MissingOffsetsError) Error() string {
	return fmt.Sprintf("question %s: %d evidence span(s) without offsets (run citecheck spans --fix): %s",
		e.Question, len(e.Spans), strings.Join(e.Spans, "; "))
}

// ExpectedFor takes the classifier's ground truth for one question from a
// reference:
//
//   - Evidence: every essential claim's evidence spans, in claim order;
//   - CanonicalValues: the answer_fields values, the accepted_alternatives,
//     and each claim's value and legacy accepted_values, in that order,
//     without duplicates and without the "UNKNOWN" of an unknown question.
//
// abstention_evidence is not evidence here: the policy keeps it for the
// author's source audit, and a clean abstention cites nothing. An unknown
// question therefore has no evidence and no values and sets Abstain: its
// grounded citations fail wrong_fact at any match level (docs/grading.md,
// Readings; TestDecisionUnknownQuestionEvidence).
// Spans without offsets are an error (*MissingOffsetsError), never
// silently dropped.
func ExpectedFor(q *spans.Question) (Expected, error) {
	exp := Expected{Abstain: q.ExpectedAbstention}
	var missing []string
	for ci, c := range q.EssentialClaims {
		for k, s := range c.Evidence {
			start, end, ok := s.Offsets()
			if !ok {
				missing = append(missing, fmt.Sprintf("claim %s evidence #%d (%s p%d)", c.Field, k+1, s.Document, s.Page))
				continue
			}
			exp.Evidence = append(exp.Evidence, EvidenceSpan{Document: s.Document, Page: s.Page, Start: start, End: end, EndPage: s.EndPage, Text: s.Text, Claim: ci})
		}
	}
	if len(missing) > 0 {
		return Expected{}, &MissingOffsetsError{Question: q.ID, Spans: missing}
	}
	add := func(v string) {
		if v != "" && v != spans.Unknown && !slices.Contains(exp.CanonicalValues, v) {
			exp.CanonicalValues = append(exp.CanonicalValues, v)
		}
	}
	for _, f := range q.RequiredFields {
		add(q.AnswerFields[f.Field])
		for _, a := range q.AcceptedAlternatives[f.Field] {
			add(a)
		}
	}
	for _, c := range q.EssentialClaims {
		add(c.Value)
		for _, a := range c.AcceptedValues {
			add(a)
		}
	}
	return exp, nil
}
