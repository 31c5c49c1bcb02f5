package textnorm

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// describe renders a value's tokens as "kind:text" for table tests; words
// are written bare.
func describe(v Value) string {
	var parts []string
	for _, t := range v.Tokens {
		if t.Kind == TokWord {
			parts = append(parts, t.Text)
		} else {
			parts = append(parts, t.Kind.String()+":"+t.Text)
		}
	}
	return strings.Join(parts, " ")
}

func TestNormalizeValue(t *testing.T) {
	tests := []struct {
		in, want string
		rules    []string
		why      string
	}{
		{"12 samples per batch", "number:12 sample basis:per batch", []string{RulePlural}, "a plain value; plural"},
		{"Twelve Samples per Batch.", "number:12 sample basis:per batch", []string{RuleCardinal, RuleCase, RulePlural, RulePunctuation}, "cardinal word, case and a final period"},
		{"at most\u00a00.5 mm.", "comparison:<= number:0.5 unit:mm", []string{RuleComparison, RulePunctuation, RuleWhitespace}, "no-break space is white space"},
		{"at most 0,5 mm", "comparison:<= number:0,5 unit:mm", []string{RuleComparison}, "an ambiguous comma stays as written"},
		{"no more than 0.5 mm", "comparison:<= number:0.5 unit:mm", []string{RuleComparison}, "inclusive phrases share one form"},
		{"less than 0.5 mm", "comparison:< number:0.5 unit:mm", []string{RuleComparison}, "strict stays apart from inclusive"},
		{"must not exceed 0.5 mm", "must comparison:not exceed number:0.5 unit:mm", nil, "not exceed is its own bound, not <="},
		{"\u221218 \u00b0C or colder", "number:-18 unit:°c qualifier:or colder", []string{RuleCase, RuleUnicode}, "U+2212 is the minus sign"},
		{"-18°C", "number:-18 unit:°c", []string{RuleCase}, "a symbol right after a number is kept, spaced or not"},
		{"at least 10 centimetres", "comparison:>= number:10 unit:cm", []string{RuleComparison, RuleUnitSpelling}, "the closed unit table"},
		{"0.5 cm", "number:0.5 unit:cm", nil, "no conversion ever"},
		{"5mm", "number:5 unit:mm", nil, "a unit glued to its number"},
		{"QA-7735", "identifier:qa-7735", []string{RuleCase}, "identifiers keep their hyphen"},
		{"QA 7735", "qa number:7735", []string{RuleCase}, "a spaced identifier is not the same token"},
		{"the Tuesday and Friday dispatch batches", "weekday:tuesday and weekday:friday stage:dispatch batch", []string{RuleArticle, RuleCase, RulePlural}, "weekdays, a stage word, an article"},
		{"Tuesdays and Fridays", "weekday:tuesday and weekday:friday", []string{RuleCase, RulePlural}, "plural weekdays"},
		{"requires written approval before dispatch", "require written approval condition:before stage:dispatch", []string{RuleVerb}, "require/requires"},
		{"rechecked after inspection", "recheck condition:after inspect", []string{RuleVerb}, "recheck/rechecked, inspection"},
		{"at final inspection", "at stage:final inspection", nil, "a stage phrase"},
		{"within 10 working days unless agreed", "comparison:within number:10 day_basis:working day condition:unless agreed", []string{RulePlural}, "within before a number; the day basis"},
		{"10 business days", "number:10 day_basis:business day", []string{RulePlural}, "business is a working-day basis, written apart"},
		{"until 31 May 2025", "condition:until number:31 month:may number:2025", []string{RuleCase}, "may is a month next to a number"},
		{"you may ask", "you may ask", nil, "and a verb elsewhere"},
		{"UNKNOWN", "unknown", []string{RuleCase}, "the decline"},
		{"3% discount", "number:3 unit:% discount", nil, "percent is a unit"},
		{"no discount", "negation:no discount", nil, "a negation"},
		{"supplied under part number QA-7735", "supplied under part number identifier:qa-7735", []string{RuleCase}, "under is a bound only before a number"},
		{"10 boxes or more", "number:10 box qualifier:or more", []string{RulePlural}, "a postfix qualifier after a number and a word"},
		{"12 samples per batch [1]", "number:12 sample basis:per batch", []string{RuleMarker, RulePlural, RuleWhitespace}, "a citation marker is not a number"},
		{"until 31.03.2025", "condition:until date:31.03.2025", nil, "a date in digits is one token"},
		{"2025-03-31", "date:2025-03-31", nil, "an ISO date is one token"},
		{"at 14:00", "at time:14:00", nil, "a time is one token"},
		{"⩽ 0.002 mm", "comparison:<= number:0.002 unit:mm", []string{RuleComparison}, "the slanted less-or-equal sign"},
		{"10-49 boxes", "number:10 - number:49 box", []string{RulePlural}, "a range keeps its dash"},
		{"the supplier's 8D report", "supplier identifier:8d report", []string{RuleArticle, RuleCase, RulePunctuation}, "a possessive; a digit makes an identifier"},
		{"31st March", "31st month:march", []string{RuleCase}, "an ordinal is a word, not the number"},
		{"ﬁnal inspection", "stage:final inspection", []string{RuleUnicode}, "ligatures expand"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			v := NormalizeValue(tt.in)
			assert.Equal(t, tt.want, describe(v), tt.why)
			if tt.rules != nil {
				assert.Equal(t, tt.rules, v.Rules, "rules: %s", tt.why)
			}
		})
	}
}

