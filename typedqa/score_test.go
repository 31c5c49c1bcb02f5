package typedqa

import (
	"math"
	"testing"
)

func mustQuestion(t *testing.T, id string) Question {
	t.Helper()
	q, ok := DefaultQuestions().Lookup(id)
	if !ok {
		t.Fatalf("default questions have no %s", id)
	}
	return q
}

// scoreCase is one row of the rule tables: the answer to a question against
// a ground truth, the expected verdict, and why.
type scoreCase struct {
	name    string
	q       string // question id in questions-default.json
	truth   string
	answer  string
	outcome Outcome
	score   float64 // ignored when noScore
	noScore bool    // excluded items and illegibility claims carry no score
	reason  string  // expected reason code
	why     string
}

func runScoreCases(t *testing.T, cases []scoreCase) {
	t.Helper()
	d := DefaultDictionary()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ScoreAnswer(mustQuestion(t, c.q), d, c.truth, c.answer)
			if err != nil {
				t.Fatalf("%s: unexpected error %v (%s)", c.name, err, c.why)
			}
			if got.Outcome != c.outcome || got.Reason != c.reason {
				t.Errorf("%s %q vs %q: got %s/%s, want %s/%s (%s)", c.q, c.answer, c.truth, got.Outcome, got.Reason, c.outcome, c.reason, c.why)
			}
			switch {
			case c.noScore && got.Score != nil:
				t.Errorf("%s: score %v, want none (%s)", c.name, *got.Score, c.why)
			case !c.noScore && got.Score == nil:
				t.Errorf("%s: no score, want %v (%s)", c.name, c.score, c.why)
			case !c.noScore && math.Abs(*got.Score-c.score) > 1e-12:
				t.Errorf("%s: score %.12f, want %.12f (%s)", c.name, *got.Score, c.score, c.why)
			}
		})
	}
}

// TestBooleanRules checks docs/typed.md, Booleans, with the pre-processing
// and illegible answers those rules rely on. It pins two readings:
// "illegible" against a blank boolean ground truth is a non-blank answer
// where none is expected, incorrect, not an illegibility claim
// (Q21_illegible_vs_blank; docs/typed.md, Illegible answers); and an
// answer that is no value of its type ("Yes") is incorrect, not an input
// error: any answer text is scorable, only ground-truth values are
// validated (also TestScoreAnswerRejectsBadTruth).
func TestBooleanRules(t *testing.T) {
	runScoreCases(t, []scoreCase{
		{"exact Y", "Q1", "Y", "Y", OutcomeCorrect, 1, false, ReasonMatch, "exact match after pre-processing"},
		{"case and trailing period", "Q1", "Y", " y. ", OutcomeCorrect, 1, false, ReasonMatch, "pre-processing: trim, strip trailing punctuation, ignore case"},
		{"wrong value", "Q3", "N", "Y", OutcomeIncorrect, 0, false, ReasonMismatch, "wrong value: incorrect"},
		{"illegible claim", "Q4", "Y", "Illegible", OutcomeIllegible, 0, true, ReasonIllegibleClaim, "illegible against a definite value is an illegibility claim, recorded apart"},
		{"blank where expected", "Q6", "N", "", OutcomeIncorrect, 0, false, ReasonBlankAnswer, "blank where a value is expected: incorrect"},
		{"Q21 blank vs blank", "Q21", "", "", OutcomeExcluded, 0, true, ReasonBothBlank, "blank when GT blank (Q19=0): excluded from the base"},
		{"Q21 answer vs blank", "Q21", "", "N", OutcomeIncorrect, 0, false, ReasonAnswerWhereBlank, "non-blank when GT is blank: incorrect"},
		{"Q21 illegible vs blank", "Q21", "", "illegible", OutcomeIncorrect, 0, false, ReasonAnswerWhereBlank, "illegible is non-blank; GT has no definite value, so it is not a claim"},
		{"Yes is not Y", "Q1", "Y", "Yes", OutcomeIncorrect, 0, false, ReasonInvalidAnswer, "permitted responses are Y, N, illegible, blank"},
		{"answer keeps its ?", "Q1", "Y", "Y?", OutcomeIncorrect, 0, false, ReasonInvalidAnswer, "only GT loses a trailing ?"},
		{"GT ? stripped", "Q1", "Y?", "Y", OutcomeCorrect, 1, false, ReasonMatch, "GT Y? is Y"},
	})
}

