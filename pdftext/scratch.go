package pdftext

import "github.com/citecheck/citecheck/corpus"

// layoutScratch holds the buffers layout needs for a page, kept from one
// page to the next of a document: allocating and clearing them afresh for
// every page cost more than using them.
type layoutScratch struct {
	// borrowed: the boxes layout returns are boxes itself, valid until
	// the next page, instead of a copy (extractPages).
	borrowed bool
	text     []byte
	boxes    []corpus.GlyphBox
	line     []*glyph
	dup      []bool
	prev     []int32
	next     []int32
	chain    []int32
	ride     []int
	cells    cellTable
}

// resize returns s with length n, zeroed, reusing its array when it is
// large enough.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// cellTable maps packed cell coordinates to a glyph index plus one (0 for
// none): an open-addressing table with linear probing, which overprinted
// queries four times per glyph, where a Go map spent most of its time
// hashing and growing.
type cellTable struct {
	keys  []uint64
	vals  []int32
	shift uint
}

// reset empties the table for up to n keys, at most half full.
func (t *cellTable) reset(n int) {
	bits := uint(4)
	for 1<<bits < 2*n {
		bits++
	}
	if cap(t.keys) < 1<<bits {
		t.keys = make([]uint64, 1<<bits) // a key counts only where its value is set
	}
	t.keys = t.keys[:1<<bits]
	t.vals = resize(t.vals, 1<<bits)
	t.shift = 64 - bits
}

func (t *cellTable) slot(k uint64) int { return int((k * 0x9E3779B97F4A7C15) >> t.shift) }

// get returns the value of k, 0 when it has none.
func (t *cellTable) get(k uint64) int32 {
	mask := len(t.vals) - 1
	for i := t.slot(k); ; i = (i + 1) & mask {
		if t.vals[i] == 0 || t.keys[i] == k {
			return t.vals[i]
		}
	}
}

// swap sets the value of k to v (not 0) and returns its previous value.
func (t *cellTable) swap(k uint64, v int32) int32 {
	mask := len(t.vals) - 1
	for i := t.slot(k); ; i = (i + 1) & mask {
		if t.vals[i] == 0 {
			t.keys[i], t.vals[i] = k, v
			return 0
		}
		if t.keys[i] == k {
			old := t.vals[i]
			t.vals[i] = v
			return old
		}
	}
}
