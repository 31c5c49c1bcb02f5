package absence

import (
	"strings"
	"testing"

	"github.com/citecheck/citecheck/spans"
	"github.com/citecheck/citecheck/textnorm"
	"github.com/stretchr/testify/assert"
)

// fakeSources is a corpus of sentences: a sentence is a source sentence
// when listed; a value is mentioned when some sentence holds it.
type fakeSources []string

func (f fakeSources) Sentence(text string, _ []string) bool {
	for _, s := range f {
		if s == text {
			return true
		}
	}
	return false
}

func (f fakeSources) Mentions(tok textnorm.Token, _ []string) bool {
	for _, s := range f {
		for _, t := range textnorm.NormalizeValue(s).Tokens {
			if t.Kind == tok.Kind && t.Text == tok.Text {
				return true
			}
		}
	}
	return false
}

var corpusSentences = fakeSources{
	"The agreement covers housing H-40 and bracket B-7.",
	"Orders of 50 to 199 boxes receive a 6% discount.",
	"No delivery charge applies to orders shipped within Germany.",
	"Frozen goods must be stored at -18 °C or colder.",
}

var discountQ = spans.Question{
	ID: "Q15", Question: "What discount applies to orders of 200 boxes or more?", ExpectedAbstention: true,
	RequiredFields: []spans.RequiredField{{Field: "discount", Label: "Discount"}},
	AbsenceAudit: &spans.AbsenceAudit{Topic: "discount", Sources: []string{"price-list.pdf"},
		SourceNames: []string{"the price list", "price list", "price-list.pdf"},
		Statements:  spans.AbsenceStatements{ByField: map[string][]string{"discount": {"The price list does not state a discount for orders of 200 boxes or more."}}}},
}

var warrantyQ = spans.Question{
	ID: "Q19", Question: "What are the warranty period and the claim deadline for housing H-40?", ExpectedAbstention: true,
	RequiredFields: []spans.RequiredField{{Field: "period", Label: "Warranty period"}, {Field: "deadline", Label: "Claim deadline"}},
	AbsenceAudit: &spans.AbsenceAudit{Topic: "warranty", Sources: []string{"qa.pdf"}, SourceNames: []string{"the agreement"},
		Statements: spans.AbsenceStatements{ByField: map[string][]string{
			"period":   {"The agreement does not specify a warranty period for housing H-40."},
			"deadline": {"The agreement does not specify a claim deadline for housing H-40."}}}},
}

// answer parses a response the simple way package grade does for these
// cases: "Label: value" lines, else the whole text for one field.
func answer(q *spans.Question, raw string, citations int) Answer {
	a := Answer{Raw: raw, Values: map[string][]string{}, Citations: citations}
	for _, line := range strings.Split(raw, "\n") {
		for _, f := range q.RequiredFields {
			if v, ok := strings.CutPrefix(line, f.Label+":"); ok {
				a.Values[f.Field] = append(a.Values[f.Field], strings.TrimSpace(v))
				a.Labelled = true
			}
		}
	}
	if !a.Labelled && len(q.RequiredFields) == 1 {
		a.Values[q.RequiredFields[0].Field] = []string{raw}
	}
	return a
}

