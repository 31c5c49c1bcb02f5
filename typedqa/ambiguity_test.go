package typedqa

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The tests in this file pin the readings docs/typed.md states (marked
// "Reading") for the places where the rubric is silent or contradicts
// itself.

// TestAmbiguityPartialCreditMarker: the rubric gives "?" answers on Q2
// partial credit while calling integers exact. Reading (docs/typed.md,
// Question marks in answers): character accuracy for answers containing the
// question's partial_credit_marker, exact matching for every other integer
// answer; the rule follows the questions file, not the id "Q2".
func TestAmbiguityPartialCreditMarker(t *testing.T) {
	qs, err := ReadQuestions(strings.NewReader(`{"questions": [
{"id": "year", "type": "integer", "partial_credit_marker": "?"},
{"id": "Q2", "type": "integer"}]}`), "q.json")
	if err != nil {
		t.Fatal(err)
	}
	year, _ := qs.Lookup("year")
	plain, _ := qs.Lookup("Q2")
	tests := []struct {
		q      Question
		answer string
		score  float64
		reason string
		why    string
	}{
		{year, "176?", 0.75, ReasonPartialCredit, "marker present: 1 edit of 4"},
		{year, "?", 0, ReasonPartialCredit, "all unreadable: 4 edits of 4"},
		{year, "1766", 0, ReasonMismatch, "no marker: exact, so a near miss earns nothing"},
		{year, "1767", 1, ReasonMatch, "no marker: exact"},
		{plain, "176?", 0, ReasonInvalidAnswer, "a question named Q2 without the option gets no partial credit"},
	}
	for _, tc := range tests {
		s, err := ScoreAnswer(tc.q, nil, "1767", tc.answer)
		if err != nil {
			t.Fatal(err)
		}
		if *s.Score != tc.score || s.Reason != tc.reason {
			t.Errorf("%s %q: %v %s, want %v %s (%s)", tc.q.ID, tc.answer, *s.Score, s.Reason, tc.score, tc.reason, tc.why)
		}
	}
}

// TestAmbiguityEmptyListAgainstEmptyTruth: the rubric scores a blank
// answer against a non-empty list (0) but not an empty list against an
// empty ground truth. Reading (docs/typed.md, Text arrays): correct, score
// 1, counted in the base, as for the string (blank against blank is
// correct there); lists have no blank_when in the default questions, so
// "excluded" would hide a correct "there are none".
func TestAmbiguityEmptyListAgainstEmptyTruth(t *testing.T) {
	for _, answer := range []string{"", "  ", " | "} {
		s, err := ScoreAnswer(mustQuestion(t, "Q12"), DefaultDictionary(), "", answer)
		if err != nil {
			t.Fatal(err)
		}
		assert.Equal(t, OutcomeCorrect, s.Outcome, "answer %q against an empty ground truth", answer)
		assert.Equal(t, ReasonBothBlank, s.Reason, "answer %q", answer)
		if assert.NotNil(t, s.Score, "answer %q", answer) {
			assert.Equal(t, 1.0, *s.Score, "answer %q", answer)
		}
	}
	m, _ := MatchEntries(nil, nil, OrderAny)
	if m.F1 != 1 {
		t.Errorf("MatchEntries(empty, empty) F1 = %v, want 1 like the scorer", m.F1)
	}
}

// TestAmbiguityDictionaryListsOnly: the rubric's last pre-processing step
// reads as if the dictionary applied to every comparison, while the
// dictionary itself is said to serve the text array questions (Q10, Q12,
// Q22). Reading (docs/typed.md, Equivalence dictionary): lists only; Q5
// compares the characters as written.
func TestAmbiguityDictionaryListsOnly(t *testing.T) {
	d := DefaultDictionary()
	s, err := ScoreAnswer(mustQuestion(t, "Q5"), d, "figliuolo Rossi", "fig.lo Rossi")
	if err != nil {
		t.Fatal(err)
	}
	if want := CharAccuracy("figliuolo rossi", "fig.lo rossi"); *s.Score != want || want == 1 {
		t.Errorf("Q5 score %v, want plain character accuracy %v", *s.Score, want)
	}
	l, err := ScoreAnswer(mustQuestion(t, "Q22"), d, "figliuolo Rossi", "fig.lo Rossi")
	if err != nil {
		t.Fatal(err)
	}
	if *l.Score != 1 {
		t.Errorf("Q22 score %v, want 1 after expansion", *l.Score)
	}
}

// TestAmbiguityFirstWordsAfterPreprocessing: "take the first two words"
// counts words that survive pre-processing, so a stray comma is not a word
// (docs/typed.md, Text arrays).
func TestAmbiguityFirstWordsAfterPreprocessing(t *testing.T) {
	s, err := ScoreAnswer(mustQuestion(t, "Q10"), nil, "moglie di Zuanne", "moglie , di Piero")
	if err != nil {
		t.Fatal(err)
	}
	if *s.Score != 1 {
		t.Errorf("score %v, want 1: the first two words are moglie di", *s.Score)
	}
}

// TestAmbiguityGradedCounts: for types scored by a fraction (strings,
// lists, partial-credit integers) "correct" counts items with full credit
// and "incorrect" the rest; the score is the mean of the fractions, not
// correct/(correct+incorrect) (docs/typed.md, Pooling).
func TestAmbiguityGradedCounts(t *testing.T) {
	rep := mustScore(t, "document,question,value\nd,Q22,a | b\n",
		"model,condition,run,document,question,value\nm,c,1,d,Q22,a | b\nm,c,2,d,Q22,a\n")
	r := rep.Results[0]
	assert.Equal(t, []int{1, 1}, []int{r.Correct, r.Incorrect}, "correct, incorrect")
	assert.Equal(t, "0.833333", formatFixed(*r.Score), "the mean (1 + 2/3)/2")
}

// TestAmbiguityRunsPooledByItem: pooling runs means one mean over every
// (document, run) item, not a mean of per-run means; with an excluded item
// in one run only, the two differ (docs/typed.md, Pooling).
func TestAmbiguityRunsPooledByItem(t *testing.T) {
	truth := "document,question,value\nd,Q1,Y\nd,Q2,1767\ne,Q1,N\ne,Q2,\n"
	resp := "model,condition,run,document,question,value\n" +
		"m,c,1,d,Q1,Y\nm,c,1,d,Q2,1767\nm,c,1,e,Q1,N\nm,c,1,e,Q2,\n" +
		"m,c,2,d,Q1,Y\nm,c,2,d,Q2,1700\nm,c,2,e,Q1,N\nm,c,2,e,Q2,1800\n"
	r := mustScore(t, truth, resp).Results[1]
	// Items: 1, excluded, 0, 0 -> 1/3 (per-run means would give (1 + 0)/2).
	if formatFixed(*r.Score) != "0.333333" {
		t.Errorf("Q2 score %v, want 1/3", *r.Score)
	}
}
