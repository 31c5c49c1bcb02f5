package grade

import (
	"strings"
	"testing"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/testcorpus"
	"github.com/citecheck/citecheck/runs"
	"github.com/citecheck/citecheck/spans"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The decision tests grade against this small bank: page texts and
// questions written for the tests, in the shape of the worked examples'
// reference (the shared test data, internal/shareddata).
var decisionDocuments = []corpus.MemoryDocument{
	{Name: "qa.pdf", Pages: []corpus.PageText{
		{Text: "QUALITY AGREEMENT QA-1 | Rev. B\n4.1 The supplier shall draw 12 samples per batch for dimensional checks.\n4.2 The flatness of plate P-220 must not exceed 0.5 mm.\n4.3 Deviations require written approval from the buyer before dispatch.\nqa.pdf Page 1"},
		{Text: "QUALITY AGREEMENT QA-1 | Rev. B\n5. Complaints are answered within 10 working days unless agreed otherwise in writing.\n6. Spare plates are supplied under part number P-225.\nqa.pdf Page 2"},
	}},
	{Name: "sop.pdf", Pages: []corpus.PageText{
		{Text: "Export orders are consolidated into the Tuesday and Friday dispatch batches.\nThe gap between adjacent pallets must be at least 10 cm.\nFrozen goods must be stored at -18 °C or colder.\nAt final inspection, the seal width must be at least 5 mm.\nPrices are valid until 31 March 2025.\nThe summer surcharge applies from 1 June to 31 August 2025.\nSupplier audits are held in April and October.\nNo discount applies to orders below 10 boxes.\nsop.pdf Page 1"},
	}},
}

func decisionReference(t *testing.T) *spans.Reference {
	t.Helper()
	q := func(id, question, field, label, value string, alts ...string) spans.Question {
		qq := spans.Question{ID: id, Question: question, RequiredFields: []spans.RequiredField{{Field: field, Label: label}},
			AnswerFields: map[string]string{field: value}, EssentialClaims: []spans.Claim{{Field: field, Value: value}}}
		if len(alts) > 0 {
			qq.AcceptedAlternatives = map[string][]string{field: alts}
		}
		return qq
	}
	ref := &spans.Reference{Format: spans.Format, Questions: []spans.Question{
		q("samples", "How many samples must the supplier draw for dimensional checks?", "samples", "Samples", "12 samples per batch"),
		q("flatness", "What is the maximum flatness deviation of plate P-220?", "flatness", "Maximum flatness deviation", "at most 0.5 mm"),
		q("approval", "What do deviations require?", "approval", "Deviation approval", "require written approval from the buyer before dispatch"),
		q("deadline", "Within what time must complaints be answered?", "deadline", "Response time", "within 10 working days unless agreed otherwise in writing"),
		q("part", "Under which part number are spare plates supplied?", "part", "Part number", "P-225"),
		q("batches", "Into which dispatch batches are export orders consolidated?", "batches", "Dispatch batches", "the Tuesday and Friday dispatch batches"),
		q("gap", "What minimum gap must be kept between adjacent pallets?", "gap", "Minimum gap", "at least 10 cm between adjacent pallets"),
		q("frozen", "At what temperature must frozen goods be stored?", "frozen", "Storage temperature", "-18 °C or colder", "at most -18 °C"),
		q("seal", "What is the minimum seal width at final inspection?", "seal", "Seal width at final inspection", "at least 5 mm at final inspection"),
		q("validity", "Until what date are the prices valid?", "validity", "Price validity", "until 31 March 2025"),
		q("discount", "What discount applies to an order of 8 boxes?", "discount", "Discount", "no discount", "0% discount"),
		q("season", "When does the summer surcharge apply?", "season", "Surcharge period", "from 1 June to 31 August 2025"),
		q("audits", "In which months are supplier audits held?", "audits", "Audit months", "April and October"),
		q("cutoff", "By when must orders for the trial run be placed?", "cutoff", "Order deadline", "before 14:00 on 30.06.2025"),
		{ID: "coolant", Question: "At what temperature must coolant be stored?", ExpectedAbstention: true,
			RequiredFields: []spans.RequiredField{{Field: "coolant", Label: "Storage temperature"}},
			AnswerFields:   map[string]string{"coolant": spans.Unknown}},
		{ID: "storage", Question: "For how long is pallet storage free of charge, and what fee applies after that?",
			RequiredFields: []spans.RequiredField{{Field: "free", Label: "Free storage period"}, {Field: "fee", Label: "Storage fee"}},
			AnswerFields:   map[string]string{"free": "the first 14 calendar days of pallet storage", "fee": "2.50 EUR per pallet per calendar day"},
			EssentialClaims: []spans.Claim{{Field: "free", Value: "the first 14 calendar days of pallet storage"},
				{Field: "fee", Value: "2.50 EUR per pallet per calendar day"}}},
	}}
	// Declared spans: where each claim's sentence is (offsets found here).
	spanOf := map[string][2]string{
		"samples":  {"qa.pdf", "The supplier shall draw 12 samples per batch for dimensional checks."},
		"flatness": {"qa.pdf", "The flatness of plate P-220 must not exceed 0.5 mm."},
		"part":     {"qa.pdf", "Spare plates are supplied under part number P-225."},
		"discount": {"sop.pdf", "No discount applies to orders below 10 boxes."},
	}
	for i := range ref.Questions {
		qq := &ref.Questions[i]
		for c := range qq.EssentialClaims {
			sp, ok := spanOf[qq.ID]
			if !ok {
				continue
			}
			qq.EssentialClaims[c].Evidence = []spans.Span{evidence(t, sp[0], sp[1])}
		}
	}
	return ref
}

func evidence(t *testing.T, doc, text string) spans.Span {
	t.Helper()
	for _, d := range decisionDocuments {
		if d.Name != doc {
			continue
		}
		for p, pg := range d.Pages {
			if i := strings.Index(pg.Text, text); i >= 0 {
				a := len([]rune(pg.Text[:i]))
				b := a + len([]rune(text))
				return spans.Span{Document: doc, Page: p + 1, Start: &a, End: &b, Text: text}
			}
		}
	}
	t.Fatalf("%q not in %s", text, doc)
	return spans.Span{}
}

func decisionGrader(t *testing.T) *Grader {
	t.Helper()
	ix, err := citations.Build(testcorpus.Memory(t, decisionDocuments), citations.Options{})
	require.NoError(t, err)
	g, err := New(ix, decisionReference(t), false)
	require.NoError(t, err)
	return g
}

func attempt(question, response string, cites ...runs.Citation) *runs.Record {
	if cites == nil {
		cites = []runs.Citation{}
	}
	return &runs.Record{Arm: "A", Session: 1, Question: question, Status: "ok", Response: response, Citations: cites}
}

func cite(doc, quote string, page int) runs.Citation {
	c := runs.Citation{ID: "c1", Document: doc, Quote: &quote}
	if page > 0 {
		c.Page = &page
	}
	return c
}

// TestDecisionFields pins the field readings, one case each.
func TestDecisionFields(t *testing.T) {
	g := decisionGrader(t)
	tests := []struct {
		question, response string
		field              string
		want               Outcome
		reason             FieldReason
		why                string
	}{
		{"samples", "Samples: 12 samples", "samples", Incorrect, FieldMissingBasis, "S1: a dropped basis is incorrect"},
		{"samples", "Samples: 12 samples per lot", "samples", Unresolved, FieldUnregistered, "A07: a basis in other words is unresolved"},
		{"samples", "The supplier must draw 12 samples per batch.", "samples", Correct, FieldNeutralWording, "A13, S11: the question's own wording is neutral"},
		{"samples", "Samples: twelve samples per batch", "samples", Correct, FieldExact, "cardinal words"},
		{"samples", "Samples: 12 samples per batch [1]", "samples", Correct, FieldExact, "a citation marker is not a number"},
		{"samples", "Samples: 12 samples per batch (see section 4.1)", "samples", Correct, FieldExact, "a section reference is a marker"},
		{"samples", "Samples: 12 samples per batch\nSource: qa.pdf, page 1", "samples", Correct, FieldExact, "a source line is a marker"},
		{"samples", "Samples: 12 (twelve) samples per batch", "samples", Correct, FieldExact, "a number in digits and in words is one number"},
		{"samples", "Samples: 12 samples per batch, 12 samples in all", "samples", Unresolved, FieldRepeatedElement, "an element said twice is not a new value"},
		{"samples", "Samples: UNKNOWN", "samples", Incorrect, FieldUnknownOnAnswerable, "UNKNOWN on an answerable field"},
		{"samples", "Samples: The agreement does not state the sample size.", "samples", Incorrect, FieldDecline, "a decline on an answerable question fails"},
		{"samples", "Samples: 12 samples per batch\nLet me know if you need anything else.", "samples", Unresolved, FieldAdditionalWording, "A25: trailing output stays in the value"},
		{"samples", "Here is the answer:\nSamples: 12 samples per batch", "samples", Correct, FieldExact, "A18: a preface that asserts nothing is a flag only"},
		{"flatness", "Maximum flatness deviation: 0.5 mm", "flatness", Correct, FieldImplicitLimit, "the question asks the bound"},
		{"flatness", "Maximum flatness deviation: at least 0.5 mm", "flatness", Incorrect, FieldOppositeDirection, "S3"},
		{"flatness", "Maximum flatness deviation: exactly 0.5 mm", "flatness", Incorrect, FieldExactVsLimit, "S3"},
		{"flatness", "Maximum flatness deviation: at most 0,5 mm", "flatness", Unresolved, FieldAmbiguousComma, "A03"},
		{"flatness", "Maximum flatness deviation: at most 0.05 cm", "flatness", Incorrect, FieldUnitConversion, "S4"},
		{"flatness", "must not exceed 0.5 mm", "flatness", Unresolved, FieldSourceNoSupport, "A02: a source passage without linked support"},
		{"approval", "Deviation approval: requires written approval from buyer before dispatch", "approval", Correct, FieldExact, "verb variant, article"},
		{"approval", "Deviation approval: require approval from the buyer before dispatch", "approval", Incorrect, FieldMissingWord, "S1: written acceptance dropped"},
		{"approval", "Deviation approval: the buyer's written approval, required before dispatch", "approval", Unresolved, FieldReordered, "a word in another place is not missing"},
		{"approval", "Deviation approval: require written approval from the buyer", "approval", Incorrect, FieldMissingCondition, "S1: the event dropped"},
		{"approval", "Deviation approval: require written approval from the buyer after dispatch", "approval", Incorrect, FieldContraryCondition, "A08"},
		{"approval", "Deviation approval: require written approval from the buyer prior to dispatch", "approval", Unresolved, FieldUnregistered, "A07: a condition in other words"},
		{"deadline", "Response time: 10 working days unless agreed otherwise in writing", "deadline", Correct, FieldImplicitLimit, "'within' asked by the question"},
		{"deadline", "Response time: within 10 calendar days unless agreed otherwise in writing", "deadline", Incorrect, FieldWrongDayBasis, "S1: calendar vs working"},
		{"deadline", "Response time: within 10 business days unless agreed otherwise in writing", "deadline", Unresolved, FieldUnregistered, "A07: business for working"},
		{"deadline", "Response time: within 10 working days", "deadline", Incorrect, FieldMissingCondition, "the exclusion must be supplied"},
		{"part", "Part number: P 225", "part", Unresolved, FieldIdentifierVariant, "A04"},
		{"part", "Part number: P-220", "part", Incorrect, FieldWrongIdentifier, "S3: explicit wrong identifier"},
		{"batches", "Dispatch batches: Tuesdays and Fridays", "batches", Correct, FieldDispatchBatchScope, "plural and dispatch-batch scope"},
		{"batches", "Dispatch batches: Tuesday", "batches", Incorrect, FieldMissingWeekday, "S1"},
		{"batches", "Dispatch batches: Tuesday & Friday", "batches", Correct, FieldDispatchBatchScope, "an ampersand is 'and'"},
		{"batches", "Dispatch batches: Monday and Thursday", "batches", Incorrect, FieldWrongWeekday, "S5"},
		{"batches", "Dispatch batches: Friday and Tuesday", "batches", Unresolved, FieldReordered, "A07: the weekdays in the other order"},
		{"batches", "Dispatch batches: twice a week", "batches", Incorrect, FieldReplacedWeekday, "a frequency in place of the weekdays removes them"},
		{"batches", "Dispatch batches: on weekdays", "batches", Incorrect, FieldReplacedWeekday, "'weekdays' in place of the named weekdays removes them"},
		{"batches", "Dispatch batches: Tuesday and twice more", "batches", Incorrect, FieldReplacedWeekday, "one weekday replaced by wording is removed"},
		{"batches", "Dispatch batches: the dispatch batches", "batches", Incorrect, FieldMissingWeekday, "S1: the weekdays removed with nothing in their place"},
		{"batches", "Dispatch batches: Tue and Fri", "batches", Unresolved, FieldUnregistered, "abbreviated weekdays still name them"},
		{"audits", "Audit months: twice a year", "audits", Incorrect, FieldReplacedMonth, "a frequency in place of the months removes them"},
		{"audits", "Audit months: in spring and autumn", "audits", Incorrect, FieldReplacedMonth, "seasons in place of the months remove them"},
		{"audits", "Audit months: April", "audits", Incorrect, FieldMissingMonth, "S1: a month removed with nothing in its place"},
		{"audits", "Audit months: Apr and Oct", "audits", Unresolved, FieldUnregistered, "abbreviated months still name them"},
		{"audits", "Audit months: October and April", "audits", Unresolved, FieldReordered, "the months in the other order"},
		{"gap", "Minimum gap: at least 10 centimetres", "gap", Correct, FieldScopeShortening, "unit spelling and scope shortening"},
		{"gap", "Minimum gap: more than 10 cm", "gap", Incorrect, FieldStrictVsInclusive, "S3"},
		{"gap", "Minimum gap: at least 100 mm", "gap", Incorrect, FieldUnitConversion, "S4"},
		{"frozen", "Storage temperature: at most −18°C", "frozen", Correct, FieldAcceptedAlternative, "A05: the minus sign; no space before °C"},
		{"frozen", "Storage temperature: -18 °C", "frozen", Incorrect, FieldMissingLimitQualifier, "S1: the qualifier dropped"},
		{"frozen", "Storage temperature: minus 18 °C or colder", "frozen", Correct, FieldExact, "the sign spelled out"},
		{"frozen", "Storage temperature: at or below -18 °C", "frozen", Unresolved, FieldUnregisteredComparison, "an inclusive bound in other words"},
		{"seal", "Seal width at final inspection: 5 mm", "seal", Correct, FieldStageFromLabel, "the label states the stage"},
		{"seal", "Seal width at final inspection: at least 5 mm at goods receipt", "seal", Incorrect, FieldContraryStage, "explicit contrary stage"},
		{"validity", "Price validity: 31 March 2025", "validity", Incorrect, FieldMissingCondition, "S2: until is never supplied by the question"},
		{"validity", "Price validity: until the end of March 2025", "validity", Unresolved, FieldUnregistered, "A07: the month's end names its last day, the date in other words"},
		{"validity", "Price validity: until the last day of March 2025", "validity", Unresolved, FieldUnregistered, "the month's last day in other words"},
		{"validity", "Price validity: until the end of Mar 2025", "validity", Unresolved, FieldUnregistered, "the month's end with the month abbreviated"},
		{"validity", "Price validity: valid through the end of March 2025", "validity", Unresolved, FieldUnregistered, "the condition and the day both in other words"},
		{"validity", "Price validity: until the end of the first quarter of 2025", "validity", Incorrect, FieldReplacedMonth, "the quarter's end in place of the day and month removes them"},
		{"validity", "Price validity: until mid-March 2025", "validity", Incorrect, FieldReplacedDay, "wording in place of the day removes it, the month kept"},
		{"validity", "Price validity: until a date in March 2025", "validity", Incorrect, FieldReplacedDay, "a date in the month is not its day"},
		{"validity", "Price validity: until March 2025", "validity", Incorrect, FieldMissingNumber, "the day removed with nothing in its place"},
		{"validity", "Price validity: until the 30th of March 2025", "validity", Incorrect, FieldWrongDate, "an ordinal of another day is a wrong date"},
		{"validity", "Price validity: until 31st March 2025", "validity", Unresolved, FieldDateFormat, "the day as an ordinal keeps it"},
		{"validity", "Price validity: until March 31st, 2025", "validity", Unresolved, FieldDateFormat, "the day as an ordinal after the month keeps it"},
		{"validity", "Price validity: until March 31, 2025", "validity", Unresolved, FieldReordered, "month before day keeps both"},
		{"validity", "Price validity: until 31/03/2025", "validity", Unresolved, FieldDateFormat, "day and month in digits keep both"},
		{"season", "Surcharge period: from 1 June to 31 August 2025", "season", Correct, FieldExact, "a date range"},
		{"season", "Surcharge period: during the summer months of 2025", "season", Incorrect, FieldReplacedMonth, "wording in place of a range's months removes them"},
		{"season", "Surcharge period: from 1 June to the end of summer 2025", "season", Incorrect, FieldReplacedMonth, "wording in place of a range's end month removes it"},
		{"season", "Surcharge period: from 1 June to the end of August 2025", "season", Unresolved, FieldUnregistered, "a range ending at the month's end in other words"},
		{"season", "Surcharge period: from June 1 to August 31, 2025", "season", Unresolved, FieldReordered, "a range with months before days"},
		{"validity", "Price validity: until 31 May 2025", "validity", Incorrect, FieldWrongMonth, "S5"},
		{"cutoff", "Order deadline: before 15:00 on 30.06.2025", "cutoff", Incorrect, FieldWrongTime, "another time of day is incorrect"},
		{"cutoff", "Order deadline: before 14:00", "cutoff", Incorrect, FieldMissingDate, "S1: a date in digits dropped"},
		{"cutoff", "Order deadline: before 30.06.2025", "cutoff", Incorrect, FieldMissingTime, "S1: a time of day dropped"},
		{"validity", "Price validity: until 31.03.2025", "validity", Unresolved, FieldDateFormat, "the same day written in digits is unresolved"},
		{"validity", "Price validity: until 30.03.2025", "validity", Incorrect, FieldWrongDate, "another day is a wrong date (S5)"},
		{"discount", "Discount: 0%", "discount", Unresolved, FieldDroppedSubjectWord, "A07: 0% for the alias 0% discount"},
		{"discount", "Discount: 3% discount", "discount", Incorrect, FieldWrongNumber, "an explicit wrong number"},
		{"discount", "Discount: no discount (orders below 10 boxes)", "discount", Unresolved, FieldAdditionalGrounded, "what the declared passage says beside the value is no unsupported number"},
		{"storage", "Free storage period: the first 14 calendar days\nStorage fee: 2.50 EUR per pallet per calendar day", "free", Correct, FieldScopeShortening, "scope shortening with 'of'"},
		{"storage", "Free storage period: the first 14 calendar days", "fee", Incorrect, FieldMissing, "a missing field is incorrect"},
		{"storage", "Storage is free for the first 14 calendar days; then 2.50 EUR per pallet per calendar day.", "fee", Unresolved, FieldMissingLabel, "A19: several fields without labels"},
		{"storage", "Storage fee: 2.50 EUR per pallet per calendar day\nStorage fee: 2.50 EUR per pallet per calendar day\nFree storage period: the first 14 calendar days", "fee", Correct, FieldDuplicateSame, "A17: an identical repeated line is a flag only"},
		{"storage", "Storage fee: 2.50 EUR per pallet per calendar day\nStorage fee: 3 EUR per pallet per calendar day\nFree storage period: the first 14 calendar days", "fee", Unresolved, FieldConflictingLabels, "A17: conflicting values under one label"},
		{"storage", "- **Free storage period:** the first 14 calendar days\n- **Storage fee:** 2.50 EUR per pallet per calendar day", "fee", Correct, FieldExact, "markdown bullets and bold"},
		{"storage", "Free storage period (days): the first 14 calendar days\nStorage fee (EUR): 2.50 EUR per pallet per calendar day", "fee", Correct, FieldExact, "a label with a parenthetical"},
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			r := g.Grade(attempt(tt.question, tt.response), "t", AttemptOK, 1)
			fv := r.Fields[tt.field]
			assert.Equal(t, tt.want, fv.Verdict, "%q: %+v", tt.response, fv)
			assert.Contains(t, fv.Reasons, tt.reason, "%q: %+v", tt.response, fv)
			for _, r := range fv.Reasons {
				assert.Equal(t, fv.Verdict, listedOutcome(t, r), "%s goes with the verdict FieldReasons gives it", r)
			}
		})
	}
}