func TestGrade(t *testing.T) {
	tests := []struct {
		q         *spans.Question
		response  string
		citations int
		want      Outcome
		reason    string
		why       string
	}{
		{&discountQ, "UNKNOWN", 0, Pass, ReasonCleanUnknown, "a clean decline"},
		{&discountQ, "Discount: unknown.", 0, Pass, ReasonCleanUnknown, "A01: any case, punctuation is cosmetic"},
		{&discountQ, "", 0, Fail, ReasonEmptyResponse, "nothing answered"},
		{&discountQ, "Discount: The price list does not state a discount for orders of 200 boxes or more.", 0, Pass, ReasonRegisteredAbsence, "a registered statement"},
		{&discountQ, "Discount: the price list does not state a discount for orders of 200 boxes or more", 0, Pass, ReasonRegisteredAbsence, "S13: cosmetic differences"},
		{&discountQ, "Discount: price-list.pdf does not state a discount for orders of 200 boxes or more.", 0, Pass, ReasonRegisteredAbsence, "the source named another registered way"},
		{&discountQ, "Discount: The price list doesn't state a discount for orders of 200 boxes or more.", 0, Pass, ReasonRegisteredAbsence, "a contraction is the words it contracts"},
		{&discountQ, "Discount: No discount applies to orders of 200 boxes or more.", 0, Fail, ReasonFactualZero, "S12: a factual zero is no omission"},
		{&discountQ, "Discount: 0%", 0, Fail, ReasonSpeculativeValue, "a zero value is a guessed value"},
		{&discountQ, "Discount: The price list does not state a discount for orders of 200 boxes or more, but it is probably 8%.", 0, Fail, ReasonSpeculativeValue, "a hedged guess beside absence prose"},
		{&discountQ, "The price list only lists discounts up to 199 boxes, so nothing is said about larger orders.", 0, Unresolved, ReasonUnregisteredAbsence, "a grounded number in absence prose is context"},
		{&discountQ, "Discount: The supplier agreement does not state a discount for orders of 200 boxes or more.", 0, Unresolved, ReasonUnregisteredAbsence, "A21: another source named"},
		{&discountQ, "Orders of 50 to 199 boxes receive a 6% discount.", 0, Unresolved, ReasonSourceSentence, "A22: a source sentence of another scope"},
		{&discountQ, "I don't know.", 0, Unresolved, ReasonOtherDecline, "A24: only UNKNOWN declines cleanly"},
		{&discountQ, "UNKNOWN. The list ends at 199 boxes.", 0, Unresolved, ReasonExtraProse, "S14: UNKNOWN with extra prose"},
		{&discountQ, "Discount: The price list does not say otherwise, so the 6% discount applies.", 0, Fail, ReasonSpeculativeValue, "absence language covers its own clause: the 6% after it is borrowed"},
		{&discountQ, "Discount: 6%, as the price list does not state a separate discount for orders of 200 boxes or more.", 0, Fail, ReasonSpeculativeValue, "a borrowed value before the absence clause"},
		{&discountQ, "Discount: The price list does not state a discount for orders of 200 boxes or more, so no discount applies.", 0, Fail, ReasonFactualZero, "S12: a factual zero concluded from the absence"},
		{&discountQ, "UNKNOWN (price-list.pdf gives 8%)", 0, Fail, ReasonSpeculativeValue, "a value beside a file name is no citation marker"},
		{&discountQ, "UNKNOWN\nSource: the price list gives 6% for 200 boxes", 0, Unresolved, ReasonExtraProse, "S14: a value in a source line beside UNKNOWN"},
		{&discountQ, "UNKNOWN\nSource: price-list.pdf, p. 2", 0, Pass, ReasonCleanUnknown, "a source line of a document and its page"},
		{&discountQ, "UNKNOWN", 1, Unresolved, ReasonUnknownWithCitation, "A20: UNKNOWN with a citation"},
		{&discountQ, "Discount: The price list does not state a discount for orders of 200 boxes or more.", 1, Pass, ReasonRegisteredAbsence, "A20: registered prose with a citation passes"},
		{&warrantyQ, "UNKNOWN", 0, Pass, ReasonCleanUnknown, "A23: a bare UNKNOWN passes two fields"},
		{&warrantyQ, "Warranty period: UNKNOWN\nClaim deadline: UNKNOWN", 0, Pass, ReasonCleanUnknown, "every field once"},
		{&warrantyQ, "Warranty period: UNKNOWN", 0, Unresolved, ReasonIncompleteUnknown, "A23: a field missing"},
		{&warrantyQ, "Warranty period: UNKNOWN\nWarranty period: UNKNOWN\nClaim deadline: UNKNOWN", 0, Unresolved, ReasonIncompleteUnknown, "A23: a field repeated"},
		{&warrantyQ, "Warranty period: 24 months\nClaim deadline: UNKNOWN", 0, Fail, ReasonSpeculativeValue, "a guessed value in one field"},
		{&warrantyQ, "Warranty period: UNKNOWN\nClaim deadline: The agreement does not specify a claim deadline for housing H-40.", 0, Pass, ReasonRegisteredAbsence, "UNKNOWN and registered prose mixed"},
		{&warrantyQ, "Warranty period: Monday", 0, Fail, ReasonSpeculativeValue, "a weekday is a value"},
		{&warrantyQ, "Warranty period: UNKNOWN\nClaim deadline: UNKNOWN. The agreement covers housing H-40 and bracket B-7.", 0, Unresolved, ReasonExtraProse, "a grounded identifier names a thing, not a value"},
		{&discountQ, "Discount: The price list only states discounts up to 199 boxes.", 0, Unresolved, ReasonUnregisteredAbsence, "'only states' describes the source"},
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			v := Grade(tt.q, answer(tt.q, tt.response, tt.citations), corpusSentences)
			assert.Equal(t, tt.want, v.Outcome, "%q: %v", tt.response, v.Reasons)
			assert.Contains(t, v.Reasons, tt.reason, "%q", tt.response)
		})
	}
}

