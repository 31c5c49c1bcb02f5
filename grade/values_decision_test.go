package grade

import (
	"testing"

	"github.com/citecheck/citecheck/spans"
	"github.com/stretchr/testify/assert"
)

// The value readings an adversarial review of value/v2 found wrong, each
// pinned here as value/v2 reads it (docs/grading.md, "Values").

// valueVerdict grades ans for a one-field question whose reference value
// is ref.
func valueVerdict(question, label, ref, ans string) FieldVerdict {
	q := &spans.Question{ID: "x", Question: question, RequiredFields: []spans.RequiredField{{Field: "f", Label: label}},
		AnswerFields: map[string]string{"f": ref}, EssentialClaims: []spans.Claim{{Field: "f", Value: ref}}}
	refs := newFieldRefs(q)
	return gradeValue(&refs[0], ans)
}

type valueCase struct {
	question, label, ref, ans string
	want                      Outcome
	why                       string
}

func checkValues(t *testing.T, cases []valueCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.why, func(t *testing.T) {
			fv := valueVerdict(c.question, c.label, c.ref, c.ans)
			assert.Equal(t, c.want, fv.Verdict, "ref %q ans %q: %v %v", c.ref, c.ans, fv.Reasons, fv.Details)
		})
	}
}

// TestDecisionCommaGroupsThousands: "1200000" for "1,200,000" is another
// spelling of the number (number_format), not a decimal comma's ambiguity;
// "0,5" for "0.5" is one (A03).
func TestDecisionCommaGroupsThousands(t *testing.T) {
	fv := valueVerdict("What was the total revenue in 2023?", "Revenue", "1,200,000 USD", "1200000 USD")
	assert.Equal(t, []FieldReason{FieldNumberFormat}, fv.Reasons, "%+v", fv)
	fv = valueVerdict("What is the maximum flatness deviation?", "Maximum flatness deviation", "at most 0.5 mm", "at most 0,5 mm")
	assert.Equal(t, []FieldReason{FieldAmbiguousComma}, fv.Reasons, "%+v", fv)
}

const netQ, netL = "What was the net income in 2023?", "Net income"

// TestDecisionSignsAroundCurrency: a sign before or after a currency sign,
// a minus sign (U+2212) apart from its digits and a full-width minus are
// the number's sign (S1, A05); an accounting negative "(340)" may be
// either sign: unresolved.
func TestDecisionSignsAroundCurrency(t *testing.T) {
	checkValues(t, []valueCase{
		{netQ, netL, "$340", "-$340", Incorrect, "a minus before the currency sign"},
		{netQ, netL, "$340", "$-340", Incorrect, "a minus after the currency sign"},
		{netQ, netL, "-$340", "$340", Incorrect, "the reference's sign dropped"},
		{netQ, netL, "-$340", "-$340", Correct, "the same signed amount"},
		{netQ, netL, "€1.5 million", "-€1.5 million", Incorrect, "a minus before € and a scale word"},
		{netQ, netL, "340 EUR", "− 340 EUR", Incorrect, "U+2212 then a space"},
		{netQ, netL, "340 EUR", "－340 EUR", Incorrect, "a full-width minus"},
		{netQ, netL, "340 EUR", "(340) EUR", Unresolved, "an accounting negative, or brackets"},
		{"What was the maximum temperature?", "Maximum temperature", "40 °C", "− 40 °C", Incorrect, "minus forty for forty"},
		{"At what temperature must frozen goods be stored?", "Storage temperature", "-18 °C or colder", "− 18 °C or colder", Correct, "A05: U+2212 apart from its digits is the same sign"},
		{netQ, netL, "340 EUR", "- 340 EUR", Correct, "an ASCII hyphen then a space may be a bullet: not read as a sign"},
		{"What is the range?", "Range", "5 - 10 mm", "5 − 10 mm", Correct, "a minus sign after a number is a range's dash"},
	})
}

// TestDecisionLeadingDecimalPoint: ".5" is 0.5, never 5.
func TestDecisionLeadingDecimalPoint(t *testing.T) {
	checkValues(t, []valueCase{
		{"What is the seal width?", "Seal width", "5 mm", ".5 mm", Incorrect, "0.5 mm for 5 mm"},
		{"What is the seal width?", "Seal width", "5 mm", ",5 mm", Incorrect, "0,5 mm for 5 mm"},
		{"What is the maximum flatness deviation?", "Maximum flatness deviation", "at most 0.5 mm", "at most .5 mm", Unresolved, "the same number spelled another way"},
	})
}

// TestDecisionInclusiveOrEqual: "less than or equal to" is "at most",
// "greater than or equal to" "at least".
func TestDecisionInclusiveOrEqual(t *testing.T) {
	checkValues(t, []valueCase{
		{"What is the maximum flatness deviation?", "Maximum flatness deviation", "at most 0.5 mm", "less than or equal to 0.5 mm", Correct, "inclusive upper bound"},
		{"What is the minimum gap?", "Minimum gap", "at least 10 cm", "greater than or equal to 10 cm", Correct, "inclusive lower bound"},
		{"What is the maximum flatness deviation?", "Maximum flatness deviation", "at most 0.5 mm", "less than 0.5 mm", Incorrect, "strict is still not inclusive"},
	})
}

