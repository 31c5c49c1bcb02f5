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
)

// String returns the reported name: textnorm's names, then
// "unmapped_glyphs", "glyph_codes" and "reordered".
func (l Level) String() string {
	switch l {
	case UnmappedGlyphs:
		return "unmapped_glyphs"
	case GlyphCodes:
		return "glyph_codes"
	case Reordered:
		return "reordered"
	}
	if l < Reordered {
		return textnorm.Level(l).String()
	}
	return fmt.Sprintf("level(%d)", uint8(l))
}

// Relaxed reports whether a match at this level needed more than the
// quote profile's normalization: such a citation is never a pass.
func (l Level) Relaxed() bool { return l >= JoinedWords }

// MarshalText makes a Level a JSON string.
func (l Level) MarshalText() ([]byte, error) {
	if l > Reordered {
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
	switch s {
	case "unmapped_glyphs":
		return UnmappedGlyphs, nil
	case "glyph_codes":
		return GlyphCodes, nil
	case "reordered":
		return Reordered, nil
	}
	tl, err := textnorm.ParseLevel(s)
	if err != nil {
		return 0, fmt.Errorf("citations: unknown level %q", s)
	}
	return Level(tl), nil
}
