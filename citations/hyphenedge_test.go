package citations

import (
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/testcorpus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQuoteEdgeInsideHyphenatedWord: a quote may start or end inside a word
// the page hyphenated at a line end, at the hyphen (the
// line "Unlike method-based dynamic compilers, our dynamic com-" of
// tracemonkey p1 that pdf.js's text_layer_spec.mjs expects, and pypdf's
// multicolumn lines ending "Maece-"); anywhere else inside a word it may not.
func TestQuoteEdgeInsideHyphenatedWord(t *testing.T) {
	ix, err := Build(testcorpus.Memory(t, []corpus.MemoryDocument{{Name: "trace.pdf", Pages: []corpus.PageText{{Text: "Unlike method-based dynamic compilers, our dynamic com-\npiler operates at the granularity of individual loops.\nNullam quis leo. Maece-\nnas nec magna vel."}}}}), Options{})
	require.NoError(t, err)
	cases := []struct {
		quote string
		found bool
		level string
		why   string
	}{
		{"Unlike method-based dynamic compilers, our dynamic com-", true, "hyphenation", "the line as pdf.js's test expects it, hyphen and all"},
		{"Unlike method-based dynamic compilers, our dynamic com", true, "hyphenation", "the same line without its hyphen ends at the hyphenation point"},
		{"piler operates at the granularity of individual loops.", true, "hyphenation", "the next line starts inside the word"},
		{"Nullam quis leo. Maece-", true, "hyphenation", "pypdf's multicolumn line"},
		{"our dynamic compiler operates at the granularity", true, "hyphenation", "the joined word, as before"},
		{"our dynamic compi", false, "", "inside the word elsewhere: not a word boundary"},
		{"our dynamic co-", false, "", "a hyphen where the page has none"},
		{"iler operates at the granularity", false, "", "a start inside the word, not at the hyphen"},
	}
	for _, c := range cases {
		r := ix.Locate(Query{Document: "trace.pdf", Quote: c.quote})
		if !c.found {
			// Not at a normalized level; joined_words may end inside a
			// page's word (TestLocate), and never passes.
			if r.Status != StatusNotFound {
				assert.Equal(t, "joined_words", levelOf(r), "%q: %s", c.quote, c.why)
			}
			continue
		}
		require.Equal(t, StatusUnique, r.Status, "%q: %s", c.quote, c.why)
		assert.Equal(t, c.level, levelOf(r), "%q: %s", c.quote, c.why)
	}
}