// TestIntegerRules checks docs/typed.md, Integers, and the partial credit
// of docs/typed.md, Question marks in answers. It pins a reading: integer
// matching compares numbers, "00" equals "0"; only ASCII digits, no sign,
// no separators ("1,767" is not an integer), no NFKC of answers. A
// ground-truth "?" is stripped only when trailing.
func TestIntegerRules(t *testing.T) {
	runScoreCases(t, []scoreCase{
		{"exact", "Q7", "3", "3", OutcomeCorrect, 1, false, ReasonMatch, "exact integer match"},
		{"undercount", "Q7", "3", "2", OutcomeIncorrect, 0, false, ReasonMismatch, "any other integer is incorrect"},
		{"leading zeros", "Q9", "0", "00", OutcomeCorrect, 1, false, ReasonMatch, "an integer match compares numbers, not digit strings"},
		{"Q2 blank vs blank", "Q2", "", "", OutcomeExcluded, 0, true, ReasonBothBlank, "blank when GT blank (Q1=N): excluded"},
		{"Q2 year where none", "Q2", "", "1767", OutcomeIncorrect, 0, false, ReasonAnswerWhereBlank, "since 2026-08-16 a year where GT has none is incorrect"},
		{"Q2 blank where year", "Q2", "1767", "", OutcomeIncorrect, 0, false, ReasonBlankAnswer, "blank where a value is expected"},
		{"Q2 ? partial credit", "Q2", "1767", "176?", OutcomeIncorrect, 0.75, false, ReasonPartialCredit, "? answers on Q2 earn character accuracy, 1 edit of 4"},
		{"Q2 ?? partial credit", "Q2", "1767", "17??", OutcomeIncorrect, 0.5, false, ReasonPartialCredit, "two unreadable digits: 2 edits of 4"},
		{"Q2 ? against blank", "Q2", "", "17??", OutcomeIncorrect, 0, false, ReasonAnswerWhereBlank, "a year, even partial, where GT has none"},
		{"? without marker", "Q7", "3", "3?", OutcomeIncorrect, 0, false, ReasonInvalidAnswer, "only questions with partial_credit_marker give partial credit"},
		{"GT year with ?", "Q2", "1767?", "1767", OutcomeCorrect, 1, false, ReasonMatch, "GT 1767? is compared as 1767"},
		{"illegible on integer", "Q8", "12", "illegible", OutcomeIncorrect, 0, false, ReasonIllegibleNotAllowed, "illegible is valid for booleans only"},
		{"thousands separator", "Q8", "1767", "1,767", OutcomeIncorrect, 0, false, ReasonInvalidAnswer, "punctuation inside a word is kept, so 1,767 is no integer"},
		{"negative", "Q8", "3", "-3", OutcomeIncorrect, 0, false, ReasonInvalidAnswer, "permitted: non-negative integers"},
		{"fullwidth digits", "Q8", "12", "１２", OutcomeIncorrect, 0, false, ReasonInvalidAnswer, "ASCII digits only; no NFKC folding of answers"},
		{"trailing period", "Q8", "12", "12.", OutcomeCorrect, 1, false, ReasonMatch, "trailing period stripped"},
	})
}

