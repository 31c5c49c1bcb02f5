package layout

import (
	"slices"
)

// The boxes order follows pdfminer.six's layout analysis with its default
// LAParams (line_overlap 0.5, char_margin 2.0, line_margin 0.5,
// word_margin 0.1, boxes_flow 0.5; layout.py), in the frame of the page
// turned by its /Rotate, as pdfminer reads it: text written across that
// frame falls apart into lines of one glyph, as in pdfminer.

// maxGrouped bounds the text boxes grouped hierarchically (pdfminer's
// group_textboxes costs the cube of their number at worst); a page with
// more has its boxes ordered by the same key without the grouping.
const maxGrouped = 300

// mline is a text line of pdfminer: glyphs following each other in the
// page text, each horizontally aligned with the one before.
type mline struct {
	gs             []glyph
	x0, y0, x1, y1 int64
}

func (l *mline) height() int64 { return l.y1 - l.y0 }

// halign is pdfminer's test for two glyphs on one line: their vertical
// overlap exceeds half the smaller height (line_overlap), and they are
// apart by less than twice the wider one's width (char_margin).
func halign(a, b *glyph) bool {
	if !(b.y0 <= a.y1 && a.y0 <= b.y1) {
		return false
	}
	// pdfminer's voverlap: the smaller of the two distances between one
	// box's bottom and the other's top.
	vov := min(abs(a.y0-b.y1), abs(a.y1-b.y0))
	if min(a.height(), b.height()) >= 2*vov {
		return false
	}
	hd := int64(0)
	if !(b.x0 <= a.x1 && a.x0 <= b.x1) {
		hd = min(abs(a.x0-b.x1), abs(a.x1-b.x0))
	}
	return hd < 2*max(a.width(), b.width())
}

// mlines cuts the glyphs (page-text order) into lines where two glyphs in
// a row are not horizontally aligned (group_objects).
func mlines(gs []glyph) []*mline {
	var out []*mline
	var l *mline
	start := 0
	for i := range gs {
		g := &gs[i]
		if l != nil && halign(&gs[i-1], g) {
			l.gs = gs[start : i+1]
			l.x0, l.x1 = min(l.x0, g.x0), max(l.x1, g.x1)
			l.y0, l.y1 = min(l.y0, g.y0), max(l.y1, g.y1)
			continue
		}
		start = i
		l = &mline{gs: gs[i : i+1], x0: g.x0, y0: g.y0, x1: g.x1, y1: g.y1}
		out = append(out, l)
	}
	return out
}

// neighbours is find_neighbors of a horizontal line: o lies within half
// l's height above or below it, overlapping it horizontally, of l's height
// give or take that, and aligned with it left, right or centre within that.
func neighbours(l, o *mline) bool {
	h := l.height() // d = h/2; compared doubled
	if !(2*o.x0 < 2*l.x1 && 2*l.x0 < 2*o.x1 && 2*o.y0 < 2*l.y1+h && 2*l.y0-h < 2*o.y1) {
		return false
	}
	if 2*abs(o.height()-h) > h {
		return false
	}
	return 2*abs(o.x0-l.x0) <= h || 2*abs(o.x1-l.x1) <= h || abs((o.x0+o.x1)-(l.x0+l.x1)) <= h
}

// elem is a text box or a group of two elements (pdfminer's LTTextGroup).
type elem struct {
	x0, y0, x1, y1 int64
	lines          []*mline // a box: its lines, top first
	kids           [2]*elem // a group
	id             int      // creation order: pdfminer's heap breaks ties by id()
	done           bool     // merged into a group
}

func (e *elem) area() int64 { return (e.x1 - e.x0) * (e.y1 - e.y0) }

// dist is the area of the box around a and b less their own areas.
func dist(a, b *elem) int64 {
	x0, y0 := min(a.x0, b.x0), min(a.y0, b.y0)
	x1, y1 := max(a.x1, b.x1), max(a.y1, b.y1)
	return (x1-x0)*(y1-y0) - a.area() - b.area()
}

func intersects(a *elem, x0, y0, x1, y1 int64) bool {
	return a.x0 < x1 && x0 < a.x1 && a.y0 < y1 && y0 < a.y1
}

