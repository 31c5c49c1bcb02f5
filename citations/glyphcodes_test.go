package citations

import (
	"slices"
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/testcorpus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGlyphCodes(t *testing.T) {
	// Page 2 as stored, and as poppler (names read as codes) and pdfminer
	// (also CMMI's comma read as ";") read it.
	page := "Sei x \u2208 U mit x \u0338= 0 und f(x, y) = 1.\n\u25b6 Dann ist U offen."
	names := "Sei x \u2208 U mit x 6= 0 und f(x, y) = 1.\nI Dann ist U offen."
	codes := "Sei x 2 U mit x 6= 0 und f(x; y) = 1.\nI Dann ist U offen."
	ix, err := Build(testcorpus.Memory(t, []corpus.MemoryDocument{
		{Name: "topo.pdf", Pages: []corpus.PageText{{Text: "Kapitel 1"}, {Text: page, Alts: []string{names, codes}}}},
	}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		why    string
		quote  string
		status Status
		level  string
		span   string // the page text the match covers
	}{
		{"poppler's reading", "mit x 6= 0 und f(x, y) = 1.", StatusUnique, "glyph_codes", "mit x \u0338= 0 und f(x, y) = 1."},
		{"pdfminer's reading", "Sei x 2 U mit x 6= 0 und f(x; y)", StatusUnique, "glyph_codes", "Sei x \u2208 U mit x \u0338= 0 und f(x, y)"},
		{"pdf.js's bullet", "= 1. I Dann ist U offen.", StatusUnique, "glyph_codes", "= 1.\n\u25b6 Dann ist U offen."},
		{"spaces as poppler sets them around a subscript", "U mit x 6 = 0 und f(x , y) = 1.", StatusUnique, "glyph_codes", "U mit x \u0338= 0 und f(x, y) = 1."},
		{"our own reading is a plain match", "mit x \u0338= 0 und f(x, y) = 1.", StatusUnique, "exact", ""},
		{"a changed number is not found", "mit x 6= 0 und f(x, y) = 7.", StatusNotFound, "", ""},
		{"a changed word is not found", "mit x 6= 0 und g(x, y) = 1.", StatusNotFound, "", ""},
		{"the digit an alias stands for is not the page's digit", "mit x 6= 6 und f(x, y) = 1.", StatusNotFound, "", ""},
		{"two readings mixed in one quote are not found", "Sei x 2 U mit x \u0338= 0 und f(x; y)", StatusNotFound, "", ""},
		{"a reading with its punctuation changed, as the punctuation level lets it differ", "Sei x 2 U mit x 6= 0 und f(x, y)", StatusUnique, "glyph_codes", "Sei x \u2208 U mit x \u0338= 0 und f(x, y)"},
	}
	for _, tc := range tests {
		r := ix.Locate(Query{Document: "topo.pdf", Quote: tc.quote})
		level := levelOf(r)
		if r.Status != tc.status || level != tc.level {
			t.Errorf("%s: %q: got %s %q, want %s %q", tc.why, tc.quote, r.Status, level, tc.status, tc.level)
			continue
		}
		checkSpans(t, ix, r)
		if tc.span == "" {
			continue
		}
		if !slices.Equal(r.Pages(), []int{2}) {
			t.Errorf("%s: pages %v, want [2]", tc.why, r.Pages())
		}
		s := r.Spans()[0]
		if got := string([]rune(page)[s.Start:s.End]); got != tc.span {
			t.Errorf("%s: span [%d,%d) covers %q, want %q", tc.why, s.Start, s.End, got, tc.span)
		}
	}
}

// badAlts is a corpus.Texts giving alternative texts that do not fit their
// page, as no corpus.Texts of package corpus does.
type badAlts struct{ *corpus.Memory }

func (badAlts) AltTexts(*corpus.Document, int) ([]string, error) { return []string{"x 6 = y"}, nil }

func TestBuildRefusesBadAlts(t *testing.T) {
	m := testcorpus.Memory(t, []corpus.MemoryDocument{{Name: "a.pdf", Pages: []corpus.PageText{{Text: "x \u0338= y"}}}})
	_, err := Build(badAlts{m}, Options{})
	require.Error(t, err, "an alternative of another length")
	assert.Contains(t, err.Error(), "a.pdf page 1", "the error names the page")
}