// TestPairedIntegerRules checks docs/typed.md, Paired integers.
func TestPairedIntegerRules(t *testing.T) {
	runScoreCases(t, []scoreCase{
		{"both match", "Q17", "12 | 9", "12 | 9", OutcomeCorrect, 1, false, ReasonMatch, "both values match"},
		{"no spaces", "Q20", "3 | 4", "3|4", OutcomeCorrect, 1, false, ReasonMatch, "white space around | is trimmed"},
		{"right wrong", "Q17", "12 | 9", "12 | 8", OutcomeIncorrect, 0, false, ReasonMismatch, "either value wrong"},
		{"left wrong", "Q17", "12 | 9", "11 | 9", OutcomeIncorrect, 0, false, ReasonMismatch, "either value wrong"},
		{"three values", "Q17", "12 | 9", "12 | 9 | 1", OutcomeIncorrect, 0, false, ReasonInvalidAnswer, "a pair has exactly two values"},
		{"one value", "Q17", "12 | 9", "21", OutcomeIncorrect, 0, false, ReasonInvalidAnswer, "a single number is not a pair"},
		{"word", "Q17", "12 | 9", "12 | nine", OutcomeIncorrect, 0, false, ReasonInvalidAnswer, "numbers in digits only"},
		{"illegible", "Q20", "0 | 1", "illegible", OutcomeIncorrect, 0, false, ReasonIllegibleNotAllowed, "illegible is valid for booleans only"},
		{"blank", "Q20", "0 | 1", "", OutcomeIncorrect, 0, false, ReasonBlankAnswer, "blank where a value is expected"},
	})
}

// TestStringRules checks docs/typed.md, String. It pins a reading: a
// string answer against a blank ground truth scores 0 (value_vs_blank).
func TestStringRules(t *testing.T) {
	runScoreCases(t, []scoreCase{
		{"exact with punctuation", "Q5", "Santa Croce", "Santa Croce.", OutcomeCorrect, 1, false, ReasonCharAccuracy, "trailing period stripped"},
		{"case", "Q5", "Santa Croce", "SANTA CROCE", OutcomeCorrect, 1, false, ReasonCharAccuracy, "case-insensitive"},
		{"abbreviated", "Q5", "Santa Croce", "S. Croce", OutcomeIncorrect, 1 - 4.0/11, false, ReasonCharAccuracy, "character accuracy: 4 edits over 11 code points"},
		{"blank vs blank", "Q5", "", "", OutcomeCorrect, 1, false, ReasonBothBlank, "blank when GT blank (Q4=N): correct"},
		{"blank vs value", "Q5", "Santa Croce", "", OutcomeIncorrect, 0, false, ReasonBlankAnswer, "blank when GT has a value: incorrect (0)"},
		{"value vs blank", "Q5", "", "Santa Croce", OutcomeIncorrect, 0, false, ReasonAnswerWhereBlank, "a location where GT has none scores 0"},
		{"illegible", "Q5", "Santa Croce", "illegible", OutcomeIncorrect, 0, false, ReasonIllegibleNotAllowed, "illegible on a string scores 0"},
		{"GT ?", "Q5", "Santa Croce?", "Santa Croce", OutcomeCorrect, 1, false, ReasonCharAccuracy, "GT ? stripped"},
		{"white space collapsed", "Q5", "Santa Croce", "  Santa \t Croce ", OutcomeCorrect, 1, false, ReasonCharAccuracy, "tokens trimmed; words joined by one space"},
	})
}

