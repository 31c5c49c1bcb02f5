package layout

import (
	"math"
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/citecheck/citecheck/corpus"
)

// Names of the orders, as Orders returns them and the corpus stores them.
const (
	// Flow is the order of poppler's pdftotext (TextOutputDev): blocks of
	// lines, ordered as columns and flows read.
	Flow = "layout"
	// Boxes is the order of pdfminer's text converter (LAParams): lines
	// cut from the content stream, grouped into boxes, the boxes ordered by
	// hierarchical grouping.
	Boxes = "boxes"
)

// Names lists the orders Orders computes, in the order it returns them.
var Names = []string{Flow, Boxes}

// Order is one reading of a page in another order than its text's.
type Order struct {
	Name string
	// Text is the page's glyphs in this order, with separators ("\n"
	// between lines, "\n\n" between blocks, a space between words).
	Text string
	// Map gives, for each code point of Text, its offset in the page text
	// (code points), or -1 for a separator the order inserted.
	Map []int32
}

// Limits on what is analysed: a page beyond them gets no orders, as a
// page without glyph boxes gets none.
const (
	// MaxGlyphs bounds the glyph boxes of one page.
	MaxGlyphs = 200000
	// MaxTextLen bounds the page text, in code points.
	MaxTextLen = 4 << 20
)

// glyph is one glyph box in a frame: x along the writing direction, y
// across it, growing from a line to the next (y down), in hundredths of a
// point.
type glyph struct {
	start, end int32 // code points of the page text
	x0, y0     int64
	x1, y1     int64
	size       int64 // the em: the box's extent across the writing direction
	base       int64 // baseline: 0.2 em above the box's bottom edge (y1)
	sep        byte  // what the page text has between the previous glyph and this one: 0, ' ' or '\n'
	rot        int8  // writing direction on the page: 0 right, 1 down, 2 left, 3 up; -1 unknown
	idx        int32 // index in page.gs
}

func (g *glyph) width() int64  { return g.x1 - g.x0 }
func (g *glyph) height() int64 { return g.y1 - g.y0 }

// centi converts a stored coordinate to hundredths of a point, the grid of
// corpus.BoxesFormat (stored boxes are on it; any other box is rounded to
// it), clamped to what a page can hold. From here on the analysis is
// integer arithmetic: every decision is exact and the same on every build.
func centi(v float64) int64 {
	const lim = 1 << 25 // 335,544 points: areas of two such boxes fit int64
	x := v * 100
	if x > -lim && x < lim {
		// math.Round's half away from zero, without its bit handling (a
		// quarter of readPage's time): x-r is exact below 2^52.
		r := int64(x)
		if f := x - float64(r); f >= 0.5 {
			r++
		} else if f <= -0.5 {
			r--
		}
		return r
	}
	if v != v {
		return 0
	}
	return int64(math.Round(math.Max(-lim, math.Min(lim, float64(v*100)))))
}

// scratch holds a page's working arrays, reused from page to page (a
// worker extracts its pages one after another): allocating, zeroing and
// collecting them cost as much as a good part of the analysis. Nothing in
// an Order points into them.
type scratch struct {
	text      []rune
	gs, frame []glyph
	keys      []uint64 // group's packed pairs
	radix     []uint64 // and radixSort's buffer
	buf       []byte   // a writer's text, copied out by order
}

var scratches = sync.Pool{New: func() any { return new(scratch) }}

// maxScratch bounds what a scratch keeps between pages, in bytes per
// array: a huge page's arrays go to the collector.
const maxScratch = 8 << 20

func (s *scratch) release() {
	if cap(s.text)*4 > maxScratch {
		s.text = nil
	}
	if cap(s.gs)*int(unsafe.Sizeof(glyph{})) > maxScratch {
		s.gs, s.frame = nil, nil
	}
	if cap(s.keys)*8 > maxScratch {
		s.keys = nil
	}
	if cap(s.radix)*8 > maxScratch {
		s.radix = nil
	}
	if cap(s.buf) > maxScratch {
		s.buf = nil
	}
	scratches.Put(s)
}

// page is the analysed page: its text and glyphs.
type page struct {
	s    *scratch
	text []rune
	gs   []glyph // in page-text order
	rot  int8    // the dominant writing direction
	// upright is the writing direction that reads upright once the page
	// is turned by its /Rotate: 0 for an unturned page.
	upright int8
	perRot  [4]int // glyphs of each writing direction
	// frame is inFrame's buffer, reused: each frame's glyphs are done
	// with before the next is asked for (and never changed). frameOf says
	// which frame it holds: rotation and only, +1 (0 for none).
	frame   []glyph
	frameOf [2]int8
}

