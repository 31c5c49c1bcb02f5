package citations

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// The index of the punctuation and non_ascii_dropped levels
// (punctuation.go). A text's skeleton is its word characters (isWordChar:
// letters, digits, marks, other numbers), every other code point left out.
// Two texts that differ only in punctuation, symbols and spaces have the
// same skeleton, so a quote's skeleton looked up in the pages' skeletons
// finds every candidate, which the punctuation level then verifies
// character by character; an ASCII-only copy lacks some of the page's
// word characters, so pieces of its skeleton are looked up instead
// (asciiSeeds). Every page text and every reading order has its skeleton
// indexed, in the page's shard and in the order's shard.

// skelIndex is a set of skeletons, each ended by a form feed, with its
// suffix array.
type skelIndex struct {
	data  []byte
	sa    suffixes
	spans []jsegment // each skeleton's start in data, in order: page is a page index, or -1-k for reading order k
}

// skelTarget encodes the text a skeleton belongs to: page p is p, reading
// order k is -1-k.
func orderTarget(k int) int32 { return int32(-1 - k) }

// add appends a skeleton of target.
func (sk *skelIndex) add(form string, target int32) {
	sk.spans = append(sk.spans, jsegment{at: int32(len(sk.data)), page: target})
	sk.data = append(append(sk.data, form...), '\f')
}

// skelHit is a hit of a skeleton lookup: the target and the hit's byte
// offset in the target's skeleton.
type skelHit struct {
	target int32
	off    int
}

// hits looks pat up in the index; capped reports that it has more hits
// than maxHits, which are left out.
func (sk *skelIndex) hits(ix *Index, pat []byte) (out []skelHit, capped bool) {
	if len(sk.spans) == 0 {
		return nil, false
	}
	found := lookupSorted(&sk.sa, pat)
	for _, h := range found {
		k := sort.Search(len(sk.spans), func(i int) bool { return int(sk.spans[i].at) > h }) - 1
		if k < 0 {
			continue
		}
		ix.blocks.bytes(sk.data[sk.spans[k].at:h])
		out = append(out, skelHit{sk.spans[k].page, h - int(sk.spans[k].at)})
	}
	return out, len(found) >= maxHits && sk.sa.Count(pat, maxHits+1) > maxHits
}

// skeleton returns p's word characters as a string, and the normalized
// position of each.
func skeleton(p *ptext) (string, []int32) {
	var b strings.Builder
	b.Grow(len(p.rs))
	idx := make([]int32, 0, len(p.rs))
	for i, r := range p.rs {
		if isWordChar(r) {
			b.WriteRune(r)
			idx = append(idx, int32(i))
		}
	}
	return b.String(), idx
}

func asciiText(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
