package layout

import (
	"slices"
	"sort"
	"unicode"
)

// The flow order follows poppler's TextOutputDev (pdftotext's default
// reading order); flow.go names its rules by poppler's constants. Sizes
// are fractions of the font size; a fraction p/q is compared exactly.

// textPoolStep is the height of a pool band: words are pooled by baseline
// in bands of 4 points.
const textPoolStep = 400

// word is a run of glyphs poppler would read as one word: consecutive in
// the page text with nothing between them, of one size and baseline.
type word struct {
	gs             []glyph
	x0, x1, y0, y1 int64
	base, fs       int64
	band           int64 // bandOf(base)
	pk             int64 // band and x0 in one number, ordered as the pair
	seq            int   // creation order, for ties
}

// newWord starts a word at glyph i of gs; its glyphs are a slice of gs.
func newWord(gs []glyph, i, seq int) word {
	g := &gs[i]
	return word{gs: gs[i : i+1], x0: g.x0, x1: g.x1, y0: g.y0, y1: g.y1, base: g.base, fs: g.size, band: bandOf(g.base), seq: seq}
}

// add takes the glyph after the word's last one into it.
func (w *word) add(gs []glyph, i int) {
	g := &gs[i]
	w.gs = gs[i-len(w.gs) : i+1]
	w.x0, w.x1 = min(w.x0, g.x0), max(w.x1, g.x1)
	w.y0, w.y1 = min(w.y0, g.y0), max(w.y1, g.y1)
}

// words cuts the glyphs (in page-text order, one frame) into words: at a
// separator of the page text, a change of size beyond 5% (poppler cuts at
// any change of font size) or a baseline that moves by more than half a
// point.
func words(gs []glyph) []*word {
	var out []*word
	var w *word
	var store []word // words allocated a block at a time
	for i := range gs {
		g := &gs[i]
		if w != nil && g.sep == 0 && g.idx == w.gs[len(w.gs)-1].idx+1 &&
			abs(g.size-w.fs)*20 <= w.fs && abs(g.base-w.base) <= 50 {
			w.add(gs, i)
			continue
		}
		if len(store) == cap(store) {
			store = make([]word, 0, min(len(gs)-i, 256))
		}
		store = append(store, newWord(gs, i, len(out)))
		w = &store[len(store)-1]
		out = append(out, w)
	}
	for _, w := range out {
		// x0 lies within ±2^25 (centi), so x0+2^25 fits below bit 27.
		w.pk = w.band<<27 + w.x0 + 1<<25
	}
	return out
}

