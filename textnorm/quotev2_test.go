package textnorm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// matchLevel matches the whole quote against the whole page text.
func matchLevel(t *testing.T, page, q string) (Level, bool) {
	t.Helper()
	p, x := quote.Normalize(page), quote.Normalize(q)
	end, l, ok := Match(p, 0, x)
	return l, ok && end == p.Len()
}

// TestAccentsAcrossExtractors: the spellings four extractors and people give
// TeX's accented letters all match the stored text.
func TestAccentsAcrossExtractors(t *testing.T) {
	cases := []struct {
		page, quote string
		level       Level
		why         string
	}{
		{"a na\u00a8\u0131ve implementation", "a naïve implementation", Typography, "tracemonkey p2 as stored, quoted as MuPDF and people write it"},
		{"a na\u00a8\u0131ve implementation", "a na\u0131\u0308ve implementation", Typography, "quoted from pdftotext: dotless i with a combining dieresis"},
		{"a na\u00a8\u0131ve implementation", "a na\u00a8\u0131ve implementation", Exact, "quoted from pdf.js or pdfminer, which store it as we do"},
		{"a na\u00a8\u0131ve implementation", "a nai\u0308ve implementation", Typography, "decomposed ï: NFC, and the page's composition"},
		{"The Fac\u00b8ade pattern", "The Façade pattern", Typography, "TeX's cedilla after its letter"},
		{"Ag\u00eancia Nacional", "Age\u02c6ncia Nacional", Typography, "the Federal Register's circumflex after its letter, in the quote this time"},
		{"vis-`a-vis", "vis-à-vis", Typography, "a grave accent before its letter"},
		{"Schr\u00a8odinger and G\u00a8odel", "Schrödinger and Gödel", Typography, "ö is precomposed, r̈ is not"},
		{"Erd\u02ddos", "Erdős", Typography, "double acute"},
		{"\u02c7Cech", "Čech", Typography, "caron, TeX order: before its letter (ě would be precomposed too)"},
	}
	for _, c := range cases {
		l, ok := matchLevel(t, c.page, c.quote)
		assert.True(t, ok, "%q in %q: %s", c.quote, c.page, c.why)
		assert.Equal(t, c.level, l, "%q in %q: %s", c.quote, c.page, c.why)
	}
}

// TestDecisionDroppedAccentNotFound: "naive" is not found in "na¨ıve". The
// accent is composed, never dropped: dropping accents would equate año and
// ano, schön and schon, résumé and resume, which are different words.
func TestDecisionDroppedAccentNotFound(t *testing.T) {
	_, ok := matchLevel(t, "a na\u00a8\u0131ve implementation", "a naive implementation")
	assert.False(t, ok, "an accent dropped is another spelling, not a copy")
	_, ok = matchLevel(t, "a naïve implementation", "a naive implementation")
	assert.False(t, ok)
}

// TestDecisionAccentLetterChoice pins how a spacing accent between two
// letters chooses one, with no positions to go by (accents.go).
func TestDecisionAccentLetterChoice(t *testing.T) {
	cases := []struct{ raw, want, why string }{
		{"a\u00a8\u0131b", "aïb", "rule 1: a dotless i after the accent, though ä is precomposed too"},
		{"\u0131\u00a8a", "ïa", "rule 1: a dotless i before the accent (poppler's order)"},
		{"e\u02c6n", "ên", "rule 2: only ê is precomposed"},
		{"t\u00b4e", "té", "rule 2: only é is precomposed"},
		{"a\u00a8e", "aë", "rule 3: both precompose; an accent above goes to the letter after it (TeX's \\accent)"},
		{"c\u00b8a", "ça", "rule 3: both precompose; an accent below goes to the letter before it"},
		{"x\u02dc", "x\u0303", "rule 4: the only letter, though x̃ is not precomposed"},
		{"\u02dcF", "F\u0303", "rule 4: the only letter"},
		{"1\u00a8 \u00a8 .\u00b4", "1\u00a8 \u00a8 .\u00b4", "no letter beside it: kept"},
		{"a \u00a8o", "a ö", "a space is a boundary: the accent takes the letter it touches"},
		{"a\u00a8\u00b4e", "aë\u0301", "a run of accents: both go to e, the choices never cross"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, norm1(c.raw), "%q: %s", c.raw, c.why)
	}
}

// TestDoubledSingleQuotes: ‘‘recall’’ (the Federal Register, p3), and the
// same with two apostrophes or two grave accents, are written by people as
// “x” or "x".
func TestDoubledSingleQuotes(t *testing.T) {
	page := "steps or \u2018\u2018recall\u2019\u2019 items"
	for _, q := range []string{"steps or \u201crecall\u201d items", "steps or \"recall\" items", "steps or ''recall'' items", "steps or ``recall'' items"} {
		l, ok := matchLevel(t, page, q)
		assert.True(t, ok, "%q", q)
		assert.Equal(t, Typography, l, "%q", q)
	}
	l, ok := matchLevel(t, page, page)
	require.True(t, ok)
	assert.Equal(t, Exact, l, "the same doubled quotes are the same raw text")
	assert.Equal(t, "'a' \"'b\" ' '", norm1("'a' '''b'' ' '"), "three in a row: a double then a single; a space keeps two apart")
	_, ok = matchLevel(t, "it's", "it\"s")
	assert.False(t, ok, "one apostrophe is not a double quote")
}

// TestDecisionLongS: ſ is s, so ﬅ, "ſt" (pdf.js copies ﬅ so) and "st" are
// one spelling, at the ligature level.
func TestDecisionLongS(t *testing.T) {
	for _, page := range []string{"the \ufb05ory", "the \u017ftory"} {
		for _, q := range []string{"the story", "the \u017ftory", "the \ufb05ory"} {
			l, ok := matchLevel(t, page, q)
			assert.True(t, ok, "%q in %q", q, page)
			if page != q {
				assert.Equal(t, Ligature, l, "%q in %q", q, page)
			}
		}
	}
}

