package grade

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/testcorpus"
)

// TestLayoutOrderCitationPasses: a citation found only in a page's layout
// order (its lines drawn apart in the content stream, as two columns are)
// passes when its pieces in the page text cover a declared span, and
// nothing else changes: a quote covering no declared span is still a
// wrong fact.
func TestLayoutOrderCitationPasses(t *testing.T) {
	// Two columns drawn a line of each at a time; the layout order reads
	// the left column, then the right.
	text := "Orders ship within 10 days Invoices are paid\nof the purchase order date. within 45 days."
	rs := []rune(text)
	var order corpus.Order
	order.Name = "layout"
	add := func(from, to int, sep string) {
		for k := from; k < to; k++ {
			order.Text += string(rs[k])
			order.Map = append(order.Map, int32(k))
		}
		for _, r := range sep {
			order.Text += string(r)
			order.Map = append(order.Map, -1)
		}
	}
	add(0, 26, "\n")
	add(45, 72, "\n\n")
	add(27, 44, "\n")
	add(73, 88, "")
	require.NoError(t, corpus.ValidateOrders([]corpus.Order{order}, text))
	ix, err := citations.Build(testcorpus.Memory(t, []corpus.MemoryDocument{{Name: "terms.pdf", Pages: []corpus.PageText{{Text: text, Orders: []corpus.Order{order}}}}}), citations.Options{})
	require.NoError(t, err)

	quote := "Orders ship within 10 days\nof the purchase order date."
	c := citations.Citation{Document: "terms.pdf", Quote: quote, Page: 1}
	// Declared in the page text: "10 days" on the first line, "the
	// purchase order date" on the second.
	exp := Expected{Evidence: []EvidenceSpan{{Document: "terms.pdf", Page: 1, Start: 19, End: 26, Text: "10 days"}}}
	v := Classify(ix, c, nil, exp)
	loc, _ := v.Grounded.Result.Location()
	assert.Equal(t, "layout", loc.Order)
	assert.Equal(t, []citations.Span{{Page: 1, Start: 0, End: 26}, {Page: 1, Start: 45, End: 72}}, loc.Spans, "two pieces of the page text")
	assert.Equal(t, Pass, v.Outcome, v.Detail)
	assert.Equal(t, ReasonDeclaredSpan, v.Reason)

	// A declared span that spans both pieces in the page text is not
	// covered: between them lies the other column's line.
	exp = Expected{Evidence: []EvidenceSpan{{Document: "terms.pdf", Page: 1, Start: 12, End: 60, Text: rsSlice(rs, 12, 60)}}}
	v = Classify(ix, c, nil, exp)
	assert.Equal(t, Fail, v.Outcome, v.Detail)
	assert.Equal(t, ReasonWrongFact, v.Reason)
}

func rsSlice(rs []rune, a, b int) string { return string(rs[a:b]) }
