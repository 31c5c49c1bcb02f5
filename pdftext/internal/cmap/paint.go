package cmap

import (
	"container/heap"
	"slices"
)

// paint turns definitions in definition order into sorted, non-overlapping
// segments where every code takes the value of the last definition that
// covers it. inc says whether values increment along a definition (bf
// entries, cidrange) or are constant (notdefrange).
//
// The common case, no overlaps, is a sort. Otherwise a sweep over the range
// boundaries keeps the covering definitions in a heap ordered by definition
// order: O(n log n) for n definitions.
func paint(defs []def, inc bool) []seg {
	if len(defs) == 0 {
		return nil
	}
	type odef struct {
		def
		order int
	}
	ds := make([]odef, len(defs))
	for i, d := range defs {
		ds[i] = odef{d, i}
	}
	slices.SortFunc(ds, func(a, b odef) int {
		switch {
		case a.lo < b.lo:
			return -1
		case a.lo > b.lo:
			return 1
		}
		return a.order - b.order
	})
	overlap := false
	for i := 1; i < len(ds); i++ {
		if ds[i].lo <= ds[i-1].hi {
			overlap = true
			break
		}
	}
	var out []seg
	emit := func(lo, hi uint64, d def) {
		v := d.val
		if inc {
			v += uint32(lo - d.lo)
		}
		if l := len(out); l > 0 {
			prev := &out[l-1]
			// Merge with the previous segment when it continues it.
			if prev.hi+1 == lo && prev.lo>>32 == lo>>32 {
				next := prev.val
				if inc {
					next += uint32(lo - prev.lo)
				}
				if next == v {
					prev.hi = hi
					return
				}
			}
		}
		out = append(out, seg{lo: lo, hi: hi, val: v})
	}
	if !overlap {
		out = make([]seg, 0, len(ds))
		for _, d := range ds {
			emit(d.lo, d.hi, d.def)
		}
		return slices.Clip(out)
	}

	// Boundaries: every lo and every hi+1.
	pts := make([]uint64, 0, 2*len(ds))
	for _, d := range ds {
		pts = append(pts, d.lo, d.hi+1)
	}
	slices.Sort(pts)
	pts = slices.Compact(pts)
	h := &defHeap{}
	j := 0
	for i := 0; i+1 < len(pts); i++ {
		p := pts[i]
		for j < len(ds) && ds[j].lo <= p {
			heap.Push(h, heapItem{ds[j].def, ds[j].order})
			j++
		}
		for h.Len() > 0 && (*h)[0].hi < p {
			heap.Pop(h)
		}
		if h.Len() == 0 {
			continue
		}
		top := (*h)[0]
		emit(p, pts[i+1]-1, top.def)
	}
	return slices.Clip(out)
}

type heapItem struct {
	def
	order int
}

// defHeap is a max-heap by definition order.
type defHeap []heapItem

func (h defHeap) Len() int           { return len(h) }
func (h defHeap) Less(i, j int) bool { return h[i].order > h[j].order }
func (h defHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *defHeap) Push(x any)        { *h = append(*h, x.(heapItem)) }
func (h *defHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// Merge returns a new CMap that combines c with parent, the CMap that c's
// usecmap names (PDF 32000-1:2008 §9.7.5.4): the codespace ranges of both,
// and the mappings of both, where c's mappings win over parent's for the
// same code. The result takes c's name and, if c gives one, its WMode
// (else parent's); its UseCMap is parent's, for chains (Adobe's CMaps nest
// two deep; callers should stop after a few levels). A codespace that Parse
// inferred for c, because c declared none, is replaced by parent's.
// Predefined behaviour of parent (identity CIDs, Unicode codes) carries
// over as a fallback after the mappings. Neither input changes.
//
// A nil parent returns c.
func (c *CMap) Merge(parent *CMap) *CMap {
	if parent == nil {
		return c
	}
	m := &CMap{
		name:     c.name,
		useCMap:  parent.useCMap,
		wmode:    c.wmode,
		wmodeOK:  c.wmodeOK,
		identity: c.identity || parent.identity,
		ucs:      c.ucs,
		legacy:   c.legacy,
	}
	if !c.wmodeOK {
		m.wmode, m.wmodeOK = parent.wmode, parent.wmodeOK
	}
	if m.ucs == uniNone {
		m.ucs, m.legacy = parent.ucs, parent.legacy
	}
	m.warnings = append(slices.Clip(c.warnings), parent.warnings...)
	if len(m.warnings) > maxWarnings {
		m.warnings = append(m.warnings[:maxWarnings-1:maxWarnings-1], "further warnings suppressed")
	}

	// Codespace.
	switch {
	case c.cs.inferred && !parent.cs.inferred:
		m.cs.ranges = slices.Clone(parent.cs.ranges)
	case parent.cs.inferred && !c.cs.inferred:
		m.cs.ranges = slices.Clone(c.cs.ranges)
	default:
		m.cs.inferred = c.cs.inferred && parent.cs.inferred
		m.cs.ranges = slices.Clone(c.cs.ranges)
		for _, r := range parent.cs.ranges {
			m.cs.add(r)
		}
	}
	m.cs.build()

	// Text: parent's entries first, then c's, shifted.
	pOffs, cOffs := parent.entryOffsets(), c.entryOffsets()
	np := uint32(len(pOffs) - 1)
	shift := uint32(len(parent.text))
	m.text = parent.text + c.text
	m.offs = make([]uint32, 0, len(pOffs)+len(cOffs)-1)
	m.offs = append(m.offs, pOffs...)
	for _, o := range cOffs[1:] {
		m.offs = append(m.offs, o+shift)
	}
	defs := make([]def, 0, len(parent.uni)+len(c.uni))
	for _, s := range parent.uni {
		defs = append(defs, def(s))
	}
	for _, s := range c.uni {
		defs = append(defs, def{lo: s.lo, hi: s.hi, val: s.val + np})
	}
	m.uni = paint(defs, true)
	m.cid = paint(segDefs(parent.cid, c.cid), true)
	m.notdef = paint(segDefs(parent.notdef, c.notdef), false)
	return m
}

// entryOffsets returns c.offs, or the offsets of no entries for a zero CMap.
func (c *CMap) entryOffsets() []uint32 {
	if len(c.offs) == 0 {
		return []uint32{0}
	}
	return c.offs
}

func segDefs(first, second []seg) []def {
	defs := make([]def, 0, len(first)+len(second))
	for _, s := range first {
		defs = append(defs, def(s))
	}
	for _, s := range second {
		defs = append(defs, def(s))
	}
	return defs
}