// TestReadingA02SourcePassage: a source passage holding the fact is
// correct with a passing citation that contains it, unresolved without.
func TestReadingA02SourcePassage(t *testing.T) {
	g := decisionGrader(t)
	sentence := "The flatness of plate P-220 must not exceed 0.5 mm."
	r := g.Grade(attempt("flatness", sentence, cite("qa.pdf", sentence, 1)), "t", AttemptOK, 1)
	assert.Equal(t, Correct, r.Fields["flatness"].Verdict, "%+v", r.Fields["flatness"])
	assert.Equal(t, Pass, *r.Supported)
	r = g.Grade(attempt("flatness", "must not exceed 0.5 mm", cite("qa.pdf", sentence, 1)), "t", AttemptOK, 1)
	assert.Equal(t, []FieldReason{FieldSourceWithSupport}, r.Fields["flatness"].Reasons)
	r = g.Grade(attempt("flatness", "must not exceed 0.5 mm"), "t", AttemptOK, 1)
	assert.Equal(t, Unresolved, *r.Factual)
	assert.Equal(t, Fail, *r.Supported, "no citation: the claim is not supported")
}

// TestDecisionMarkersAreNotValues: citation markers in an answer are not
// numbers it asserts.
func TestDecisionMarkersAreNotValues(t *testing.T) {
	g := decisionGrader(t)
	for _, resp := range []string{"Samples: 12 samples per batch [1]", "Samples: 12 samples per batch (p. 1)",
		"Samples: 12 samples per batch【4:0†qa.pdf】", "Samples: 12 samples per batch [qa.pdf, p. 1]",
		"Samples: 12 samples per batch (qa.pdf, pages 1-2)", "Samples: 12 samples per batch (qa.pdf)"} {
		r := g.Grade(attempt("samples", resp), "t", AttemptOK, 1)
		assert.Equal(t, Correct, r.Fields["samples"].Verdict, resp)
	}
}