// readPage turns a page text and its glyph boxes into glyphs in page-text
// order. Boxes that do not fit the text (out of range, empty, overlapping
// an earlier box) are dropped: the analysis takes any input. Code points
// between two boxes that are not white space belong to the box before.
func readPage(text string, boxes []corpus.GlyphBox, rotate int, s *scratch) *page {
	n := utf8.RuneCountInString(text)
	if n > MaxTextLen || len(boxes) > MaxGlyphs || len(boxes) == 0 {
		return nil
	}
	rs := slices.Grow(s.text[:0], n)
	for _, r := range text {
		rs = append(rs, r)
	}
	s.text = rs
	p := &page{s: s, text: rs, upright: uprightFor(rotate), gs: slices.Grow(s.gs[:0], len(boxes))}
	bs := boxes
	if !slices.IsSortedFunc(bs, func(a, b corpus.GlyphBox) int { return a.Start - b.Start }) {
		bs = slices.Clone(boxes)
		slices.SortStableFunc(bs, func(a, b corpus.GlyphBox) int { return a.Start - b.Start })
	}
	end := 0
	for _, b := range bs {
		if b.Start < end || b.End <= b.Start || b.End > n {
			continue
		}
		x0, y0, x1, y1 := centi(b.X0), centi(b.Y0), centi(b.X1), centi(b.Y1)
		if x1 < x0 {
			x0, x1 = x1, x0
		}
		if y1 < y0 {
			y0, y1 = y1, y0
		}
		g := glyph{start: int32(b.Start), end: int32(b.End), x0: x0, y0: y0, x1: x1, y1: y1, idx: int32(len(p.gs))}
		if k := len(p.gs); k > 0 {
			prev := &p.gs[k-1]
			g.sep = gapSep(p.text[prev.end:b.Start])
			if g.sep == 0 {
				prev.end = int32(b.Start) // unboxed text belongs to the glyph before
			}
		}
		p.gs = append(p.gs, g)
		end = b.End
	}
	s.gs = p.gs
	if len(p.gs) == 0 {
		return nil
	}
	p.rotations()
	return p
}

// uprightFor is the writing direction that reads left to right on a page
// shown turned clockwise by rotate degrees (/Rotate): 90 turns text
// written up the page (+y) to the right.
func uprightFor(rotate int) int8 {
	switch (rotate%360 + 360) % 360 {
	case 90:
		return 3
	case 180:
		return 2
	case 270:
		return 1
	}
	return 0
}

// gapSep classifies the page text between two glyph boxes: nothing or
// anything but white space is 0, white space holding a line break '\n',
// other white space ' '.
func gapSep(gap []rune) byte {
	if len(gap) == 0 {
		return 0
	}
	sep := byte(' ')
	for _, r := range gap {
		switch {
		case r == '\n':
			sep = '\n'
		case !unicode.IsSpace(r):
			return 0
		}
	}
	return sep
}

