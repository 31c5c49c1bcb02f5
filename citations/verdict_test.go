package citations

import (
	"strings"
	"testing"

	"github.com/citecheck/citecheck/corpus"
)

var verdictSources = []Source{
	{Name: "policy.pdf", Pages: []SourcePage{
		{Text: "Delivery terms.\nOrders must be delivered within 10 working days of the purchase order date.\nLate orders are charged 2.5% per day.\npolicy.pdf Page 1"},
		{Text: "Payment terms.\nInvoices are paid within 45 calendar days of receipt.\nSummary: payment within 45 calendar days.\nThe warranty period is 24 months from delivery.\npolicy.pdf Page 2"},
		{Text: "Warranty.\nThe warranty period is 24 months from delivery.\nClaims go to the quality team.\npolicy.pdf Page 3"},
	}},
	{Name: "prices.pdf", Pages: []SourcePage{{Text: "Minimum order: 250 pieces.\nPayment within 45 calendar days."}}},
	{Name: "scan.pdf", Pages: []SourcePage{{Text: "Cover page text."}, {Text: "", Flags: []string{corpus.FlagNoTextLayer}}}},
	{Name: "locked.pdf", Status: corpus.StatusEncrypted},
	{Name: "report.pdf", Pages: []SourcePage{{Text: "Preface.", Label: "i"}, {Text: "Net debt fell to 310 million in the year.", Label: "1"}}},
	{Name: "lemma.pdf", Pages: []SourcePage{{Text: "Lemma 3. For all a \u0338= 0 the map is injective.", Alts: []string{"Lemma 3. For all a 6= 0 the map is injective."}}}},
	{Name: "listing.pdf", Pages: []SourcePage{{Text: "Open returns ctx, err \uFFFD\uFFFD NewContext(rs, conf) on success."}}},
}

