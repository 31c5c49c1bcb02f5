package citations

import (
	"fmt"

	"github.com/citecheck/citecheck/textnorm"
)

// Level is how much a match had to relax: the normalization levels of
// textnorm, in the same order and with the same names, then UnmappedGlyphs,
// GlyphCodes and Reordered.
type Level uint8

// The levels, strictest first. Exact..JoinedWords are textnorm's levels.
const (
	Exact       = Level(textnorm.Exact)
	Canonical   = Level(textnorm.Canonical)
	Whitespace  = Level(textnorm.Whitespace)
	Hyphenation = Level(textnorm.Hyphenation)
	Typography  = Level(textnorm.Typography)
	Ligature    = Level(textnorm.Ligature)
	JoinedWords = Level(textnorm.JoinedWords)
	// UnmappedGlyphs: found only with the page's unmapped glyphs (U+FFFD)
	// left out, as poppler leaves them out (unmapped.go). Never a pass.
	UnmappedGlyphs = JoinedWords + 1
	// GlyphCodes: found only in the page as another extractor reads glyphs
	// by their font codes ("6=" for "≠"; glyphcodes.go). Never a pass.
	GlyphCodes = UnmappedGlyphs + 1
	// Reordered: every word of the quote is on one page, in pieces of at
	// least MinPieceWords words that the page holds in another order (columns
	// or lines read differently by another extractor), or as a column run:
	// its lines anchored in consecutive lines of the page (columns.go).
	// Never a pass.
	Reordered = GlyphCodes + 1
	// Punctuation: the same letters and digits in the same order, only
	// punctuation, symbols and spaces between them differ, never a word
	// break nor a character that carries meaning (punctuation.go).
	Punctuation = Reordered + 1
	// NonASCIIDropped: an ASCII quote that is the page passage with its
	// non-ASCII characters removed, as an ASCII-only pipeline removes them,
	// never one that carries meaning (punctuation.go).
	NonASCIIDropped = Punctuation + 1
	// RetrievalEdges: a retrieval result (Query.Retrieval) found at a
	// normalized level with its first or last word cut short, as a chunk
	// cut at token boundaries is.
	RetrievalEdges = NonASCIIDropped + 1

	maxLevel = RetrievalEdges
)

// levelNames are the reported names of the levels past textnorm's.
var levelNames = map[Level]string{
	UnmappedGlyphs: "unmapped_glyphs", GlyphCodes: "glyph_codes", Reordered: "reordered",
	Punctuation: "punctuation", NonASCIIDropped: "non_ascii_dropped", RetrievalEdges: "retrieval_edges",
}

// String returns the reported name: textnorm's names, then
// "unmapped_glyphs", "glyph_codes", "reordered", "punctuation",
// "non_ascii_dropped" and "retrieval_edges".
func (l Level) String() string {
	if n, ok := levelNames[l]; ok {
		return n
	}
	if l < UnmappedGlyphs {
		return textnorm.Level(l).String()
	}
	return fmt.Sprintf("level(%d)", uint8(l))
}

// Relaxed reports whether a match at this level needed more than the
// quote profile's normalization (and the word boundaries it keeps).
// Whether a citation found there can pass is the grader's to say:
// docs/grading.md passes punctuation, non_ascii_dropped and
// retrieval_edges like the normalized levels, never the others.
func (l Level) Relaxed() bool { return l >= JoinedWords }

// MarshalText makes a Level a JSON string.
func (l Level) MarshalText() ([]byte, error) {
	if l > maxLevel {
		return nil, fmt.Errorf("citations: invalid level %d", uint8(l))
	}
	return []byte(l.String()), nil
}

// UnmarshalText reads a level name.
func (l *Level) UnmarshalText(b []byte) error {
	v, err := ParseLevel(string(b))
	if err != nil {
		return err
	}
	*l = v
	return nil
}

// ParseLevel is the inverse of Level.String.
func ParseLevel(s string) (Level, error) {
	for l, n := range levelNames {
		if n == s {
			return l, nil
		}
	}
	tl, err := textnorm.ParseLevel(s)
	if err != nil {
		return 0, fmt.Errorf("citations: unknown level %q", s)
	}
	return Level(tl), nil
}