// rotations sets each glyph's writing direction from its line of the page
// text (the glyphs between two line breaks): the way from its first glyph's
// centre to its last one's. A line of one glyph takes the page's dominant
// direction, as does the page's frame.
func (p *page) rotations() {
	var count [4]int
	for i := 0; i < len(p.gs); {
		j := i + 1
		for j < len(p.gs) && p.gs[j].sep != '\n' {
			j++
		}
		a, b := &p.gs[i], &p.gs[j-1]
		dx, dy := (b.x0+b.x1)-(a.x0+a.x1), (b.y0+b.y1)-(a.y0+a.y1)
		rot := int8(-1)
		switch {
		case dx == 0 && dy == 0:
		case abs(dx) >= abs(dy) && dx > 0:
			rot = 0
		case abs(dx) >= abs(dy):
			rot = 2
		case dy < 0:
			rot = 1
		default:
			rot = 3
		}
		for k := i; k < j; k++ {
			p.gs[k].rot = rot
		}
		if rot >= 0 {
			count[rot] += j - i
		}
		i = j
	}
	p.rot = 0
	for r := int8(1); r < 4; r++ {
		if count[r] > count[p.rot] {
			p.rot = r
		}
	}
	for k := range p.gs {
		if p.gs[k].rot < 0 {
			p.gs[k].rot = p.rot
		}
		p.perRot[p.gs[k].rot]++
	}
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// inFrame returns the glyphs turned into the frame of writing direction
// rot (x along it, y down from line to line), with their size and baseline;
// only those of direction only when only >= 0. The slice is valid until
// the next call.
func (p *page) inFrame(rot, only int8) []glyph {
	if only >= 0 && p.perRot[only] == len(p.gs) {
		only = -1 // every glyph: the same frame as without the filter
	}
	if only >= 0 && p.perRot[only] == 0 {
		return nil
	}
	if p.frameOf == [2]int8{rot + 1, only + 1} {
		return p.frame
	}
	p.frameOf = [2]int8{rot + 1, only + 1}
	out := slices.Grow(p.s.frame[:0], len(p.gs))
	for _, g := range p.gs {
		if only >= 0 && g.rot != only {
			continue
		}
		x0, y0, x1, y1 := g.x0, g.y0, g.x1, g.y1
		switch rot {
		case 0:
			g.x0, g.x1, g.y0, g.y1 = x0, x1, -y1, -y0
		case 1:
			g.x0, g.x1, g.y0, g.y1 = -y1, -y0, -x1, -x0
		case 2:
			g.x0, g.x1, g.y0, g.y1 = -x1, -x0, y0, y1
		case 3:
			g.x0, g.x1, g.y0, g.y1 = y0, y1, x0, x1
		}
		g.size = g.y1 - g.y0
		g.base = g.y1 - g.size/5
		out = append(out, g)
	}
	p.frame, p.s.frame = out, out
	return out
}

// writer builds an Order's text and map.
type writer struct {
	s    *scratch
	text []rune
	buf  []byte
	m    []int32
	last rune // the last code point written, 0 at the start
}

// newWriter starts an order of the page; its text is written into the
// scratch's buffer, which order hands back.
func newWriter(p *page) *writer {
	text := p.text
	return &writer{text: text, s: p.s, buf: slices.Grow(p.s.buf[:0], len(text)+len(text)/8), m: make([]int32, 0, len(text)+len(text)/16)}
}

// glyphs writes the page text of glyphs gs, which follow each other in the
// page text, with the page's own separators between them; where the page
// has a line break the order has none in the middle of a line, a space is
// written when the glyphs are apart (gapSpace).
func (w *writer) run(gs []glyph, gapSpace func(a, b *glyph) bool) {
	for i := range gs {
		g := &gs[i]
		if i > 0 {
			prev := &gs[i-1]
			switch g.sep {
			case ' ':
				// The page's own separator, mapped to it.
				w.copy(prev.end, g.start)
			case '\n':
				if gapSpace(prev, g) {
					w.sep(" ")
				}
			}
		}
		w.copy(g.start, g.end)
	}
}

// copy writes the page text's code points from..to-1, each mapped to
// itself: most of an order, so a loop without a call per code point.
func (w *writer) copy(from, to int32) {
	if from >= to {
		return
	}
	for _, r := range w.text[from:to] {
		if r < utf8.RuneSelf {
			w.buf = append(w.buf, byte(r))
		} else {
			w.buf = utf8.AppendRune(w.buf, r)
		}
	}
	for k := from; k < to; k++ {
		w.m = append(w.m, k)
	}
	w.last = w.text[to-1]
}

func (w *writer) put(r rune, at int32) {
	w.buf = utf8.AppendRune(w.buf, r)
	w.m = append(w.m, at)
	w.last = r
}

// sep writes an inserted separator: a space, "\n" or "\n\n" (a blank
// line). Nothing is written at the start; a space never follows white
// space, and line breaks already written count toward those asked for.
func (w *writer) sep(s string) {
	if w.last == 0 {
		return
	}
	if s == " " {
		if !unicode.IsSpace(w.last) {
			w.put(' ', -1)
		}
		return
	}
	have := 0
	for k := len(w.buf) - 1; k >= 0 && w.buf[k] == '\n' && w.m[len(w.m)-len(w.buf)+k] < 0; k-- {
		have++
	}
	if have == 0 && w.last == ' ' && w.m[len(w.m)-1] < 0 {
		// An inserted space before a line break is dropped.
		w.buf, w.m = w.buf[:len(w.buf)-1], w.m[:len(w.m)-1]
	}
	for range len(s) - have {
		w.put('\n', -1)
	}
}

func (w *writer) order(name string) Order {
	// No trailing separators.
	for len(w.m) > 0 && w.m[len(w.m)-1] < 0 {
		_, n := utf8.DecodeLastRune(w.buf)
		w.buf = w.buf[:len(w.buf)-n]
		w.m = w.m[:len(w.m)-1]
	}
	o := Order{Name: name, Text: string(w.buf), Map: w.m}
	w.s.buf = w.buf[:0] // for the next order: one writer at a time
	return o
}

// Orders returns the page's orders (Names), computed from its text, its
// glyph boxes and its /Rotate (degrees clockwise; any multiple of 90). A
// page without boxes, or beyond MaxGlyphs or MaxTextLen, has none; an order
// that reads as the page text (the same code points, with white space
// where the page text has white space, of whatever kind) is left out: it
// adds nothing to search. The analysis never fails and takes boxes in any
// order, overlapping or degenerate.
func Orders(text string, boxes []corpus.GlyphBox, rotate int) []Order {
	s := scratches.Get().(*scratch)
	defer s.release()
	p := readPage(text, boxes, rotate, s)
	if p == nil {
		return nil
	}
	var out []Order
	for _, o := range []Order{p.flow(), p.boxes()} {
		if o.Text != "" && !sameBarWhiteSpace(o.Text, text) {
			out = append(out, o)
		}
	}
	return out
}

// sameBarWhiteSpace reports whether a and b are the same code points with
// white space in the same places, whatever white space it is and however
// long its runs (and none counted at the ends).
func sameBarWhiteSpace(a, b string) bool {
	i, j := 0, 0
	next := func(s string, k int) (rune, int, bool) {
		sp := false
		for k < len(s) {
			r, w := utf8.DecodeRuneInString(s[k:])
			if !unicode.IsSpace(r) {
				return r, k + w, sp
			}
			sp = true
			k += w
		}
		return -1, k, false
	}
	first := true
	for {
		ra, ni, sa := next(a, i)
		rb, nj, sb := next(b, j)
		if ra != rb || (sa != sb && !first && ra >= 0) {
			return false
		}
		if ra < 0 {
			return true
		}
		i, j, first = ni, nj, false
	}
}