// TestListRules checks docs/typed.md, Text arrays, with the equivalences
// (docs/typed.md, Equivalence dictionary) and both matchings. It pins a
// reading: list entries left with no word ("a||b", a trailing "|") are
// dropped (empty_entries_dropped).
func TestListRules(t *testing.T) {
	runScoreCases(t, []scoreCase{
		{"moglie,", "Q10", "moglie di Zuanne", "moglie, di Zuanne", OutcomeCorrect, 1, false, ReasonListF1, "moglie, -> moglie"},
		{"1767/8 kept", "Q22", "anno 1767/8", "anno 1767/8", OutcomeCorrect, 1, false, ReasonListF1, "nothing stripped inside a word"},
		{"1767/8 vs 1767", "Q22", "1767/8", "1767", OutcomeIncorrect, 1 - 2.0/6, false, ReasonListF1, "the /8 is two characters of six"},
		{"Caltran? in GT", "Q22", "Caltran?", "Caltran", OutcomeCorrect, 1, false, ReasonListF1, "GT Caltran? -> Caltran"},
		{"Caltran? in answer", "Q22", "Caltran", "Caltran?", OutcomeIncorrect, 1 - 1.0/7, false, ReasonListF1, "answers compared as transcribed: ? is a character"},
		{"fig.lo", "Q10", "figliuolo del quondam", "fig.lo del quondam", OutcomeCorrect, 1, false, ReasonListF1, "fig.lo expands to figliuolo"},
		{"FIG.LO", "Q10", "figliuolo del", "FIG.LO DEL", OutcomeCorrect, 1, false, ReasonListF1, "dictionary lookups are case-insensitive"},
		{"figlio modern spelling", "Q10", "figliuolo di", "figlio di", OutcomeCorrect, 1, false, ReasonListF1, "same gender/number class"},
		{"d.co", "Q12", "domestico di casa", "d.co di casa", OutcomeCorrect, 1, false, ReasonListF1, "d.co expands to domestico"},
		{"d.co. trailing period", "Q12", "domestico di", "d.co. di", OutcomeCorrect, 1, false, ReasonListF1, "the trailing period is stripped before the lookup"},
		{"domest truncation", "Q22", "domestico", "domest", OutcomeIncorrect, 1 - 3.0/9, false, ReasonListF1, "truncations are not equivalents: character accuracy"},
		{"domesti truncation", "Q22", "domestico", "domesti.", OutcomeIncorrect, 1 - 2.0/9, false, ReasonListF1, "with or without trailing period"},
		{"figlo corruption", "Q22", "figliuolo", "figlo", OutcomeIncorrect, 1 - 4.0/9, false, ReasonListF1, "corruptions are scored by character accuracy"},
		{"figolo corruption", "Q22", "figliuolo", "figolo", OutcomeIncorrect, 1 - 3.0/9, false, ReasonListF1, "corruptions are scored by character accuracy"},
		{"cross class", "Q22", "figliuolo", "figlia", OutcomeIncorrect, 1 - 1.0/9, false, ReasonListF1, "wrong gender: figlia -> figliuola, compared with figliuolo"},
		{"d.ca against domestico", "Q22", "domestico", "d.ca", OutcomeIncorrect, 1 - 1.0/9, false, ReasonListF1, "cross-class abbreviation expands to its own class"},
		{"first two words", "Q10", "moglie di Zuanne", "moglie di Piero", OutcomeCorrect, 1, false, ReasonListF1, "Q10 keeps the first two words of each entry"},
		{"all words on Q22", "Q22", "moglie di Zuanne", "moglie di Piero", OutcomeIncorrect, 1 - 6.0/16, false, ReasonListF1, "Q22 has no first_words: every word counts (zuanne->piero, 6 edits of 16)"},
		{"any order", "Q10", "moglie di | figliuolo del", "figlio del | moglie di", OutcomeCorrect, 1, false, ReasonListF1, "Hungarian: order-independent"},
		{"document order", "Q22", "moglie | figliuolo", "figliuolo | moglie", OutcomeIncorrect, 0.5, false, ReasonListF1, "NW: a swapped pair keeps one match"},
		{"missed entry", "Q22", "a | b | c", "a | c", OutcomeIncorrect, 0.8, false, ReasonListF1, "P=1, R=2/3, F1=0.8"},
		{"hallucinated entry", "Q10", "moglie di", "moglie di | fratello di", OutcomeIncorrect, 2.0 / 3, false, ReasonListF1, "P=1/2, R=1"},
		{"blank answer", "Q10", "moglie di", "", OutcomeIncorrect, 0, false, ReasonBlankAnswer, "blank against non-empty GT scores 0"},
		{"empty vs empty", "Q12", "", "", OutcomeCorrect, 1, false, ReasonBothBlank, "reading: an empty list against an empty GT is correct, as Q5"},
		{"entries vs empty", "Q12", "", "domestico di", OutcomeIncorrect, 0, false, ReasonAnswerWhereBlank, "all entries hallucinated: P=0"},
		{"illegible", "Q22", "domestico del conte", "illegible", OutcomeIncorrect, 0, false, ReasonIllegibleNotAllowed, "illegible on a list scores 0"},
		{"empty entries dropped", "Q22", "a | b", "a || b |", OutcomeCorrect, 1, false, ReasonListF1, "an entry with no words is no entry"},
	})
}

