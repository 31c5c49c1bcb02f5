package grade

import (
	"slices"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/testcorpus"
	"github.com/citecheck/citecheck/runs"
	"github.com/stretchr/testify/assert"
)

var verdictDocuments = []corpus.MemoryDocument{
	{Name: "policy.pdf", Pages: []corpus.PageText{
		{Text: "Delivery terms.\nOrders must be delivered within 10 working days of the purchase order date.\nLate orders are charged 2.5% per day.\npolicy.pdf Page 1"},
		{Text: "Payment terms.\nInvoices are paid within 45 calendar days of receipt.\nSummary: payment within 45 calendar days.\nThe warranty period is 24 months from delivery.\npolicy.pdf Page 2"},
		{Text: "Warranty.\nThe warranty period is 24 months from delivery.\nClaims go to the quality team.\npolicy.pdf Page 3"},
	}},
	{Name: "prices.pdf", Pages: []corpus.PageText{{Text: "Minimum order: 250 pieces.\nPayment within 45 calendar days."}}},
	{Name: "scan.pdf", Pages: []corpus.PageText{{Text: "Cover page text."}, {Text: "", Flags: []string{corpus.FlagNoTextLayer}}}},
	{Name: "locked.pdf", Status: corpus.StatusEncrypted},
	{Name: "report.pdf", Pages: []corpus.PageText{{Text: "Preface.", Label: "i"}, {Text: "Net debt fell to 310 million in the year.", Label: "1"}}},
	{Name: "lemma.pdf", Pages: []corpus.PageText{{Text: "Lemma 3. For all a \u0338= 0 the map is injective.", Alts: []string{"Lemma 3. For all a 6= 0 the map is injective."}}}},
	{Name: "listing.pdf", Pages: []corpus.PageText{{Text: "Open returns ctx, err \uFFFD\uFFFD NewContext(rs, conf) on success."}}},
	{Name: "terms.pdf", Pages: []corpus.PageText{{Text: "The supplier’s first-quarter report is due — without exception — within 10 working days.\n" +
		"A discount of −2% applies to late orders.\nAgência Nacional de Aviação Civil approves all parts."}}},
}

// ev declares the evidence span where text first occurs on the page.
func ev(t *testing.T, doc string, page int, text string) EvidenceSpan {
	t.Helper()
	for _, s := range verdictDocuments {
		if s.Name == doc {
			raw := s.Pages[page-1].Text
			i := strings.Index(raw, text)
			if i < 0 {
				t.Fatalf("%q not on %s page %d", text, doc, page)
			}
			a := len([]rune(raw[:i]))
			return EvidenceSpan{Document: doc, Page: page, Start: a, End: a + len([]rune(text)), Text: text}
		}
	}
	t.Fatalf("no %s", doc)
	return EvidenceSpan{}
}

