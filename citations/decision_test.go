package citations

import (
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/testcorpus"
	"github.com/stretchr/testify/assert"
)

// decisionDocuments hold "calendar days" three times, once in prices.pdf.
var decisionDocuments = []corpus.MemoryDocument{
	{Name: "policy.pdf", Pages: []corpus.PageText{
		{Text: "Delivery terms.\nOrders must be delivered within 10 working days of the purchase order date.\npolicy.pdf Page 1"},
		{Text: "Payment terms.\nInvoices are paid within 45 calendar days of receipt.\nSummary: payment within 45 calendar days.\npolicy.pdf Page 2"},
	}},
	{Name: "prices.pdf", Pages: []corpus.PageText{{Text: "Minimum order: 250 pieces.\nPayment within 45 calendar days."}}},
}

func verdictIndex(t *testing.T) *Index {
	t.Helper()
	ix, err := Build(testcorpus.Memory(t, decisionDocuments), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// TestDecisionShortQuoteAmbiguous: a very short quote (under
// ShortQuoteLen) that occurs more than ShortQuoteMaxOccurrences times in
// the corpus is ambiguous even when the named document holds it once; a
// given page that holds it exactly once settles it (docs/grading.md,
// reading A11, and the worked example q02-identifier-quote-page).
func TestDecisionShortQuoteAmbiguous(t *testing.T) {
	ix := verdictIndex(t)
	r := ix.Locate(Query{Document: "prices.pdf", Quote: "calendar days"})
	if r.Status != StatusAmbiguous || !r.Short {
		t.Errorf("a short quote occurring three times, no page: %s short=%v", r.Status, r.Short)
	}
	if r := ix.Locate(Query{Document: "prices.pdf", Quote: "calendar days", Page: 1}); r.Status != StatusUnique || !r.Short || r.PageCheck != PagePhysical {
		t.Errorf("a given page that holds it once settles it: %s short=%v %s", r.Status, r.Short, r.PageCheck)
	}
	if r := ix.Locate(Query{Document: "prices.pdf", Quote: "250 pieces"}); r.Status != StatusUnique || r.Short {
		t.Errorf("a short quote occurring once: %s short=%v", r.Status, r.Short)
	}
}

// TestDecisionLooseDocumentName: a document named only loosely
// ("Supplier-Policy.PDF", "docs/x.pdf", "x") is an ambiguous document
// mapping, never silently accepted.
func TestDecisionLooseDocumentName(t *testing.T) {
	ix := verdictIndex(t)
	for _, ref := range []string{"Policy.PDF", "docs/policy.pdf", `C:\docs\policy.pdf`, "policy"} {
		m := ix.Resolve(ref, nil)
		assert.Equal(t, DocAmbiguous, m.Resolution, ref)
		assert.True(t, m.Loose, ref)
		assert.Equal(t, []string{"policy.pdf"}, m.Candidates, ref)
	}
	if m := ix.Resolve("policy.pdf", nil); m.Resolution != DocResolved {
		t.Errorf("exact name: %+v", m)
	}
	if m := ix.Resolve("file-x", map[string][]string{"file-x": {"policy.pdf"}}); m.Resolution != DocResolved || m.Name != "policy.pdf" {
		t.Errorf("mapped: %+v", m)
	}
}
