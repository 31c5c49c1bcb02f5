package citations

import (
	"sort"
	"sync"
	"sync/atomic"
)

// The non_ascii_dropped level looks up pieces of an ASCII quote's skeleton
// (asciiSeeds), since a page may hold word characters the quote lost: a
// non-ASCII one, or one stored as a non-ASCII code point (a ligature's
// letters). Where a passage holds none of those, the level can only find
// it with the quote's skeleton whole (alignASCII then matches every word
// character of the passage with the quote's), where the punctuation
// level's lookup of the whole skeleton already found it. So a piece's hit
// whose candidate passages lie where the page holds no such character is
// verified only where the whole skeleton starts, the one passage of them
// the verification could find, at the moment it would have been found;
// the page need not be read for every piece of every quote found nowhere,
// the cost that made such a quote read every table row of the corpus.
// Where a page holds such characters is read once, on its first hit, and
// kept: a few bytes per non-ASCII letter.

// asciiShortcut turns the use of the whole skeleton's hits on; the tests
// turn it off to compare.
var asciiShortcut = true

// lostChars keeps, per skeleton target, the byte offsets in its skeleton
// of the word characters an ASCII-only copy may lose (nil: not read yet).
type lostChars struct {
	once  sync.Once
	state []atomic.Pointer[[]int32]
}

// lostSlot returns target t's place in the cache, nil for a target not
// in the index.
func (ix *Index) lostSlot(t int32) *atomic.Pointer[[]int32] {
	lc := &ix.lost
	lc.once.Do(func() {
		n := len(ix.pages)
		if ix.orders != nil {
			n += len(ix.orders.pages)
		}
		lc.state = make([]atomic.Pointer[[]int32], n)
	})
	var k int
	switch {
	case t >= 0 && int(t) < len(ix.pages):
		k = int(t)
	case t < 0:
		k = len(ix.pages) + int(-1-t)
	default:
		return nil // not a page text or reading order: not kept
	}
	if k >= len(lc.state) {
		return nil
	}
	return &lc.state[k]
}

// lostAt returns target t's lostChars offsets, reading t into f's targets
// the first time; ok is false for a target not in the index.
func (ix *Index) lostAt(f *symbolFinds, t int32) (offs []int32, ok bool) {
	slot := ix.lostSlot(t)
	if slot == nil {
		return nil, false
	}
	if p := slot.Load(); p != nil {
		return *p, true
	}
	tg := ix.skelTarget(f.targets, t)
	if tg == nil {
		return nil, false
	}
	return ix.lostOf(t, tg)
}

// lostOf is lostAt for target t read as tg.
func (ix *Index) lostOf(t int32, tg *target) (offs []int32, ok bool) {
	slot := ix.lostSlot(t)
	if slot == nil {
		return nil, false
	}
	if p := slot.Load(); p != nil {
		return *p, true
	}
	s, idx := tg.skeleton()
	j := 0
	for b := range s { // each of the skeleton's code points is one of idx
		if tg.p.nonASCII(int(idx[j])) {
			offs = append(offs, int32(b))
		}
		j++
	}
	slot.Store(&offs)
	return offs, true
}

// wholeOnly reports whether a hit h of the piece at quote skeleton offset
// sd, in a skeleton of n code points, can only lead to a passage that
// starts where the whole skeleton does: no character an ASCII copy may
// lose lies where tryASCII looks for the passage's start (up to sd/2+4
// code points before the piece's place) or in the n code points after it.
func (ix *Index) wholeOnly(f *symbolFinds, h skelHit, sd, n int) bool {
	offs, ok := ix.lostAt(f, h.target)
	if !ok {
		return false
	}
	// 3 more bytes before: a character starting before the window may
	// reach into it.
	from, to := int32(h.off-sd-sd/2-4-3), int32(h.off-sd+n)
	k := sort.Search(len(offs), func(i int) bool { return offs[i] >= from })
	return k == len(offs) || offs[k] >= to
}

// targetDoc is the document of a page text or reading order target, -1
// for another.
func (ix *Index) targetDoc(t int32) int {
	switch {
	case t >= 0 && int(t) < len(ix.pages):
		return ix.pages[t].doc
	case t < 0 && ix.orders != nil && int(-1-t) < len(ix.orders.pages):
		return ix.pages[ix.orders.pages[-1-t].page].doc
	}
	return -1
}