// TestCharAccuracyDefinition pins the unit (NFC code points) and the
// clipping.
func TestCharAccuracyDefinition(t *testing.T) {
	tests := []struct {
		gt, pred string
		want     float64
		why      string
	}{
		{"café", "cafe\u0301", 1, "NFC: decomposed é is one code point, equal to precomposed"},
		{"ab", "abxxxxxx", 0, "clipped at 0 when edits exceed the GT length"},
		{"kitten", "sitting", 0.5, "3 edits over 6"},
		{"", "", 1, "empty GT, empty answer"},
		{"", "x", 0, "empty GT, any answer"},
		{"👨\u200d👩\u200d👧", "👨\u200d👩\u200d👦", 0.8, "code points, not graphemes: 1 of 5"},
	}
	for _, tc := range tests {
		if got := CharAccuracy(tc.gt, tc.pred); got != tc.want {
			t.Errorf("CharAccuracy(%q, %q) = %v, want %v (%s)", tc.gt, tc.pred, got, tc.want, tc.why)
		}
	}
}

// TestPreprocessing checks the steps of docs/typed.md, Pre-processing, on
// single values.
func TestPreprocessing(t *testing.T) {
	tests := []struct {
		in    string
		truth bool
		want  string
		why   string
	}{
		{"moglie,", false, "moglie", "step 2: trailing comma"},
		{"1767/8", false, "1767/8", "step 2: never inside a word"},
		{"fig.lo", false, "fig.lo", "inner period kept"},
		{"(moglie),;:.]}", false, "(moglie", "all trailing marks of the set; leading marks are not trailing"},
		{"Caltran?", true, "caltran", "step 3: GT loses a trailing ?"},
		{"Caltran?", false, "caltran?", "step 3: answers keep it"},
		{"Caltran?.", true, "caltran", "trailing ? and punctuation interleaved"},
		{"FRATELLI", false, "fratelli", "step 4: case is ignored"},
		{"Straße", false, "strasse", "Unicode full case folding: ß folds to ss"},
		{"ΟΔΟΣ", false, "οδοσ", "folding maps final and medial sigma alike"},
		{"  a \u00a0 b  ", false, "a b", "Unicode white space trims and separates"},
		{"a , b", false, "a b", "a word of only punctuation is dropped"},
		{"? Caltran", true, "caltran", "a GT word of only ? is dropped"},
		{"cafe\u0301", false, "café", "NFC"},
	}
	for _, tc := range tests {
		if got := normalize(tc.in, tc.truth); got != tc.want {
			t.Errorf("normalize(%q, truth=%v) = %q, want %q (%s)", tc.in, tc.truth, got, tc.want, tc.why)
		}
	}
}

// TestScoreAnswerRejectsBadTruth: the library entry point validates the
// ground truth it is handed.
func TestScoreAnswerRejectsBadTruth(t *testing.T) {
	for _, tc := range []struct{ q, truth, why string }{
		{"Q1", "maybe", "a boolean GT is Y, N or blank"},
		{"Q1", "illegible", "illegible is an answer, never a ground truth"},
		{"Q7", "3a", "an integer GT is digits"},
		{"Q17", "12", "a pair GT is N | N"},
	} {
		if _, err := ScoreAnswer(mustQuestion(t, tc.q), nil, tc.truth, "x"); err == nil {
			t.Errorf("%s GT %q accepted (%s)", tc.q, tc.truth, tc.why)
		}
	}
}