// ev declares the evidence span where text first occurs on the page.
func ev(t *testing.T, doc string, page int, text string) EvidenceSpan {
	t.Helper()
	for _, s := range verdictSources {
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
	ix, err := Build(verdictSources, Options{})
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
	tests := []struct {
		name    string
		c       Citation
		m       Mapping
		exp     Expected
		outcome Outcome
		reason  Reason
	}{
		{"pass", Citation{Document: "policy.pdf", Page: 1, Quote: orders}, nil, delivery, Pass, ReasonDeclaredSpan},
		{"pass without a page", Citation{Document: "policy.pdf", Quote: orders}, nil, delivery, Pass, ReasonDeclaredSpan},
		{"pass through the run's mapping", Citation{Document: "file-9", Quote: orders}, Mapping{"file-9": "policy.pdf"}, delivery, Pass, ReasonDeclaredSpan},
		{"pass settled by the page", Citation{Document: "policy.pdf", Page: 3, Quote: "The warranty period is 24 months from delivery."}, nil, warranty, Pass, ReasonDeclaredSpan},
		{"fabricated_quote", Citation{Document: "policy.pdf", Quote: "Orders must be delivered within 12 working days of the purchase order date."}, nil, delivery, Fail, ReasonFabricatedQuote},
		{"wrong_document", Citation{Document: "prices.pdf", Quote: orders}, nil, delivery, Fail, ReasonWrongDocument},
		{"wrong_page", Citation{Document: "policy.pdf", Page: 3, Quote: orders}, nil, delivery, Fail, ReasonWrongPage},
		{"unknown_document", Citation{Document: "warranty.pdf", Quote: orders}, nil, delivery, Fail, ReasonUnknownDocument},
		{"unknown_document by mapping", Citation{Document: "file-1", Quote: orders}, Mapping{"file-1": "gone.pdf"}, delivery, Fail, ReasonUnknownDocument},
		{"wrong_fact", Citation{Document: "policy.pdf", Quote: "Late orders are charged 2.5% per day."}, nil, delivery, Fail, ReasonWrongFact},
		{"ambiguous_location", Citation{Document: "policy.pdf", Quote: "The warranty period is 24 months from delivery."}, nil, warranty, Unresolved, ReasonAmbiguousLocation},
		{"alternate_evidence", Citation{Document: "policy.pdf", Quote: "Summary: payment within 45 calendar days."}, nil, payment, Unresolved, ReasonAlternateEvidence},
		{"ambiguous_document_mapping (loose)", Citation{Document: "Policy.PDF", Quote: orders}, nil, delivery, Unresolved, ReasonAmbiguousDocumentMapping},
		{"ambiguous_document_mapping (conflict)", Citation{Document: "policy.pdf", Quote: orders}, Mapping{"policy.pdf": "prices.pdf"}, delivery, Unresolved, ReasonAmbiguousDocumentMapping},
		{"joined_words", Citation{Document: "policy.pdf", Quote: "Ordersmustbedeliveredwithin 10 workingdays of the purchase orderdate."}, nil, delivery, Unresolved, ReasonJoinedWords},
		{"unmapped_glyphs", Citation{Document: "listing.pdf", Quote: "Open returns ctx, err NewContext(rs, conf) on success."}, nil, listing, Unresolved, ReasonUnmappedGlyphs},
		{"glyph_codes", Citation{Document: "lemma.pdf", Quote: "For all a 6= 0 the map is injective."}, nil, lemma, Unresolved, ReasonGlyphCodes},
		{"reordered", Citation{Document: "policy.pdf", Quote: "Late orders are charged 2.5% per day. " + orders}, nil, delivery, Unresolved, ReasonReordered},
		{"page_convention (0-based)", Citation{Document: "policy.pdf", Page: 1, Quote: "Invoices are paid within 45 calendar days of receipt."}, nil, payment, Unresolved, ReasonPageConvention},
		{"page_convention (label)", Citation{Document: "report.pdf", Page: 1, Quote: "Net debt fell to 310 million in the year."}, nil, debt, Unresolved, ReasonPageConvention},
		{"no_quote", Citation{Document: "policy.pdf", Page: 1, NoQuote: true}, nil, delivery, Unresolved, ReasonNoQuote},
		{"no_text (document)", Citation{Document: "locked.pdf", Quote: orders}, nil, delivery, Unresolved, ReasonNoText},
		{"no_text (page)", Citation{Document: "scan.pdf", Page: 2, Quote: orders}, nil, delivery, Unresolved, ReasonNoText},
		{"no_text (no page given)", Citation{Document: "scan.pdf", Quote: orders}, nil, delivery, Unresolved, ReasonNoText},
		{"no_reference_evidence", Citation{Document: "policy.pdf", Quote: orders}, nil, Expected{}, Unresolved, ReasonNoReferenceEvidence},
	}
	seen := map[Reason]bool{}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := ix.Classify(tc.c, tc.m, tc.exp)
			if v.Outcome != tc.outcome || v.Reason != tc.reason {
				t.Errorf("got %s %s (%s); want %s %s", v.Outcome, v.Reason, v.Detail, tc.outcome, tc.reason)
			}
			if v.Outcome == Pass && (v.Evidence == nil || len(v.Result.Spans()) == 0) {
				t.Errorf("a pass carries the evidence and the located span: %+v", v)
			}
		})
		seen[tc.reason] = true
	}
	v, ok := MissingCitation(true, true, 0)
	if !ok || v.Outcome != Fail || v.Reason != ReasonMissingCitation {
		t.Errorf("missing_citation: %+v %v", v, ok)
	}
	seen[ReasonMissingCitation] = true
	if _, ok := MissingCitation(false, true, 0); ok {
		t.Error("an unanswerable question needs no citation")
	}
	if _, ok := MissingCitation(true, false, 0); ok {
		t.Error("an abstention needs no citation")
	}
	for _, r := range Reasons {
		if !seen[r.Reason] {
			t.Errorf("reason %s has no table case", r.Reason)
		}
	}
}