// pool holds words by baseline band, each band sorted left to right
// (poppler's TextPool). Words are taken out; bands stay. Bands are found by
// index: keys[i] is the band of lists[i].
type pool struct {
	keys  []int64 // bands holding words, ascending
	lists [][]*word
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func bandOf(base int64) int64 { return floorDiv(base, textPoolStep) }

func newPool(ws []*word) *pool {
	sorted := slices.Clone(ws)
	// seq breaks every tie: an unstable sort gives the stable one's order.
	slices.SortFunc(sorted, func(a, b *word) int {
		if a.pk != b.pk { // band, then x0
			return cmpInt(a.pk, b.pk)
		}
		return a.seq - b.seq
	})
	// Each band's list is its stretch of sorted, capped so that taking a
	// word out never reaches into the next band.
	p := &pool{}
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && sorted[j].band == sorted[i].band {
			j++
		}
		p.keys = append(p.keys, sorted[i].band)
		p.lists = append(p.lists, sorted[i:j:j])
		i = j
	}
	return p
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// span calls fn with the index of each band from the band of lo to the
// band of hi (descending when down).
func (p *pool) span(lo, hi int64, down bool, fn func(i int)) {
	a, b := bandOf(lo), bandOf(hi)
	i := sort.Search(len(p.keys), func(i int) bool { return p.keys[i] >= a })
	j := sort.Search(len(p.keys), func(i int) bool { return p.keys[i] > b })
	if down {
		for k := j - 1; k >= i; k-- {
			fn(k)
		}
		return
	}
	for k := i; k < j; k++ {
		fn(k)
	}
}

// first is the first band with words at or after index *from.
func (p *pool) first(from *int) bool {
	for *from < len(p.keys) && len(p.lists[*from]) == 0 {
		*from++
	}
	return *from < len(p.keys)
}

// take removes and returns word k of band i.
func (p *pool) take(i, k int) *word {
	l := p.lists[i]
	w := l[k]
	p.lists[i] = slices.Delete(l, k, k+1)
	return w
}

// startBand picks, among the bands within four steps of band i (the first
// with words), the one whose leftmost word is leftmost (poppler: this
// avoids starting with a superscript).
func (p *pool) startBand(i int) int {
	start := i
	for k := i + 1; k < len(p.keys) && p.keys[k] < p.keys[i]+4; k++ {
		if l := p.lists[k]; len(l) > 0 && l[0].x0 < p.lists[start][0].x0 {
			start = k
		}
	}
	return start
}

// rect is a bounding box that grows by the words added to it.
type rect struct{ x0, x1, y0, y1 int64 }

// cover grows r over w; first says r holds nothing yet.
func (r *rect) cover(w *word, first bool) {
	if first {
		*r = rect{w.x0, w.x1, w.y0, w.y1}
		return
	}
	r.x0, r.x1 = min(r.x0, w.x0), max(r.x1, w.x1)
	r.y0, r.y1 = min(r.y0, w.y0), max(r.y1, w.y1)
}

// line is a line of a block: words left to right.
type line struct {
	ws []*word
	rect
	base int64
	seq  int
}

func (l *line) add(w *word) {
	l.cover(w, len(l.ws) == 0)
	l.ws = append(l.ws, w)
}

// block is poppler's TextBlock.
type block struct {
	ws    []*word
	lines []*line
	rect
	// The extended box (ExMin..) of the reading-order rules, and the free
	// space beside the block (priMin, priMax).
	ex0, ex1, ey0, ey1 int64
	priMin, priMax     int64
	table              int
	seq                int
}

func (b *block) add(w *word) {
	b.cover(w, len(b.ws) == 0)
	b.ws = append(b.ws, w)
}

// fs is the font size of the block's first word of its first line.
func (b *block) fs() int64 { return b.lines[0].ws[0].fs }

// buildBlocks is the block assembly of TextPage::coalesce.
func buildBlocks(ws []*word) []*block {
	p := newPool(ws)
	arena := make([]*word, len(ws))
	var blocks []*block
	from := 0
	for {
		if !p.first(&from) {
			break
		}
		w0 := p.take(p.startBand(from), 0)
		blk := &block{seq: len(blocks), table: -1}
		// Every word joins one block, one block at a time: the block's
		// words are a stretch of one array, grown in place.
		blk.ws = arena[:0:len(arena)]
		blk.add(w0)
		growBlock(p, blk, w0)
		n := len(blk.ws)
		blk.ws, arena = blk.ws[:n:n], arena[n:]
		blk.buildLines()
		blocks = append(blocks, blk)
	}
	return blocks
}

// growBlock adds to blk, which holds w0, the words of p that join it, as
// TextPage::coalesce grows a block: lines above and below, words on its
// lines, then up to three outlying words beside it, until none joins.
func growBlock(p *pool, blk *block, w0 *word) {
	fs := w0.fs
	minBase, maxBase := w0.base, w0.base
	colSpace1, colSpace2 := fs*3/10, fs // minColSpacing1, minColSpacing2
	lineSpace, intra := fs*3/2, fs/2    // maxLineSpacingDelta, maxIntraLineDelta
	sizeWithin := func(w *word, num, den int64) bool { return abs(w.fs-fs)*den < fs*num }
	for {
		found := false
		// Words on the line above the block's top and below its bottom,
		// overlapping it horizontally.
		newMin := minBase
		p.span(minBase-lineSpace, minBase, true, func(k int) {
			for i := 0; i < len(p.lists[k]); {
				w := p.lists[k][i]
				if w.x0 >= blk.x1 {
					break // a band is sorted by x0: no word after w overlaps
				}
				if w.base < minBase && w.base >= minBase-lineSpace && w.x0 < blk.x1 && w.x1 > blk.x0 && sizeWithin(w, 5, 100) {
					blk.add(p.take(k, i))
					found, newMin = true, w.base
					continue
				}
				i++
			}
		})
		minBase = newMin
		newMax := maxBase
		p.span(maxBase, maxBase+lineSpace, false, func(k int) {
			for i := 0; i < len(p.lists[k]); {
				w := p.lists[k][i]
				if w.x0 >= blk.x1 {
					break // a band is sorted by x0: no word after w overlaps
				}
				if w.base > maxBase && w.base <= maxBase+lineSpace && w.x0 < blk.x1 && w.x1 > blk.x0 && sizeWithin(w, 5, 100) {
					blk.add(p.take(k, i))
					found, newMax = true, w.base
					continue
				}
				i++
			}
		})
		maxBase = newMax
		// Words on the block's lines, overlapping it give or take
		// colSpace1.
		p.span(minBase-intra, maxBase+intra, false, func(k int) {
			for i := 0; i < len(p.lists[k]); {
				w := p.lists[k][i]
				if w.x0 >= blk.x1+colSpace1 {
					break // a band is sorted by x0: no word after w overlaps
				}
				if w.base >= minBase-intra && w.base <= maxBase+intra &&
					w.x0 < blk.x1+colSpace1 && w.x1 > blk.x0-colSpace1 && sizeWithin(w, 6, 10) {
					blk.add(p.take(k, i))
					found = true
					continue
				}
				i++
			}
		})
		if found {
			continue
		}
		// Up to three outlying words beside the block, left then right.
		for _, left := range []bool{true, false} {
			near := func(w *word) bool {
				if w.base < minBase-intra || w.base > maxBase+intra || !sizeWithin(w, 2, 10) {
					return false
				}
				if left {
					return w.x1 <= blk.x0 && w.x1 > blk.x0-colSpace2
				}
				return w.x0 >= blk.x1 && w.x0 < blk.x1+colSpace2
			}
			n := 0
			p.span(minBase-intra, maxBase+intra, false, func(k int) {
				if slices.ContainsFunc(p.lists[k], near) {
					n++
				}
			})
			if n == 0 || n > 3 {
				continue
			}
			lo, hi := minBase-intra, maxBase+intra
			p.span(lo, hi, false, func(k int) {
				if i := slices.IndexFunc(p.lists[k], near); i >= 0 {
					w := p.take(k, i)
					blk.add(w)
					if w.base < minBase {
						minBase = w.base
					} else if w.base > maxBase {
						maxBase = w.base
					}
					found = true
				}
			})
		}
		if !found {
			break
		}
	}
}

// buildLines is TextBlock::coalesce: the block's words into lines, each
// started at the leftmost word of the top bands and continued with the
// leftmost word on its baseline (give or take half the size) that starts
// less than 1.5 sizes after it ends and does not overlap it by more than
// half a size; lines sorted by baseline.
func (b *block) buildLines() {
	if len(b.ws) == 1 {
		// A table cell of one word, most often: its line, without a pool.
		l := &line{base: b.ws[0].base}
		l.add(b.ws[0])
		b.lines = []*line{l}
		return
	}
	p := newPool(b.ws)
	arena := make([]*word, len(b.ws)) // the lines' words, as the blocks'
	from := 0
	for {
		if !p.first(&from) {
			break
		}
		w0 := p.take(p.startBand(from), 0)
		l := &line{base: w0.base, seq: len(b.lines)}
		l.ws = arena[:0:len(arena)]
		l.add(w0)
		fs := w0.fs
		minBase, maxBase := w0.base-fs/2, w0.base+fs/2
		wordSpacing := fs * 3 / 2
		last := w0
		for {
			var best *word
			bestBand, bestIdx := -1, -1
			overlap := false
			p.span(minBase, maxBase, false, func(k int) {
				if overlap {
					return
				}
				for i, w := range p.lists[k] {
					if w.base < minBase || w.base > maxBase {
						continue
					}
					delta := w.x0 - last.x1
					if delta*2 < -fs { // minCharSpacing
						overlap = true
					} else if delta < wordSpacing && (best == nil || w.x0 < best.x0) {
						best, bestBand, bestIdx = w, k, i
					}
					break
				}
			})
			if overlap || best == nil {
				break
			}
			l.add(p.take(bestBand, bestIdx))
			last = best
		}
		n := len(l.ws)
		l.ws, arena = l.ws[:n:n], arena[n:]
		b.lines = append(b.lines, l)
	}
	slices.SortStableFunc(b.lines, func(x, y *line) int {
		if x.base != y.base {
			return cmpInt(x.base, y.base)
		}
		return cmpInt(x.x0, y.x0)
	})
}

// readingOrder sorts the blocks as TextPage::coalesce does: free space
// beside each block, tables found from aligned neighbours, extended boxes,
// then a topological sort by Breuel's two rules (T. M. Breuel, "High
// Performance Document Layout Analysis", 2003): a block above another it
// overlaps horizontally comes first; a block left of another comes first
// unless a third lies below the first and above the second.
func readingOrder(blocks []*block, pageX0, pageX1 int64, ltr bool) []*block {
	for _, b := range blocks {
		b.priMin, b.priMax = pageX0, pageX1
	}
	for _, b0 := range blocks {
		for _, b1 := range blocks {
			if b1 != b0 {
				b0.updatePriMinMax(b1)
			}
		}
	}
	findTables(blocks, ltr)
	extend(blocks, pageX0, pageX1)
	n := len(blocks)
	visited := make([]bool, n)
	sorted := make([]*block, 0, n)
	var visit func(i int)
	visit = func(i int) {
		if visited[i] {
			return
		}
		visited[i] = true
		b1 := blocks[i]
		for j, b2 := range blocks {
			if visited[j] {
				continue
			}
			before := false
			if b1.table >= 0 && b1.table == b2.table {
				if ltr {
					before = b2.x1 <= b1.x0 && b2.y0 <= b1.y1 && b2.y1 >= b1.y0
				} else {
					before = b2.x0 >= b1.x1 && b2.y0 <= b1.y1 && b2.y1 >= b1.y0
				}
				if b2.y1 <= b1.y0 {
					before = true
				}
			} else if b2.beforeByRule1(b1) {
				before = true
			} else if b2.beforeByRule2(b1, ltr) {
				before = true
				for k, b3 := range blocks {
					if k != i && k != j && b1.beforeByRule1(b3) && b3.beforeByRule1(b2) {
						before = false
						break
					}
				}
			}
			if before {
				visit(j)
			}
		}
		sorted = append(sorted, b1)
	}
	for i := range blocks {
		visit(i)
	}
	return sorted
}

func (b *block) updatePriMinMax(o *block) {
	if !(o.y0 < b.y1 && o.y1 > b.y0) {
		return
	}
	if o.x0 < b.x0 {
		if v := min(o.x1, b.x0); v > b.priMin {
			b.priMin = v
		}
	}
	if o.x1 > b.x1 {
		if v := max(o.x0, b.x1); v < b.priMax {
			b.priMax = v
		}
	}
}

func (b *block) beforeByRule1(o *block) bool {
	overlap := (b.ex0 <= o.ex0 && o.ex0 <= b.ex1) || (o.ex0 <= b.ex0 && b.ex0 <= o.ex1)
	return overlap && b.ey0 < o.ey0
}

func (b *block) beforeByRule2(o *block, ltr bool) bool {
	if ltr {
		return b.ex1 <= o.ex0
	}
	return o.ex1 <= b.ex0
}

// findTables marks blocks that form a table with their nearest neighbours
// to the right, below and below right, aligned (TextPage::coalesce), and
// gives a table's blocks the table's extended box.
func findTables(blocks []*block, ltr bool) {
	for _, b := range blocks {
		b.ex0, b.ex1, b.ey0, b.ey1 = b.x0, b.x1, b.y0, b.y1
	}
	tables := 0
	for _, b1 := range blocks {
		var f2, f3, f4 *block
		for _, b2 := range blocks {
			if b2 == b1 {
				continue
			}
			switch {
			case b2.y0 <= b1.y1 && b2.y1 >= b1.y0 && b2.x0 > b1.x1 && (f2 == nil || b2.x0 < f2.x0):
				f2 = b2
			case b2.x0 <= b1.x1 && b2.x1 >= b1.x0 && b2.y0 > b1.y1 && (f3 == nil || b2.y0 < f3.y0):
				f3 = b2
			case b2.x0 > b1.x1 && b2.y0 > b1.y1 && (f4 == nil || b2.x0 < f4.x0 && b2.y0 < f4.y0):
				f4 = b2
			}
		}
		if f2 == nil || f3 == nil || f4 == nil {
			continue
		}
		if (f3.x0 <= f4.x1 && f3.x1 >= f4.x0) || (f2.y0 <= f4.y1 && f2.y1 >= f4.y0) ||
			(f2.x0 <= f3.x1 && f2.x1 >= f3.x0) || (f2.y0 <= f3.y1 && f2.y1 >= f3.y0) ||
			!(f4.x0 <= f2.x1 && f4.x1 >= f2.x0 && f4.y0 <= f3.y1 && f4.y1 >= f3.y0) {
			continue
		}
		d := min(b1.fs(), f2.fs(), f3.fs(), f4.fs())
		// deltaX = 0.3 d, deltaY = 0.5 d; centres compared doubled.
		within := func(a, b, num int64) bool { return abs(a-b)*10 <= d*num }
		cx, cy := 0, 0
		if within(b1.x0+b1.x1, f3.x0+f3.x1, 6) && within(f2.x0+f2.x1, f4.x0+f4.x1, 6) {
			cx++
		}
		if within(b1.y0+b1.y1, f2.y0+f2.y1, 10) && within(f3.y0+f3.y1, f4.y0+f4.y1, 10) {
			cy++
		}
		if within(b1.x0, f3.x0, 3) && within(f2.x0, f4.x0, 3) {
			cx++
		}
		if within(b1.x1, f3.x1, 3) && within(f2.x1, f4.x1, 3) {
			cx++
		}
		if within(b1.y0, f2.y0, 5) && within(f3.y0, f4.y0, 5) {
			cy++
		}
		if within(b1.y1, f2.y1, 5) && within(f3.y1, f4.y1, 5) {
			cy++
		}
		if cx == 0 || cy == 0 {
			continue
		}
		id := max(f4.table, f3.table, f2.table, b1.table)
		if id < 0 {
			id = tables
			tables++
		}
		b1.table, f2.table, f3.table, f4.table = id, id, id, id
	}
	if tables == 0 {
		return
	}
	type env struct{ x0, x1, y0, y1 int64 }
	envs := make([]env, tables)
	for i := range envs {
		envs[i] = env{x0: 1 << 62, x1: -1 << 62, y0: 1 << 62, y1: -1 << 62}
	}
	for _, b := range blocks {
		if b.table >= 0 {
			e := &envs[b.table]
			e.x0, e.x1 = min(e.x0, b.ex0), max(e.x1, b.ex1)
			e.y0, e.y1 = min(e.y0, b.ey0), max(e.y1, b.ey1)
		}
	}
	for _, b := range blocks {
		if b.table >= 0 {
			e := envs[b.table]
			b.ex0, b.ex1, b.ey0, b.ey1 = e.x0, e.x1, e.y0, e.y1
		}
	}
}

// extend widens every block that is not in a table to the blocks below it
// that do not reach past its neighbours on its lines.
func extend(blocks []*block, pageX0, pageX1 int64) {
	for _, b1 := range blocks {
		if b1.table >= 0 {
			continue
		}
		xMax, xMin := pageX1+1, pageX0-1
		for _, b2 := range blocks {
			if b2 == b1 || !(b1.y0 <= b2.y1 && b1.y1 >= b2.y0) {
				continue
			}
			if b2.x0 < xMax && b2.x0 > b1.x1 {
				xMax = b2.x0
			}
			if b2.x1 > xMin && b2.x1 < b1.x0 {
				xMin = b2.x1
			}
		}
		for _, b2 := range blocks {
			if b2 == b1 {
				continue
			}
			if b2.x1 > b1.ex1 && b2.x1 <= xMax && b2.y0 >= b1.y1 {
				b1.ex1 = b2.x1
			}
			if b2.x0 < b1.ex0 && b2.x0 >= xMin && b2.y0 >= b1.y1 {
				b1.ex0 = b2.x0
			}
		}
	}
}

// flows groups blocks in reading order into flows: a block joins the flow
// of the block before it when it lies below it within 2.5 sizes, inside
// its free space and the flow's, and is not set larger.
func flows(sorted []*block) [][]*block {
	var out [][]*block
	for i, b := range sorted {
		if i > 0 {
			prev := sorted[i-1]
			flow := out[len(out)-1]
			first, last := flow[0], flow[len(flow)-1]
			if (b.y0-prev.y1)*2 <= prev.fs()*5 &&
				b.x0 >= prev.priMin && b.x1 <= prev.priMax && b.y0 > prev.y0 &&
				b.fs() <= last.fs() && b.x0 >= first.priMin && b.x1 <= first.priMax {
				out[len(out)-1] = append(flow, b)
				continue
			}
		}
		out = append(out, []*block{b})
	}
	return out
}

// isRTL is a right-to-left letter (Hebrew, Arabic).
func isRTL(r rune) bool {
	return (r >= 0x0590 && r <= 0x08FF) || (r >= 0xFB1D && r <= 0xFDFF) || (r >= 0xFE70 && r <= 0xFEFF)
}

// flow computes the flow order of the page.
func (p *page) flow() Order {
	w := newWriter(p)
	// Each writing direction is laid out in its own frame, the page's
	// dominant one first (poppler pools words by rotation).
	rots := []int8{p.rot}
	for r := int8(0); r < 4; r++ {
		if r != p.rot {
			rots = append(rots, r)
		}
	}
	for _, rot := range rots {
		gs := p.inFrame(rot, rot)
		if len(gs) == 0 {
			continue
		}
		ws := words(gs)
		blocks := buildBlocks(ws)
		pageX0, pageX1 := gs[0].x0, gs[0].x1
		lr := 0
		for _, g := range gs {
			pageX0, pageX1 = min(pageX0, g.x0), max(pageX1, g.x1)
			for _, r := range p.text[g.start:g.end] {
				switch {
				case isRTL(r):
					lr--
				case unicode.IsLetter(r):
					lr++
				}
			}
		}
		for _, f := range flows(readingOrder(blocks, pageX0, pageX1, lr >= 0)) {
			w.sep("\n\n")
			for _, b := range f {
				for _, l := range b.lines {
					w.sep("\n")
					w.line(l.ws)
				}
			}
		}
	}
	return w.order(Flow)
}

// line writes the words of a line. Poppler writes a space between two
// words at least 0.03 of the line's first size apart (maxCharSpacing), and
// cuts words where the size or baseline changes: "U1 ," for a subscript
// the page text glues. Words whose page text has a space between them keep
// that space.
func (w *writer) line(ws []*word) {
	fs := ws[0].fs
	for i, wd := range ws {
		if i > 0 {
			prev := ws[i-1]
			a, b := &prev.gs[len(prev.gs)-1], &wd.gs[0]
			switch {
			case b.idx == a.idx+1 && b.sep == ' ':
				w.copy(a.end, b.start)
			case (b.x0-a.x1)*100 >= fs*3:
				w.sep(" ")
			}
		}
		w.run(wd.gs, nil)
	}
}