func TestClassify(t *testing.T) {
	ix, err := citations.Build(testcorpus.Memory(t, verdictDocuments), citations.Options{})
	if err != nil {
		t.Fatal(err)
	}
	delivery := Expected{Evidence: []EvidenceSpan{ev(t, "policy.pdf", 1, "within 10 working days of the purchase order date")}, CanonicalValues: []string{"10 working days of the purchase order date"}}
	payment := Expected{Evidence: []EvidenceSpan{ev(t, "policy.pdf", 2, "Invoices are paid within 45 calendar days of receipt.")}, CanonicalValues: []string{"45 calendar days"}}
	warranty := Expected{Evidence: []EvidenceSpan{ev(t, "policy.pdf", 3, "The warranty period is 24 months from delivery.")}, CanonicalValues: []string{"24 months"}}
	listing := Expected{Evidence: []EvidenceSpan{ev(t, "listing.pdf", 1, "ctx, err \uFFFD\uFFFD NewContext(rs, conf)")}}
	lemma := Expected{Evidence: []EvidenceSpan{ev(t, "lemma.pdf", 1, "a \u0338= 0 the map is injective")}}
	debt := Expected{Evidence: []EvidenceSpan{ev(t, "report.pdf", 2, "Net debt fell to 310 million")}}
	orders := "Orders must be delivered within 10 working days of the purchase order date."
	report := Expected{Evidence: []EvidenceSpan{ev(t, "terms.pdf", 1, "first-quarter report is due — without exception — within 10 working days")}}
	chunk := Expected{Evidence: []EvidenceSpan{ev(t, "terms.pdf", 1, "report is due — without exception")}}
	anac := Expected{Evidence: []EvidenceSpan{ev(t, "terms.pdf", 1, "Agência Nacional de Aviação Civil approves all parts.")}}
	discount := Expected{Evidence: []EvidenceSpan{ev(t, "terms.pdf", 1, "A discount of −2% applies to late orders.")}}
	tests := []struct {
		name    string
		c       citations.Citation
		m       runs.Mapping
		exp     Expected
		outcome Outcome
		reason  Reason
	}{
		{"pass", citations.Citation{Document: "policy.pdf", Page: 1, Quote: orders}, nil, delivery, Pass, ReasonDeclaredSpan},
		{"pass without a page", citations.Citation{Document: "policy.pdf", Quote: orders}, nil, delivery, Pass, ReasonDeclaredSpan},
		{"pass through the run's mapping", citations.Citation{Document: "file-9", Quote: orders}, runs.Mapping{"file-9": {"policy.pdf"}}, delivery, Pass, ReasonDeclaredSpan},
		{"pass settled by the page", citations.Citation{Document: "policy.pdf", Page: 3, Quote: "The warranty period is 24 months from delivery."}, nil, warranty, Pass, ReasonDeclaredSpan},
		{"fabricated_quote", citations.Citation{Document: "policy.pdf", Quote: "Orders must be delivered within 12 working days of the purchase order date."}, nil, delivery, Fail, ReasonFabricatedQuote},
		{"wrong_document", citations.Citation{Document: "prices.pdf", Quote: orders}, nil, delivery, Fail, ReasonWrongDocument},
		{"wrong_page", citations.Citation{Document: "policy.pdf", Page: 3, Quote: orders}, nil, delivery, Fail, ReasonWrongPage},
		{"unknown_document", citations.Citation{Document: "warranty.pdf", Quote: orders}, nil, delivery, Fail, ReasonUnknownDocument},
		{"unknown_document by mapping", citations.Citation{Document: "file-1", Quote: orders}, runs.Mapping{"file-1": {"gone.pdf"}}, delivery, Fail, ReasonUnknownDocument},
		{"wrong_fact", citations.Citation{Document: "policy.pdf", Quote: "Late orders are charged 2.5% per day."}, nil, delivery, Fail, ReasonWrongFact},
		{"ambiguous_location", citations.Citation{Document: "policy.pdf", Quote: "The warranty period is 24 months from delivery."}, nil, warranty, Unresolved, ReasonAmbiguousLocation},
		{"alternate_evidence", citations.Citation{Document: "policy.pdf", Quote: "Summary: payment within 45 calendar days."}, nil, payment, Unresolved, ReasonAlternateEvidence},
		{"ambiguous_document_mapping (loose)", citations.Citation{Document: "Policy.PDF", Quote: orders}, nil, delivery, Unresolved, ReasonAmbiguousDocumentMapping},
		{"ambiguous_document_mapping (conflict)", citations.Citation{Document: "policy.pdf", Quote: orders}, runs.Mapping{"policy.pdf": {"prices.pdf"}}, delivery, Unresolved, ReasonAmbiguousDocumentMapping},
		{"joined_words", citations.Citation{Document: "policy.pdf", Quote: "Ordersmustbedeliveredwithin 10 workingdays of the purchase orderdate."}, nil, delivery, Unresolved, ReasonJoinedWords},
		{"unmapped_glyphs", citations.Citation{Document: "listing.pdf", Quote: "Open returns ctx, err NewContext(rs, conf) on success."}, nil, listing, Unresolved, ReasonUnmappedGlyphs},
		{"glyph_codes", citations.Citation{Document: "lemma.pdf", Quote: "For all a 6= 0 the map is injective."}, nil, lemma, Unresolved, ReasonGlyphCodes},
		{"reordered", citations.Citation{Document: "policy.pdf", Quote: "Late orders are charged 2.5% per day. " + orders}, nil, delivery, Unresolved, ReasonReordered},
		{"page_convention (0-based)", citations.Citation{Document: "policy.pdf", Page: 1, Quote: "Invoices are paid within 45 calendar days of receipt."}, nil, payment, Unresolved, ReasonPageConvention},
		{"page_convention (label)", citations.Citation{Document: "report.pdf", Page: 1, Quote: "Net debt fell to 310 million in the year."}, nil, debt, Unresolved, ReasonPageConvention},
		{"no_quote", citations.Citation{Document: "policy.pdf", Page: 1, NoQuote: true}, nil, delivery, Unresolved, ReasonNoQuote},
		{"no_text (document)", citations.Citation{Document: "locked.pdf", Quote: orders}, nil, delivery, Unresolved, ReasonNoText},
		{"no_text (page)", citations.Citation{Document: "scan.pdf", Page: 2, Quote: orders}, nil, delivery, Unresolved, ReasonNoText},
		{"no_text (no page given)", citations.Citation{Document: "scan.pdf", Quote: orders}, nil, delivery, Unresolved, ReasonNoText},
		{"no_reference_evidence", citations.Citation{Document: "policy.pdf", Quote: orders}, nil, Expected{}, Unresolved, ReasonNoReferenceEvidence},
		{"external_source (web page)", citations.Citation{Document: "https://example.com/terms", Quote: orders, External: true}, nil, delivery, Unresolved, ReasonExternalSource},
		{"external_source before unknown_document", citations.Citation{Document: "example.com", External: true, NoQuote: true}, nil, delivery, Unresolved, ReasonExternalSource},
		// Decided (docs/grading.md): the punctuation, non_ascii_dropped and
		// retrieval_edges levels pass when they cover a declared span, as
		// the normalized levels do: they never change a letter, a digit or
		// a character that carries meaning.
		{"punctuation passes", citations.Citation{Document: "terms.pdf", Quote: "The suppliers first quarter report is due -- without exception -- within 10 working days."}, nil, report, Pass, ReasonDeclaredSpan},
		{"non_ascii_dropped passes", citations.Citation{Document: "terms.pdf", Quote: "Agncia Nacional de Aviao Civil approves all parts."}, nil, anac, Pass, ReasonDeclaredSpan},
		{"retrieval_edges passes", citations.Citation{Document: "terms.pdf", Quote: "plier’s first-quarter report is due — without exception — within 10 working da", Retrieval: true}, nil, chunk, Pass, ReasonDeclaredSpan},
		{"changed_symbol: a dropped minus sign fails, saying so", citations.Citation{Document: "terms.pdf", Quote: "A discount of 2% applies to late orders."}, nil, discount, Fail, ReasonChangedSymbol},
		{"page_physical: one page off is wrong_page", citations.Citation{Document: "policy.pdf", Page: 1, Quote: "Invoices are paid within 45 calendar days of receipt.", PagePhysical: true}, nil, payment, Fail, ReasonWrongPage},
	}
	seen := map[Reason]bool{}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := Classify(ix, tc.c, tc.m, tc.exp)
			if v.Outcome != tc.outcome || v.Reason != tc.reason {
				t.Errorf("got %s %s (%s); want %s %s", v.Outcome, v.Reason, v.Detail, tc.outcome, tc.reason)
			}
			if v.Outcome == Pass && (len(v.Covered) == 0 || len(v.Grounded.Result.Spans()) == 0) {
				t.Errorf("a pass carries the evidence and the located span: %+v", v)
			}
		})
		seen[tc.reason] = true
	}
	if v := MissingCitation(); v.Outcome != Fail || v.Reason != ReasonMissingCitation {
		t.Errorf("missing_citation: %+v", v)
	}
	seen[ReasonMissingCitation] = true
	if v := MalformedCitation("c1", "page 0: pages are 1-based"); v.Outcome != Unresolved || v.Reason != ReasonMalformedCitation ||
		v.Detail != "malformed citation: page 0: pages are 1-based" || v.Grounded.Result.Found() {
		t.Errorf("malformed_citation: %+v", v)
	}
	seen[ReasonMalformedCitation] = true
	for _, r := range Reasons {
		if !seen[r.Reason] {
			t.Errorf("reason %s has no table case", r.Reason)
		}
	}
}

