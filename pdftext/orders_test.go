package pdftext

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/fixtures"
)

// TestPageOrders: a page whose content stream interleaves two columns gets
// a layout order that reads one column, then the other; the page text stays
// in content-stream order.
func TestPageOrders(t *testing.T) {
	b := &fixtures.Builder{}
	fonts := helvetica(b)
	content := "BT /F1 11 Tf 72 700 Td (The left column starts) Tj ET BT /F1 11 Tf 320 700 Td (The right column starts) Tj ET " +
		"BT /F1 11 Tf 72 686 Td (and goes on below.) Tj ET BT /F1 11 Tf 320 686 Td (and ends here.) Tj ET"
	doc, err := Extract(b.Document([]fixtures.Page{{Content: content, Fonts: fonts}}), Options{})
	require.NoError(t, err)
	p := doc.Pages[0]
	assert.Equal(t, "The left column starts The right column starts\nand goes on below. and ends here.", p.Text)
	require.NoError(t, corpus.ValidateOrders(p.Orders, p.Text))
	var names []string
	for _, o := range p.Orders {
		names = append(names, o.Name)
		assert.Equal(t, "The left column starts\nand goes on below.\n\nThe right column starts\nand ends here.", o.Text, o.Name)
	}
	assert.Equal(t, []string{"boxes", "layout"}, names, "sorted by name")
}

// TestParentChecksOrders: reading orders that do not fit the page text are
// dropped by the parent, and the page says so; the text is kept.
func TestParentChecksOrders(t *testing.T) {
	resp := response{Status: corpus.StatusOK, Pages: []wirePage{{Text: "ab cd", Orders: []byte("citecheck-orders/1\nlayout 2 1\n0 2\nxy\n")}}}
	ex := resp.extraction()
	require.Len(t, ex.Pages, 1)
	assert.Nil(t, ex.Pages[0].Orders)
	assert.Equal(t, "ab cd", ex.Pages[0].Text)
	require.Len(t, ex.Pages[0].Warnings, 1)
	assert.Contains(t, ex.Pages[0].Warnings[0], "reading orders:")
}