// TestDecisionValueCaseInsensitive: value grading and UNKNOWN detection
// fold case; a sentence-initial "The" is an article.
func TestDecisionValueCaseInsensitive(t *testing.T) {
	for _, s := range []string{"Unknown", "unknown.", "UNKNOWN", " uNkNoWn "} {
		assert.True(t, NormalizeValue(s).Unknown(), s)
	}
	assert.False(t, NormalizeValue("UNKNOWN. The agreement only says so.").Unknown())
	assert.True(t, NormalizeValue("The Tuesday batch").Equal(NormalizeValue("tuesday batches")))
}

// TestDecisionDecimalCommaKept: "0,5" is not normalized to "0.5";
// SameNumber says they may be the same number, which makes the grader call
// them unresolved, not wrong.
func TestDecisionDecimalCommaKept(t *testing.T) {
	assert.False(t, NormalizeValue("0,5 mm").Equal(NormalizeValue("0.5 mm")))
	tests := []struct {
		a, b string
		same bool
		why  string
	}{
		{"0,5", "0.5", true, "decimal comma"},
		{"1,000", "1000", true, "thousands separator"},
		{"1.000", "1000", true, "thousands separator read the other way"},
		{"2.5", "2.50", true, "trailing zero"},
		{"0.5", "5", false, "another number"},
		{"-18", "18", false, "the sign is meaningful"},
		{"0,5", "5", false, "a decimal comma is no separator for 5"},
		{"1,00", "100", false, "two digits after a comma are no thousands group"},
		{"±5", "5", false, "a plus-minus is no number we compare"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.same, SameNumber(tt.a, tt.b), "%s vs %s: %s", tt.a, tt.b, tt.why)
	}
}

func TestSameDate(t *testing.T) {
	tests := []struct {
		a, b string
		same bool
		why  string
	}{
		{"31.03.2025", "2025-03-31", true, "day first and year first"},
		{"03/31/2025", "2025-03-31", true, "month first"},
		{"31.03.25", "2025-03-31", true, "a two-digit year"},
		{"30.03.2025", "2025-03-31", false, "another day"},
		{"01.02.2025", "2025-01-02", true, "ambiguous day and month: may be the same"},
		{"1.2.3.4", "2025-01-02", false, "not a date"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.same, SameDate(tt.a, tt.b), "%s vs %s: %s", tt.a, tt.b, tt.why)
	}
}

// FuzzNormalizeValue checks the value profile on any input: no panic,
// valid UTF-8 tokens, no empty token, sorted unique rules, the same result
// twice, and idempotence of the key (normalizing a key again gives it).
func FuzzNormalizeValue(f *testing.F) {
	for _, s := range []string{"at most 0.5 mm", "−18 °C or colder", "QA-7735", "12 samples per batch [1]",
		"until 31.03.2025", "Twelve", "10-49", "【4:0†source】", "5mm", "1,000.5", "±5", "°", "may 2025",
		"\xff\xfe", "ﬁnal", "a-", "-", "--5", "1.2.3.4", "12:30:45", "(p. 2)", "[^3]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := NormalizeValue(s)
		require.True(t, slices.IsSorted(v.Rules))
		require.Equal(t, len(slices.Compact(slices.Clone(v.Rules))), len(v.Rules))
		for _, tok := range v.Tokens {
			require.NotEmpty(t, tok.Text)
			require.True(t, utf8.ValidString(tok.Text), "%q", tok.Text)
		}
		w := NormalizeValue(s)
		require.Equal(t, v, w)
	})
}