// TestDecisionCJKLineBreak: white space between two Chinese or Japanese
// characters is no word space ("検知機\n構" is 検知機構, pdf.js's
// pdf_find_controller_spec.js; extractors read a gap in CJK text as a
// space or not); Korean, Latin and digits keep theirs.
func TestDecisionCJKLineBreak(t *testing.T) {
	cases := []struct{ raw, want, why string }{
		{"検知機\n構", "検知機構", "Han"},
		{"ソ\nレノイド", "ソレノイド", "Katakana"},
		{"です。\n  次", "です。次", "CJK punctuation, and indentation after the break"},
		{"検\n\n構", "検構", "a blank line too: no extractor agrees on them in CJK text"},
		{"検 構", "検構", "a space on one line: a gap one extractor reads as a space and another does not"},
		{"한국\n어", "한국 어", "Hangul is written with spaces: the break may be one"},
		{"word\n構", "word 構", "Latin then Han: a space"},
		{"１ ２", "１ ２", "fullwidth digits stay apart, as digits always do"},
		{"第 1 章", "第 1 章", "an ASCII digit is no CJK character"},
	}
	for _, c := range cases {
		x := quote.Normalize(c.raw)
		assert.Equal(t, c.want, x.String(), "%q: %s", c.raw, c.why)
		checkInvariants(t, quote, c.raw, x)
	}
	l, ok := matchLevel(t, "検知機\n構", "検知機構")
	assert.True(t, ok)
	assert.Equal(t, Whitespace, l)
	_, ok = matchLevel(t, "検知機 構", "検知機\n構")
	assert.True(t, ok, "a space and a line break alike")
}

// TestSweepClasses covers each class of characters the sweep of the shared
// corpus found printed differently by another extractor (docs/locating.md):
// the stored text's spelling and the other one are the same after
// normalization.
func TestSweepClasses(t *testing.T) {
	cases := []struct {
		ours, theirs string
		level        Level
		class        string
	}{
		{"5 \u00b5m", "5 \u03bcm", Ligature, "micro sign: pdf.js prints its NFKC form μ"},
		{"\u27e8x, y\u27e9", "\u3008x, y\u3009", Typography, "angle brackets: pdf.js reads TeX's as U+3008/U+3009"},
		{"\u27e8x, y\u27e9", "\u2329x, y\u232a", Typography, "angle brackets: U+2329/U+232A are U+3008/U+3009 under NFC"},
		{"\u2225f(x)\u2225", "\u2016f(x)\u2016", Typography, "double bar: pdf.js reads TeX's \\| as ‖"},
		{"（あらゆる透明な幽霊の複合体）", "\ufe35あらゆる透明な幽霊の複合体\ufe36", Typography, "vertical CJK forms: pdf.js prints them for vertical text"},
		{"たべ、または", "たべ\ufe11または", Typography, "vertical ideographic comma"},
		{"na\u00a8\u0131ve", "na\u0131\u0308ve", Typography, "accents: poppler composes them"},
		{"\u2018\u2018recall\u2019\u2019", "\u201crecall\u201d", Typography, "quotes: doubled single quotes"},
		{"\ufb05", "\u017ft", Ligature, "ligatures: pdf.js copies ﬅ as ſt"},
		{"a\u2014b", "a\u2013b", Typography, "dashes: every dash is - (quote/v1 already)"},
		{"a\u00a0b", "a\u2003b", Whitespace, "spaces: every White_Space is one space (quote/v1 already)"},
	}
	for _, c := range cases {
		l, ok := matchLevel(t, c.ours, c.theirs)
		assert.True(t, ok, "%s: %q vs %q", c.class, c.ours, c.theirs)
		assert.Equal(t, c.level, l, "%s", c.class)
	}
	// Fractions: no extractor of the sweep prints ½ otherwise, and "1/2" is
	// another text: kept.
	_, ok := matchLevel(t, "1\u00bd", "1 1/2")
	assert.False(t, ok, "½ is not folded")
}

// TestQuoteEndsAtLineEndHyphen: a quote may end inside a word the page
// hyphenated at a line end (tracemonkey p1, pdf.js's text_layer_spec.mjs):
// with its hyphen it is matched by Align, and its spellings include the
// one without the hyphen for a substring index.
func TestQuoteEndsAtLineEndHyphen(t *testing.T) {
	page := quote.Normalize("Unlike method-based dynamic compilers, our dynamic com-\npiler operates at")
	q := quote.Normalize("Unlike method-based dynamic compilers, our dynamic com-")
	end, l, ok := Match(page, 0, q)
	require.True(t, ok)
	assert.Equal(t, Hyphenation, l)
	assert.Equal(t, "Unlike method-based dynamic compilers, our dynamic com", page.Slice(0, end))
	assert.True(t, page.OptionalHyphenAt(end), "the match ends at the optional hyphen")
	vs, _ := q.Variants(8)
	assert.Contains(t, vs, "Unlike method-based dynamic compilers, our dynamic com")
	// A final hyphen where the page has none is not a hyphenation point.
	_, _, ok = Match(quote.Normalize("our dynamic compiler"), 0, quote.Normalize("our dynamic com-"))
	assert.False(t, ok)
	// Inside a quote (qTo short of its end) the final-hyphen step is not
	// taken: a cross-page split must end where the page ends.
	a := Align(page, 0, q, 0, q.Len()-1)
	assert.Equal(t, q.Len()-1, a.QuoteEnd)
}