// A pair of elements is known by a key that orders pairs as pdfminer's
// heap does: by the area their union wastes, then by the elements' ids
// (creation order). A codec makes and reads keys: packed ones are a
// uint64 that sorts as an integer, wide ones the fields themselves, for
// the pages whose extent packed keys cannot hold.
type pairCodec[K any] interface {
	key(d int64, a, b int32) K
	ids(k K) (a, b int32)
	less(x, y K) bool
	sort(run []K)
}

// packed keys: d+off in the high 44 bits, the ids in 10 bits each. tmp
// is radixSort's buffer.
type packed struct {
	off int64
	tmp *[]uint64
}

func (c packed) key(d int64, a, b int32) uint64 {
	return uint64(d+c.off)<<20 | uint64(a)<<10 | uint64(b)
}
func (packed) ids(k uint64) (a, b int32) { return int32(k >> 10 & 1023), int32(k & 1023) }
func (packed) less(x, y uint64) bool     { return x < y }
func (c packed) sort(run []uint64) {
	if len(run) < radixMin {
		slices.Sort(run)
		return
	}
	*c.tmp = radixSort(run, (*c.tmp)[:0])
}

// radixMin is the shortest run radixSort sorts; shorter ones go to
// slices.Sort.
const radixMin = 512

// radixSort sorts keys in place, a byte at a time from the lowest, with
// tmp (grown as needed and returned) as the other buffer; a byte all keys
// share costs no pass. Keys are distinct (their ids are), so any sort gives
// slices.Sort's order; a page's first run holds every pair of its boxes,
// tens of thousands on a table, where comparison sorting mispredicts its
// branches half the time.
func radixSort(keys, tmp []uint64) []uint64 {
	var count [8][256]int
	for _, k := range keys {
		for b := range 8 {
			count[b][byte(k>>(8*b))]++
		}
	}
	tmp = slices.Grow(tmp[:0], len(keys))[:len(keys)]
	src, dst := keys, tmp
	for b := range 8 {
		c := &count[b]
		if c[byte(src[0]>>(8*b))] == len(src) {
			continue
		}
		sum := 0
		for i, n := range c {
			c[i] = sum
			sum += n
		}
		shift := uint(8 * b)
		for _, k := range src {
			d := byte(k >> shift)
			dst[c[d]] = k
			c[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
	}
	return tmp
}

type wideKey struct {
	d    int64
	a, b int32
}

type wide struct{}

func (wide) key(d int64, a, b int32) wideKey { return wideKey{d, a, b} }
func (wide) ids(k wideKey) (a, b int32)      { return k.a, k.b }
func (wide) less(x, y wideKey) bool          { return wideLess(x, y) }
func (wide) sort(run []wideKey)              { slices.SortFunc(run, cmpWide) }
func wideLess(x, y wideKey) bool {
	if x.d != y.d {
		return x.d < y.d
	}
	if x.a != y.a {
		return x.a < y.a
	}
	return x.b < y.b
}
func cmpWide(x, y wideKey) int {
	switch {
	case wideLess(x, y):
		return -1
	case wideLess(y, x):
		return 1
	}
	return 0
}

// keyHeap is a binary min-heap of keys.
type keyHeap[K any] struct {
	s    []K
	less func(x, y K) bool
}

func (h *keyHeap[K]) push(k K) {
	h.s = append(h.s, k)
	s := h.s
	for i := len(s) - 1; i > 0; {
		j := (i - 1) / 2
		if !h.less(s[i], s[j]) {
			break
		}
		s[i], s[j] = s[j], s[i]
		i = j
	}
}

func (h *keyHeap[K]) pop() K {
	s := h.s
	top := s[0]
	s[0] = s[len(s)-1]
	s = s[:len(s)-1]
	h.s = s
	h.down(0)
	return top
}

func (h *keyHeap[K]) down(i int) {
	s := h.s
	for {
		m, l := i, 2*i+1
		if l < len(s) && h.less(s[l], s[m]) {
			m = l
		}
		if l+1 < len(s) && h.less(s[l+1], s[m]) {
			m = l + 1
		}
		if m == i {
			return
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
}

// runHeap is a min-heap of sorted runs of keys by their first key.
type runHeap[K any] struct {
	s    [][]K
	less func(x, y K) bool
}

func (h *runHeap[K]) push(r []K) {
	h.s = append(h.s, r)
	s := h.s
	for i := len(s) - 1; i > 0; {
		j := (i - 1) / 2
		if !h.less(s[i][0], s[j][0]) {
			break
		}
		s[i], s[j] = s[j], s[i]
		i = j
	}
}

func (h *runHeap[K]) down(i int) {
	s := h.s
	for {
		m, l := i, 2*i+1
		if l < len(s) && h.less(s[l][0], s[m][0]) {
			m = l
		}
		if l+1 < len(s) && h.less(s[l+1][0], s[m][0]) {
			m = l + 1
		}
		if m == i {
			return
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
}

// group merges the boxes bottom up, the closest pair first, a pair with
// another element between them last (group_textboxes), and returns the
// root. pdfminer keeps every pair in one heap; here the first pairs are
// one sorted run, each merge's new pairs another, and a heap of runs gives
// the least of them; deferred pairs, which come after every other, wait in
// a heap of their own. The merges are the same, in the same order
// (TestGroupAsOneHeap), pairs of merged elements are dropped as a run is
// read instead of each costing a heap pop, and a run sorts as integers
// where the page allows (packed keys): sorting is most of the work.
func group(boxes []*elem, buf, tmp *[]uint64) *elem {
	if len(boxes) == 0 {
		return nil
	}
	x0, y0, x1, y1 := boxes[0].x0, boxes[0].y0, boxes[0].x1, boxes[0].y1
	for _, e := range boxes {
		x0, y0, x1, y1 = min(x0, e.x0), min(y0, e.y0), max(x1, e.x1), max(y1, e.y1)
	}
	// Every distance lies within the area around all boxes, either sign;
	// 2n-1 ids fit 10 bits.
	if area := (x1 - x0) * (y1 - y0); area < 1<<42 && 2*len(boxes) <= 1<<10 {
		root, keys := groupBy(boxes, packed{off: area, tmp: tmp}, *buf)
		*buf = keys[:0]
		return root
	}
	root, _ := groupBy(boxes, wide{}, nil)
	return root
}

// groupBy is group with keys of codec c, kept in buf (grown as needed and
// returned for reuse).
func groupBy[K any, C pairCodec[K]](boxes []*elem, c C, buf []K) (*elem, []K) {
	n := len(boxes)
	all := slices.Grow(slices.Clone(boxes), n) // by id
	plane := slices.Clone(boxes)
	keys := slices.Grow(buf[:0], n*(n-1)) // the first pairs, then each merge's
	for i := range boxes {
		for j := i + 1; j < n; j++ {
			keys = append(keys, c.key(dist(boxes[i], boxes[j]), int32(i), int32(j)))
		}
	}
	h := runHeap[K]{less: c.less}
	if first := keys[:len(keys):len(keys)]; len(first) > 0 {
		c.sort(first)
		h.push(first)
	}
	deferred := keyHeap[K]{less: c.less}
	stale := func(k K) bool {
		a, b := c.ids(k)
		return all[a].done || all[b].done
	}
	for len(plane) > 1 && len(h.s)+len(deferred.s) > 0 {
		var k K
		skip := false
		if len(h.s) > 0 {
			k = h.s[0][0]
			r := h.s[0][1:]
			for len(r) > 0 && stale(r[0]) {
				r = r[1:]
			}
			if len(r) > 0 {
				h.s[0] = r
			} else {
				h.s[0] = h.s[len(h.s)-1]
				h.s = h.s[:len(h.s)-1]
			}
			h.down(0)
		} else {
			k, skip = deferred.pop(), true
		}
		if stale(k) {
			continue
		}
		ia, ib := c.ids(k)
		a, b := all[ia], all[ib]
		if !skip {
			x0, y0 := min(a.x0, b.x0), min(a.y0, b.y0)
			x1, y1 := max(a.x1, b.x1), max(a.y1, b.y1)
			if slices.ContainsFunc(plane, func(e *elem) bool { return e != a && e != b && intersects(e, x0, y0, x1, y1) }) {
				deferred.push(k)
				continue
			}
		}
		g := &elem{x0: min(a.x0, b.x0), y0: min(a.y0, b.y0), x1: max(a.x1, b.x1), y1: max(a.y1, b.y1), kids: [2]*elem{a, b}, id: len(all)}
		all = append(all, g)
		a.done, b.done = true, true
		plane = slices.DeleteFunc(plane, func(e *elem) bool { return e == a || e == b })
		if len(plane) > 0 {
			m := len(keys)
			for _, o := range plane {
				keys = append(keys, c.key(dist(g, o), int32(g.id), int32(o.id)))
			}
			run := keys[m:len(keys):len(keys)]
			c.sort(run)
			h.push(run)
		}
		plane = append(plane, g)
	}
	return plane[0], keys
}

// flowKey is LTTextGroupLRTB's sort key with boxes_flow 0.5, doubled:
// (1-0.5) x0 - (1+0.5)(y0+y1) with y up is x0 + 3(y0+y1) with y down.
func flowKey(e *elem) int64 { return e.x0 + 3*(e.y0+e.y1) }

// walk appends the boxes of e in reading order: a group's two elements
// sorted by flowKey (a stable sort: ties keep the merge order).
func walk(e *elem, out []*elem) []*elem {
	if e.lines != nil {
		return append(out, e)
	}
	kids := e.kids
	if flowKey(kids[1]) < flowKey(kids[0]) {
		kids[0], kids[1] = kids[1], kids[0]
	}
	return walk(kids[1], walk(kids[0], out))
}

// boxes computes the boxes order of the page.
func (p *page) boxes() Order {
	w := newWriter(p)
	gs := p.inFrame(p.upright, -1)
	lines := mlines(gs)
	// Boxes: lines joined with their neighbours, transitively
	// (group_textlines), in the order of their first lines.
	parent := make([]int, len(lines))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	order := make([]int, len(lines))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmpInt(lines[a].y0, lines[b].y0) })
	tallest := int64(0)
	for _, l := range lines {
		tallest = max(tallest, l.height())
	}
	for ii, i := range order {
		l := lines[i]
		// Lines sorted by top: a line starting half the tallest line's
		// height below l's bottom is no neighbour either way, nor any after.
		for _, j := range order[ii+1:] {
			o := lines[j]
			if 2*o.y0 >= 2*l.y1+tallest {
				break
			}
			if neighbours(l, o) || neighbours(o, l) {
				if a, b := find(i), find(j); a != b {
					parent[max(a, b)] = min(a, b)
				}
			}
		}
	}
	var boxes []*elem
	byRoot := map[int]*elem{}
	for i, l := range lines {
		r := find(i)
		e := byRoot[r]
		if e == nil {
			e = &elem{x0: l.x0, y0: l.y0, x1: l.x1, y1: l.y1, id: len(boxes)}
			byRoot[r] = e
			boxes = append(boxes, e)
		}
		e.lines = append(e.lines, l)
		e.x0, e.y0 = min(e.x0, l.x0), min(e.y0, l.y0)
		e.x1, e.y1 = max(e.x1, l.x1), max(e.y1, l.y1)
	}
	for _, e := range boxes {
		slices.SortStableFunc(e.lines, func(a, b *mline) int { return cmpInt(a.y0, b.y0) })
	}
	var sorted []*elem
	switch {
	case len(boxes) <= maxGrouped:
		sorted = walk(group(boxes, &p.s.keys, &p.s.radix), nil)
	default:
		sorted = slices.Clone(boxes)
		slices.SortStableFunc(sorted, func(a, b *elem) int { return cmpInt(flowKey(a), flowKey(b)) })
	}
	// pdfminer writes a space between two glyphs of a line more than a
	// tenth of the larger of the next one's width and height apart
	// (word_margin); the page text has its own spaces.
	gap := func(a, b *glyph) bool { return 10*(b.x0-a.x1) > max(b.width(), b.height()) }
	for _, e := range sorted {
		w.sep("\n\n")
		for _, l := range e.lines {
			w.sep("\n")
			w.run(l.gs, gap)
		}
	}
	return w.order(Boxes)
}