// TestDecisionPrefaceOnTheSubject: a preface that speaks of a field's
// subject ("Coolant is stored cold." before "Storage temperature:
// UNKNOWN") asserts something a reviewer must weigh: no clean pass; one
// that asserts nothing stays a flag only.
func TestDecisionPrefaceOnTheSubject(t *testing.T) {
	g := decisionGrader(t)
	r := g.Grade(attempt("coolant", "The storage temperature is kept low.\nStorage temperature: UNKNOWN"), "t", AttemptOK, 1)
	require.NotNil(t, r.Abstention)
	assert.Equal(t, Unresolved, *r.Abstention, "%+v", r)
	r = g.Grade(attempt("coolant", "Here is the answer:\nStorage temperature: UNKNOWN"), "t", AttemptOK, 1)
	require.NotNil(t, r.Abstention)
	assert.Equal(t, Pass, *r.Abstention, "%+v", r)
}

// TestDecisionValueBesideFileNameIsNoMarker: brackets that hold a file name
// and something else than its pages are no citation marker: "(qa.pdf gives
// 14)" states 14, which grading reads.
func TestDecisionValueBesideFileNameIsNoMarker(t *testing.T) {
	g := decisionGrader(t)
	r := g.Grade(attempt("samples", "Samples: 12 samples per batch (qa.pdf gives 14)"), "t", AttemptOK, 1)
	assert.NotEqual(t, Correct, r.Fields["samples"].Verdict, "the 14 beside the name is an answer's number: %+v", r.Fields["samples"])
}