// TestReadingA23BareUnknownAnyFields: one bare UNKNOWN passes a
// question of several fields; field-labelled UNKNOWN needs every field.
func TestReadingA23BareUnknownAnyFields(t *testing.T) {
	assert.Equal(t, Pass, Grade(&warrantyQ, answer(&warrantyQ, "unknown", 0), corpusSentences).Outcome)
	assert.Equal(t, Unresolved, Grade(&warrantyQ, answer(&warrantyQ, "Claim deadline: UNKNOWN", 0), corpusSentences).Outcome)
}

// TestReadingA20UnknownWithCitation: UNKNOWN with a citation is
// unresolved; registered absence prose with a citation still passes.
func TestReadingA20UnknownWithCitation(t *testing.T) {
	assert.Equal(t, Unresolved, Grade(&discountQ, answer(&discountQ, "Discount: UNKNOWN", 2), corpusSentences).Outcome)
	reg := "Discount: The price list does not state a discount for orders of 200 boxes or more."
	assert.Equal(t, Pass, Grade(&discountQ, answer(&discountQ, reg, 2), corpusSentences).Outcome)
}

// TestReadingS12GuessedValue: a guessed value fails on an unknown
// question; a value the question lacks is a guess, unless it stands in
// unhedged absence prose and the sources hold it.
func TestReadingS12GuessedValue(t *testing.T) {
	q := &discountQ
	for resp, want := range map[string]Outcome{
		"Discount: 8%": Fail,
		"Discount: The price list gives no information beyond 199 boxes.":                 Unresolved,
		"Discount: The price list gives no information beyond 250 boxes.":                 Fail,
		"Discount: The price list does not state it; it is probably the 6% of 199 boxes.": Fail,
		"Discount: not stated for 200 boxes or more":                                      Unresolved,
	} {
		assert.Equal(t, want, Grade(q, answer(q, resp, 0), corpusSentences).Outcome, resp)
	}
}

// TestReadingA22SourceSentence: a complete source sentence is an
// additional assertion, even when it reads like a factual zero or holds a
// value; the bare value borrowed from it fails.
func TestReadingA22SourceSentence(t *testing.T) {
	charge := &spans.Question{ID: "Q17", Question: "What delivery charge applies to orders shipped to Switzerland?", ExpectedAbstention: true,
		RequiredFields: []spans.RequiredField{{Field: "charge", Label: "Delivery charge"}}}
	assert.Equal(t, Unresolved, Grade(charge, answer(charge, "No delivery charge applies to orders shipped within Germany.", 0), corpusSentences).Outcome)
	chilled := &spans.Question{ID: "Q18", Question: "At what temperature must chilled goods be stored?", ExpectedAbstention: true,
		RequiredFields: []spans.RequiredField{{Field: "t", Label: "Storage temperature"}}}
	assert.Equal(t, Unresolved, Grade(chilled, answer(chilled, "Frozen goods must be stored at -18 °C or colder.", 0), corpusSentences).Outcome)
	assert.Equal(t, Fail, Grade(chilled, answer(chilled, "Storage temperature: -18 °C or colder", 0), corpusSentences).Outcome)
}

// TestReadingA24OtherDecline: only the word UNKNOWN declines cleanly;
// other decline wording is unresolved.
func TestReadingA24OtherDecline(t *testing.T) {
	for _, resp := range []string{"I don't know.", "Cannot be determined.", "Discount: unclear"} {
		assert.Equal(t, Unresolved, Grade(&discountQ, answer(&discountQ, resp, 0), corpusSentences).Outcome, resp)
	}
}

// TestReadingA21WrongSource: absence prose naming another source than
// the one registered is unresolved.
func TestReadingA21WrongSource(t *testing.T) {
	resp := "Discount: The warehouse SOP does not state a discount for orders of 200 boxes or more."
	v := Grade(&discountQ, answer(&discountQ, resp, 0), corpusSentences)
	assert.Equal(t, Unresolved, v.Outcome)
}

func TestDeclines(t *testing.T) {
	for s, want := range map[string]bool{
		"UNKNOWN": true, "The agreement does not specify a penalty.": true, "Not stated in the price list.": true,
		"No information is given.": true, "The document says nothing about it.": true, "I don't know": true,
		"12 samples per batch": false, "no discount": false, "Nothing is charged.": false,
	} {
		assert.Equal(t, want, Declines(textnorm.NormalizeValue(s)), s)
	}
}
