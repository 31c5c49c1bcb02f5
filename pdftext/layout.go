package pdftext

import (
	"github.com/citecheck/citecheck/corpus"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// glyph is one shown glyph in user space (the page's default coordinates).
type glyph struct {
	text   string
	alias  codeAlias
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
//
// alts are the same text as other extractors' readings give it (codeAlias),
// code point for code point, so that their offsets are the text's: one per
// reading that differs from the text and from the readings before it.
func (sc *layoutScratch) layout(glyphs []glyph, keepCopies bool) (text string, boxes []corpus.GlyphBox, alts []string) {
	b := sc.text[:0]
	boxes = sc.boxes[:0]
	type aliasAt struct {
		cp    int
		alias codeAlias
	}
	var aliases []aliasAt
	cp := 0 // code points in b
	// line holds the current line's glyphs, nil standing for a word space,
	// so that a right-to-left line can be put in logical order first.
	line := sc.line[:0]
	flush := func() {
		if rightToLeft(line) {
			line = logicalOrder(line)
		}
		for _, g := range line {
			if g == nil {
				b, cp = appendSpace(b, cp, ' ')
				continue
			}
			b = append(b, g.text...)
			n := utf8.RuneCountInString(g.text)
			boxes = append(boxes, g.box(cp, cp+n))
			if g.alias != (codeAlias{}) && n == 1 {
				aliases = append(aliases, aliasAt{cp, g.alias})
			}
			cp += n
		}
		line = line[:0]
	}
	var prev *glyph
	// pending is set by a drawn space glyph; it makes a space only if the
	// next glyph really starts after the previous one ends. A space drawn
	// inside an over-wide ligature, or cancelled by a negative Tw, is no
	// word boundary (poppler ignores space glyphs altogether).
	pending := false
	dup := sc.overprinted(glyphs, keepCopies)
	ride := sc.accentsOn(glyphs, dup)
	glued := false // g follows the accent drawn over it: no separator
	for i := range glyphs {
		g := &glyphs[i]
		if g.text == "" || dup[i] {
			continue
		}
		if isBlank(g.text) {
			if !squeezed(g) {
				pending = true
			}
			continue
		}
		// An accent drawn over the letter after it is placed as that
		// letter; one drawn over the letter before it leaves prev there.
		at := g
		if r := ride[i]; r > i {
			at = &glyphs[r]
		}
		if prev != nil {
			sep := separator(prev, at)
			if sep == sepNone && pending && gapAfter(prev, at) > pendingGap*math.Max(prev.size, at.size) {
				sep = sepSpace
			}
			if glued || ride[i] >= 0 && ride[i] < i {
				sep = sepNone
			}
			switch sep {
			case sepDrop:
				continue
			case sepSpace:
				line = append(line, nil)
			case sepLine:
				flush()
				b, cp = appendSpace(b, cp, '\n')
			}
		}
		pending = false
		line = append(line, g)
		glued = ride[i] > i
		if !(ride[i] >= 0 && ride[i] < i) {
			prev = at
		}
	}
	flush()
	// The buffers stay for the next page; what the page keeps is copied.
	sc.text, sc.boxes, sc.line = b, boxes, line
	if !sc.borrowed {
		boxes = slices.Clone(boxes)
	}
	text = strings.TrimRightFunc(string(b), unicode.IsSpace)
	// Trimming removes only white space, which no box starts in unless a
	// glyph's own text ended with it.
	n := utf8.RuneCountInString(text)
	for len(boxes) > 0 && boxes[len(boxes)-1].Start >= n {
		boxes = boxes[:len(boxes)-1]
	}
	if k := len(boxes); k > 0 && boxes[k-1].End > n {
		boxes[k-1].End = n
	}
	if len(aliases) == 0 || aliases[0].cp >= n {
		return text, boxes, nil
	}
	for k := range numReadings {
		rs := []rune(text)
		for _, a := range aliases {
			if a.cp < n && a.alias[k] != 0 {
				rs[a.cp] = a.alias[k]
			}
		}
		if alt := string(rs); alt != text && !slices.Contains(alts, alt) {
			alts = append(alts, alt)
		}
	}
	return text, boxes, alts
}

// Glyph box extent across the baseline, in ems: most fonts' ascent and
// descent lie near these, and the box only needs to cover the glyph for a
// highlight.
const (
	boxAscent  = 0.8
	boxDescent = 0.2
)

// box returns the glyph's axis-aligned box for the text [start, end).
func (g *glyph) box(start, end int) corpus.GlyphBox {
	ux, uy := -g.dy*g.size, g.dx*g.size
	dx, dy := float64(boxDescent*ux), float64(boxDescent*uy)
	ax, ay := float64(boxAscent*ux), float64(boxAscent*uy)
	bx := corpus.GlyphBox{Start: start, End: end, X0: math.Inf(1), Y0: math.Inf(1), X1: math.Inf(-1), Y1: math.Inf(-1)}
	for _, c := range [4][2]float64{
		{g.ox - dx, g.oy - dy}, {g.ox + ax, g.oy + ay},
		{g.ex - dx, g.ey - dy}, {g.ex + ax, g.ey + ay},
	} {
		bx.X0, bx.Y0 = fmin(bx.X0, c[0]), fmin(bx.Y0, c[1])
		bx.X1, bx.Y1 = fmax(bx.X1, c[0]), fmax(bx.Y1, c[1])
	}
	bx.X0, bx.Y0, bx.X1, bx.Y1 = onGrid(bx.X0), onGrid(bx.Y0), onGrid(bx.X1), onGrid(bx.Y1)
	return bx
}

// boxGrid is the glyph-box grid in steps per point: the hundredth of a
// point corpus.BoxesFormat stores. Rounding Page.Boxes to it here makes
// what Extract returns the boxes the store gives back, value for value,
// and keeps the last bits of a position out of every comparison of boxes.
const boxGrid = 100

// onGrid rounds a coordinate to the nearest point of the grid (halves away
// from zero, as corpus.EncodeBoxes rounds; encoding the result gives the
// same integer).
func onGrid(v float64) float64 {
	return math.Round(v*boxGrid) / boxGrid
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
	if dot(prev.dx, prev.dy, g.dx, g.dy) < 0.95 {
		return sepLine
	}
	upx, upy := -prev.dy, prev.dx
	perp := dot(g.ox-prev.ox, g.oy-prev.oy, upx, upy)
	if math.Abs(perp) > lineShift*size {
		return sepLine
	}
	back := dot(g.ox-prev.ox, g.oy-prev.oy, prev.dx, prev.dy)
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
	return dot(g.ox-prev.ex, g.oy-prev.ey, prev.dx, prev.dy)
}

// appendSpace appends a separator unless the text is empty or already ends
// in white space; a newline replaces a trailing space. cp counts the code
// points of b.
func appendSpace(b []byte, cp int, c byte) ([]byte, int) {
	if len(b) == 0 {
		return b, cp
	}
	switch last := b[len(b)-1]; {
	case last == '\n':
		return b, cp
	case last == ' ' && c == '\n':
		b[len(b)-1] = '\n'
		return b, cp
	case last == ' ':
		return b, cp
	}
	return append(b, c), cp + 1
}

// overprinted marks each glyph that repeats an earlier glyph of the same
// text drawn at (nearly) the same place as a copy that fakes bold type or a
// shadow, wherever it comes in the content stream (a whole line is often
// drawn twice, so the copy does not follow its original). A copy repeats
// the glyph just before it, or is part of a run drawn twice: the glyph
// before or after it repeats, at (nearly) the same place, the glyph before
// or after its original. A lone glyph that falls on another line's glyph of
// the same character is no copy: the "4" of an amount drawn over the "4" of
// a wrapped line ("26406576" over "144,", pdfplumber's issue-912.pdf) is
// kept.
func (sc *layoutScratch) overprinted(glyphs []glyph, keepCopies bool) []bool {
	sc.dup = resize(sc.dup, len(glyphs))
	dup := sc.dup
	if keepCopies {
		return dup
	}
	// prev and next: the neighbouring glyphs that draw something.
	sc.prev, sc.next = resize(sc.prev, len(glyphs)), resize(sc.next, len(glyphs))
	prev, next := sc.prev, sc.next
	last := int32(-1)
	for i := range glyphs {
		prev[i] = last
		if drawsText(&glyphs[i]) {
			last = int32(i)
		}
	}
	last = -1
	for i := len(glyphs) - 1; i >= 0; i-- {
		next[i] = last
		if drawsText(&glyphs[i]) {
			last = int32(i)
		}
	}
	// repeats reports whether glyph a is drawn as glyph b, at (nearly) the
	// same place.
	repeats := func(a, b int32) bool {
		if a < 0 || b < 0 || a == b {
			return false
		}
		g, o := &glyphs[a], &glyphs[b]
		tol := float64(overprintTol * g.size)
		return o.text == g.text && math.Abs(o.ox-g.ox) < tol && math.Abs(o.oy-g.oy) < tol && math.Abs(o.size-g.size) < tol
	}
	// A grid of cells two tolerances wide: the square of points within one
	// tolerance of a glyph overlaps at most four cells, found by rounding
	// its coordinates. Cells chain the glyphs in them through chain; keys are
	// packed coordinates, so no string is hashed.
	head := &sc.cells
	head.reset(len(glyphs))
	sc.chain = resize(sc.chain, len(glyphs))
	chain := sc.chain
	key := func(cx, cy int64) uint64 { return uint64(uint32(cx))<<32 | uint64(uint32(cy)) }
	for i := range glyphs {
		g := &glyphs[i]
		if !drawsText(g) {
			continue
		}
		// Rounded: the compiler may turn 2*tol into tol+tol and fuse that.
		tol := float64(overprintTol * g.size)
		fx, fy := g.ox/(2*tol), g.oy/(2*tol)
		if math.Abs(fx) > 1<<30 || math.Abs(fy) > 1<<30 {
			continue
		}
		cx, cy := int64(math.Floor(fx)), int64(math.Floor(fy))
		// The neighbour cells on the side the glyph is nearer to.
		nx, ny := cx+1, cy+1
		if fx-math.Floor(fx) < 0.5 {
			nx = cx - 1
		}
		if fy-math.Floor(fy) < 0.5 {
			ny = cy - 1
		}
	search:
		for _, c := range [4][2]int64{{cx, cy}, {nx, cy}, {cx, ny}, {nx, ny}} {
			for j := head.get(key(c[0], c[1])) - 1; j >= 0; j = chain[j] - 1 {
				if !repeats(int32(i), j) {
					continue
				}
				if prev[i] == j || repeats(prev[i], prev[j]) || repeats(next[i], next[j]) {
					dup[i] = true
					break search
				}
			}
		}
		if !dup[i] {
			chain[i] = head.swap(key(cx, cy), int32(i+1))
		}
	}
	return dup
}

// Accents riding on a letter: TeX and other typesetters without accented
// glyphs draw a spacing accent over a letter (a dotless i under ¨), before
// or after it. Poppler joins the two when the accent's middle lies within
// 0.3 of the letter's width of the letter's middle and their baselines
// are within 0.4 of an em (TextOutputDev's combMaxMidDelta and
// combMaxBaseDelta); so does layout, so that no space or line break falls
// between them ("B¨unning", not "B ¨\nunning"). The text keeps both glyphs;
// the quote profile composes them (textnorm quote/v2).
const (
	accentMidDelta  = 0.3
	accentBaseDelta = 0.4
)

// isSpacingAccent is the text of a spacing accent glyph (poppler's
// combining table, with the ogonek).
func isSpacingAccent(s string) bool {
	switch s {
	case "`", "\u00a8", "\u00af", "\u00b4", "\u00b8", "\u02c6", "\u02c7", "\u02d8", "\u02d9", "\u02da", "\u02db", "\u02dc", "\u02dd":
		return true
	}
	return false
}

// accentsOn returns, for each glyph, the index of the letter a spacing
// accent is drawn over (the next glyph drawn, else the previous one), or -1.
func (sc *layoutScratch) accentsOn(glyphs []glyph, dup []bool) []int {
	sc.ride = resize(sc.ride, len(glyphs))
	ride := sc.ride
	drawn := func(k int) bool { return k >= 0 && k < len(glyphs) && !dup[k] && drawsText(&glyphs[k]) }
	for i := range glyphs {
		ride[i] = -1
		if dup[i] || !isSpacingAccent(glyphs[i].text) {
			continue
		}
		p, n := i-1, i+1
		for p >= 0 && !drawn(p) {
			p--
		}
		for n < len(glyphs) && !drawn(n) {
			n++
		}
		switch {
		case drawn(n) && over(&glyphs[i], &glyphs[n]):
			ride[i] = n
		case drawn(p) && over(&glyphs[i], &glyphs[p]):
			ride[i] = p
		}
	}
	return ride
}

// over reports whether accent a is drawn over letter l, by poppler's test.
func over(a, l *glyph) bool {
	r, _ := utf8.DecodeRuneInString(l.text)
	if !unicode.IsLetter(r) || l.size <= 0 || dot(a.dx, a.dy, l.dx, l.dy) < 0.95 {
		return false
	}
	w := dot(l.ex-l.ox, l.ey-l.oy, l.dx, l.dy)
	// The middles along the writing direction, and the baselines across it.
	am := float64(dot(a.ox, a.oy, l.dx, l.dy) + float64(0.5*dot(a.ex-a.ox, a.ey-a.oy, l.dx, l.dy)))
	lm := float64(dot(l.ox, l.oy, l.dx, l.dy) + float64(0.5*w))
	perp := dot(a.ox-l.ox, a.oy-l.oy, -l.dy, l.dx)
	return math.Abs(am-lm) < float64(accentMidDelta*math.Abs(w)) && math.Abs(perp) < float64(accentBaseDelta*l.size)
}

// drawsText reports whether a glyph shows text a copy could repeat.
func drawsText(g *glyph) bool { return g.text != "" && g.size > 0 && !isBlank(g.text) }

// rightToLeft reports whether a line drawn left to right holds mostly
// right-to-left letters (Hebrew, Arabic): a PDF that draws such text in
// visual order, as most producers do, needs it reversed into reading order.
func rightToLeft(line []*glyph) bool {
	rtl, ltr := 0, 0
	var first, last *glyph
	for _, g := range line {
		if g == nil {
			continue
		}
		if first == nil {
			first = g
		}
		last = g
		for _, r := range g.text {
			switch {
			case isRTLLetter(r):
				rtl++
			case unicode.IsLetter(r):
				ltr++
			}
		}
	}
	if rtl <= ltr || first == last {
		return false
	}
	return dot(last.ox-first.ox, last.oy-first.oy, first.dx, first.dy) > 0
}

func isRTLLetter(r rune) bool {
	return (r >= 0x0590 && r <= 0x08FF) || (r >= 0xFB1D && r <= 0xFDFF) || (r >= 0xFE70 && r <= 0xFEFF)
}

// isLTRStrong is a letter or digit that keeps left-to-right order inside
// right-to-left text (Latin words, numbers).
func isLTRStrong(g *glyph) bool {
	for _, r := range g.text {
		if (unicode.IsLetter(r) && !isRTLLetter(r)) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// logicalOrder reverses a visually ordered right-to-left line, then turns
// each embedded left-to-right run (Latin words and numbers, with the spaces
// and punctuation between them) back, a simplification of the Unicode
// bidirectional algorithm for a right-to-left paragraph. A glyph's own text
// is never reversed: ToUnicode already gives it in logical order.
func logicalOrder(line []*glyph) []*glyph {
	out := make([]*glyph, len(line))
	for i, g := range line {
		out[len(line)-1-i] = g
	}
	for i := 0; i < len(out); {
		if out[i] == nil || !isLTRStrong(out[i]) {
			i++
			continue
		}
		// The run reaches the last LTR-strong glyph before an RTL letter.
		end := i + 1
		for j := i + 1; j < len(out); j++ {
			if out[j] != nil && isLTRStrong(out[j]) {
				end = j + 1
				continue
			}
			if out[j] != nil && strings.ContainsFunc(out[j].text, isRTLLetter) {
				break
			}
		}
		slices.Reverse(out[i:end])
		i = end
	}
	return out
}

// squeezed reports whether a glyph advances less than a word gap.
func squeezed(g *glyph) bool {
	return dot(g.ex-g.ox, g.ey-g.oy, g.dx, g.dy) < wordGap*g.size
}

func isBlank(s string) bool {
	// Most glyphs start with an ASCII letter or digit: no need to decode.
	if len(s) > 0 && s[0] < utf8.RuneSelf && s[0] != ' ' && (s[0] < '\t' || s[0] > '\r') {
		return false
	}
	for _, r := range s {
		if !unicode.IsSpace(r) {
			return false
		}
	}
	return utf8.RuneCountInString(s) > 0
}