// TestDecisionStructuredFields: a run's structured fields are graded like
// labelled prose; a field the question does not ask for is a review flag.
func TestDecisionStructuredFields(t *testing.T) {
	g := decisionGrader(t)
	rec := attempt("storage", "(prose ignored)")
	rec.Fields = map[string]string{"free": "the first 14 calendar days", "fee": "2.50 EUR per pallet per calendar day", "notes": "x"}
	r := g.Grade(rec, "t", AttemptOK, 1)
	assert.Equal(t, Correct, r.Fields["free"].Verdict)
	assert.Equal(t, Correct, r.Fields["fee"].Verdict)
	assert.Contains(t, r.Review, FlagUnknownField)
}

// TestDerivedVerdicts: missing_citation, the three-valued ANDs, and a
// failing extra citation that does not undo support another citation
// proves (citation precision takes the loss).
func TestDerivedVerdicts(t *testing.T) {
	g := decisionGrader(t)
	good := cite("qa.pdf", "The supplier shall draw 12 samples per batch for dimensional checks.", 1)
	bad := cite("qa.pdf", "Samples are drawn by the buyer.", 1)
	bad.ID = "c2"
	r := g.Grade(attempt("samples", "Samples: 12 samples per batch", good, bad), "t", AttemptOK, 1)
	require.Len(t, r.Citations, 2)
	assert.Equal(t, Pass, r.Citations[0].Verdict)
	assert.Equal(t, ReasonFabricatedQuote, r.Citations[1].Reason)
	assert.Equal(t, Pass, *r.Supported, "precision takes the loss, support stays")
	r = g.Grade(attempt("samples", "Samples: UNKNOWN"), "t", AttemptOK, 1)
	require.Len(t, r.Citations, 1)
	assert.Nil(t, r.Citations[0].ID)
	assert.Equal(t, ReasonMissingCitation, r.Citations[0].Reason)
	assert.Equal(t, Fail, *r.Factual)
	assert.Nil(t, r.Abstention)
	r = g.Grade(attempt("samples", "Samples: 12 samples per lot", good), "t", AttemptOK, 1)
	assert.Equal(t, Unresolved, *r.Factual)
	assert.Equal(t, Unresolved, *r.Supported)
	for _, status := range []string{AttemptError, AttemptTimeout, AttemptInterrupted} {
		rec := attempt("samples", "Samples: 12 samples per batch", good)
		rec.Status = status
		r := g.Grade(rec, "t", AttemptOK, 1)
		assert.Equal(t, status, r.Attempt)
		assert.Equal(t, Fail, *r.Factual, "%s counts as a failure", status)
		assert.Equal(t, []FieldReason{FieldReason("attempt_" + status)}, r.Fields["samples"].Reasons)
	}
}

