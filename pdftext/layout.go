package pdftext

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// glyph is one shown glyph in user space (the page's default coordinates).
type glyph struct {
	text   string
	ox, oy float64 // origin on the baseline
	ex, ey float64 // end of the glyph's advance (its width and Tc)
	dx, dy float64 // unit vector of the writing direction
	size   float64 // font size in user space
}

// Layout thresholds, as fractions of the font size. They follow what
// pdf.js and MuPDF do in spirit: a gap wider than a tenth of an em between
// consecutive glyphs is a word space; a baseline moved by more than half an
// em is a new line.
const (
	wordGap      = 0.1
	lineShift    = 0.5
	overprintTol = 0.15
	// pendingGap is the least gap, after a drawn space glyph, that is a
	// word space. Poppler needs wordGap even there; a smaller floor keeps
	// the spaces of fonts whose widths are too wide. Over the shared
	// corpus the choice between 0.03 and 0.1 moves fidelity by 0.01%.
	pendingGap = 0.03
)

// layout turns glyphs, in content-stream order, into page text: a space
// where the gap between two glyphs is wider than wordGap, or where a space
// glyph with a real advance was drawn and the next glyph starts after the
// previous one ends; a newline where the baseline or the writing direction changes
// or the text jumps back along the line. A glyph drawn again on top of the
// previous one with the same text (fake bold) is dropped.
func layout(glyphs []glyph) string {
	var b []byte
	var prev *glyph
	// pending is set by a drawn space glyph; it makes a space only if the
	// next glyph really starts after the previous one ends. A space drawn
	// inside an over-wide ligature, or cancelled by a negative Tw, is no
	// word boundary (poppler ignores space glyphs altogether).
	pending := false
	for i := range glyphs {
		g := &glyphs[i]
		if g.text == "" {
			continue
		}
		if isBlank(g.text) {
			if !squeezed(g) {
				pending = true
			}
			continue
		}
		if prev != nil {
			sep := separator(prev, g)
			if sep == sepNone && pending && gapAfter(prev, g) > pendingGap*math.Max(prev.size, g.size) {
				sep = sepSpace
			}
			switch sep {
			case sepDrop:
				continue
			case sepSpace:
				b = appendSpace(b, ' ')
			case sepLine:
				b = appendSpace(b, '\n')
			}
		}
		pending = false
		b = append(b, g.text...)
		prev = g
	}
	return strings.TrimRightFunc(string(b), unicode.IsSpace)
}

type sep int

const (
	sepNone sep = iota
	sepSpace
	sepLine
	sepDrop
)

func separator(prev, g *glyph) sep {
	size := math.Max(prev.size, g.size)
	if size <= 0 {
		return sepNone
	}
	if prev.dx*g.dx+prev.dy*g.dy < 0.95 {
		return sepLine
	}
	upx, upy := -prev.dy, prev.dx
	perp := (g.ox-prev.ox)*upx + (g.oy-prev.oy)*upy
	if math.Abs(perp) > lineShift*size {
		return sepLine
	}
	back := (g.ox-prev.ox)*prev.dx + (g.oy-prev.oy)*prev.dy
	if g.text == prev.text && math.Abs(back) < overprintTol*size && math.Abs(perp) < overprintTol*size {
		return sepDrop
	}
	if back < -wordGap*size {
		return sepLine
	}
	if gapAfter(prev, g) > wordGap*size {
		return sepSpace
	}
	return sepNone
}

// gapAfter is the distance along the writing direction from the end of
// prev's extent to g's origin; negative when they overlap.
func gapAfter(prev, g *glyph) float64 {
	return (g.ox-prev.ex)*prev.dx + (g.oy-prev.ey)*prev.dy
}

// appendSpace appends a separator unless the text is empty or already ends
// in white space; a newline replaces a trailing space.
func appendSpace(b []byte, c byte) []byte {
	if len(b) == 0 {
		return b
	}
	switch last := b[len(b)-1]; {
	case last == '\n':
		return b
	case last == ' ' && c == '\n':
		b[len(b)-1] = '\n'
		return b
	case last == ' ':
		return b
	}
	return append(b, c)
}

// squeezed reports whether a glyph advances less than a word gap.
func squeezed(g *glyph) bool {
	return (g.ex-g.ox)*g.dx+(g.ey-g.oy)*g.dy < wordGap*g.size
}

func isBlank(s string) bool {
	for _, r := range s {
		if !unicode.IsSpace(r) {
			return false
		}
	}
	return utf8.RuneCountInString(s) > 0
}