// TestDecisionRemarkBesideValue: decline words beside the whole value are
// a remark, added wording (A25), not a decline; a decline without the
// value still fails.
func TestDecisionRemarkBesideValue(t *testing.T) {
	sq, sl := "How many samples must the supplier draw for dimensional checks?", "Samples"
	aq, al := "What do deviations require?", "Deviation approval"
	checkValues(t, []valueCase{
		{sq, sl, "12 samples per batch", "12 samples per batch (the sampling method is not specified)", Unresolved, "a remark in brackets"},
		{aq, al, "require written approval from the buyer before dispatch", "require written approval from the buyer before dispatch; goods cannot be dispatched without it", Unresolved, "a consequence, no decline"},
		{sq, sl, "12 samples per batch", "The agreement does not state the sample size.", Incorrect, "a decline"},
	})
}

// TestDecisionCurrencyAfterScaleWord: "1.2 million USD" is an amount in
// dollars: its currency is a unit, as after a number.
func TestDecisionCurrencyAfterScaleWord(t *testing.T) {
	q, l := "What was the revenue?", "Revenue"
	checkValues(t, []valueCase{
		{q, l, "1.2 million USD", "1.2 million EUR", Incorrect, "another currency"},
		{q, l, "1.2 million USD", "$1.2 million", Unresolved, "the currency sign first: the same elements reordered"},
		{q, l, "1.2 million USD", "US$1.2 million", Unresolved, "US$: reordered"},
		{q, l, "1.2 million USD", "1.2 million dollars", Correct, "the currency spelled"},
	})
}

// TestDecisionMoreCurrencies: the unit table knows CHF, JPY, CNY, CAD, AUD
// and INR beside EUR, USD and GBP: another currency is a wrong unit, a
// currency's name its code.
func TestDecisionMoreCurrencies(t *testing.T) {
	checkValues(t, []valueCase{
		{netQ, netL, "340 EUR", "340 CHF", Incorrect, "francs for euros"},
		{netQ, netL, "340 CHF", "340 Swiss francs", Correct, "the currency's name"},
		{netQ, netL, "340 CAD", "340 Canadian dollars", Correct, "a dollar that is not the US one"},
		{netQ, netL, "340 USD", "340 Canadian dollars", Incorrect, "Canadian dollars for US dollars"},
	})
}

// TestDecisionPostfixBound: "0.5 mm minimum" is a lower bound after its
// number, the opposite of "at most" (S3).
func TestDecisionPostfixBound(t *testing.T) {
	q, l := "What is the maximum flatness deviation of plate P-220?", "Maximum flatness deviation"
	checkValues(t, []valueCase{
		{q, l, "at most 0.5 mm", "0.5 mm minimum", Incorrect, "minimum after the number"},
		{q, l, "at most 0.5 mm", "0.5 mm min", Incorrect, "min after the unit"},
		{"How long does curing take?", "Curing time", "30 min", "30 min", Correct, "min after a number is minutes"},
	})
}

// TestDecisionWideForms: full-width digits, minus, per-cent sign, decimal
// point and comma are the ASCII ones set wide.
func TestDecisionWideForms(t *testing.T) {
	q, l := "What was the total revenue in 2023?", "Revenue"
	checkValues(t, []valueCase{
		{q, l, "1,200,000 USD", "１,２００,０００ USD", Correct, "full-width digits"},
		{q, l, "5%", "5％", Correct, "a full-width per-cent sign"},
	})
}

// TestDecisionGroupingSpaces: "1 200 000" is one number written with
// grouping spaces (as French and other styles write it), the same number
// as "1,200,000" spelled another way: unresolved, not a wrong number.
func TestDecisionGroupingSpaces(t *testing.T) {
	q, l := "What was the total revenue in 2023?", "Revenue"
	checkValues(t, []valueCase{
		{q, l, "1,200,000 USD", "1 200 000 USD", Unresolved, "grouping spaces"},
		{q, l, "1,200,000 USD", "1\u00a0200\u00a0000 USD", Unresolved, "no-break grouping spaces"},
		{q, l, "1,200,000 USD", "1 300 000 USD", Incorrect, "another number so spelled"},
		{q, l, "1 200 000 USD", "1 200 000 USD", Correct, "the same spelling"},
		{q, l, "1,200,000 USD", "1200000 USD", Unresolved, "no grouping at all: another spelling"},
		{"How many units shipped in 2023?", "Units", "100 units", "2023 100 units", Correct, "a first group of four digits is no grouped number: the question's 2023, then 100"},
	})
}

// TestDecisionQuarters: "Q1 2023" and "first quarter of 2023" name the
// same quarter, written another way (unresolved at worst, A07); another
// quarter is a wrong identifier.
func TestDecisionQuarters(t *testing.T) {
	q, l := "When was the product launched?", "Launch"
	checkValues(t, []valueCase{
		{q, l, "first quarter of 2023", "Q1 2023", Unresolved, "Q1 for the first quarter"},
		{q, l, "first quarter of 2023", "the first quarter of 2023", Correct, "the same words"},
		{q, l, "first quarter of 2023", "second quarter of 2023", Incorrect, "another quarter"},
		{q, l, "Q1 2023", "first quarter of 2023", Unresolved, "the other way round"},
		{q, l, "first quarter of 2023", "1st quarter of 2023", Unresolved, "an ordinal in digits: another spelling"},
		{q, l, "first quarter of 2023", "first-quarter 2023", Unresolved, "hyphenated, the of dropped"},
	})
}

// TestDecisionTilde: "~340" is "about 340", an approximation: added
// wording, unresolved.
func TestDecisionTilde(t *testing.T) {
	checkValues(t, []valueCase{
		{netQ, netL, "340 EUR", "~340 EUR", Unresolved, "like about 340 EUR"},
	})
}