// TestDecisionNoReferenceValue: a field the reference gives no value to
// compare with is open, whatever the answer says.
func TestDecisionNoReferenceValue(t *testing.T) {
	fv := gradeValue(&fieldRef{field: "samples", label: "Samples"}, "12 samples per batch")
	assert.Equal(t, Unresolved, fv.Verdict)
	assert.Equal(t, []FieldReason{FieldNoReferenceValue}, fv.Reasons)
}

// TestDecisionClaimValuesOfOneClaimOnly: a claim's compact value is an
// accepted value of the field only when the field has no other claim.
func TestDecisionClaimValuesOfOneClaimOnly(t *testing.T) {
	q := &spans.Question{ID: "price", Question: "What is the unit price of bracket B-200?",
		RequiredFields: []spans.RequiredField{{Field: "price", Label: "Unit price"}},
		AnswerFields:   map[string]string{"price": "4.75 EUR per piece, excluding VAT"},
		EssentialClaims: []spans.Claim{{Field: "price", Value: "4.75 per piece", AcceptedValues: []string{"4.75 a piece"}},
			{Field: "price", Value: "EUR, excluding VAT"}}}
	refs := newFieldRefs(q)
	assert.Equal(t, Incorrect, gradeValue(&refs[0], "4.75 per piece").Verdict, "half of the field")
	assert.Equal(t, Correct, gradeValue(&refs[0], "4.75 EUR per piece, excluding VAT").Verdict)
	q.EssentialClaims = q.EssentialClaims[:1]
	refs = newFieldRefs(q)
	assert.Equal(t, Correct, gradeValue(&refs[0], "4.75 a piece").Verdict, "the only claim's legacy accepted value")
}