func verdictIndex(t *testing.T) *Index {
	t.Helper()
	ix, err := Build(verdictSources, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func TestDecisionReorderedNeverPasses(t *testing.T) {
	ix := verdictIndex(t)
	exp := Expected{Evidence: []EvidenceSpan{ev(t, "policy.pdf", 1, "Orders must be delivered within 10 working days of the purchase order date.")}}
	v := ix.Classify(Citation{Document: "policy.pdf", Page: 1, Quote: "Late orders are charged 2.5% per day. Orders must be delivered within 10 working days of the purchase order date."}, nil, exp)
	if v.Outcome != Unresolved || v.Reason != ReasonReordered || v.Evidence == nil || v.Result.Level != Reordered {
		t.Errorf("%+v", v)
	}
}

func TestDecisionJoinedWordsNeverPasses(t *testing.T) {
	ix := verdictIndex(t)
	exp := Expected{Evidence: []EvidenceSpan{ev(t, "policy.pdf", 2, "within 45 calendar days")}}
	v := ix.Classify(Citation{Document: "policy.pdf", Quote: "Invoices are paid within45calendardays of receipt."}, nil, exp)
	if v.Outcome != Unresolved || v.Reason != ReasonJoinedWords || v.Evidence == nil {
		t.Errorf("%+v", v)
	}
}

func TestDecisionPageConventionUnresolved(t *testing.T) {
	ix := verdictIndex(t)
	exp := Expected{Evidence: []EvidenceSpan{ev(t, "policy.pdf", 2, "Invoices are paid within 45 calendar days of receipt.")}}
	for _, c := range []Citation{
		{Document: "policy.pdf", Page: 1, Quote: "Invoices are paid within 45 calendar days of receipt."},
		{Document: "report.pdf", Page: 1, Quote: "Net debt fell to 310 million in the year."},
	} {
		if v := ix.Classify(c, nil, exp); v.Reason != ReasonPageConvention || v.Outcome != Unresolved {
			t.Errorf("%+v: %s %s", c, v.Outcome, v.Reason)
		}
	}
}

func TestDecisionWrongPageBeforeAmbiguity(t *testing.T) {
	ix := verdictIndex(t)
	v := ix.Classify(Citation{Document: "policy.pdf", Page: 1, Quote: "The warranty period is 24 months from delivery."}, nil, Expected{CanonicalValues: []string{"24 months"}})
	// Page 1 is neither page 2 nor 3 (nor page 2 read 0-based, which is
	// where one occurrence is: that makes it page_convention instead).
	if v.Reason != ReasonPageConvention {
		t.Errorf("page 1 -> %s", v.Reason)
	}
	ix2, _ := Build([]Source{{Name: "r.pdf", Pages: []SourcePage{{Text: "Same sentence on many pages here."}, {Text: "Same sentence on many pages here."}, {Text: "Other."}, {Text: "Other."}, {Text: "Other."}, {Text: "Other."}}}}, Options{})
	v = ix2.Classify(Citation{Document: "r.pdf", Page: 5, Quote: "Same sentence on many pages here."}, nil, Expected{CanonicalValues: []string{"Same"}})
	if v.Outcome != Fail || v.Reason != ReasonWrongPage || v.Result.Status != StatusAmbiguous {
		t.Errorf("ambiguous quote on a wrong page: %s %s %s", v.Outcome, v.Reason, v.Result.Status)
	}
}

func TestDecisionShortQuoteAmbiguous(t *testing.T) {
	ix := verdictIndex(t)
	r := ix.Locate(Query{Document: "prices.pdf", Quote: "calendar days", Page: 1})
	if r.Status != StatusAmbiguous || !r.Short {
		t.Errorf("a short quote occurring three times: %s short=%v", r.Status, r.Short)
	}
	if v := ix.Classify(Citation{Document: "prices.pdf", Page: 1, Quote: "calendar days"}, nil, Expected{CanonicalValues: []string{"calendar days"}}); v.Reason != ReasonAmbiguousLocation {
		t.Errorf("-> %s", v.Reason)
	}
	if r := ix.Locate(Query{Document: "prices.pdf", Quote: "250 pieces"}); r.Status != StatusUnique || r.Short {
		t.Errorf("a short quote occurring once: %s short=%v", r.Status, r.Short)
	}
}

func TestDecisionAlternateEvidenceSameDocumentOnly(t *testing.T) {
	ix := verdictIndex(t)
	exp := Expected{Evidence: []EvidenceSpan{ev(t, "policy.pdf", 2, "Invoices are paid within 45 calendar days of receipt.")}, CanonicalValues: []string{"45 calendar days"}}
	if v := ix.Classify(Citation{Document: "policy.pdf", Quote: "Summary: payment within 45 calendar days."}, nil, exp); v.Reason != ReasonAlternateEvidence {
		t.Errorf("same document: %s", v.Reason)
	}
	if v := ix.Classify(Citation{Document: "prices.pdf", Quote: "Payment within 45 calendar days."}, nil, exp); v.Outcome != Fail || v.Reason != ReasonWrongDocument {
		t.Errorf("another document: %s %s", v.Outcome, v.Reason)
	}
	// "145 calendar days" does not hold "45 calendar days".
	if _, ok := ix.holdsValue("within 145 calendar days", exp.CanonicalValues); ok {
		t.Error("a value inside a longer number")
	}
	if _, ok := ix.holdsValue("WITHIN 45 Calendar Days.", exp.CanonicalValues); !ok {
		t.Error("case is folded for the value check")
	}
}

func TestDecisionPartialSpanIsNotPass(t *testing.T) {
	ix := verdictIndex(t)
	exp := Expected{Evidence: []EvidenceSpan{ev(t, "policy.pdf", 1, "Orders must be delivered within 10 working days of the purchase order date.")}, CanonicalValues: []string{"10 working days"}}
	v := ix.Classify(Citation{Document: "policy.pdf", Quote: "delivered within 10 working days"}, nil, exp)
	if v.Outcome == Pass || v.Reason != ReasonAlternateEvidence {
		t.Errorf("part of the declared span: %s %s", v.Outcome, v.Reason)
	}
}

func TestDecisionUnknownDocumentFirst(t *testing.T) {
	ix := verdictIndex(t)
	if v := ix.Classify(Citation{Document: "nowhere.pdf", NoQuote: true}, nil, Expected{}); v.Reason != ReasonUnknownDocument {
		t.Errorf("unknown document without a quote: %s", v.Reason)
	}
	if v := ix.Classify(Citation{Document: "policy.pdf", NoQuote: true}, nil, Expected{}); v.Reason != ReasonNoQuote || v.Outcome != Unresolved {
		t.Errorf("known document without a quote: %s %s", v.Outcome, v.Reason)
	}
}

func TestDecisionTextlessIsNotFabricated(t *testing.T) {
	ix := verdictIndex(t)
	for _, c := range []Citation{
		{Document: "locked.pdf", Quote: "Anything the model says is here."},
		{Document: "scan.pdf", Page: 2, Quote: "Anything the model says is here."},
		{Document: "scan.pdf", Quote: "Anything the model says is here."},
	} {
		if v := ix.Classify(c, nil, Expected{CanonicalValues: []string{"x"}}); v.Reason != ReasonNoText {
			t.Errorf("%+v: %s", c, v.Reason)
		}
	}
	// A page with text, given: the quote is fabricated.
	if v := ix.Classify(Citation{Document: "scan.pdf", Page: 1, Quote: "Anything the model says is here."}, nil, Expected{CanonicalValues: []string{"x"}}); v.Reason != ReasonFabricatedQuote {
		t.Errorf("page with text: %s", v.Reason)
	}
}

func TestDecisionLooseDocumentName(t *testing.T) {
	ix := verdictIndex(t)
	for _, ref := range []string{"Policy.PDF", "docs/policy.pdf", `C:\docs\policy.pdf`, "policy"} {
		m := ix.Resolve(ref, nil)
		if m.Resolution != DocAmbiguous || !m.Loose || len(m.Candidates) != 1 || m.Candidates[0] != "policy.pdf" {
			t.Errorf("%q: %+v", ref, m)
		}
	}
	if m := ix.Resolve("policy.pdf", nil); m.Resolution != DocResolved {
		t.Errorf("exact name: %+v", m)
	}
	if m := ix.Resolve("file-x", Mapping{"file-x": "policy.pdf"}); m.Resolution != DocResolved || m.Name != "policy.pdf" {
		t.Errorf("mapped: %+v", m)
	}
}