func verdictIndex(t *testing.T) *citations.Index {
	t.Helper()
	ix, err := citations.Build(testcorpus.Memory(t, verdictDocuments), citations.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func TestDecisionReorderedNeverPasses(t *testing.T) {
	ix := verdictIndex(t)
	exp := Expected{Evidence: []EvidenceSpan{ev(t, "policy.pdf", 1, "Orders must be delivered within 10 working days of the purchase order date.")}}
	v := Classify(ix, citations.Citation{Document: "policy.pdf", Page: 1, Quote: "Late orders are charged 2.5% per day. Orders must be delivered within 10 working days of the purchase order date."}, nil, exp)
	assert.Equal(t, Unresolved, v.Outcome)
	assert.Equal(t, ReasonReordered, v.Reason)
	assert.NotEmpty(t, v.Covered, "the declared span it covers")
	assert.Equal(t, citations.Reordered, v.Grounded.Result.Level)
}

// TestDecisionJoinedWordsNeverPasses pins reading A09: a
// quote found only with word joins ignored is unresolved joined_words,
// whether or not it holds a declared span.
func TestDecisionJoinedWordsNeverPasses(t *testing.T) {
	ix := verdictIndex(t)
	exp := Expected{Evidence: []EvidenceSpan{ev(t, "policy.pdf", 2, "within 45 calendar days")}}
	v := Classify(ix, citations.Citation{Document: "policy.pdf", Quote: "Invoices are paid within45calendardays of receipt."}, nil, exp)
	assert.Equal(t, Unresolved, v.Outcome)
	assert.Equal(t, ReasonJoinedWords, v.Reason)
	assert.NotEmpty(t, v.Covered, "the declared span it covers")
	v = Classify(ix, citations.Citation{Document: "policy.pdf", Quote: "The warranty periodis 24 monthsfrom delivery. Claims go"}, nil, exp)
	if v.Outcome != Unresolved || v.Reason != ReasonJoinedWords || len(v.Covered) != 0 {
		t.Errorf("joined words holding no declared span: %s %s (%s)", v.Outcome, v.Reason, v.Detail)
	}
}

func TestDecisionPageConventionUnresolved(t *testing.T) {
	ix := verdictIndex(t)
	exp := Expected{Evidence: []EvidenceSpan{ev(t, "policy.pdf", 2, "Invoices are paid within 45 calendar days of receipt.")}}
	for _, c := range []citations.Citation{
		{Document: "policy.pdf", Page: 1, Quote: "Invoices are paid within 45 calendar days of receipt."},
		{Document: "report.pdf", Page: 1, Quote: "Net debt fell to 310 million in the year."},
	} {
		if v := Classify(ix, c, nil, exp); v.Reason != ReasonPageConvention || v.Outcome != Unresolved {
			t.Errorf("%+v: %s %s", c, v.Outcome, v.Reason)
		}
	}
}

func TestDecisionWrongPageBeforeAmbiguity(t *testing.T) {
	ix := verdictIndex(t)
	v := Classify(ix, citations.Citation{Document: "policy.pdf", Page: 1, Quote: "The warranty period is 24 months from delivery."}, nil, Expected{CanonicalValues: []string{"24 months"}})
	// Page 1 is neither page 2 nor 3 (nor page 2 read 0-based, which is
	// where one occurrence is: that makes it page_convention instead).
	if v.Reason != ReasonPageConvention {
		t.Errorf("page 1 -> %s", v.Reason)
	}
	ix2, _ := citations.Build(testcorpus.Memory(t, []corpus.MemoryDocument{{Name: "r.pdf", Pages: []corpus.PageText{{Text: "Same sentence on many pages here."}, {Text: "Same sentence on many pages here."}, {Text: "Other."}, {Text: "Other."}, {Text: "Other."}, {Text: "Other."}}}}), citations.Options{})
	v = Classify(ix2, citations.Citation{Document: "r.pdf", Page: 5, Quote: "Same sentence on many pages here."}, nil, Expected{CanonicalValues: []string{"Same"}})
	if v.Outcome != Fail || v.Reason != ReasonWrongPage || v.Grounded.Result.Status != citations.StatusAmbiguous {
		t.Errorf("ambiguous quote on a wrong page: %s %s %s", v.Outcome, v.Reason, v.Grounded.Result.Status)
	}
}

// TestDecisionAlternateEvidenceAnyDocument pins reading A14: a grounded
// quote holding the canonical value is alternate evidence wherever it is
// grounded, in the declared evidence's document or another one.
func TestDecisionAlternateEvidenceAnyDocument(t *testing.T) {
	ix := verdictIndex(t)
	exp := Expected{Evidence: []EvidenceSpan{ev(t, "policy.pdf", 2, "Invoices are paid within 45 calendar days of receipt.")}, CanonicalValues: []string{"45 calendar days"}}
	if v := Classify(ix, citations.Citation{Document: "policy.pdf", Quote: "Summary: payment within 45 calendar days."}, nil, exp); v.Reason != ReasonAlternateEvidence {
		t.Errorf("same document: %s", v.Reason)
	}
	if v := Classify(ix, citations.Citation{Document: "prices.pdf", Quote: "Payment within 45 calendar days."}, nil, exp); v.Outcome != Unresolved || v.Reason != ReasonAlternateEvidence {
		t.Errorf("another document: %s %s", v.Outcome, v.Reason)
	}
	// "145 calendar days" does not hold "45 calendar days".
	if _, ok := holdsValue(ix, "within 145 calendar days", exp.CanonicalValues); ok {
		t.Error("a value inside a longer number")
	}
	if _, ok := holdsValue(ix, "WITHIN 45 Calendar Days.", exp.CanonicalValues); !ok {
		t.Error("case is folded for the value check")
	}
}

func TestDecisionPartialSpanIsNotPass(t *testing.T) {
	ix := verdictIndex(t)
	exp := Expected{Evidence: []EvidenceSpan{ev(t, "policy.pdf", 1, "Orders must be delivered within 10 working days of the purchase order date.")}, CanonicalValues: []string{"10 working days"}}
	v := Classify(ix, citations.Citation{Document: "policy.pdf", Quote: "delivered within 10 working days"}, nil, exp)
	if v.Outcome == Pass || v.Reason != ReasonAlternateEvidence {
		t.Errorf("part of the declared span: %s %s", v.Outcome, v.Reason)
	}
}

func TestDecisionUnknownDocumentFirst(t *testing.T) {
	ix := verdictIndex(t)
	if v := Classify(ix, citations.Citation{Document: "nowhere.pdf", NoQuote: true}, nil, Expected{}); v.Reason != ReasonUnknownDocument {
		t.Errorf("unknown document without a quote: %s", v.Reason)
	}
	if v := Classify(ix, citations.Citation{Document: "policy.pdf", NoQuote: true}, nil, Expected{}); v.Reason != ReasonNoQuote || v.Outcome != Unresolved {
		t.Errorf("known document without a quote: %s %s", v.Outcome, v.Reason)
	}
}

func TestDecisionTextlessIsNotFabricated(t *testing.T) {
	ix := verdictIndex(t)
	for _, c := range []citations.Citation{
		{Document: "locked.pdf", Quote: "Anything the model says is here."},
		{Document: "scan.pdf", Page: 2, Quote: "Anything the model says is here."},
		{Document: "scan.pdf", Quote: "Anything the model says is here."},
	} {
		if v := Classify(ix, c, nil, Expected{CanonicalValues: []string{"x"}}); v.Reason != ReasonNoText {
			t.Errorf("%+v: %s", c, v.Reason)
		}
	}
	// A page with text, given: the quote is fabricated.
	if v := Classify(ix, citations.Citation{Document: "scan.pdf", Page: 1, Quote: "Anything the model says is here."}, nil, Expected{CanonicalValues: []string{"x"}}); v.Reason != ReasonFabricatedQuote {
		t.Errorf("page with text: %s", v.Reason)
	}
}

// TestRelaxedLevelsNeverPass: every level past the quote profile's has an
// unresolved reason and a name that parses back, so a new level cannot pass
// a citation by default; the three docs/grading.md passes like the
// normalized levels are named, not defaulted.
func TestRelaxedLevelsNeverPass(t *testing.T) {
	passing := []citations.Level{citations.Punctuation, citations.NonASCIIDropped, citations.RetrievalEdges}
	for l := citations.JoinedWords; l <= citations.RetrievalEdges; l++ {
		_, _, relaxed := relaxedReason(l)
		if slices.Contains(passing, l) == relaxed || !l.Relaxed() {
			t.Errorf("level %v: relaxed %v, passing %v", l, relaxed, slices.Contains(passing, l))
		}
		if back, err := citations.ParseLevel(l.String()); err != nil || back != l {
			t.Errorf("level %v: citations.ParseLevel(%q) = %v, %v", l, l.String(), back, err)
		}
	}
	for l := citations.Exact; l < citations.JoinedWords; l++ {
		if _, _, relaxed := relaxedReason(l); relaxed {
			t.Errorf("level %v is the profile's, yet relaxed", l)
		}
	}
}