// TestDecisionUnknownQuestionRelaxedLevel pins the citation verdict on an
// unknown question at every match level: no passage supports an answer to
// an unknown question, so a citation on one that the locator finds, however
// relaxed the level, fails wrong_fact as an exact one does, instead of
// staying open for the level; on an answerable question the relaxed level
// still leaves it unresolved (joined words are never a pass).
func TestDecisionUnknownQuestionRelaxedLevel(t *testing.T) {
	g := decisionGrader(t)
	exact := "Frozen goods must be stored at -18 °C or colder."
	joined := "Frozengoods must be stored at -18 °C orcolder."
	pieces := "Frozen goods must be stored at -18 °C or colder. The gap between adjacent pallets must be at least 10 cm."
	tests := []struct {
		question, response, quote string
		level                     citations.Level
		verdict                   Outcome
		reason                    Reason
		why                       string
	}{
		{"coolant", "Storage temperature: -18 °C or colder", exact, citations.Exact, Fail, ReasonWrongFact, "a speculative value citing an exact passage"},
		{"coolant", "Storage temperature: -18 °C or colder", joined, citations.JoinedWords, Fail, ReasonWrongFact, "a speculative value citing joined words"},
		{"coolant", "Storage temperature: -18 °C or colder", pieces, citations.Reordered, Fail, ReasonWrongFact, "a speculative value citing pieces in another order"},
		{"coolant", "UNKNOWN", joined, citations.JoinedWords, Fail, ReasonWrongFact, "UNKNOWN citing joined words: the citation is no less wrong"},
		{"frozen", "Storage temperature: -18 °C or colder", joined, citations.JoinedWords, Unresolved, ReasonJoinedWords, "joined words on an answerable question stay open"},
		{"frozen", "Storage temperature: -18 °C or colder", pieces, citations.Reordered, Unresolved, ReasonReordered, "pieces in another order on an answerable question stay open"},
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			r := g.Grade(attempt(tt.question, tt.response, cite("sop.pdf", tt.quote, 1)), "t", AttemptOK, 1)
			require.Len(t, r.Citations, 1)
			c := r.Citations[0]
			require.NotNil(t, c.Match, "located: %+v", c)
			assert.Equal(t, tt.level, *c.Match)
			assert.Equal(t, tt.verdict, c.Verdict, c.Detail)
			assert.Equal(t, tt.reason, c.Reason, c.Detail)
		})
	}
	// The classifier decides it from the question alone, at each relaxed
	// level (the cases of TestClassify, on an unknown question).
	ix := verdictIndex(t)
	for _, c := range []citations.Citation{
		{Document: "policy.pdf", Quote: "Ordersmustbedeliveredwithin 10 workingdays of the purchase orderdate."},
		{Document: "listing.pdf", Quote: "Open returns ctx, err NewContext(rs, conf) on success."},
		{Document: "lemma.pdf", Quote: "For all a 6= 0 the map is injective."},
		{Document: "policy.pdf", Quote: "Late orders are charged 2.5% per day. Orders must be delivered within 10 working days of the purchase order date."},
	} {
		v := Classify(ix, c, nil, Expected{Abstain: true})
		assert.True(t, v.Grounded.Result.Level.Relaxed(), "%q: level %v", c.Quote, v.Grounded.Result.Level)
		assert.Equal(t, Fail, v.Outcome, "%q", c.Quote)
		assert.Equal(t, ReasonWrongFact, v.Reason, "%q", c.Quote)
	}
}
