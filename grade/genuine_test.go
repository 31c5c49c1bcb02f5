package grade

import (
	"strings"
	"testing"

	"github.com/citecheck/citecheck/citations"
)

// TestDecisionGenuineLevelsPass: a citation found at punctuation,
// non_ascii_dropped or retrieval_edges passes when it covers a declared
// span, as one found at a normalized level does (docs/grading.md), and
// fails as any other when it covers none.
func TestDecisionGenuineLevelsPass(t *testing.T) {
	ix := verdictIndex(t)
	sentence := Expected{Evidence: []EvidenceSpan{ev(t, "terms.pdf", 1, "first-quarter report is due — without exception — within 10 working days")}}
	tests := []struct {
		why   string
		c     citations.Citation
		level citations.Level
	}{
		{"a hyphen as a space, an apostrophe dropped, em dashes as --", citations.Citation{Document: "terms.pdf", Quote: "The suppliers first quarter report is due -- without exception -- within 10 working days."}, citations.Punctuation},
		{"an ASCII-only pipeline's copy", citations.Citation{Document: "terms.pdf", Quote: "The suppliers first-quarter report is due  without exception  within 10 working days."}, citations.Punctuation},
		{"a retrieval result cut inside its edge words", citations.Citation{Document: "terms.pdf", Quote: "ier’s first-quarter report is due — without exception — within 10 working days.\nA disc", Retrieval: true}, citations.RetrievalEdges},
	}
	for _, tt := range tests {
		v := Classify(ix, tt.c, nil, sentence)
		l, _ := v.Grounded.Result.Location()
		if v.Outcome != Pass || v.Reason != ReasonDeclaredSpan || l.Level != tt.level {
			t.Errorf("%s: %s %s at %s (%s); want pass declared_span at %s", tt.why, v.Outcome, v.Reason, l.Level, v.Detail, tt.level)
		}
	}
	anac := Expected{Evidence: []EvidenceSpan{ev(t, "terms.pdf", 1, "Agência Nacional de Aviação Civil approves all parts.")}}
	v := Classify(ix, citations.Citation{Document: "terms.pdf", Quote: "Agncia Nacional de Aviao Civil approves all parts."}, nil, anac)
	if l, _ := v.Grounded.Result.Location(); v.Outcome != Pass || l.Level != citations.NonASCIIDropped {
		t.Errorf("accented letters dropped by an ASCII-only pipeline: %s %s at %s (%s)", v.Outcome, v.Reason, l.Level, v.Detail)
	}
	v = Classify(ix, citations.Citation{Document: "terms.pdf", Quote: "Agncia Nacional de Aviao Civil approves all parts."}, nil, sentence)
	if v.Outcome != Fail || v.Reason != ReasonWrongFact {
		t.Errorf("the same quote, holding no declared span: %s %s (%s)", v.Outcome, v.Reason, v.Detail)
	}
}

// TestDecisionChangedSymbolFails: a quote that matches a passage but for
// a character that carries meaning fails with changed_symbol, its detail
// naming the character (docs/grading.md), not with fabricated_quote.
func TestDecisionChangedSymbolFails(t *testing.T) {
	ix := verdictIndex(t)
	exp := Expected{Evidence: []EvidenceSpan{ev(t, "terms.pdf", 1, "A discount of −2% applies to late orders.")}}
	for _, q := range []string{"A discount of 2% applies to late orders.", "A discount of −2 applies to late orders."} {
		v := Classify(ix, citations.Citation{Document: "terms.pdf", Quote: q}, nil, exp)
		if v.Outcome != Fail || v.Reason != ReasonChangedSymbol || !strings.Contains(v.Detail, "carries meaning") {
			t.Errorf("%q: %s %s (%s); want fail changed_symbol saying what differs", q, v.Outcome, v.Reason, v.Detail)
		}
	}
	if v := Classify(ix, citations.Citation{Document: "terms.pdf", Quote: "A discount of −3% applies to late orders."}, nil, exp); v.Reason != ReasonFabricatedQuote {
		t.Errorf("a changed digit is fabricated, not a changed symbol: %s (%s)", v.Reason, v.Detail)
	}
}
